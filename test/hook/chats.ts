import { execFileSync, spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { agentId } from '../../packages/adapters/src/agents.js';
import type { AgentId } from '../../packages/adapters/src/index.js';
import { heard, readsExitCode } from '../../packages/cli/test/agent-answers.js';
import type { Said } from '../../packages/cli/test/agent-answers.js';
import { fixture } from '../../packages/cli/test/hook-cases.js';
import type { LogEntry } from '../../packages/cli/src/state/decision-log.js';
import type { ChatState } from '../../packages/cli/src/state/chats.js';
import { loadChat } from '../../packages/cli/src/state/chats.js';
import type { BinResult } from './bin.js';
import { BIN, runHookProcess } from './bin.js';

/**
 * Whole chats driven through `guard hook <agent>` as a process: one temp HOME, guard folder and
 * project per scenario, and per agent the payloads it really sends, built from the recorded
 * fixtures with only the chat id, folder, command and result changed.
 */

type Json = Record<string, unknown>;

/** One scenario's machine: a home, guard's folder and a project folder, all fresh. */
export interface World {
  readonly root: string;
  readonly home: string;
  readonly guardHome: string;
  readonly project: string;
  readonly env: Readonly<Record<string, string>>;
  /** The hook script the world's calls run (default: the CLI's bin, in-process). */
  readonly entry?: string;
}

/**
 * A fresh world; its project holds a few files an agent might delete. `deadline: 'guard'` keeps
 * guard's own deadline; `entry`: another hook script (hook-entry.cjs, which hands calls to the
 * resident checker).
 */
export function makeWorld(name: string, deadline: number | 'guard' = 20_000, entry?: string): World {
  const root = mkdtempSync(join(tmpdir(), `guard-${name}-`));
  const home = join(root, 'home');
  const project = join(root, 'project');
  mkdirSync(join(project, 'src'), { recursive: true });
  mkdirSync(home);
  for (const [path, text] of Object.entries(PROJECT_FILES)) writeText(join(project, path), text);
  const guardHome = join(root, 'guard');
  // a busy 2-core machine can take a while to start Node: the deadline has its own tests, these
  // are about what the chat remembers
  const env = {
    HOME: home,
    GUARD_HOME: guardHome,
    ...(deadline === 'guard' ? {} : { GUARD_DEADLINE_MS: String(deadline) }),
  };
  return { root, home, guardHome, project, env, ...(entry === undefined ? {} : { entry }) };
}

const PROJECT_FILES: Readonly<Record<string, string>> = {
  'README.md': '# demo\n',
  'package.json': '{ "name": "demo", "version": "1.0.0", "scripts": { "test": "node --test" } }\n',
  'src/index.ts': 'export const answer = 42;\n',
};

export function removeWorld(world: World): void {
  rmSync(world.root, { recursive: true, force: true });
}

/** Writes a file, making its folder: what an agent's step would have left on disk. */
export function writeText(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

/** A hook's answer: exit code, raw output, and the output parsed when it is JSON. */
export interface Answer extends BinResult {
  readonly json: Json | undefined;
}

/**
 * The answer, its stdout parsed strictly unless it is empty or the agent reads the exit code (its
 * answer is plain text): every other agent's non-empty answer must be JSON.
 */
export function answerOf(result: BinResult, args: readonly string[]): Answer {
  const text = result.stdout.trim();
  const agent = agentId(args[0] ?? '');
  const plain = agent !== undefined && readsExitCode(agent);
  return { ...result, json: text === '' || plain ? undefined : (JSON.parse(text) as Json) };
}

/** Runs a program with stdin and only the given environment (plus PATH). */
export function runProcess(
  file: string,
  args: readonly string[],
  stdin: string,
  env: Readonly<Record<string, string>>,
): Promise<BinResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, {
      env: { PATH: process.env['PATH'] ?? '', ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.on('error', () => undefined);
    child.stdin.end(stdin);
  });
}

const quote = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`;

/**
 * Runs `guard hook …` with one payload. With `parent`, the hook runs under `sh -c` whose own
 * command line ends in those words, so guard reads them as the agent's command line (how a
 * headless run such as `codex exec` is told apart); `; exit` keeps sh from replacing itself.
 */
export async function hook(
  world: World,
  args: readonly string[],
  payload: Json,
  parent?: readonly string[],
): Promise<Answer> {
  const stdin = JSON.stringify(payload);
  if (parent === undefined) return answerOf(await runHookProcess(args, stdin, world.env, world.entry), args);
  const script = `${[process.execPath, world.entry ?? BIN, 'hook', ...args].map(quote).join(' ')}; exit $?`;
  return answerOf(await runProcess('sh', ['-c', script, ...parent], stdin, world.env), args);
}

/** Runs another guard command (`report --json`, `log --json`) in the world. */
export async function guard(world: World, args: readonly string[]): Promise<BinResult> {
  return runProcess(process.execPath, [BIN, ...args], '', world.env);
}

/**
 * The decisions a person or agent sees, whatever the agent's words for them (agent-answers.ts: as
 * the agent's own adapter reads them); `failure`: no answer of guard's the agent can read.
 */
export type Seen = Said;

/** One agent's side of a chat: the payloads it sends, and how to read guard's replies to them. */
export interface Chat extends Steps {
  readonly agent: AgentId;
  readonly world: World;
  readonly id: string;
  /** The agent's command line, when it runs the hook (undefined: an interactive session). */
  readonly parent: readonly string[] | undefined;
  /** The exit code of a reply that stops a step, where the agent reads that (Windsurf: 2); else 0. */
  readonly stopCode?: number;
  /** What the reply to a step means. */
  seen(answer: Answer): Seen;
  /** The text the agent (or person) is given with a reply. */
  text(answer: Answer): string;
}

/** What an agent sends in a chat. */
interface Steps {
  /** The chat starts (undefined where the agent has no such event). */
  start?(): Promise<Answer>;
  /** The person sends a message (undefined where guard never sees messages). */
  say?(text: string): Promise<Answer>;
  /** The agent is about to run a shell command. */
  shell(command: string): Promise<Answer>;
  /** A shell command ran and printed `output` (undefined where results are not shown). */
  ran?(command: string, output: string, exitCode?: number): Promise<Answer>;
  /** A web page or MCP fetch came back with `output`. */
  fetched?(url: string, output: string): Promise<Answer>;
  /** The agent is about to call an MCP tool. */
  mcp(server: string, tool: string, args: Json): Promise<Answer>;
  /** How the person's yes reaches guard: a message in the chat, or the asked step's own result. */
  approve?(command: string): Promise<Answer>;
}

/** An agent that shows guard everything: start, messages, results. */
export type FullChat = Chat & Required<Pick<Chat, 'start' | 'say' | 'ran' | 'fetched' | 'approve'>>;

/** Sends one payload of the chat (`event`: as `--event NAME`, where the agent's payload does not name it). */
type Send = (payload: Json, event?: string) => Promise<Answer>;

/** How one agent takes part in a chat: what names the chat in its payloads, and the payloads it sends. */
interface ChatSpec<S extends Steps> {
  /** The fields of every payload that name the chat and its folder. */
  fields(world: World, id: string): Json;
  /** The chat's id as guard keeps it, where the payloads carry none (Kiro CLI: its folder). */
  idOf?(world: World): string;
  steps(send: Send, world: World): S;
}

/** A chat of `agent`'s: its payloads from `spec`, guard's replies read as the agent reads them. */
function chatOf<S extends Steps>(agent: AgentId, spec: ChatSpec<S>) {
  return (world: World, id: string, parent?: readonly string[]): Chat & S => {
    const send: Send = (payload, event) =>
      hook(
        world,
        event === undefined ? [agent] : [agent, '--event', event],
        { ...payload, ...spec.fields(world, id) },
        parent,
      );
    return {
      agent,
      world,
      id: spec.idOf?.(world) ?? id,
      parent,
      ...(readsExitCode(agent) ? { stopCode: 2 } : {}),
      seen: (answer) => heard(agent, answer).said,
      text: (answer) => heard(agent, answer).text,
      ...spec.steps(send, world),
    };
  };
}

/** Codex: block-then-chat; results, messages and a start event. */
const CODEX: ChatSpec<Required<Steps>> = {
  fields: (world, id) => ({ session_id: id, cwd: world.project }),
  steps(send) {
    let call = 0;
    const post = (toolName: string, input: Json, output: string): Promise<Answer> =>
      send({
        ...fixture('codex/post-tool-use-bash'),
        tool_name: toolName,
        tool_input: input,
        tool_response: output,
        tool_use_id: `call_${call}`,
      });
    const say = (prompt: string): Promise<Answer> => send({ ...fixture('codex/user-prompt-submit'), prompt });
    return {
      start: () => send(fixture('codex/session-start')),
      say,
      shell: (command) =>
        send({
          ...fixture('codex/synth-pre-tool-use-interactive'),
          tool_input: { command },
          tool_use_id: `call_${++call}`,
        }),
      // Codex sends only the command's output, never its exit code: a failure cannot be told apart
      ran: (command, output) => post('Bash', { command }, output),
      fetched: (url, output) => post('mcp__fetch__fetch', { url }, output),
      mcp: (server, tool, args) =>
        send({
          ...fixture('codex/synth-pre-tool-use-mcp'),
          tool_name: `mcp__${server}__${tool}`,
          tool_input: args,
          tool_use_id: `call_${++call}`,
        }),
      approve: () => say('yes'),
    };
  },
};
export const codexChat = chatOf('codex', CODEX);

/** Cursor: native ask on beforeShellExecution / beforeMCPExecution; results, messages, a start event. */
const CURSOR: ChatSpec<Required<Steps>> = {
  fields: (world, id) => ({ conversation_id: id, session_id: id, workspace_roots: [world.project] }),
  steps(send, world) {
    const post = (toolName: string, input: Json, output: Json): Promise<Answer> =>
      send({
        ...fixture('cursor/synth-post-tool-use-shell'),
        tool_name: toolName,
        tool_input: input,
        tool_output: JSON.stringify(output),
        cwd: world.project,
      });
    const ran = (command: string, output: string, exitCode = 0): Promise<Answer> =>
      post('Shell', { command, cwd: world.project, timeout: 30000 }, { output, exitCode });
    return {
      start: () => send(fixture('cursor/session-start')),
      say: (prompt) => send({ ...fixture('cursor/synth-before-submit-prompt'), prompt }),
      shell: (command) => send({ ...fixture('cursor/before-shell-execution'), command }),
      ran,
      // a page read with curl: a network command's output comes from outside
      fetched: (url, output) => ran(`curl -s ${url}`, output),
      mcp: (server, tool, args) =>
        send({
          ...fixture('cursor/before-mcp-execution'),
          mcp_server_name: server,
          command: server,
          tool_name: tool,
          tool_input: JSON.stringify(args),
        }),
      approve: (command) => ran(command, ''),
    };
  },
};

/** Copilot: native ask on preToolUse; results, messages, a start event; `--event NAME` on every call. */
const COPILOT: ChatSpec<Required<Steps>> = {
  fields: (world, id) => ({ sessionId: id, cwd: world.project }),
  steps(sendAs) {
    // Copilot stamps each call with its time (one call's hooks share it: guard decides a call once)
    let time = Date.now();
    const send = (event: string, payload: Json): Promise<Answer> => sendAs({ ...payload, timestamp: ++time }, event);
    const post = (toolName: string, toolArgs: Json, text: string): Promise<Answer> =>
      send('postToolUse', {
        ...fixture('copilot/post-tool-use-bash'),
        toolName,
        toolArgs,
        toolResult: { resultType: 'success', textResultForLlm: text },
      });
    const ran = (command: string, output: string, exitCode = 0): Promise<Answer> =>
      post(
        'bash',
        { command, description: 'Run it', mode: 'sync', initial_wait: 10 },
        `${output}\n<shellId: 0 completed with exit code ${exitCode}>`,
      );
    return {
      start: () => send('sessionStart', fixture('copilot/session-start')),
      say: (prompt) => send('userPromptSubmitted', { ...fixture('copilot/user-prompt-submitted'), prompt }),
      shell: (command) =>
        send('preToolUse', {
          ...fixture('copilot/pre-tool-use-bash'),
          toolArgs: { command, description: 'Run it', mode: 'sync', initial_wait: 10 },
        }),
      ran,
      fetched: (url, output) => post('web_fetch', { url }, output),
      mcp: (server, tool, args) =>
        send('preToolUse', {
          ...fixture('copilot/synth-pre-tool-use-mcp'),
          toolName: `${server}-${tool}`,
          toolArgs: args,
        }),
      approve: (command) => ran(command, ''),
    };
  },
};
export const copilotChat = chatOf('copilot', COPILOT);

/** Antigravity: PreToolUse only (no results, no messages, no start event); ask is force_ask. */
const ANTIGRAVITY: ChatSpec<Steps> = {
  fields: (world, id) => ({ conversationId: id, workspacePaths: [world.project] }),
  steps: (send, world) => ({
    shell: (command) =>
      send(
        {
          ...fixture('antigravity/pre-tool-use-run-command'),
          toolCall: { name: 'run_command', args: { CommandLine: command, Cwd: world.project } },
        },
        'PreToolUse',
      ),
    mcp: (server, tool, args) =>
      send(
        {
          ...fixture('antigravity/synth-pre-tool-use-call-mcp-tool'),
          toolCall: {
            name: 'call_mcp_tool',
            args: { ServerName: server, ToolName: tool, Arguments: JSON.stringify(args) },
          },
        },
        'PreToolUse',
      ),
  }),
};

/**
 * Windsurf (documented payloads only): exit 2 blocks, an ask is a block that asks in the chat, the
 * yes comes on the next pre_user_prompt; MCP results, no start event.
 */
const WINDSURF: ChatSpec<Steps> = {
  fields: (_world, id) => ({ trajectory_id: id }),
  steps(send, world) {
    const say = (prompt: string): Promise<Answer> =>
      send({ ...fixture('windsurf/doc-pre-user-prompt'), tool_info: { user_prompt: prompt } });
    return {
      say,
      shell: (command) =>
        send({ ...fixture('windsurf/doc-pre-run-command'), tool_info: { command_line: command, cwd: world.project } }),
      mcp: (server, tool, args) =>
        send({
          ...fixture('windsurf/doc-pre-mcp-tool-use'),
          tool_info: { mcp_server_name: server, mcp_tool_name: tool, mcp_tool_arguments: args },
        }),
      approve: () => say('yes'),
    };
  },
};

/**
 * Kiro CLI (documented payloads, tool inputs of the Amazon Q CLI lineage): exit 2 blocks with the
 * reason on stderr, an ask is a block that asks in the chat, the yes comes on the next
 * userPromptSubmit; results, messages and a start event (agentSpawn, whose stdout reaches the model).
 * Its payloads carry no chat id: the chat is its folder (each chat here has its own world), which
 * guard keeps the chat under.
 */
const KIRO: ChatSpec<Required<Steps>> = {
  fields: (world) => ({ cwd: world.project }),
  idOf: (world) => world.project,
  steps(send) {
    const post = (toolName: string, input: Json, output: string, success: boolean): Promise<Answer> =>
      send({
        ...fixture('kiro/doc-post-tool-use'),
        tool_name: toolName,
        tool_input: input,
        tool_response: { success, result: [output] },
      });
    const say = (prompt: string): Promise<Answer> => send({ ...fixture('kiro/doc-user-prompt-submit'), prompt });
    return {
      start: () => send(fixture('kiro/doc-agent-spawn')),
      say,
      shell: (command) =>
        send({ ...fixture('kiro/lineage-pre-tool-use-execute-bash'), tool_input: { command, summary: 'Run it' } }),
      ran: (command, output, exitCode) => post('execute_bash', { command }, output, exitCode !== 1),
      fetched: (url, output) => post('web_fetch', { url, mode: 'full' }, output, true),
      mcp: (server, tool, args) =>
        send({ ...fixture('kiro/doc-pre-tool-use-mcp'), tool_name: `@${server}/${tool}`, tool_input: args }),
      approve: () => say('yes'),
    };
  },
};

/** Claude Code: native ask on PreToolUse; results (failures on their own event), messages, a start event. */
const CLAUDE: ChatSpec<Required<Steps>> = {
  fields: (world, id) => ({ session_id: id, cwd: world.project }),
  steps(send) {
    let call = 0;
    const post = (toolName: string, input: Json, response: unknown): Promise<Answer> =>
      send({
        ...fixture('claude-code/post-tool-use-bash'),
        tool_name: toolName,
        tool_input: input,
        tool_response: response,
        tool_use_id: `toolu_${call}`,
      });
    // a command that exits non-zero comes back on PostToolUseFailure, its exit code first
    const ran = (command: string, output: string, exitCode = 0): Promise<Answer> =>
      exitCode === 0
        ? post(
            'Bash',
            { command, description: 'Run it' },
            { stdout: output, stderr: '', interrupted: false, isImage: false, noOutputExpected: false },
          )
        : send({
            ...fixture('claude-code/post-tool-use-failure-bash'),
            tool_input: { command, description: 'Run it' },
            error: `Exit code ${exitCode}\n${output}`,
            tool_use_id: `toolu_${call}`,
          });
    return {
      start: () => send(fixture('claude-code/session-start')),
      say: (prompt) => send({ ...fixture('claude-code/user-prompt-submit'), prompt }),
      shell: (command) =>
        send({
          ...fixture('claude-code/pre-tool-use-bash'),
          tool_input: { command, description: 'Run it' },
          tool_use_id: `toolu_${++call}`,
        }),
      ran,
      fetched: (url, output) =>
        post(
          'WebFetch',
          { url, prompt: 'Summarise the page' },
          { bytes: output.length, code: 200, codeText: 'OK', result: output, durationMs: 5, url },
        ),
      mcp: (server, tool, args) =>
        send({
          ...fixture('claude-code/pre-tool-use-mcp'),
          tool_name: `mcp__${server}__${tool}`,
          tool_input: args,
          mcp_server: { name: server, source: 'user' },
          tool_use_id: `toolu_${++call}`,
        }),
      // the asked step ran: the person said yes in Claude Code's own prompt
      approve: (command) => ran(command, ''),
    };
  },
};

/** Gemini CLI: block-then-chat (its own ask ends a headless run); results, messages (BeforeAgent), a start event. */
const GEMINI: ChatSpec<Required<Steps>> = {
  fields: (world, id) => ({ session_id: id, cwd: world.project }),
  steps(send) {
    const post = (toolName: string, input: Json, llmContent: string): Promise<Answer> =>
      send({
        ...fixture('gemini/after-tool-shell'),
        tool_name: toolName,
        tool_input: input,
        tool_response: { llmContent, returnDisplay: '' },
      });
    const say = (prompt: string): Promise<Answer> => send({ ...fixture('gemini/before-agent'), prompt });
    return {
      start: () => send(fixture('gemini/session-start')),
      say,
      shell: (command) =>
        send({ ...fixture('gemini/before-tool-shell'), tool_input: { command, description: 'Run it' } }),
      // the exit code follows the output when it is not 0, as Gemini CLI writes it
      ran: (command, output, exitCode = 0) =>
        post(
          'run_shell_command',
          { command, description: 'Run it' },
          `<untrusted_context>\nOutput: ${output}\n${exitCode === 0 ? '' : `Exit Code: ${exitCode}\n`}Process Group PGID: 4242\n</untrusted_context>`,
        ),
      fetched: (url, output) => post('web_fetch', { prompt: `Summarise ${url}` }, output),
      mcp: (server, tool, args) =>
        send({
          ...fixture('gemini/before-tool-mcp'),
          tool_name: `mcp_${server}_${tool}`,
          tool_input: args,
          mcp_context: { server_name: server, tool_name: tool, command: '/home/dev/bin/mcp', args: [] },
        }),
      approve: () => say('yes'),
    };
  },
};

/**
 * OpenCode (and Kilo Code CLI, its fork), through guard's plugin: block-then-chat; messages
 * (chat.message), no results, no start event (the first step runs the chat-start scan). MCP tools
 * are named `<server>_<tool>`.
 */
const OPENCODE: ChatSpec<Steps> = {
  fields: (world, id) => ({ session_id: id, directory: world.project, worktree: world.project }),
  steps(send) {
    let call = 0;
    const step = (tool: string, args: Json): Promise<Answer> =>
      send({ ...fixture('opencode/tool-execute-before-bash'), tool, args, call_id: `call_${++call}` });
    const say = (prompt: string): Promise<Answer> => send({ ...fixture('opencode/chat-message'), prompt });
    return {
      say,
      shell: (command) => step('bash', { command, description: 'Run it' }),
      mcp: (server, tool, args) => step(`${server}_${tool}`, args),
      approve: () => say('yes'),
    };
  },
};

/**
 * Qwen Code: Claude Code's dialect (its own confirmation for an ask), Gemini CLI's tool names and
 * results; a non-zero exit comes back on PostToolUseFailure, Qwen Code's own text in `error`.
 */
const QWEN: ChatSpec<Required<Steps>> = {
  fields: (world, id) => ({ session_id: id, cwd: world.project }),
  steps(send) {
    let call = 0;
    const post = (toolName: string, input: Json, llmContent: string): Promise<Answer> =>
      send({
        ...fixture('qwen/post-tool-use-shell'),
        tool_name: toolName,
        tool_input: input,
        tool_response: { llmContent, returnDisplay: '' },
        tool_use_id: `toolu_${call}`,
      });
    const shellText = (command: string, output: string, exitCode: number): string =>
      `Command: ${command}\nDirectory: (root)\nOutput: ${output}\nError: (none)\nExit Code: ${exitCode}\nSignal: (none)\nProcess Group PGID: (none)`;
    const ran = (command: string, output: string, exitCode = 0): Promise<Answer> =>
      exitCode === 0
        ? post('run_shell_command', { command, description: 'Run it' }, shellText(command, output, 0))
        : send({
            ...fixture('qwen/post-tool-use-failure-shell'),
            tool_input: { command, description: 'Run it' },
            error: shellText(command, output, exitCode),
            tool_use_id: `toolu_${call}`,
          });
    return {
      start: () => send(fixture('qwen/session-start')),
      say: (prompt) => send({ ...fixture('qwen/user-prompt-submit'), prompt }),
      shell: (command) =>
        send({
          ...fixture('qwen/pre-tool-use-shell'),
          tool_input: { command, description: 'Run it' },
          tool_use_id: `toolu_${++call}`,
        }),
      ran,
      fetched: (url, output) => post('web_fetch', { url, prompt: 'Summarise the page' }, output),
      mcp: (server, tool, args) =>
        send({
          ...fixture('qwen/synth-pre-tool-use-mcp'),
          tool_name: `mcp__${server}__${tool}`,
          tool_input: args,
          tool_use_id: `toolu_${++call}`,
        }),
      // the asked step ran: the person said yes in Qwen Code's own confirmation
      approve: (command) => ran(command, ''),
    };
  },
};

/**
 * Factory Droid: Claude Code's dialect over its own tools (`Execute`), block-then-chat (it settles
 * its own ask by autonomy); results, messages and a start event. A command's result ends with its
 * exit code; the one failing command recorded (0.215.0) came with no PostToolUse at all, so a failed
 * result here is the text Droid gave the model.
 */
const DROID: ChatSpec<Required<Steps>> = {
  fields: (world, id) => ({ session_id: id, cwd: world.project }),
  steps(send) {
    const input = (command: string): Json => ({
      summary: 'Run the command now',
      command,
      riskLevelReason: 'It runs one command.',
      riskLevel: 'low',
    });
    const post = (toolName: string, toolInput: Json, output: string): Promise<Answer> =>
      send({
        ...fixture('droid/post-tool-use-shell'),
        tool_name: toolName,
        tool_input: toolInput,
        tool_response: output,
      });
    const say = (prompt: string): Promise<Answer> => send({ ...fixture('droid/synth-user-prompt-submit'), prompt });
    return {
      start: () => send(fixture('droid/session-start')),
      say,
      shell: (command) => send({ ...fixture('droid/pre-tool-use-shell'), tool_input: input(command) }),
      ran: (command, output, exitCode = 0) =>
        post(
          'Execute',
          input(command),
          exitCode === 0
            ? `${output}\n\n[Process exited with code 0]`
            : `Error: Command failed (exit code: ${exitCode})\n${output}\n\n[Process exited with code ${exitCode}]`,
        ),
      fetched: (url, output) => post('FetchUrl', { url }, output),
      mcp: (server, tool, args) =>
        send({ ...fixture('droid/synth-pre-tool-use-mcp'), tool_name: `mcp__${server}__${tool}`, tool_input: args }),
      approve: () => say('yes'),
    };
  },
};

/**
 * Cline: guard's hook file on PreToolUse alone (no start event, no messages, no results). A blocked
 * shell step has its commands replaced by one that prints the reason; any other step is cancelled.
 * No ask reaches a person: an asked step is stopped with "no one can approve this step here".
 */
const CLINE: ChatSpec<Steps> = {
  fields: (world, id) => ({
    taskId: id,
    workspaceRoots: [world.project],
    workspaceInfo: { rootPath: world.project, hint: 'project' },
  }),
  steps(send) {
    let call = 0;
    const step = (name: string, input: Json): Promise<Answer> =>
      send({ ...fixture('cline/pre-tool-use-run-commands'), tool_call: { id: `call_${++call}`, name, input } });
    return {
      shell: (command) => step('run_commands', { commands: [command] }),
      mcp: (server, tool, args) => step(`${server}__${tool}`, args),
    };
  },
};

/**
 * Crush (payloads synthesised from its documented envelope): guard's entry on PreToolUse alone (no
 * start event, no messages, no results), a top-level deny. No ask reaches a person: an asked step is
 * denied with "no one can approve this step here".
 */
const CRUSH: ChatSpec<Steps> = {
  fields: (world, id) => ({ session_id: id, cwd: world.project }),
  steps(send) {
    const step = (name: string, input: Json): Promise<Answer> =>
      send({ ...fixture('crush/synth-pre-tool-use-bash'), tool_name: name, tool_input: input });
    return {
      shell: (command) => step('bash', { command, description: 'run it' }),
      mcp: (server, tool, args) => step(`mcp_${server}_${tool}`, args),
    };
  },
};

/**
 * Augment Auggie: its own payloads (`conversation_id`, `workspace_roots`, `launch-process`), answered
 * in Claude Code's nested form; block-then-chat (it runs an asked step); results, messages (on
 * PromptSubmit) and a start event. A command's result carries its exit code in `<return-code>`, and
 * a failed one comes with `tool_error` too.
 */
const AUGGIE: ChatSpec<Required<Steps>> = {
  fields: (world, id) => ({ conversation_id: id, workspace_roots: [world.project] }),
  steps(send) {
    const input = (command: string): Json => ({ command, wait: true, max_wait_seconds: 30, cwd: '.' });
    const post = (toolName: string, toolInput: Json, output: string, failed = false): Promise<Answer> =>
      send({
        ...fixture('auggie/post-tool-use-shell'),
        tool_name: toolName,
        tool_input: toolInput,
        tool_output: output,
        tool_error: failed ? output : null,
      });
    const say = (prompt: string): Promise<Answer> => send({ ...fixture('auggie/prompt-submit'), user_prompt: prompt });
    return {
      start: () => send(fixture('auggie/session-start')),
      say,
      shell: (command) => send({ ...fixture('auggie/pre-tool-use-shell'), tool_input: input(command) }),
      ran: (command, output, exitCode = 0) =>
        post(
          'launch-process',
          input(command),
          `Here are the results from executing the command.\n<return-code>\n${exitCode}\n</return-code>\n<output>\n${output}\n</output>`,
          exitCode !== 0,
        ),
      fetched: (url, output) => post('web-fetch', { url }, output),
      // its payload does not name the server: the call is read by the shape of its input
      mcp: (_server, tool, args) =>
        send({ ...fixture('auggie/synth-pre-tool-use-mcp'), tool_name: tool, tool_input: args }),
      approve: () => say('yes'),
    };
  },
};

export const CHATS: Readonly<Record<AgentId, (world: World, id: string, parent?: readonly string[]) => Chat>> = {
  codex: codexChat,
  cursor: chatOf('cursor', CURSOR),
  copilot: copilotChat,
  antigravity: chatOf('antigravity', ANTIGRAVITY),
  'claude-code': chatOf('claude-code', CLAUDE),
  gemini: chatOf('gemini', GEMINI),
  opencode: chatOf('opencode', OPENCODE),
  kilo: chatOf('kilo', OPENCODE),
  qwen: chatOf('qwen', QWEN),
  windsurf: chatOf('windsurf', WINDSURF),
  droid: chatOf('droid', DROID),
  cline: chatOf('cline', CLINE),
  crush: chatOf('crush', CRUSH),
  auggie: chatOf('auggie', AUGGIE),
  kiro: chatOf('kiro', KIRO),
};

/** Every file under a folder, recursively. */
export function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/** The guard log of a world, oldest first. */
export function logOf(world: World): LogEntry[] {
  return readFileSync(join(world.guardHome, 'log.jsonl'), 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as LogEntry);
}

/** A chat as guard reads it: its state file with the change files recorded since folded in. */
export function chatStateOf(chat: Pick<Chat, 'world' | 'agent' | 'id'>): ChatState {
  return loadChat(chat.world.guardHome, chat.agent, chat.id, Date.now(), 365 * 86_400_000);
}

/** The text of every file guard keeps for chats (state files and change files). */
export function chatFilesText(world: World): string {
  return filesUnder(join(world.guardHome, 'chats'))
    .map((path) => readFileSync(path, 'utf8'))
    .join('\n');
}

/** Processes whose command line mentions `text` (Linux: read from /proc). */
export function processesMentioning(text: string): string[] {
  // without /proc (macOS, the BSDs), ps lists them: POSIX, and every such system has it
  if (!existsSync('/proc/self'))
    return execFileSync('ps', ['-A', '-o', 'pid=', '-o', 'args='], { encoding: 'utf8' })
      .split('\n')
      .filter((line) => line.includes(text));
  const found: string[] = [];
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
      if (cmdline.includes(text)) found.push(`${pid}: ${cmdline}`);
    } catch {
      // ended meanwhile
    }
  }
  return found;
}

/** The stdio MCP server fixture, run by the agents' configs in these tests. */
export const MCP_SERVER = fileURLToPath(new URL('./mcp-fixtures/server.sh', import.meta.url));

// Fake values are built from pieces so that no whole key-shaped literal sits in the repository.
/** A realistic GitHub token that no one owns. */
export const FAKE_KEY = `ghp_${'R4nd0mT0k'.repeat(4)}`;
