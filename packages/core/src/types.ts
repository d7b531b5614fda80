/**
 * The common shapes every part of guard speaks (SPEC section 2). Adapters turn an agent's payload
 * into a ToolStep; the engine turns a ToolStep into a Verdict; adapters turn the Verdict into the
 * agent's reply. Names are fixed; fields may grow.
 */

/**
 * The agent a step came from, as `@guard/adapters` names it. The engine
 * never looks at it: the adapters own the list of agents.
 */
export type AgentId = string;

export type Decision = 'block' | 'ask' | 'allow';

/** Half-open character range `[start, end)` into a step's text (see `stepText`). */
export type Span = readonly [start: number, end: number];

export type StepKind = 'shell' | 'write' | 'patch' | 'read' | 'fetch' | 'mcp' | 'other';

/** What a write tool does to its file. */
export type WriteMode = 'create' | 'overwrite' | 'edit' | 'delete' | 'move';

interface StepBase {
  readonly agent: AgentId;
  /** The agent's chat/session id; '' when the payload carries none. */
  readonly chatId: string;
  readonly turnId?: string;
  /** Absolute working directory of the step. */
  readonly cwd: string;
  /** Absolute project root (workspace root); equals cwd when the agent gives nothing better. */
  readonly projectRoot: string;
  /** The agent's own tool name, as sent (`Bash`, `apply_patch`, `run_command`, `edit`, …). */
  readonly toolName: string;
  /** The tool call id when the agent gives one (used to pair a result with its step). */
  readonly callId?: string;
  /**
   * The agent's own words for what this step is for, when its payload carries them (a shell tool's
   * `description`); only the second opinion reads it.
   */
  readonly intent?: string;
  /**
   * A step read by the shape of an unknown tool's input (a command, a file with its content): the
   * rest of that input, beside the fields the step was read from. It is judged as an unknown tool's
   * arguments are (every path-like string a file it might write, every URL a site it sends to), so
   * reading one shape never hides another.
   */
  readonly otherArgs?: unknown;
}

export interface ShellStep extends StepBase {
  readonly kind: 'shell';
  readonly command: string;
  /**
   * The shell the agent's tool runs the command in, when its payload says (a PowerShell tool);
   * otherwise the line is read as a POSIX shell's, and as PowerShell's or cmd's too when it looks
   * written for one.
   */
  readonly shell?: 'posix' | 'powershell' | 'cmd';
}

export interface WriteStep extends StepBase {
  readonly kind: 'write';
  /** As the agent sent it; relative paths are relative to `cwd`. */
  readonly path: string;
  readonly content?: string;
  readonly mode: WriteMode;
  /** Destination of a move. */
  readonly toPath?: string;
}

export interface PatchStep extends StepBase {
  readonly kind: 'patch';
  /** `apply_patch` text (`*** Begin Patch` … `*** End Patch`). */
  readonly patch: string;
}

export interface ReadStep extends StepBase {
  readonly kind: 'read';
  readonly path: string;
}

export interface FetchStep extends StepBase {
  readonly kind: 'fetch';
  readonly url: string;
}

/** MCP tool annotations as declared by the server (MCP spec `ToolAnnotations`), when known. */
export interface McpAnnotations {
  readonly readOnlyHint?: boolean;
  readonly destructiveHint?: boolean;
  readonly openWorldHint?: boolean;
}

export interface McpStep extends StepBase {
  readonly kind: 'mcp';
  readonly server: string;
  readonly tool: string;
  readonly args: unknown;
  readonly annotations?: McpAnnotations;
}

export interface OtherStep extends StepBase {
  readonly kind: 'other';
  readonly args: unknown;
  /**
   * A tool its agent's adapter does not know, whose input holds nothing of a shape guard reads (a
   * command, a path, a URL): it goes ahead unchecked, and the log and `guard report` say so.
   */
  readonly unknown?: true;
}

export type ToolStep = ShellStep | WriteStep | PatchStep | ReadStep | FetchStep | McpStep | OtherStep;

/** A tool's result, as seen after it ran. The output text is scanned and never stored. */
export interface ToolResult {
  readonly agent: AgentId;
  readonly chatId: string;
  readonly step: ToolStep;
  readonly output: string;
  readonly exitCode?: number;
  readonly failed?: boolean;
}

/** How an asked step is remembered after a yes (SPEC 4.2 "remembered by"). */
export type MemoryScope =
  | 'never' // blocks: never remembered as allowed
  | 'every-time' // asks again every time
  | 'destination' // a push: remote + branch
  | 'package'
  | 'path'
  | 'target' // infra / database target
  | 'host'
  | 'server' // MCP server
  | 'file-hash' // a script, per version of its text
  | 'chat' // once per chat
  | 'until-next-message';

/**
 * What an ask is about, for the modes (seed 003's concerns): each ask rule names one, and a mode
 * lets whole classes go ahead (`extended`: outside the project; `full`: all of them). Block rules
 * have none: the never list blocks in every mode.
 */
export type Concern =
  /** Writing outside the project, reaching a new website, installing the project's own packages. */
  | 'outside'
  /** A push, a release, data or messages sent to another system. */
  | 'sending'
  /** A key, token or password that could leave its place. */
  | 'secrets'
  /** Deleting, discarding work, destroying infrastructure or data, stopping programs. */
  | 'destructive'
  /** The agent's rules and settings, MCP tools that change things, raised rights, new code on the machine. */
  | 'rules-or-machine';

/**
 * Why an ask rule asks in every mode, whatever its concern: it is the chat's raised bar (the agent
 * read content someone else wrote, or a key came back), or what it would do cannot be read, and
 * its worst case is on the never list; or the organisation's system settings lock the rule.
 */
export type AsksInEveryMode = 'raised-bar' | 'worst-case' | 'organisation';

export interface Finding {
  readonly ruleId: string;
  readonly decision: Exclude<Decision, 'allow'>;
  /** One plain sentence: what would be lost, and the safer way. */
  readonly reason: string;
  readonly saferWay?: string;
  /** Into `stepText(step)`. */
  readonly span: Span;
  /** What a yes is remembered by (`git.push:origin/main`); absent when never remembered. */
  readonly memoryKey?: string;
  readonly remember: 'never' | 'chat';
  /**
   * What the modes read (SPEC §12): the concern class of the rule that made the finding, set where
   * it is made. Undefined for a never-list rule's finding, and for an ask guard cannot place (a
   * project's own rule, the second opinion's raise), which no mode lets go ahead. Required, so a
   * finding made anywhere says which.
   */
  readonly concern: Concern | undefined;
  /** The finding's rule asks in every mode whatever its concern, and why. */
  readonly asksInEveryMode?: AsksInEveryMode;
  /** The target could not be worked out, so no mode lets this ask go ahead (see Hit.unresolved). */
  readonly unresolved?: true;
}

export interface Verdict {
  readonly decision: Decision;
  /** Most severe first. */
  readonly findings: readonly Finding[];
  /** What the agent (model) is told. */
  readonly agentMessage: string;
  /** What the person is shown. */
  readonly userMessage: string;
}
