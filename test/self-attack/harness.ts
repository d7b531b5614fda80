import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { AgentId } from '../../packages/adapters/src/index.js';
import { shellWord } from '../../packages/adapters/src/fallback.js';
import { commandIn } from '../../packages/adapters/src/opencode/plugin.js';
import { heard, readsExitCode } from '../../packages/cli/test/agent-answers.js';
import { pathWithoutAgents } from '../../packages/cli/test/agent-free-path.js';
import { BIN } from '../hook/bin.js';
import { guardSteps } from './world.js';

/**
 * What the self-attack suite needs: a scratch machine (home, agent homes, guard's folder, a
 * project), guard set up there with the built CLI as a person would, the hook commands read back
 * from the agents' files exactly as setup wrote them, and those commands run the way the agents run
 * them (`sh -c`), with what each agent makes of the reply.
 */

export const AGENTS: readonly AgentId[] = [
  'codex',
  'cursor',
  'antigravity',
  'copilot',
  'claude-code',
  'gemini',
  'opencode',
  'kilo',
  'qwen',
  'windsurf',
  'droid',
  'cline',
  'crush',
  'auggie',
  'kiro',
];

export interface Scratch {
  readonly root: string;
  readonly home: string;
  readonly guardHome: string;
  readonly codexHome: string;
  readonly copilotHome: string;
  readonly project: string;
  env(extra?: Readonly<Record<string, string>>): Record<string, string>;
  cleanup(): void;
}

// node and git, and no agent (setup would otherwise ask a Codex on PATH to trust the hook)
const PATH = pathWithoutAgents([dirname(process.execPath), '/usr/local/bin', '/usr/bin', '/bin'].join(':'));

export function scratch(name: string): Scratch {
  const root = mkdtempSync(join(tmpdir(), `guard-attack-${name}-`));
  const home = join(root, 'home');
  const dirs = {
    home,
    guardHome: join(root, 'guard'),
    codexHome: join(home, '.codex'),
    copilotHome: join(home, '.copilot'),
    project: join(home, 'project'),
  };
  for (const dir of Object.values(dirs)) mkdirSync(dir, { recursive: true });
  writeFileSync(join(dirs.project, 'package.json'), '{ "name": "demo", "version": "1.0.0" }\n');
  const base: Record<string, string> = {
    PATH,
    HOME: home,
    LANG: 'C.UTF-8',
    GUARD_HOME: dirs.guardHome,
    CODEX_HOME: dirs.codexHome,
    COPILOT_HOME: dirs.copilotHome,
    GIT_CONFIG_NOSYSTEM: '1',
  };
  return {
    root,
    ...dirs,
    env: (extra = {}) => ({ ...base, ...extra }),
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  };
}

/** How one run of a command ended. */
export interface Ran {
  /** Exit code; null when a signal ended it or it had not ended by the limit. */
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** Still running at the limit (then killed). */
  readonly timedOut: boolean;
  /** Spawn to exit (or to the limit). */
  readonly ms: number;
}

export interface RunOptions {
  readonly env: Readonly<Record<string, string>>;
  readonly cwd: string;
  /** What goes to stdin. */
  readonly stdin: string;
  /** Leave stdin open after writing it (an agent that never closes it). */
  readonly keepOpen?: boolean;
  /** Kill the process group after this long. */
  readonly limitMs?: number;
  /** Shell words run before the command (`ulimit -f 0`, …). */
  readonly before?: string;
}

/** Runs a hook command the way the agents do, through `sh -c`, in a process group of its own. */
export function runShell(command: string, options: RunOptions): Promise<Ran> {
  const started = performance.now();
  const script = options.before === undefined ? command : `${options.before}; ${command}`;
  return new Promise((resolve) => {
    const child = spawn('sh', ['-c', script], {
      cwd: options.cwd,
      env: options.env,
      detached: true,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    const kill = (): void => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      kill();
    }, options.limitMs ?? 30_000);
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.stdin.on('error', () => undefined);
    child.on('close', (code) => {
      clearTimeout(timer);
      kill();
      resolve({ code: timedOut ? null : code, stdout, stderr, timedOut, ms: Math.round(performance.now() - started) });
    });
    child.on('exit', () => {
      // the hook is done: an agent would now close its end
      child.stdin.destroy();
    });
    if (options.keepOpen === true) child.stdin.write(options.stdin);
    else child.stdin.end(options.stdin);
  });
}

/** Runs the built guard CLI in the scratch machine. */
export async function guardCli(world: Scratch, args: readonly string[]): Promise<Ran> {
  const words = [process.execPath, BIN, ...args].map((word) => `'${word.replace(/'/g, `'\\''`)}'`).join(' ');
  return runShell(words, { env: world.env(), cwd: world.project, stdin: '', limitMs: 60_000 });
}

export async function guardOk(world: Scratch, args: readonly string[]): Promise<string> {
  const ran = await guardCli(world, args);
  if (ran.code !== 0)
    throw new Error(`guard ${args.join(' ')} exited ${String(ran.code)}:\n${ran.stdout}${ran.stderr}`);
  return ran.stdout;
}

type Json = Record<string, unknown>;

const readJson = (path: string): Json => JSON.parse(readFileSync(path, 'utf8')) as Json;

/** The command setup wrote for an agent's tool-step event, read back from the agent's file. */
export function stepCommand(world: Scratch, agent: AgentId): string {
  switch (agent) {
    case 'codex': {
      const hooks = readJson(join(world.codexHome, 'hooks.json'))['hooks'] as Json;
      return ((hooks['PreToolUse'] as Json[])[0]?.['hooks'] as Json[])[0]?.['command'] as string;
    }
    case 'cursor': {
      const hooks = readJson(join(world.home, '.cursor', 'hooks.json'))['hooks'] as Json;
      return (hooks['beforeShellExecution'] as Json[])[0]?.['command'] as string;
    }
    case 'antigravity': {
      const hooks = readJson(join(world.home, '.gemini', 'config', 'hooks.json'))['guard'] as Json;
      return ((hooks['PreToolUse'] as Json[])[0]?.['hooks'] as Json[])[0]?.['command'] as string;
    }
    case 'copilot': {
      const hooks = readJson(join(world.copilotHome, 'hooks', 'guard.json'))['hooks'] as Json;
      return (hooks['preToolUse'] as Json[])[0]?.['bash'] as string;
    }
    case 'claude-code': {
      const hooks = readJson(join(world.home, '.claude', 'settings.json'))['hooks'] as Json;
      return ((hooks['PreToolUse'] as Json[])[0]?.['hooks'] as Json[])[0]?.['command'] as string;
    }
    case 'gemini': {
      const hooks = readJson(join(world.home, '.gemini', 'settings.json'))['hooks'] as Json;
      return ((hooks['BeforeTool'] as Json[])[0]?.['hooks'] as Json[])[0]?.['command'] as string;
    }
    case 'opencode':
    case 'kilo':
      // guard's plugin runs this command with the step on stdin, through /bin/sh -c as here
      return commandIn(readFileSync(join(world.home, '.config', agent, 'plugins', 'guard.js'), 'utf8')) ?? '';
    case 'qwen': {
      const hooks = readJson(join(world.home, '.qwen', 'settings.json'))['hooks'] as Json;
      return ((hooks['PreToolUse'] as Json[])[0]?.['hooks'] as Json[])[0]?.['command'] as string;
    }
    case 'windsurf': {
      const hooks = readJson(join(world.home, '.codeium', 'windsurf', 'hooks.json'))['hooks'] as Json;
      return (hooks['pre_run_command'] as Json[])[0]?.['command'] as string;
    }
    case 'droid': {
      // the events are the root of Droid's hooks.json
      const hooks = readJson(join(world.home, '.factory', 'hooks.json'));
      return ((hooks['PreToolUse'] as Json[])[0]?.['hooks'] as Json[])[0]?.['command'] as string;
    }
    case 'auggie': {
      const hooks = readJson(join(world.home, '.augment', 'settings.json'))['hooks'] as Json;
      return ((hooks['PreToolUse'] as Json[])[0]?.['hooks'] as Json[])[0]?.['command'] as string;
    }
    case 'cline':
      // Cline runs guard's hook file itself (its `#!/bin/sh`): the file's whole text, run by sh
      return `/bin/sh -c ${shellWord(readFileSync(join(world.home, '.cline', 'hooks', 'PreToolUse.bash'), 'utf8'))}`;
    case 'crush': {
      const hooks = readJson(join(world.home, '.config', 'crush', 'crush.json'))['hooks'] as Json;
      return (hooks['PreToolUse'] as Json[])[0]?.['command'] as string;
    }
    case 'kiro': {
      // guard's own agent file
      const hooks = readJson(join(world.home, '.kiro', 'agents', 'guard.json'))['hooks'] as Json;
      return (hooks['preToolUse'] as Json[])[0]?.['command'] as string;
    }
  }
}

/**
 * The hook command with guard's folder, which setup wrote into it, swapped for another: a case with
 * a guard folder of its own must name it in the command, as setup there would (the command does
 * not let an inherited GUARD_HOME move it).
 */
export function withGuardHome(world: Scratch, command: string, guardHome: string): string {
  if (!command.includes(world.guardHome)) throw new Error(`the hook command does not name guard's folder: ${command}`);
  return command.split(world.guardHome).join(guardHome);
}

/** A shell step as each agent sends it (the recorded shapes, see packages/adapters/test/fixtures). */
export function shellPayload(agent: AgentId, command: string, cwd: string, chat: string): Json {
  switch (agent) {
    case 'codex':
      return {
        session_id: chat,
        turn_id: `${chat}-turn`,
        transcript_path: null,
        cwd,
        hook_event_name: 'PreToolUse',
        model: 'gpt-5.5',
        permission_mode: 'default',
        tool_name: 'Bash',
        tool_input: { command },
        tool_use_id: 'call_0',
      };
    case 'cursor':
      return {
        conversation_id: chat,
        generation_id: `${chat}-gen`,
        model: 'grok-4.6',
        command,
        cwd,
        sandbox: true,
        session_id: chat,
        hook_event_name: 'beforeShellExecution',
        cursor_version: '3.20.21',
        workspace_roots: [cwd],
        transcript_path: null,
      };
    case 'antigravity':
      return {
        toolCall: { name: 'run_command', args: { CommandLine: command } },
        stepIdx: 3,
        conversationId: chat,
        workspacePaths: [cwd],
        modelName: 'auto',
      };
    case 'copilot':
      return {
        sessionId: chat,
        timestamp: 1795954817733,
        cwd,
        toolName: 'bash',
        toolArgs: { command, description: 'Run it', mode: 'sync', initial_wait: 10 },
      };
    case 'claude-code':
      return {
        session_id: chat,
        transcript_path: join(cwd, '.transcript.jsonl'),
        cwd,
        permission_mode: 'default',
        hook_event_name: 'PreToolUse',
        tool_name: 'Bash',
        tool_input: { command, description: 'Run it' },
        tool_use_id: 'toolu_0',
      };
    case 'gemini':
      return {
        session_id: chat,
        transcript_path: join(cwd, '.transcript.jsonl'),
        cwd,
        hook_event_name: 'BeforeTool',
        timestamp: '2026-12-01T21:26:38.053Z',
        tool_name: 'run_shell_command',
        tool_input: { command, description: 'Run it' },
      };
    case 'opencode':
    case 'kilo':
      return {
        hook_event_name: 'tool.execute.before',
        session_id: chat,
        call_id: 'call_0',
        tool: 'bash',
        args: { command, description: 'Run it' },
        directory: cwd,
        worktree: cwd,
      };
    case 'qwen':
      return {
        session_id: chat,
        transcript_path: join(cwd, '.transcript.jsonl'),
        cwd,
        hook_event_name: 'PreToolUse',
        timestamp: '2026-12-07T01:43:56.236Z',
        permission_mode: 'yolo',
        prompt_id: `${chat}########0`,
        tool_name: 'run_shell_command',
        tool_input: { command, description: 'Run it' },
        tool_use_id: 'toolu_0',
        tool_call_id: 'call_0',
      };
    case 'windsurf':
      return {
        agent_action_name: 'pre_run_command',
        trajectory_id: chat,
        execution_id: `${chat}-exec`,
        timestamp: '2026-12-01T21:26:38.053Z',
        tool_info: { command_line: command, cwd },
      };
    case 'droid':
      return {
        session_id: chat,
        transcript_path: join(cwd, '.transcript.jsonl'),
        cwd,
        permission_mode: 'auto-high',
        hook_event_name: 'PreToolUse',
        tool_name: 'Execute',
        tool_input: {
          summary: 'Run the command now',
          command,
          riskLevelReason: 'It runs one command.',
          riskLevel: 'low',
        },
      };
    case 'auggie':
      return {
        hook_event_name: 'PreToolUse',
        conversation_id: chat,
        workspace_roots: [cwd],
        tool_name: 'launch-process',
        tool_input: { command, wait: true, max_wait_seconds: 30, cwd },
        tool_output: '[undefined]',
        tool_error: null,
        is_mcp_tool: false,
      };
    case 'cline':
      return {
        clineVersion: '',
        timestamp: '2026-12-07T03:02:44.421Z',
        taskId: chat,
        workspaceRoots: [cwd],
        workspaceInfo: { rootPath: cwd, hint: 'project' },
        userId: 'unknown',
        agent_id: `${chat}-agent`,
        parent_agent_id: null,
        hookName: 'tool_call',
        iteration: 1,
        tool_call: { id: 'call_0', name: 'run_commands', input: { commands: [command] } },
        preToolUse: { toolName: 'run_commands', parameters: { commands: JSON.stringify([command]) } },
      };
    case 'crush':
      // synthesised from its documented envelope (never observed on a binary)
      return {
        event: 'PreToolUse',
        session_id: chat,
        cwd,
        tool_name: 'bash',
        tool_input: { command, description: 'Run it' },
      };
    case 'kiro':
      // its documented payload carries no chat id (the folder is the chat); one is sent all the same,
      // as a later Kiro may, so the cases' chats stay apart
      return {
        hook_event_name: 'preToolUse',
        session_id: chat,
        cwd,
        tool_name: 'execute_bash',
        tool_input: { command, summary: 'Run it' },
      };
  }
}

/** How strict an answer is, as the agent takes it. */
export type Verdict = 'allow' | 'ask' | 'block' | 'unreadable' | 'none';

export const STRICTNESS: Readonly<Record<Verdict, number>> = { none: -1, unreadable: -1, allow: 0, ask: 1, block: 2 };

/** The exit code of an answer that lets a step run (0) or stops it: 2 where the agent reads the code (Windsurf, Kiro CLI). */
export function exitOf(agent: AgentId, verdict: Verdict): number {
  return readsExitCode(agent) && STRICTNESS[verdict] > STRICTNESS.allow ? 2 : 0;
}

/** What the agent makes of a hook's output (SPEC §6), as its own adapter reads it (agent-answers.ts). */
export function verdictOf(agent: AgentId, ran: Ran): Verdict {
  if (ran.timedOut) return 'none';
  const { said } = heard(agent, ran);
  return said === 'failure' ? 'unreadable' : said;
}

/**
 * Sets guard up for every agent in the scratch machine (Codex without trusting: no codex on PATH),
 * by the built CLI in one process.
 */
export async function setUpAll(world: Scratch): Promise<Record<AgentId, string>> {
  const steps = AGENTS.map((agent) => ['setup', agent]);
  await guardSteps(dirname(BIN), steps, { env: world.env(), cwd: world.project });
  const commands = {} as Record<AgentId, string>;
  for (const agent of AGENTS) commands[agent] = stepCommand(world, agent);
  // the person makes guard's Kiro agent the one a chat starts with, as setup tells them to
  mkdirSync(join(world.home, '.kiro', 'settings'), { recursive: true });
  writeFileSync(join(world.home, '.kiro', 'settings', 'cli.json'), '{ "chat.defaultAgent": "guard" }\n');
  return commands;
}

/** Runs `work` over `items`, at most `limit` at a time. */
export async function pool<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array<R>(items.length);
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const at = next++;
      out[at] = await work(items[at] as T);
    }
  });
  await Promise.all(lanes);
  return out;
}

/**
 * A limit on how much work runs at once, shared by everyone who calls the function it returns:
 * `work` starts when fewer than `limit` others are running.
 */
export function limiter(limit: number): <R>(work: () => Promise<R>) => Promise<R> {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async (work) => {
    // a lane that comes free is handed straight to the next in line
    if (running < limit) running++;
    else await new Promise<void>((go) => waiting.push(go));
    try {
      return await work();
    } finally {
      const next = waiting.shift();
      if (next === undefined) running--;
      else next();
    }
  };
}
