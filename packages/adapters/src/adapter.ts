import type { AgentLists, AgentProgram, ToolResult, ToolStep, Verdict } from '@guard/core';
import type { TranscriptReader } from './transcript.js';

/** What the hook process prints and how it exits, as the agent expects. */
export interface HookReply {
  readonly stdout: string;
  /** What it prints on stderr, where the agent reads its reason there (Windsurf's exit 2). */
  readonly stderr?: string;
  readonly exitCode: number;
}

/** Which config file an install targets. */
export type ConfigLevel = 'user' | 'project';

/**
 * Where things are, as the CLI found them (the adapters never read the environment): each agent
 * works out its own files from these, e.g. Codex from `env.CODEX_HOME`.
 */
export interface Locations {
  readonly home: string;
  /** The environment; an empty variable counts as unset. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Project root, for `--project` and the project's rules files. */
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
  /**
   * guard's folder, when it is not the one the home folder alone gives (GUARD_HOME or
   * XDG_STATE_HOME set at setup): an agent that hands its hooks a cleaned environment (Gemini CLI
   * in CI) gets it written into guard's entry, so the hook works with the settings setup used.
   */
  readonly guardHome?: string;
  /**
   * The Node and hook script `hookCommand` runs, as absolute paths. Given, the command setup writes
   * answers by itself when either is gone (fallback.ts: a POSIX shell form); absent (Windows, where
   * no such form keeps the quoting), the entry holds `hookCommand` alone.
   */
  readonly fallback?: HookFiles;
  /**
   * The entry goes into the agent's managed, machine-wide file (`guard setup --system`): the answer
   * it gives by itself when guard's files are gone names the administrator's commands.
   */
  readonly system?: true;
}

/** What uninstall is told besides the text. */
export interface UninstallOptions {
  /** The agent's managed, machine-wide file (`guard setup --system`). */
  readonly system?: true;
  /**
   * The file's text before guard's first setup ('' where there was no file), when known (the
   * CLI's backup): what it held stays even where guard's entries leave it empty (an empty `hooks`
   * object, an event's empty list, the file itself). Unknown, what guard's entries alone fill goes.
   */
  readonly original?: string;
}

/** The two files a hook command of guard's runs: Node, and guard's hook script. */
export interface HookFiles {
  readonly node: string;
  readonly script: string;
  /** guard's folder as setup found it, which the hook command runs the hook in (fallback.ts). */
  readonly home?: string;
}

/**
 * What every hook the agent runs for one call (a step, its result, a chat's start, a message) is
 * sent alike (Copilot: the call's time, the same in both its payload shapes; Cursor: the tool call's
 * or the turn's id), so guard's hooks for one call (its own hook and its Claude Code hook) decide
 * once. Absent: each call decides on its own.
 */
export interface SameCall {
  readonly sameCall?: string;
}

/** What kind of hook call a payload is, after the adapter looked at it. */
export type HookInput =
  /**
   * A tool step about to run: judge it. `canAsk` is false where this event cannot show a prompt.
   * `deferAsk`: the same call fires a later pre-event that can ask (Cursor), so here only a block
   * counts and an ask is answered as no objection.
   */
  | ({
      readonly type: 'step';
      readonly event: string;
      readonly step: ToolStep;
      readonly canAsk: boolean;
      readonly deferAsk?: boolean;
    } & SameCall)
  /** A tool result, after it ran. */
  | ({ readonly type: 'result'; readonly event: string; readonly result: ToolResult } & SameCall)
  /** A chat starts. */
  | ({
      readonly type: 'start';
      readonly event: string;
      readonly chatId: string;
      readonly cwd: string;
      readonly projectRoot: string;
    } & SameCall)
  /** The person sent a message. */
  | ({
      readonly type: 'prompt';
      readonly event: string;
      readonly chatId: string;
      readonly prompt: string;
      readonly cwd: string;
    } & SameCall)
  /** Nothing to judge (an event guard does not act on, or a duplicate already judged on another event). */
  | { readonly type: 'ignore'; readonly event: string; readonly why: string };

/** What the runtime knows beyond the verdict when it builds a reply. */
export interface ReplyContext {
  /** The event being answered (as the agent names it). */
  readonly event: string;
  /** Whether a person can be asked here (false: ask must become block). */
  readonly canAsk: boolean;
  /**
   * The step's tool as the agent names it, when guard read the step: for an agent whose answer
   * differs per tool (Cline replaces a blocked shell step's commands, and cancels any other step).
   */
  readonly tool?: string;
  /** fail-closed is on (some agents need an explicit allow then). */
  readonly failClosed: boolean;
  /** Short code a person can quote to approve an asked step (Codex block-then-chat). */
  readonly approvalCode?: string;
  /** A sentence added to a block or ask text (e.g. "guard is on" where the agent has no start event). */
  readonly notice?: string;
  /**
   * For an ask, where this agent carries how long a yes lasts (SPEC §12): `once` when a yes can only
   * be for this step (a destructive step, or nothing to keep it by), `longer` when it may last for
   * the chat or the project; `partly` when it may last longer for some of the step's findings only,
   * the rules named asking again each time; `locked` when it may last for the chat but not the
   * project, for the rules named, which the organisation's system settings lock. Absent: the ask says
   * nothing about it.
   */
  readonly yesLasts?: YesLasts;
}

/** How long a yes to an asked step may last (an object: longer, but with the exceptions it names). */
export type YesLasts =
  | 'once'
  | 'longer'
  | { readonly partly: readonly string[]; readonly locked?: readonly string[] }
  | { readonly partly?: undefined; readonly locked: readonly string[] };

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

/** A locally started MCP server as an agent's config declares it. */
export interface McpServer {
  readonly name: string;
  readonly command?: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  /** Remote (URL) servers are never contacted. */
  readonly url?: string;
  /** The folder it starts in, when the config names one. */
  readonly cwd?: string;
  /** The agent marks it as disabled or needing approval: not started. */
  readonly skip?: string;
}

/** One file that declares MCP servers, and how to read the servers out of its text. */
export interface McpConfig {
  readonly path: string;
  /**
   * The project's own file (a repository's `.mcp.json`): its servers are known only for this
   * project, are never taken as known without asking, and are never started by guard.
   */
  readonly project?: true;
  /** The servers in the file's text; throws McpConfigError when the text cannot be read. */
  servers(text: string): Promise<readonly McpServer[]>;
}

/** What one extension adds to the agent: rules files it loads, and MCP servers it starts. */
export interface ExtensionParts {
  readonly rules: { readonly files: readonly string[]; readonly folders: readonly string[] };
  readonly servers: readonly McpServer[];
}

/** A folder of extensions, one subfolder each, each with a manifest (Gemini CLI's `~/.gemini/extensions`). */
export interface ExtensionsFolder {
  readonly folder: string;
  /** The manifest's file name in each extension's folder. */
  readonly manifest: string;
  /**
   * What an extension adds, from its manifest's text and its folder. Throws McpConfigError when
   * the manifest cannot be read (then `fallback` is what the scan still reads).
   */
  read(text: string, dir: string, where: Locations): ExtensionParts;
  /** The rules files of an extension whose manifest cannot be read (the agent's default names). */
  fallback(dir: string): ExtensionParts['rules'];
}

/** What the chat-start scan reads for one agent (the project's rules files are shared, see scan.ts). */
export interface ChatStartFiles {
  /** Rules and memory files the agent loads, and folders of them (read one level deep). */
  rules(where: Locations): { readonly files: readonly string[]; readonly folders: readonly string[] };
  /** The files that declare the MCP servers the agent starts (the person's, and the project's own). */
  mcp(where: Locations): readonly McpConfig[];
  /** Extensions the agent loads, each adding rules files and MCP servers. */
  extensions?(where: Locations): ExtensionsFolder;
}

/**
 * A variable that moves an agent's folder (or the home it works from, or one of its files), and
 * what it stands for when unset: `~/…`, or another variable's folder (`$GEMINI_CLI_HOME/…`).
 */
export interface HomeVariable {
  readonly variable: string;
  readonly default: string;
  /** It names a file, not a folder. */
  readonly file?: true;
}

/**
 * The agent's managed (system-wide) hook file, where `guard setup <agent> --system` writes guard's
 * hook: one path per platform (absolute, `/` separators; none for a platform where it is not known),
 * in the same format as the user's hook file, so the same config editing writes it.
 */
export interface SystemHooks {
  readonly linux: string;
  readonly darwin: string;
  readonly win32?: string;
  /**
   * Which of guard's two hooks answers first when both the user's and the system's are set up
   * (the agent runs both: each step is checked twice), and one sentence on what the layer is to the
   * agent: what cannot switch it off, whether it skips trust.
   */
  readonly first: 'system' | 'user' | 'together';
  readonly layer: string;
  /**
   * The settings a managed install also writes, each in another of the agent's system files (Codex's
   * requirements.toml with `[features] hooks = true`, which no user's switch overrules), given back
   * with the hook file by `guard uninstall --system`.
   */
  readonly also?: readonly SystemSetting[];
}

/**
 * One setting in one of the agent's system files (TOML), by platform as `SystemHooks`: `[table]`
 * `key = value`. Setup adds it, keeping every other byte, and refuses a file that sets the key to
 * anything else (an administrator's own choice, never overruled).
 */
export interface SystemSetting {
  readonly linux: string;
  readonly darwin: string;
  readonly win32?: string;
  readonly table: string;
  readonly key: string;
  readonly value: boolean;
  /** What it does, in a sentence (said by setup, `--dry-run` and status). */
  readonly why: string;
}

/**
 * An agent's files and switches as data: what guard must protect, what steers the agent, and how
 * its program starts without hooks. core gets it through cli (files.ts resolves the variables), so
 * core names no agent. Paths are core's path patterns (AgentLists): `/…` a system path (the
 * machine-wide, managed files), `~/…` in a home folder, anything else at any depth (a project's
 * files, and the user's where the folder has the same name), `dir/**` a folder and all in it,
 * and `$VARIABLE/…` in the folder one of `homes` names on this machine.
 */
export interface AgentFiles extends Omit<AgentLists, 'variables' | 'programs'> {
  /** The variables that move the agent's folders or files, in the order they are resolved. */
  readonly homes: readonly HomeVariable[];
  /**
   * Files the agent reads its home variables from before it finds its folder (Qwen Code's `.env`
   * files may set `QWEN_HOME`): a write there can move its hook files, so they are guarded as hook
   * files are.
   */
  readonly envFiles?: readonly string[];
  /** The agent's own program, and how it starts with its hooks off. */
  readonly program?: AgentProgram;
  /** Its tools by the name its payloads give them, and the kind of step each is (its payload reader's table). */
  readonly tools: Readonly<Record<string, string>>;
  /** Seconds the agent waits for guard's hook, as setup writes it on guard's entries. */
  readonly hookTimeout: number;
  /** Where it keeps its past chats (`guard scan` reads them with the adapter's `transcript`). */
  readonly transcripts?: TranscriptPlace;
  /** Its managed hook file, where it has one (`guard setup --system`). */
  readonly system?: SystemHooks;
}

/** Where an agent keeps its chats: a folder of its declaration, and the files in it that are chats. */
export interface TranscriptPlace {
  /** `$VARIABLE/…` (one of the agent's `homes`) or `~/…`. */
  readonly folder: string;
  /** The chat files: a pattern their path below `folder` matches. */
  readonly files: RegExp;
  /** The files are kept in a form guard does not read (a database): named and skipped, never read. */
  readonly unreadable?: string;
}

/**
 * What the hook needs of one agent: reading its payloads, writing its replies, and where its
 * chat-start scan looks. Every member is pure (text and data in, text and data out), so tests are
 * tables of strings; the CLI owns all file and process I/O.
 */
export interface Agent {
  readonly id: string;
  readonly displayName: string;
  readonly capabilities: Capabilities;
  /**
   * The events that carry a step about to run, the main one first. A failure picks its reply from
   * these when the payload could not be read.
   */
  readonly stepEvents: readonly [string, ...string[]];
  /** Its files and switches as data, for guard.tamper and agent.rules (and .ci/run, doctor). */
  readonly files: AgentFiles;
  readonly chatStart: ChatStartFiles;
  /**
   * Whether a payload is this agent's, by its shape alone: for a payload another agent's hook
   * command gets from this agent (a host that runs that agent's hook files). Left out: every
   * payload its own hook command gets is taken for its own.
   */
  owns?(payload: unknown): boolean;
  /**
   * The agents known to run this agent's hook files (Copilot and Cursor run Claude Code's), by id:
   * the hook asks each whether a payload is its own before reading it as this agent's.
   */
  readonly hosts?: readonly string[];
  /**
   * Reads one hook payload (already JSON-parsed). `event` is the `--event` argument when the
   * agent's payload does not name its event. `parentArgs` is the command line of the agent
   * process that ran the hook (to detect headless / skip-permission modes), when known.
   * Throws PayloadError on a shape it cannot read.
   */
  read(payload: unknown, event: string | undefined, parentArgs: readonly string[]): HookInput;
  /**
   * Whether an ask on a step reaches a person, judged from the agent's command line alone: for a
   * payload guard could not read, whose fields are unknown. Left out, it cannot be told, and the
   * failure answer's ask is a block.
   */
  canAskUnread?(parentArgs: readonly string[]): boolean;
  /** The reply for a verdict on a step. */
  toReply(verdict: Verdict, context: ReplyContext): HookReply;
  /** The reply for a non-step event (start, prompt, result, ignore); `notice` goes to the agent/person where possible. */
  toEventReply(event: string, notice: string | undefined): HookReply;
}

/** One hook call as the agent makes it: the event it fires and the JSON it sends on stdin. */
export interface CannedCall {
  readonly event: string;
  readonly payload: Readonly<Record<string, unknown>>;
}

/** What the agent does with an answer: let the step run, stop it, ask the person, or count the hook as failed. */
export type Effect = 'no-objection' | 'block' | 'ask' | 'failure';

export interface ReadReply {
  readonly effect: Effect;
  /** In a few words, why the answer reads that way. */
  readonly why: string;
}

/** What `guard doctor` needs to act like the agent (see doctor.ts). */
export interface DoctorKit {
  /** How the agent starts a hook command: through the person's login shell (`$SHELL -lc`) or `sh -c`. */
  readonly shell: 'login' | 'sh';
  /** The payload the agent sends before running `command` in the shell, in folder `cwd`. */
  shellCall(command: string, cwd: string): CannedCall;
  /**
   * How the agent reads a hook's stdout and exit code. `failClosedEntry`: the entry carries the
   * agent's own fail-closed switch, so a failure blocks.
   */
  readReply(stdout: string, exitCode: number, failClosedEntry: boolean): ReadReply;
  /**
   * The words the agent (or the person) is given with a hook's answer, read from where the agent
   * reads them: the reason of a block or an ask, or an event's notice; '' when there are none.
   */
  replyText(stdout: string, stderr: string, exitCode: number): string;
  /** How long the agent waits for guard's entries in this config text, in seconds; undefined when not known. */
  timeoutSeconds(configText: string): number | undefined;
}

/** Where the agent stands on guard's hooks in one hooks file. */
export type TrustState =
  /** Every guard hook has a matching trusted record. */
  | 'trusted'
  /** At least one guard hook has no trust record. */
  | 'untrusted'
  /** A trust record exists, but for an older definition (another path, timeout, matcher…). */
  | 'modified'
  /** The person switched a guard hook off in the agent. */
  | 'disabled'
  /** The files could not be read. */
  | 'unknown';

export interface TrustReport {
  readonly state: TrustState;
  readonly detail: string;
}

/**
 * An agent that skips hooks nobody told it to trust (Codex). The pure parts: where the trust
 * records are, what they say about guard's hooks, and the records without guard's. Having the agent
 * write the trust is I/O the CLI does (for Codex, through `codex app-server`).
 */
export interface HookTrust {
  /** The agent's program, which the CLI asks to trust guard's hooks. */
  readonly program: string;
  /** The agent's own menu of hooks, where a person trusts one by hand (Codex: `/hooks`). */
  readonly menu: string;
  /** How a person gets there (Codex: "open Codex in a terminal, type /hooks"). */
  readonly byHand: string;
  /** The file that holds the agent's trust records. */
  recordsPath(where: Locations): string;
  /** How the agent stands on guard's hooks in `hooksText` (at `hooksPath`), from the records' text ('' when absent). */
  state(hooksPath: string, hooksText: string, recordsText: string): TrustReport;
  /** The record keys of guard's hooks in a hooks file; throws when the hooks file does not parse. */
  keys(hooksPath: string, hooksText: string): readonly string[];
  /**
   * The records text without the records of these keys; every other line kept, and what the
   * `original` (the file before setup, when known) held, even emptied.
   */
  withoutRecords(recordsText: string, keys: readonly string[], original?: string): string;
  /** Whether two records texts say the same (only laid out differently); false when either does not parse. */
  sameRecords(a: string, b: string): boolean;
}

/** One of the agent's own settings files, as the CLI found it (`text` undefined: no such file). */
export interface SettingsFile {
  readonly path: string;
  readonly text: string | undefined;
}

/**
 * The person's own hooks that guard's entries in a hook file keep the agent from running (Factory
 * Droid takes an event's list from hooks.json over the same folder's settings.json, and reads no
 * older hooks/hooks.json beside a hooks.json): setup says so, with the fix.
 */
export interface Shadows {
  /** The files beside `file` (a user's or a project's hook file) whose hooks it can shadow. */
  files(file: string): readonly string[];
  /** One sentence per hook of theirs that stops running once `before` (the hook file, '' for none) is `after`. */
  check(before: string, after: string, files: readonly SettingsFile[]): readonly string[];
}

/** A way the agent's own settings keep guard's hooks from running. */
export interface HooksOff {
  /** One or two sentences: which file says what, and what follows. */
  readonly message: string;
  /**
   * `everywhere`: no hook of guard's runs at all; `here`: not in this folder (the one status runs
   * in); `overruled`: a file tries to, and the file that wins over it (the system settings guard's
   * setup --system wrote) keeps the hooks on: they run; `partly`: they run, but not in every way the
   * agent can be started (Kiro CLI's agents of the person's own that lack guard's hooks).
   */
  readonly scope: 'everywhere' | 'here' | 'overruled' | 'partly';
}

/**
 * An agent whose own settings can switch hooks off (Claude Code's `disableAllHooks`, Gemini CLI's
 * `hooksConfig` and folder trust): which files to read, and what they say. The CLI reads the files.
 */
export interface HookSwitches {
  /** The files that can switch hooks off, lowest precedence first. */
  files(where: Locations): readonly string[];
  /**
   * Folders whose `.json` files (one level, by name) can keep hooks from running too (Kiro CLI's
   * agents folders): the CLI reads them after `files`, and hands them to `check` in that order.
   */
  folders?(where: Locations): readonly string[];
  /** What those files (in the order of `files`) do to guard's hooks; [] when nothing keeps them off. */
  check(files: readonly SettingsFile[], where: Locations): readonly HooksOff[];
}

/** What setup, uninstall, status and doctor need of one agent; never loaded by the hook. */
export interface AgentSetup {
  /** Absolute path of the config file guard edits at this level. */
  configPath(level: ConfigLevel, where: Locations): string;
  /**
   * The config text with guard's hook added (or updated); every other byte kept.
   * '' means the file does not exist. Idempotent. Throws ConfigError when the text does not parse.
   */
  install(configText: string, options: InstallOptions): string;
  /**
   * The config text with only guard's entries removed; `install` then `uninstall` (with the same
   * `system`) is the identity. With `system`, the agent's managed file: what setup --system adds
   * there beside the entries (the switch that keeps hooks on for every user) goes too. With
   * `original` (the text before setup), that text comes back byte for byte.
   */
  uninstall(configText: string, options?: UninstallOptions): string;
  /**
   * The guard hook command(s) found in a config text (empty when not installed); with `system`, in
   * the agent's managed file (laid out otherwise than its own hook file, for Factory Droid).
   */
  installedCommands(configText: string, options?: { readonly system?: true }): readonly string[];
  /** guard's command the agent runs on `event` in a config text (as a shell runs it), when there is one. */
  installedCommand(configText: string, event: string, options?: { readonly system?: true }): string | undefined;
  /** The agent loads a project's hook file only in a folder the person trusted there. */
  readonly projectNeedsTrust: boolean;
  /** What the person must do after uninstall for the agent to stop calling guard. */
  readonly afterUninstall: string;
  readonly doctor: DoctorKit;
  /** Present when the agent skips hooks until they are trusted. */
  readonly trust?: HookTrust;
  /** Present when the agent's own settings can switch its hooks off. */
  readonly hookSwitches?: HookSwitches;
  /** Present when guard's entries in its hook file can keep the person's own hooks elsewhere from running. */
  readonly shadows?: Shadows;
}

/**
 * How an agent is answered, as far as the answer its hook command gives by itself when guard's files
 * are gone needs it (fallback.ts): made at setup time from the agent's own replies.
 */
export type AgentAnswers = Pick<Agent, 'id' | 'stepEvents' | 'capabilities' | 'toReply' | 'toEventReply'>;

/** One agent, all of it: what the hook needs and what setup, status and doctor need. */
export interface Adapter extends Agent, AgentSetup {
  /** Reads one of its past chats (`files.transcripts` says where they are), for `guard scan`. */
  readonly transcript?: TranscriptReader;
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
