import type { TranscriptReader } from '../transcript.js';
import { collector, finished, isFields, outputText, readJsonLines, text, timeOf } from '../transcript.js';
import { read } from './payload.js';

/**
 * Claude Code's transcripts (`<config folder>/projects/<project>/<chat>.jsonl`): one JSON object a
 * line; an `assistant` line's `tool_use` blocks are the steps it attempted, a `user` line whose
 * content is text is the person's message, and one whose content is `tool_result` blocks holds what
 * those steps gave back.
 */
export const transcript: TranscriptReader = {
  read(source) {
    const chat = collector({ read });
    const lines = readJsonLines(
      source,
      'Claude Code',
      (line) =>
        typeof line['type'] === 'string' && (typeof line['sessionId'] === 'string' || line['type'] === 'summary'),
      (line, at) => {
        const message = line['message'];
        if (!isFields(message)) return;
        const time = timeOf(line['timestamp']);
        const session = text(line['sessionId']) ?? '';
        const cwd = text(line['cwd']);
        if (line['type'] === 'user') {
          if (typeof message['content'] === 'string') {
            if (line['isMeta'] !== true) chat.prompt(at, time, message['content']);
          } else if (Array.isArray(message['content'])) {
            for (const block of message['content'])
              if (isFields(block) && block['type'] === 'tool_result')
                chat.result(
                  at,
                  time,
                  text(block['tool_use_id']),
                  outputText(block['content']),
                  block['is_error'] === true,
                );
          }
          return;
        }
        if (line['type'] !== 'assistant' || !Array.isArray(message['content'])) return;
        for (const block of message['content']) {
          if (!isFields(block) || block['type'] !== 'tool_use') continue;
          chat.step(
            at,
            time,
            {
              hook_event_name: 'PreToolUse',
              session_id: session,
              ...(cwd === undefined ? {} : { cwd }),
              tool_name: block['name'],
              tool_input: block['input'],
              ...(typeof block['id'] === 'string' ? { tool_use_id: block['id'] } : {}),
            },
            text(block['id']),
          );
        }
      },
    );
    return finished(chat, lines);
  },
};
