import type { Fields, TranscriptReader } from '../transcript.js';
import { collector, finished, isFields, outputText, readJsonLines, text, timeOf } from '../transcript.js';
import { read } from './payload.js';

/** The folder a chat works in, as Gemini CLI tells its model at the start. */
const WORKSPACE = /Workspace Directories:\**\n\s*- (\S[^\n]*)/;

/**
 * Gemini CLI's transcripts (`$GEMINI_CLI_HOME/.gemini/tmp/<project>/chats/session-*.jsonl`): a
 * first line naming the chat (`sessionId`, `projectHash`), then its messages, each written again
 * as it grows (`$set` lines change the chat's own fields). A `gemini` message's `toolCalls` are the
 * steps it attempted, with what each gave back once it ran (each once, however often its message
 * was written); a `user` message's text is the person's. The folder it worked in is the one it told the model at the start.
 */
export const transcript: TranscriptReader = {
  read(source) {
    const chat = collector({ read });
    let session = '';
    let cwd: string | undefined;
    const seen = new Set<string>();
    // what a call gave back: in its message, once it ran, and in the user message that hands it to the model
    const given = (at: number, time: number | undefined, id: string | undefined, response: Fields, failed: boolean) =>
      chat.result(at, time, id, outputText(response['output'] ?? response['error']), failed || 'error' in response);
    const lines = readJsonLines(
      source,
      'Gemini CLI',
      // its first line names the project, and its own `$set` lines follow
      (line) => typeof line['projectHash'] === 'string' || isFields(line['$set']),
      (line, at) => {
        if (typeof line['sessionId'] === 'string') session = line['sessionId'];
        const time = timeOf(line['timestamp']);
        if (line['type'] === 'user' || isFields(line['$set'])) {
          const messages =
            isFields(line['$set']) && Array.isArray(line['$set']['messages']) ? line['$set']['messages'] : [line];
          for (const message of messages) {
            if (message === line) for (const [id, response] of responses(line)) given(at, time, id, response, false);
            const words = isFields(message) ? said(message) : undefined;
            if (words === undefined) continue;
            const workspace = WORKSPACE.exec(words);
            if (workspace !== null) cwd ??= workspace[1]?.trim();
            else if (message === line)
              chat.prompt(at, time, words.replace(/^<hook_context>[\s\S]*?<\/hook_context>\s*/, ''));
          }
          return;
        }
        if (line['type'] !== 'gemini' || !Array.isArray(line['toolCalls'])) return;
        for (const call of line['toolCalls']) {
          if (!isFields(call)) continue;
          const id = text(call['id']);
          const when = timeOf(call['timestamp']) ?? time;
          if (id === undefined || !seen.has(id)) chat.step(at, when, payloadOf(call, session, cwd), id, 'BeforeTool');
          if (id !== undefined) seen.add(id);
          // what it gave back, once the message is written with it
          for (const [, response] of responses({ content: call['result'] }))
            given(at, when, id, response, call['status'] === 'error');
        }
      },
    );
    return finished(chat, lines);
  },
};

/** The `functionResponse` parts of a message's content: each call's id and its response. */
function responses(message: Fields): [string | undefined, Fields][] {
  const content = message['content'];
  if (!Array.isArray(content)) return [];
  return content.flatMap((part) => {
    const response = isFields(part) ? part['functionResponse'] : undefined;
    if (!isFields(response) || !isFields(response['response'])) return [];
    return [[text(response['id']), response['response']] as [string | undefined, Fields]];
  });
}

/** A user message's text, when it has any. */
function said(message: Fields): string | undefined {
  const content = message['content'];
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return undefined;
  const words = content.flatMap((part) => (isFields(part) && typeof part['text'] === 'string' ? [part['text']] : []));
  return words.length > 0 ? words.join('\n') : undefined;
}

function payloadOf(call: Fields, session: string, cwd: string | undefined): Fields {
  return {
    hook_event_name: 'BeforeTool',
    session_id: session,
    ...(cwd === undefined ? {} : { cwd }),
    tool_name: call['name'],
    tool_input: call['args'] ?? {},
  };
}
