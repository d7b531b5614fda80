/**
 * The rules' view of one step, in one place below the rules and the analysis: what the reader
 * found, the facts derived from it, the questions a rule may ask about the world (Probe) and the
 * chat (SessionView), and answers several rules share, worked out once per step when first asked
 * (./build.ts). Only types live here, so that everything may import them without a cycle.
 */
import type { HostClass, UrlFacts } from '../facts/hosts.js';
import type { KeyHit } from '../facts/keys.js';
import type { AgentKnowledge } from '../facts/agents.js';
import type { PathContext, PathFacts } from '../facts/paths.js';
import type { ArgvOption, FileHow, FileOp, Program, ScriptLanguage } from '../programs/index.js';
import type { Assigned, Invocation, Opaque } from '../shell/types.js';
import type { Span, ToolStep } from '../types.js';

/** What the engine needs to know about the machine, passed in (core does no I/O). */
export interface Environment {
  readonly home: string;
  /** The system temp folder. */
  readonly tmp: string;
  /** guard's own folder (settings, state, log), for guard.tamper. */
  readonly guardHome?: string;
  /**
   * The real folders that hold guard's own program (the installed package; in a checkout the
   * CLI's package and the workspace packages it loads), for guard.tamper.
   */
  readonly guardCode?: readonly string[];
  /**
   * The agents guard works for: their hook, settings and rules files, the variables that move
   * their folders, and how their programs start without hooks (guard.tamper, agent.rules). The
   * caller builds it from the adapters' declarations; left out, the engine knows no agent's files.
   */
  readonly agents?: AgentKnowledge;
}

/**
 * Questions a rule may ask about the world outside the step. Every member is optional and may
 * answer `undefined` ("don't know"); the engine treats a throwing or missing probe the same way.
 */
export interface Probe {
  /** Of these absolute paths, the ones git ignores (cwd = the repository to ask). */
  gitIgnored?(cwd: string, paths: readonly string[]): ReadonlySet<string> | undefined;
  /**
   * Absolute paths of untracked, not ignored files in the repository of `cwd` (what `git add -A`
   * would add), as far as `scope` asks: the narrower the scope, the less git has to look at.
   */
  gitUntracked?(cwd: string, scope?: GitScope): readonly string[] | undefined;
  /**
   * Absolute paths of tracked files with changes, staged or not (what `git commit -a` would take),
   * within `scope`. With `wanted`, the caller needs just those files: the probe may leave out the
   * rest, and so need not look at every tracked file of a large tree.
   */
  gitModified?(cwd: string, scope?: GitScope, wanted?: GitWanted): readonly string[] | undefined;
  /**
   * True when a git question about the repository of `cwd` went unanswered (git slower than its
   * budget, or failing): an undefined answer above then means "could not check", not "no repository".
   */
  gitUnchecked?(cwd: string): boolean | undefined;
  /** The current branch in `cwd`. */
  gitBranch?(cwd: string): string | undefined;
  /** Text of a file, at most `maxBytes` (undefined when missing or unreadable). */
  readText?(path: string, maxBytes: number): string | undefined;
  /** Whether a path exists. */
  exists?(path: string): boolean | undefined;
  /**
   * The path with every link on the way resolved (the part that does not exist yet kept as
   * written after the real folder that holds it); undefined when it cannot tell.
   */
  realpath?(path: string): string | undefined;
  /** Package names the project lists (package.json, pyproject.toml, requirements*.txt, …); undefined when it lists none. */
  projectPackages?(projectRoot: string): ReadonlySet<string> | undefined;
}

/**
 * What a git question is about; left out, the whole work tree. The answer may hold more than was
 * asked (a probe may ignore the scope), so the rule still filters what comes back.
 */
export interface GitScope {
  /** Only files at or under these absolute paths. */
  readonly paths: readonly string[];
}

/** Which files of a git question the caller needs (the probe may answer with those alone). */
export interface GitWanted {
  /** Whether the caller needs this file (an absolute path). */
  readonly test: (path: string) => boolean;
  /**
   * Patterns in git's ignore-file syntax that every needed file matches, by its name or a folder
   * above it: git may screen the tree with them before `test` sees a file.
   */
  readonly screen?: readonly string[];
}

/** What this chat's memory says, as far as rules need it (SPEC §5). */
export interface SessionView {
  /** Absolute paths of files the agent created in this chat. */
  readonly createdFiles: ReadonlySet<string>;
  /**
   * Absolute paths of files the agent wrote, created or edited in this chat, by any tool: the code
   * of these that a later step runs is read with it (./chat-code.ts). Left out: none.
   */
  readonly wroteFiles?: ReadonlySet<string>;
  /** Untrusted content was read since the person's last message (or in this chat, when strict). */
  readonly untrusted: boolean;
  /** A result showed injection signs (or a rules file did at chat start). */
  readonly injection: boolean;
  /** A key-shaped value came back in a result. */
  readonly keySeen: boolean;
  /** MCP servers whose tool descriptions showed injection signs at chat start. */
  readonly poisonedServers: ReadonlySet<string>;
  /**
   * For an MCP server new or changed since guard last let one of its tools run (or any server,
   * when an MCP file could not be read at chat start): the print to ask about before its first use.
   */
  serverToAsk?(server: string): string | undefined;
  /**
   * For a local MCP server whose tool descriptions guard could not read (its scan ran out of time,
   * it did not start, it answered something else) and has not read since: why not. Left out: none.
   */
  uncheckedServer?(server: string): string | undefined;
  /** How many times in a row this exact command failed, with no file changed since (0 when unknown). */
  failuresInARow(command: string): number;
}

export type { FileOp } from '../programs/index.js';

/**
 * What a step does to one file, whatever tool it uses: the shared fact behind the path rules (a
 * write through `>`/`tee`/`cp` and a write tool are the same write).
 */
export interface FileEffect {
  readonly op: FileOp;
  readonly path: PathFacts;
  readonly span: Span;
  /** Program or tool that does it. */
  readonly by: string;
  readonly invocation?: Invocation;
  /** How (see `FileHow`): `truncate`, `append`, `edit`, `move`, `copy` or `recursive`. */
  readonly how?: FileHow;
  /** The content leaves the machine (`curl -T`, `scp` to a host). */
  readonly sends?: boolean;
  /** For writes by a write tool: the new text. */
  readonly content?: string;
}

/** One network destination a step reaches. */
export interface NetEffect {
  readonly host: string;
  readonly hostClass: HostClass;
  readonly url?: UrlFacts;
  readonly span: Span;
  readonly by: string;
  readonly invocation?: Invocation;
  /** Data goes out (a POST body, an upload, a copy to another computer, a raw socket). */
  readonly sends: boolean;
  readonly kind: 'http' | 'ssh' | 'git' | 'dns' | 'mail' | 'raw';
}

/** One argument of an invocation, with its index and span. */
export interface Arg {
  readonly value: string;
  readonly index: number;
  readonly span: Span;
}

/**
 * An invocation's words as its program reads them (the program knowledge base's grammar, one
 * parser: see programs/argv.ts).
 */
export interface Argv {
  /** The program's entry (undefined: unknown, read with no option taking a value). */
  readonly program: Program | undefined;
  /** The options, in order: a bundle's letters one by one (`-rf` is `-r` and `-f`). */
  readonly options: readonly ArgvOption[];
  /** The words that are neither options nor their values (every word after `--`). */
  readonly operands: readonly Arg[];
  /** Every word this reading covers, as written (after the subcommand, for a subcommand's). */
  readonly words: readonly Arg[];
  /** Whether one of these options is given (`-r` inside `-rf` too; PowerShell's names without case). */
  has(...names: readonly string[]): boolean;
  /** The values given to these options, in order, with the span of each value. */
  values(...names: readonly string[]): Arg[];
  /**
   * The subcommand and its own words (`git push …`, `docker compose …`, `npm install …`): the word
   * after a leading program's options, or the first operand.
   */
  readonly sub: SubArgv | undefined;
}

/** A subcommand's words: `name` is the subcommand, `index` where it stands among the arguments. */
export interface SubArgv extends Argv {
  readonly name: string;
  readonly index: number;
}

/** One place of a pipeline (`a | (b; c) | xargs d`). */
export interface Stage {
  readonly index: number;
  /** Every command that runs at this place, nested ones included (`xargs rm`'s `rm`). */
  readonly commands: readonly Invocation[];
  /**
   * The commands whose output is the stage's output: seen through subshells, groups and prefixes
   * (`(find …)`, `{ find …; }`, `sudo find …`), not what a runner there runs in turn.
   */
  readonly producers: readonly Invocation[];
}

/** A script file the step runs, read through the probe and judged as a step of its own. */
export interface Script {
  /** The effect that runs it (its span is where the step names the script). */
  readonly effect: FileEffect;
  /** Absolute path. */
  readonly path: string;
  readonly text: string;
  readonly language: ScriptLanguage;
  /** FNV-1a of the text, as 8 hex digits: names this version of the file. */
  readonly hash: string;
  /** The script as a step of its own (a fresh chat, no further script reads). */
  readonly context: RuleContext;
}

/** A piece of code the chat wrote that the step runs: judged (`context`), or named as unread. */
export interface ChatCode {
  /** The step's own command that runs it (where its findings point). */
  readonly invocation: Invocation;
  /** The file (absolute). */
  readonly path: string;
  /** What runs, for the reason: `package.json script "test"`, `Makefile target "all"`, `tests/conftest.py`. */
  readonly label: string;
  /** The code as a step of its own (a shell line, or code read as its interpreter's inline code). */
  readonly context?: RuleContext;
  /** Why it could not be read, when it could not. */
  readonly unread?: string;
}

/** A rule's view of one step: the step, what the reader found, and the facts derived from it. */
export interface RuleContext {
  readonly step: ToolStep;
  /** The text every span indexes into. */
  readonly text: string;
  /** Shell invocations (shell steps only; empty otherwise). */
  readonly invocations: readonly Invocation[];
  readonly opaque: readonly Opaque[];
  /** `X=1` as a statement of its own, which runs nothing (shell steps only; empty otherwise). */
  readonly assigned: readonly Assigned[];
  /** Every file the step reads, writes, creates or deletes, by any tool. */
  readonly files: readonly FileEffect[];
  /** Every network destination the step reaches. */
  readonly net: readonly NetEffect[];
  /** Key-shaped values in the step text. */
  readonly keys: readonly KeyHit[];
  /** Classifies a path as written in the step, relative to `cwd` (defaults to the step's cwd). */
  path(raw: string, cwd?: string): PathFacts;
  readonly pathContext: PathContext;
  readonly probe: Probe;
  readonly session: SessionView;

  // Answers several rules share, worked out when first asked and kept for this step.

  /** How the invocation's program reads its words (options, operands, subcommand). */
  argv(inv: Invocation): Argv;
  /** The stages of the pipeline the invocation is in, first to last (a lone command is one stage). */
  pipeline(inv: Invocation): readonly Stage[];
  /** The stage that feeds the invocation's stdin, when it is in a pipeline after the first stage. */
  stageBefore(inv: Invocation): Stage | undefined;
  /** The files the invocation touches (its share of `files`). */
  filesOf(inv: Invocation): readonly FileEffect[];
  /** The hosts the invocation reaches (its share of `net`). */
  netOf(inv: Invocation): readonly NetEffect[];
  /**
   * What a listing command names, as paths: `find`'s picks (`find src -name '*.ts'` is
   * `src/**\/*.ts`), Get-ChildItem's items (its folders, or `-Filter x` below them); undefined for a
   * command that lists nothing the reader can name.
   */
  listed(inv: Invocation): readonly PathFacts[] | undefined;
  /** The script files the step runs (shell steps with a probe that reads files; at most eight). */
  scripts(): readonly Script[];
  /** The code this chat wrote that the step runs (./chat-code.ts; empty in a chat that wrote no code). */
  chatCode(): readonly ChatCode[];
  /**
   * The step read as if every program guard does not know ran the command its words start
   * (`mytool git push --force`: shell `Via.guessed`), which `invocations` leaves out; undefined
   * when there is none. Its findings are judged apart (at least an ask).
   */
  unknownRunners(): RuleContext | undefined;
  /** A value worked out from one invocation, once per step for each `of` (shared by the rules that ask it). */
  derive<T>(inv: Invocation, of: (inv: Invocation, context: RuleContext) => T): T;
}
