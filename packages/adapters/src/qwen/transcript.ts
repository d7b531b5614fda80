import type { TranscriptReader } from '../transcript.js';
import { collector, finished, isFields, outputText, readJsonLines, text, timeOf } from '../transcript.js';
import { read } from './payload.js';

/**
 * Qwen Code's transcripts (`$QWEN_HOME/projects/<project>/chats/<chat>.jsonl`): one JSON object a
 * line; an `assistant` line's `functionCall` parts are the steps it attempted, a `tool_result`
 * line's `functionResponse` parts what they gave back, a `user` line's text parts the person's
 * message.
 */
export const transcript: TranscriptReader = {
  read(source) {
    const chat = collector({ read });
    const lines = readJsonLines(
      source,
      'Qwen Code',
      (line) => typeof line['type'] === 'string' && typeof line['sessionId'] === 'string' && 'uuid' in line,
      (line, at) => {
        const message = line['message'];
        if (!isFields(message) || !Array.isArray(message['parts'])) return;
        const time = timeOf(line['timestamp']);
        const cwd = text(line['cwd']);
        if (line['type'] === 'user') {
          const words = message['parts'].flatMap((part) =>
            isFields(part) && typeof part['text'] === 'string' ? [part['text']] : [],
          );
          if (words.length > 0) chat.prompt(at, time, words.join('\n'));
          return;
        }
        if (line['type'] === 'tool_result') {
          for (const part of message['parts']) {
            const response = isFields(part) ? part['functionResponse'] : undefined;
            if (!isFields(response)) continue;
            const answer = isFields(response['response']) ? response['response'] : {};
            chat.result(
              at,
              time,
              text(response['id']),
              outputText(answer['output'] ?? answer['error']),
              'error' in answer,
            );
          }
          return;
        }
        if (line['type'] !== 'assistant') return;
        for (const part of message['parts']) {
          const call = isFields(part) ? part['functionCall'] : undefined;
          if (!isFields(call)) continue;
          chat.step(
            at,
            time,
            {
              hook_event_name: 'PreToolUse',
              session_id: text(line['sessionId']) ?? '',
              ...(cwd === undefined ? {} : { cwd }),
              tool_name: call['name'],
              tool_input: call['args'] ?? {},
              ...(typeof call['id'] === 'string' ? { tool_use_id: call['id'] } : {}),
            },
            text(call['id']),
          );
        }
      },
    );
    return finished(chat, lines);
  },
};
