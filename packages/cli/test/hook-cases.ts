import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { AgentId } from '@guard/adapters';
import { denies, readsExitCode } from './agent-answers.js';
import type { HookAnswer } from './agent-answers.js';
import { NOWHERE } from './capture-io.js';

/**
 * Recorded agent payloads (packages/adapters/test/fixtures, see its README) and how to turn them
 * into a harmless, an asked and a blocked step by changing only the command. Shared by the
 * in-process runtime tests and the process-level replay tests.
 */

const FIXTURES = fileURLToPath(new URL('../../adapters/test/fixtures/', import.meta.url));

type Json = Record<string, unknown>;

// The home folders of the machines the payloads were recorded on. The hook looks at the folders a
// payload names (the project's policy file and git, the agent's rules files and MCP servers), so
// here they lead to a folder that does not exist, whatever this machine has at /home/dev.
const RECORDED_HOMES = /(?<![\w.-])\/(?:home\/dev|home\/user|Users\/dev)(?=[/"\\]|$)/g;
const HOME_IN_JSON = JSON.stringify(NOWHERE).slice(1, -1);

/** A recorded payload, parsed (its home folder moved to NOWHERE). */
export function fixture(name: string): Json {
  return JSON.parse(fixtureText(name)) as Json;
}

/** The raw text of a recorded payload, as the agent would send it (its home folder moved to NOWHERE). */
export function fixtureText(name: string): string {
  return readFileSync(`${FIXTURES}${name}.json`, 'utf8').replace(RECORDED_HOMES, () => HOME_IN_JSON);
}

export interface AgentCase {
  readonly agent: AgentId;
  /** The arguments after `guard hook`, as setup writes them. */
  readonly args: readonly string[];
  /** A recorded shell payload with its command replaced (a string, or argv words). */
  shell(command: string | readonly string[]): Json;
  /** A recorded tool payload (of the event that judges every tool) with its tool and input replaced. */
  tool(name: string, input: unknown): Json;
  /** What the agent reads as "no objection" (fail-closed off). */
  readonly noObjection: string;
  /** The fixtures that cannot be read: a field missing, a field of the wrong type, an unknown event. */
  readonly missing: string;
  readonly wrongType: string;
  /** Hook arguments and payload of an event the adapter does not know. */
  readonly unknownEvent: { readonly args: readonly string[]; readonly payload: Json };
  /** True when the agent stops the step on an answer, as its own adapter reads it, and is told why. */
  denies(answer: Answer): boolean;
  /** True when an answer has the form the agent reads (nothing or one reply, and the exit code that goes with it). */
  wellFormed(answer: Answer): boolean;
  /** What guard said on stderr beside the reply the agent reads (why it could not check a step). */
  notes(answer: Answer): string;
  /**
   * The answer in the terms of an agent that reads stdout alone, for tables that compare exact
   * replies: the reply, guard's notes as stderr, and exit 0 where the code is the one that goes with
   * the reply (an answer not in the agent's form comes back as it is, so such a comparison fails).
   */
  read(answer: Answer): Answer;
}

/** A hook's whole answer, as the agent reads it: what it printed and its exit code. */
export type Answer = HookAnswer;

type Reading = Pick<AgentCase, 'denies' | 'wellFormed' | 'notes' | 'read'>;
/** A case as written below: its reading comes from the agent (`readingOf`). */
type CaseData = Omit<AgentCase, keyof Reading>;

/**
 * How the tables read an agent's answers: whether it stops the step by the agent's own reading
 * (agent-answers.ts), and the form guard's answer takes where the agent reads a JSON reply or the
 * exit code alone.
 */
function readingOf(agent: AgentId): Reading {
  return { ...(readsExitCode(agent) ? EXIT_CODE : JSON_REPLY), denies: (answer) => denies(agent, answer) };
}

/** An agent that reads one JSON reply on stdout with exit code 0 (or nothing printed). */
const JSON_REPLY: Omit<Reading, 'denies'> = {
  wellFormed: ({ stdout, code }) =>
    code === 0 && (stdout === '' || (stdout.indexOf('\n') === stdout.length - 1 && isObject(stdout))),
  notes: ({ stderr }) => stderr,
  read: (answer) => answer,
};

function isObject(text: string): boolean {
  const value = JSON.parse(text) as unknown;
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * An agent that reads the exit code (Windsurf, Kiro CLI): 0 with nothing printed lets the step run; 2 stops it,
 * guard's reason as one line on stdout and as the last line of stderr, after guard's own notes.
 */
const EXIT_CODE: Omit<Reading, 'denies'> = {
  read: (answer) =>
    EXIT_CODE.wellFormed(answer) ? { stdout: answer.stdout, stderr: EXIT_CODE.notes(answer), code: 0 } : answer,
  wellFormed: ({ stdout, stderr, code }) =>
    (code === 0 && stdout === '') ||
    (code === 2 && stdout.indexOf('\n') === stdout.length - 1 && stderr.endsWith(stdout)),
  notes: ({ stdout, stderr, code }) =>
    code === 2 && stderr.endsWith(stdout) ? stderr.slice(0, -stdout.length) : stderr,
};

/** What an agent takes an answer to say: no objection, a deny, or a question (put to the person). */
export type Said = 'no objection' | 'denied' | 'asked';

/** How `agentCase` reads `answer` (an ask in the chat, on an agent with no prompt, reads as a deny). */
export function said(agentCase: AgentCase, answer: Answer): Said {
  if (answer.stdout === agentCase.noObjection && answer.code === 0) return 'no objection';
  return agentCase.denies(answer) ? 'denied' : 'asked';
}

const CODEX_SHELL = fixture('codex/synth-pre-tool-use-interactive');
const CURSOR_SHELL = fixture('cursor/before-shell-execution');
// Cursor's other tools come on preToolUse, which judges every tool (and cannot ask)
const CURSOR_TOOL = fixture('cursor/pre-tool-use-write');
const ANTIGRAVITY_SHELL = fixture('antigravity/pre-tool-use-run-command');
const COPILOT_SHELL = fixture('copilot/pre-tool-use-bash');
const CLAUDE_SHELL = fixture('claude-code/pre-tool-use-bash');
const GEMINI_SHELL = fixture('gemini/before-tool-shell');
const OPENCODE_SHELL = fixture('opencode/tool-execute-before-bash');
const KILO_SHELL = fixture('kilo/tool-execute-before-bash');
const QWEN_SHELL = fixture('qwen/pre-tool-use-shell');
const DROID_SHELL = fixture('droid/pre-tool-use-shell');
const CLINE_SHELL = fixture('cline/pre-tool-use-run-commands');
// Crush: synthesised from its documented envelope (never observed on a binary)
const CRUSH_SHELL = fixture('crush/synth-pre-tool-use-bash');
const AUGGIE_SHELL = fixture('auggie/pre-tool-use-shell');

const WINDSURF_SHELL = fixture('windsurf/doc-pre-run-command');
const WINDSURF_MCP = fixture('windsurf/doc-pre-mcp-tool-use');

/**
 * Windsurf (payloads from its documentation): it reads the exit code, not a JSON reply. 0 with nothing
 * printed lets the step run; 2 stops it, guard's reason as plain text on stderr (the documented
 * channel) and the same on stdout (shown with `show_output`); any other code lets it run.
 */
const WINDSURF_CASE: CaseData = {
  agent: 'windsurf',
  args: ['windsurf'],
  shell: (command) => ({
    ...WINDSURF_SHELL,
    tool_info: { ...(WINDSURF_SHELL['tool_info'] as Json), command_line: command },
  }),
  // every other tool comes as an MCP call, the one event that carries any tool's name and input
  tool: (name, input) => ({
    ...WINDSURF_MCP,
    tool_info: { ...(WINDSURF_MCP['tool_info'] as Json), mcp_tool_name: name, mcp_tool_arguments: input },
  }),
  noObjection: '',
  missing: 'windsurf/malformed-no-tool-info',
  wrongType: 'windsurf/malformed-relative-cwd',
  unknownEvent: { args: ['windsurf'], payload: fixture('windsurf/malformed-unknown-event') },
};

const KIRO_SHELL = fixture('kiro/lineage-pre-tool-use-execute-bash');

/**
 * Kiro CLI (payloads from its documentation, tool inputs from the Amazon Q CLI it grew from): it
 * reads the exit code as Windsurf does. 0 lets the step run; 2 stops it, guard's reason on stderr
 * (which Kiro hands to the model) and the same on stdout; any other code warns and lets it run.
 */
const KIRO_CASE: CaseData = {
  agent: 'kiro',
  args: ['kiro'],
  shell: (command) => ({ ...KIRO_SHELL, tool_input: { command, summary: 'Run the command' } }),
  tool: (name, input) => ({ ...KIRO_SHELL, tool_name: name, tool_input: input }),
  noObjection: '',
  missing: 'kiro/malformed-no-tool-name',
  wrongType: 'kiro/malformed-relative-cwd',
  unknownEvent: { args: ['kiro'], payload: fixture('kiro/malformed-unknown-event') },
};

const CASES: readonly CaseData[] = [
  {
    agent: 'codex',
    args: ['codex'],
    shell: (command) => ({ ...CODEX_SHELL, tool_input: { command } }),
    tool: (name, input) => ({ ...CODEX_SHELL, tool_name: name, tool_input: input }),
    noObjection: '',
    missing: 'codex/malformed-no-tool-input',
    wrongType: 'codex/malformed-command-not-string',
    unknownEvent: { args: ['codex'], payload: fixture('codex/malformed-unknown-event') },
  },
  {
    agent: 'cursor',
    args: ['cursor'],
    shell: (command) => ({ ...CURSOR_SHELL, command }),
    tool: (name, input) => ({ ...CURSOR_TOOL, tool_name: name, tool_input: input }),
    noObjection: '{}\n',
    missing: 'cursor/malformed-shell-no-command',
    wrongType: 'cursor/malformed-workspace-roots',
    unknownEvent: { args: ['cursor'], payload: fixture('cursor/malformed-unknown-event') },
  },
  {
    agent: 'antigravity',
    args: ['antigravity', '--event', 'PreToolUse'],
    shell: (command) => ({ ...ANTIGRAVITY_SHELL, toolCall: { name: 'run_command', args: { CommandLine: command } } }),
    tool: (name, input) => ({ ...ANTIGRAVITY_SHELL, toolCall: { name, args: input } }),
    noObjection: '{"decision":"ask"}\n',
    missing: 'antigravity/malformed-command-missing',
    wrongType: 'antigravity/malformed-args-not-object',
    unknownEvent: { args: ['antigravity', '--event', 'BeforeEverything'], payload: ANTIGRAVITY_SHELL },
  },
  {
    agent: 'copilot',
    args: ['copilot', '--event', 'preToolUse'],
    shell: (command) => ({ ...COPILOT_SHELL, toolArgs: { ...(COPILOT_SHELL['toolArgs'] as Json), command } }),
    tool: (name, input) => ({ ...COPILOT_SHELL, toolName: name, toolArgs: input }),
    noObjection: '',
    missing: 'copilot/malformed-bash-no-command',
    wrongType: 'copilot/malformed-args-not-json',
    unknownEvent: { args: ['copilot', '--event', 'beforeEverything'], payload: COPILOT_SHELL },
  },
  {
    agent: 'claude-code',
    args: ['claude-code'],
    shell: (command) => ({ ...CLAUDE_SHELL, tool_input: { command, description: 'run it' } }),
    tool: (name, input) => ({ ...CLAUDE_SHELL, tool_name: name, tool_input: input }),
    noObjection: '',
    missing: 'claude-code/malformed-no-tool-input',
    wrongType: 'claude-code/malformed-command-not-string',
    unknownEvent: { args: ['claude-code'], payload: fixture('claude-code/malformed-unknown-event') },
  },
  {
    agent: 'gemini',
    args: ['gemini'],
    shell: (command) => ({ ...GEMINI_SHELL, tool_input: { command, description: 'run it' } }),
    tool: (name, input) => ({ ...GEMINI_SHELL, tool_name: name, tool_input: input }),
    noObjection: '',
    missing: 'gemini/malformed-no-tool-input',
    wrongType: 'gemini/malformed-command-not-string',
    unknownEvent: { args: ['gemini'], payload: fixture('gemini/malformed-unknown-event') },
  },
  {
    agent: 'opencode',
    args: ['opencode'],
    shell: (command) => ({ ...OPENCODE_SHELL, args: { command, description: 'run it' } }),
    tool: (name, input) => ({ ...OPENCODE_SHELL, tool: name, args: input }),
    noObjection: '',
    missing: 'opencode/malformed-no-args',
    wrongType: 'opencode/malformed-command-not-string',
    unknownEvent: { args: ['opencode'], payload: fixture('opencode/malformed-unknown-event') },
  },
  {
    // Kilo Code CLI runs the same plugin: its malformed payloads are OpenCode's
    agent: 'kilo',
    args: ['kilo'],
    shell: (command) => ({ ...KILO_SHELL, args: { command, description: 'run it' } }),
    tool: (name, input) => ({ ...KILO_SHELL, tool: name, args: input }),
    noObjection: '',
    missing: 'opencode/malformed-no-args',
    wrongType: 'opencode/malformed-command-not-string',
    unknownEvent: { args: ['kilo'], payload: fixture('opencode/malformed-unknown-event') },
  },
  {
    agent: 'qwen',
    args: ['qwen'],
    shell: (command) => ({ ...QWEN_SHELL, tool_input: { command, description: 'run it' } }),
    tool: (name, input) => ({ ...QWEN_SHELL, tool_name: name, tool_input: input }),
    noObjection: '',
    missing: 'qwen/malformed-no-tool-input',
    wrongType: 'qwen/malformed-command-not-string',
    unknownEvent: { args: ['qwen'], payload: fixture('qwen/malformed-unknown-event') },
  },
  {
    agent: 'droid',
    args: ['droid'],
    shell: (command) => ({
      ...DROID_SHELL,
      tool_input: {
        summary: 'Run the command now',
        command,
        riskLevelReason: 'It runs one command.',
        riskLevel: 'low',
      },
    }),
    tool: (name, input) => ({ ...DROID_SHELL, tool_name: name, tool_input: input }),
    noObjection: '',
    missing: 'droid/malformed-no-tool-input',
    wrongType: 'droid/malformed-command-not-string',
    unknownEvent: { args: ['droid'], payload: fixture('droid/malformed-unknown-event') },
  },
  {
    agent: 'cline',
    args: ['cline'],
    // argv words are one command `{ command, args }` (run without a shell); a string, one command line
    shell: (command) => {
      const commands = [typeof command === 'string' ? command : { command: command[0], args: command.slice(1) }];
      return {
        ...CLINE_SHELL,
        tool_call: { id: 'call_1', name: 'run_commands', input: { commands } },
        preToolUse: { toolName: 'run_commands', parameters: { commands: JSON.stringify(commands) } },
      };
    },
    tool: (name, input) => ({ ...CLINE_SHELL, tool_call: { id: 'call_1', name, input } }),
    noObjection: '',
    missing: 'cline/malformed-no-input',
    wrongType: 'cline/malformed-command-not-string',
    unknownEvent: { args: ['cline'], payload: fixture('cline/malformed-unknown-event') },
  },
  {
    agent: 'auggie',
    args: ['auggie'],
    shell: (command) => ({
      ...AUGGIE_SHELL,
      tool_input: { command, wait: true, max_wait_seconds: 30, cwd: '.' },
    }),
    tool: (name, input) => ({ ...AUGGIE_SHELL, tool_name: name, tool_input: input }),
    noObjection: '',
    missing: 'auggie/malformed-no-tool-input',
    wrongType: 'auggie/malformed-command-not-string',
    unknownEvent: { args: ['auggie'], payload: fixture('auggie/malformed-unknown-event') },
  },
  WINDSURF_CASE,
  {
    agent: 'crush',
    args: ['crush'],
    shell: (command) => ({ ...CRUSH_SHELL, tool_input: { command, description: 'run it' } }),
    tool: (name, input) => ({ ...CRUSH_SHELL, tool_name: name, tool_input: input }),
    noObjection: '',
    missing: 'crush/malformed-no-tool-input',
    wrongType: 'crush/malformed-command-not-string',
    unknownEvent: { args: ['crush'], payload: fixture('crush/malformed-unknown-event') },
  },
  KIRO_CASE,
];

export const AGENT_CASES: readonly AgentCase[] = CASES.map((data) => ({ ...data, ...readingOf(data.agent) }));

/** Commands whose verdicts the catalogue fixes (SPEC §4): harmless, asked (git.push), blocked. */
export const HARMLESS = 'git status';
export const ASKED = 'git push origin main';
export const BLOCKED = 'git push --force origin main';
