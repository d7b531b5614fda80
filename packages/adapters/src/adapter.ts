import type { AgentId, ToolResult, ToolStep, Verdict } from '@guard/core';

/** What the hook process prints and how it exits, as the agent expects. */
export interface HookReply {
  readonly stdout: string;
  readonly exitCode: number;
}

/** Which config file an install targets. */
export type ConfigLevel = 'user' | 'project';

/** Where things are, as the CLI found them (the adapters never read the environment). */
export interface Locations {
  readonly home: string;
  /** `$CODEX_HOME`, when set. */
  readonly codexHome?: string;
  /** `$COPILOT_HOME`, when set. */
  readonly copilotHome?: string;
  /** Project root, for `--project`. */
  readonly projectRoot: string;
}

export interface InstallOptions {
  /**
   * The command line the agent runs, up to and including the agent id: quoted absolute node,
   * quoted absolute hook script, `hook <agent>`. The adapter appends `--event NAME` per event
   * where the agent's payload does not name its event.
   */
  readonly hookCommand: string;
  /** Write the agent's own fail-closed switch where it has one (Cursor `failClosed: true`). */
  readonly failClosed: boolean;
}

/** What kind of hook call a payload is, after the adapter looked at it. */
export type HookInput =
  /**
   * A tool step about to run: judge it. `canAsk` is false where this event cannot show a prompt.
   * `deferAsk`: the same call fires a later pre-event that can ask (Cursor), so here only a block
   * counts and an ask is answered as no objection.
   */
  | {
      readonly type: 'step';
      readonly event: string;
      readonly step: ToolStep;
      readonly canAsk: boolean;
      readonly deferAsk?: boolean;
    }
  /** A tool result, after it ran. */
  | { readonly type: 'result'; readonly event: string; readonly result: ToolResult }
  /** A chat starts. */
  | {
      readonly type: 'start';
      readonly event: string;
      readonly chatId: string;
      readonly cwd: string;
      readonly projectRoot: string;
    }
  /** The person sent a message. */
  | {
      readonly type: 'prompt';
      readonly event: string;
      readonly chatId: string;
      readonly prompt: string;
      readonly cwd: string;
    }
  /** Nothing to judge (an event guard does not act on, or a duplicate already judged on another event). */
  | { readonly type: 'ignore'; readonly event: string; readonly why: string };

/** What the runtime knows beyond the verdict when it builds a reply. */
export interface ReplyContext {
  /** The event being answered (as the agent names it). */
  readonly event: string;
  /** Whether a person can be asked here (false: ask must become block). */
  readonly canAsk: boolean;
  /** fail-closed is on (some agents need an explicit allow then). */
  readonly failClosed: boolean;
  /** Short code a person can quote to approve an asked step (Codex block-then-chat). */
  readonly approvalCode?: string;
  /** A sentence added to a block or ask text (e.g. "guard is on" where the agent has no start event). */
  readonly notice?: string;
}

/** What an agent can do, printed by `guard status`. */
export interface Capabilities {
  /** Events guard registers, as the agent names them. */
  readonly events: readonly string[];
  /** Events where an `ask` really shows the person a prompt. */
  readonly askEvents: readonly string[];
  /** How ask is carried: a native prompt, block-then-chat, or not at all. */
  readonly ask: 'native' | 'block-then-chat';
  /** Whether guard sees tool results. */
  readonly results: boolean;
  /** Whether the agent has a chat-start event. */
  readonly startEvent: boolean;
  /** Whether guard sees the person's messages. */
  readonly userMessages: boolean;
  /** What the agent does when the hook fails or times out (one sentence each). */
  readonly onHookFailure: string;
  readonly onHookTimeout: string;
  /** What the person must do after setup for the hook to take effect. */
  readonly afterSetup: string;
}

/**
 * One agent. Every member is pure (text and data in, text and data out), so tests are tables of
 * strings; the CLI owns all file and process I/O.
 */
export interface Adapter {
  readonly id: AgentId;
  readonly displayName: string;
  readonly capabilities: Capabilities;
  /** Absolute path of the config file guard edits at this level. */
  configPath(level: ConfigLevel, where: Locations): string;
  /**
   * The config text with guard's hook added (or updated); every other byte kept.
   * '' means the file does not exist. Idempotent. Throws ConfigError when the text does not parse.
   */
  install(configText: string, options: InstallOptions): string;
  /** The config text with only guard's entries removed; `install` then `uninstall` is the identity. */
  uninstall(configText: string): string;
  /** The guard hook command(s) found in a config text (empty when not installed). */
  installedCommands(configText: string): readonly string[];
  /**
   * Reads one hook payload (already JSON-parsed). `event` is the `--event` argument when the
   * agent's payload does not name its event. `parentArgs` is the command line of the agent
   * process that ran the hook (to detect headless / skip-permission modes), when known.
   * Throws PayloadError on a shape it cannot read.
   */
  read(payload: unknown, event: string | undefined, parentArgs: readonly string[]): HookInput;
  /** The reply for a verdict on a step. */
  toReply(verdict: Verdict, context: ReplyContext): HookReply;
  /** The reply for a non-step event (start, prompt, result, ignore); `notice` goes to the agent/person where possible. */
  toEventReply(event: string, notice: string | undefined): HookReply;
}

/** A config file that cannot be edited safely. `line` is 1-based when known. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  constructor(
    message: string,
    readonly line?: number,
  ) {
    super(message);
  }
}

/** A payload this adapter cannot read. */
export class PayloadError extends Error {
  override readonly name = 'PayloadError';
}
