/**
 * The plugin file guard writes for OpenCode (and Kilo Code CLI, its fork): OpenCode has no hook
 * command, only JavaScript plugins it loads from its `plugins` folders. The file is guard's alone
 * (setup creates it, uninstall removes it); all it does is run guard's hook command, the same
 * pinned command the other agents run, with the step as JSON on stdin, and throw guard's reason
 * when the answer is a block (a throw is how OpenCode denies a tool).
 *
 * One file satisfies both plugin contracts: the default export `{ id, server, setup }` is read by
 * the v1 loader (Bun; it takes `server`, and refuses a default export with `id` but no `server`,
 * as 1.18.33 does for `{ id, setup }` alone) and by the v2 loader (Node; `{ id, setup }`, extra keys
 * ignored). v2 hands `setup` a context that holds `tool.hook` in later versions (not in 1.18.33):
 * where it does, guard's check hangs there too, and a step both hooks see is checked once.
 *
 * The plugin answers for guard where guard's command cannot: a command that does not start, dies,
 * prints an answer that is not guard's, or does not answer within the timeout blocks the step with
 * a sentence saying so (OpenCode has no ask, and an unchecked step is not let through).
 */

/** The events the plugin hands guard, as it names them in `hook_event_name`. */
export const STEP_EVENT = 'tool.execute.before';
export const PROMPT_EVENT = 'chat.message';

// The lines that hold the commands (a step's, a message's), and the one that holds the timeout:
// read back by commandIn().
const COMMAND_LINE = /^const COMMAND = ("(?:[^"\\\n]|\\.)*");$/m;
const MESSAGE_LINE = /^const MESSAGE_COMMAND = ("(?:[^"\\\n]|\\.)*");$/m;
const TIMEOUT_LINE = /^const TIMEOUT_MS = (\d+);$/m;
/** The first line of every file guard writes: how guard knows the file is its own. */
export const PLUGIN_MARK = '// guard: written by `guard setup`';

/**
 * The plugin's text, running `command` for a step and `messageCommand` for a message (the same
 * command but for the answer it prints when guard's files are gone) with `timeoutMs` to answer;
 * one text per input (setup is idempotent).
 */
export function pluginText(agentName: string, command: string, timeoutMs: number, messageCommand = command): string {
  return `${PLUGIN_MARK}; removed by \`guard uninstall\`. Do not edit: guard checks it.
// ${agentName} loads it from its plugins folder and hands each tool step to guard's hook before it runs.
import { spawn } from 'node:child_process';

const COMMAND = ${JSON.stringify(command)};
const MESSAGE_COMMAND = ${JSON.stringify(messageCommand)};
const TIMEOUT_MS = ${timeoutMs};
const STEP = ${JSON.stringify(STEP_EVENT)};
const PROMPT = ${JSON.stringify(PROMPT_EVENT)};

// guard's hook: the payload on stdin; its stdout and exit code, or why there are none
function run(payload, command) {
  return new Promise((resolve) => {
    let out = '';
    let settled = false;
    const done = (answer) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(answer);
    };
    let child;
    try {
      child = spawn(command, { shell: true, stdio: ['pipe', 'pipe', 'ignore'], windowsHide: true });
    } catch (error) {
      done({ failure: 'could not be started (' + String(error && error.message) + ')' });
      return;
    }
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      done({ failure: 'did not answer within ' + TIMEOUT_MS / 1000 + ' seconds' });
    }, TIMEOUT_MS);
    child.on('error', (error) => done({ failure: 'could not be started (' + String(error && error.message) + ')' }));
    child.stdout.on('data', (chunk) => (out += chunk));
    child.on('close', (code, signal) => done({ out, code, signal }));
    child.stdin.on('error', () => {});
    child.stdin.end(JSON.stringify(payload));
  });
}

// the step's verdict: nothing when guard has no objection, else the reason it is stopped
async function check(payload) {
  const answer = await run(payload, COMMAND);
  const failed = (what) =>
    "guard: blocked, because guard's hook " + what + ', so this step was not checked. Run \`guard doctor\` in a terminal.';
  if (answer.failure) return failed(answer.failure);
  const text = answer.out.trim();
  if (answer.code === 0 && text === '') return undefined;
  let reply;
  try {
    reply = JSON.parse(text);
  } catch {
    reply = undefined;
  }
  if (reply && reply.decision === 'block' && typeof reply.reason === 'string' && reply.reason !== '') return reply.reason;
  return failed(answer.signal ? 'was stopped by ' + answer.signal : 'gave no answer guard writes (exit code ' + answer.code + ')');
}

// one check per step, whichever contract's hook asks first
const checks = new Map();
async function before(directory, worktree, tool, sessionID, callID, args) {
  const key = sessionID + '\\u0000' + callID;
  let verdict = callID ? checks.get(key) : undefined;
  if (verdict === undefined) {
    const payload = { hook_event_name: STEP, session_id: sessionID, call_id: callID, tool, args, directory, worktree };
    verdict = check(payload);
    if (callID) checks.set(key, verdict);
    if (checks.size > 1000) checks.delete(checks.keys().next().value);
  }
  const reason = await verdict;
  if (reason !== undefined) throw new Error(reason);
}

// v1 (Bun): the hooks of one project
async function server({ directory, worktree }) {
  return {
    async 'tool.execute.before'(input, output) {
      await before(directory, worktree, input.tool, input.sessionID, input.callID, output.args);
    },
    async 'chat.message'(input, output) {
      const prompt = (output.parts || []).filter((part) => part.type === 'text' && !part.synthetic).map((part) => part.text).join('\\n');
      await run({ hook_event_name: PROMPT, session_id: input.sessionID, prompt, directory, worktree }, MESSAGE_COMMAND);
    },
  };
}

// v2 (Node): tool.hook where the context has it
function setup(context) {
  const hook = context && context.tool && context.tool.hook;
  if (typeof hook !== 'function') return;
  const directory = context.directory || process.cwd();
  hook.call(context.tool, 'execute.before', async (event) => {
    const args = event.input !== undefined ? event.input : event.args;
    await before(directory, context.worktree || directory, event.tool || event.name, event.sessionID, event.callID, args);
  });
}

export default { id: 'guard', server, setup };
`;
}

/** guard's command for a step (or with `message`, for a message) in a plugin file of guard's; undefined for any other text. */
export function commandIn(text: string, message = false): string | undefined {
  if (!text.startsWith(PLUGIN_MARK)) return undefined;
  const literal = (message ? MESSAGE_LINE : COMMAND_LINE).exec(text)?.[1];
  if (literal === undefined) return undefined;
  try {
    const command: unknown = JSON.parse(literal);
    return typeof command === 'string' ? command : undefined;
  } catch {
    return undefined;
  }
}

/** The timeout written in a plugin file of guard's, in seconds. */
export function timeoutIn(text: string): number | undefined {
  if (commandIn(text) === undefined) return undefined;
  const ms = TIMEOUT_LINE.exec(text)?.[1];
  return ms === undefined ? undefined : Number(ms) / 1000;
}
