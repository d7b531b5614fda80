import { posix } from 'node:path';
import { commandText } from '../shape.js';
import type { Fields, TranscriptReader } from '../transcript.js';
import { collector, finished, isFields, outputText, readJsonLines, text, timeOf } from '../transcript.js';
import { read } from './payload.js';

/** Codex's shell tools in its transcripts (its hook is handed each as `Bash`). */
const SHELL_TOOLS = new Set(['exec_command', 'shell', 'shell_command', 'container.exec', 'local_shell']);

/**
 * Codex's transcripts (`$CODEX_HOME/sessions/YYYY/MM/DD/rollout-*.jsonl`): one JSON object a line.
 * `session_meta` names the chat and its folder, `turn_context` the folder of each turn; a
 * `response_item` that is a `function_call`, `custom_tool_call` or `local_shell_call` is a step it
 * attempted, made into the call its hook gets (`Bash` with the command, `apply_patch` with the
 * patch), and a `function_call_output` what one gave back; an `event_msg` of a user message (`user_message` before 0.17x, a completed `UserMessage`
 * item since) is the person's message.
 */
export const transcript: TranscriptReader = {
  read(source) {
    const chat = collector({ read });
    let session = '';
    let cwd: string | undefined;
    // `input` may name the folder the step runs in (a shell call's workdir)
    const step = (at: number, time: number | undefined, name: unknown, input: () => Fields, callId: unknown): void =>
      chat.step(
        at,
        time,
        () => {
          const { workdir, ...fields } = input();
          const folder = typeof workdir === 'string' ? workdir : cwd;
          return {
            hook_event_name: 'PreToolUse',
            session_id: session,
            ...(folder === undefined ? {} : { cwd: folder }),
            tool_name: name,
            tool_input: fields,
            ...(typeof callId === 'string' ? { tool_use_id: callId } : {}),
          };
        },
        text(callId),
      );
    const lines = readJsonLines(
      source,
      'Codex',
      (line) => typeof line['type'] === 'string' && isFields(line['payload']),
      (line, at) => {
        const payload = line['payload'];
        if (!isFields(payload)) return;
        const time = timeOf(line['timestamp']);
        if (line['type'] === 'session_meta' || line['type'] === 'turn_context') {
          session = text(payload['id']) ?? text(payload['session_id']) ?? session;
          cwd = text(payload['cwd']) ?? cwd;
          return;
        }
        if (line['type'] === 'event_msg') {
          const words = userMessage(payload);
          if (words !== undefined) chat.prompt(at, time, words);
          return;
        }
        if (line['type'] !== 'response_item') return;
        if (payload['type'] === 'function_call_output' || payload['type'] === 'custom_tool_call_output') {
          const output = outputText(isFields(payload['output']) ? payload['output']['content'] : payload['output']);
          chat.result(at, time, text(payload['call_id']), output);
        } else if (payload['type'] === 'custom_tool_call') {
          step(at, time, payload['name'], () => ({ command: payload['input'] }), payload['call_id']);
        } else if (payload['type'] === 'local_shell_call') {
          const action = isFields(payload['action']) ? payload['action'] : {};
          step(at, time, 'Bash', () => shellInput(action, 'command', cwd), payload['call_id']);
        } else if (payload['type'] === 'function_call') {
          const args = argumentsOf(payload['arguments']);
          const name = text(payload['name']);
          if (name !== undefined && SHELL_TOOLS.has(name)) {
            step(at, time, 'Bash', () => shellInput(args, 'cmd' in args ? 'cmd' : 'command', cwd), payload['call_id']);
          } else if (name === 'apply_patch') {
            step(at, time, 'apply_patch', () => ({ command: args['input'] ?? args['patch'] }), payload['call_id']);
          } else {
            step(at, time, payload['name'], () => args, payload['call_id']);
          }
        }
      },
    );
    return finished(chat, lines);
  },
};

/** The person's message an event carries, if it is one. */
function userMessage(payload: Fields): string | undefined {
  if (payload['type'] === 'user_message') return text(payload['message']);
  const item = payload['item'];
  if (payload['type'] !== 'item_completed' || !isFields(item) || item['type'] !== 'UserMessage') return undefined;
  if (!Array.isArray(item['content'])) return undefined;
  const words = item['content'].flatMap((part) =>
    isFields(part) && typeof part['text'] === 'string' ? [part['text']] : [],
  );
  return words.length > 0 ? words.join('\n') : undefined;
}

/** A function call's arguments: a JSON text of an object (anything else reads as no arguments). */
function argumentsOf(value: unknown): Fields {
  if (isFields(value)) return value;
  if (typeof value !== 'string') return {};
  try {
    const parsed: unknown = JSON.parse(value);
    return isFields(parsed) ? parsed : {};
  } catch {
    return {};
  }
}

/** A shell call as Codex's hook gets it: the command as one line, and the folder it runs in when it names one. */
function shellInput(args: Fields, field: string, cwd: string | undefined): Fields {
  const workdir = text(args['workdir']);
  const command = commandText(args[field], 'the call', field);
  if (workdir === undefined) return { command };
  return { command, workdir: posix.isAbsolute(workdir) || cwd === undefined ? workdir : posix.join(cwd, workdir) };
}
