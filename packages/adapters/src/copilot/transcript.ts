import type { TranscriptReader } from '../transcript.js';
import { collector, finished, isFields, outputText, readJsonLines, text, timeOf } from '../transcript.js';
import { read } from './payload.js';

/**
 * Copilot CLI's transcripts (`$COPILOT_HOME/session-state/<chat>/events.jsonl`): one event a line.
 * `session.start` names the chat and its folder; an `assistant.message`'s `toolRequests` are the
 * steps it attempted, made into the call its hook gets (`preToolUse`), and a
 * `tool.execution_complete` what one gave back; a `user.message` is the person's.
 */
export const transcript: TranscriptReader = {
  read(source) {
    const chat = collector({ read });
    let session = '';
    let cwd: string | undefined;
    const lines = readJsonLines(
      source,
      'Copilot CLI',
      (line) => typeof line['type'] === 'string' && isFields(line['data']) && 'id' in line,
      (line, at) => {
        const data = line['data'];
        if (!isFields(data)) return;
        const time = timeOf(line['timestamp']);
        if (line['type'] === 'session.start' || line['type'] === 'session.resume') {
          session = text(data['sessionId']) ?? session;
          const context = data['context'];
          if (isFields(context)) cwd = text(context['cwd']) ?? cwd;
        } else if (line['type'] === 'user.message') {
          if (typeof data['content'] === 'string') chat.prompt(at, time, data['content']);
        } else if (line['type'] === 'tool.execution_complete') {
          const result = isFields(data['result']) ? data['result']['content'] : data['error'];
          chat.result(at, time, text(data['toolCallId']), outputText(result), data['success'] === false);
        } else if (line['type'] === 'assistant.message' && Array.isArray(data['toolRequests'])) {
          for (const request of data['toolRequests']) {
            if (!isFields(request)) continue;
            chat.step(
              at,
              time,
              {
                sessionId: session,
                ...(cwd === undefined ? {} : { cwd }),
                toolName: request['name'],
                toolArgs: request['arguments'] ?? {},
              },
              text(request['toolCallId']),
              'preToolUse',
            );
          }
        }
      },
    );
    return finished(chat, lines);
  },
};
