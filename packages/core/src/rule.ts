import type { Probe, RuleContext, SessionView } from './context/types.js';
import type { AsksInEveryMode, Concern, Finding, MemoryScope, Span } from './types.js';

// What an ask is about lives with the findings, which carry it (types.ts).
export type { AsksInEveryMode, Concern } from './types.js';

// The rules' view of a step and the questions they may ask live below the rules, in context/.
export type { GitScope, GitWanted, Probe, RuleContext, SessionView } from './context/types.js';

/** OWASP Top 10 for LLM applications (2025) and for agentic applications (ASI). */
export type OwaspTag =
  | 'LLM01:2025'
  | 'LLM02:2025'
  | 'LLM03:2025'
  | 'LLM05:2025'
  | 'LLM06:2025'
  | 'ASI01'
  | 'ASI02'
  | 'ASI03'
  | 'ASI04'
  | 'ASI05'
  | 'ASI10';

/** One place a rule matched. */
export interface Hit {
  readonly span: Span;
  /** What a yes is remembered by, after the rule id (`origin/main`, `lodash`, `/abs/path`). */
  readonly key?: string;
  /** A fact to add to the reason (a package name, a file): "… (lodash)". Never a secret value. */
  readonly detail?: string;
  /** A reason of this hit's own, in place of the rule's (one rule, several causes: shell.opaque). */
  readonly reason?: string;
  /** The absolute path the hit is about, when it is about one (for path-scoped policy allows). */
  readonly path?: string;
  /** This hit is remembered differently from the rule's default (a plain memory note: once per chat). */
  readonly remember?: MemoryScope;
  /**
   * What the hit is about could not be worked out (`rm -rf "$DIR/x"` with nothing setting DIR, the
   * files xargs is fed): judged as its worst case, it asks in every mode.
   */
  readonly unresolved?: true;
  /**
   * The probe could not answer what the rule needed to know (git too slow or failing): the step is
   * asked every time, never blocked on a guess and never let through as safe (blocked under
   * fail-closed), and the reason says guard could not check. `detail` says what went unchecked;
   * `reason`, when given, says it in the hit's own words.
   */
  readonly unchecked?: true;
}

/** A step given as a rule example: a shell line, or another kind of step. */
export type ExampleStep =
  | string
  | {
      readonly kind: 'write';
      readonly path: string;
      readonly content?: string;
      readonly mode?: 'create' | 'overwrite' | 'edit' | 'delete' | 'move';
      readonly toPath?: string;
    }
  | { readonly kind: 'read'; readonly path: string }
  | { readonly kind: 'fetch'; readonly url: string }
  | { readonly kind: 'patch'; readonly patch: string }
  | {
      readonly kind: 'mcp';
      readonly server: string;
      readonly tool: string;
      readonly args?: unknown;
      readonly annotations?: {
        readonly readOnlyHint?: boolean;
        readonly destructiveHint?: boolean;
        readonly openWorldHint?: boolean;
      };
    }
  | { readonly kind: 'other'; readonly toolName: string; readonly args: unknown };

/** What the outside world looks like, written out (examples, the corpus, benchmarks): see tableProbe. */
export interface ProbeTable {
  /** Untracked files git reports (absolute paths). */
  readonly untracked?: readonly string[];
  /** Modified files git reports (absolute paths). */
  readonly modified?: readonly string[];
  /** Paths git ignores (absolute). */
  readonly ignored?: readonly string[];
  /** Files that exist, by absolute path, with their text. */
  readonly files?: Readonly<Record<string, string>>;
  /** Packages the project lists. */
  readonly packages?: readonly string[];
  readonly branch?: string;
  /** git did not answer in time: the git fields above are then "could not check". */
  readonly unchecked?: boolean;
}

/** A Probe that answers from a table and knows nothing else (what a field leaves out is "don't know"). */
export function tableProbe(p: ProbeTable = {}): Probe {
  return {
    gitUntracked: () => p.untracked,
    gitModified: () => p.modified,
    gitIgnored: (_cwd, paths) => new Set(paths.filter((path) => (p.ignored ?? []).includes(path))),
    gitUnchecked: () => p.unchecked,
    gitBranch: () => p.branch,
    readText: (path) => p.files?.[path],
    // a folder is there when a file in it is (as the disk would answer)
    exists: (path) => {
      if (p.files === undefined) return undefined;
      if (path in p.files) return true;
      const folder = path.endsWith('/') ? path : `${path}/`;
      return Object.keys(p.files).some((file) => file.startsWith(folder));
    },
    projectPackages: () => (p.packages ? new Set(p.packages) : undefined),
  };
}

/** A documented example, with the world it assumes. */
export interface Example {
  readonly step: ExampleStep;
  /** Session facts the example assumes (defaults: a fresh chat). */
  readonly session?: Partial<
    Omit<SessionView, 'failuresInARow' | 'createdFiles' | 'poisonedServers' | 'serverToAsk' | 'uncheckedServer'>
  > & {
    readonly createdFiles?: readonly string[];
    readonly poisonedServers?: readonly string[];
    /** MCP servers that ask before their first use: name → print (`*`: any server). */
    readonly newServers?: Readonly<Record<string, string>>;
    /** Local MCP servers whose tools guard could not read: name → why. */
    readonly uncheckedServers?: Readonly<Record<string, string>>;
    readonly failuresInARow?: number;
  };
  /** Probe answers the example assumes. */
  readonly probe?: ProbeTable;
  /** Why this row is here (near misses especially). */
  readonly note?: string;
}

export interface RuleMeta {
  /** Stable id, `<pack>.<name>` in kebab-case. Users allowlist by it; never rename. */
  readonly id: string;
  readonly decision: 'block' | 'ask';
  /**
   * An ask rule's concern class, which the modes decide by (every ask rule of the catalogue has one;
   * the modes test lists them). A never-list rule has none: it blocks in every mode. An ask rule
   * without one is a rule guard cannot place, and asks in every mode.
   */
  readonly concern?: Concern;
  /** Set on an ask rule when no mode lets its asks go ahead unasked, and why. */
  readonly asksInEveryMode?: AsksInEveryMode;
  /** What a yes is remembered by (`never` for blocks). */
  readonly remember: MemoryScope;
  /** A few words naming what the rule is about, for the catalogue. */
  readonly title: string;
  /** One sentence for the agent and the person: what would be lost, and the safer way. */
  readonly reason: string;
  readonly owasp: readonly OwaspTag[];
  readonly examples: { readonly match: readonly (string | Example)[]; readonly noMatch: readonly (string | Example)[] };
}

export interface Rule {
  readonly meta: RuleMeta;
  /**
   * On a shell step this rule finds something only at invocations of these programs (by
   * `Invocation.name`), so the engine skips it on shell steps that run none of them. Leave it out
   * when the rule reads anything else of a shell step (files, network, keys, the text).
   */
  readonly programs?: ReadonlySet<string>;
  /** Pure: every place in the step this rule is about (empty when it does not apply). */
  check(context: RuleContext): readonly Hit[];
  /**
   * For rules about the other findings (session.after-injection): runs after every `check`, on
   * the findings left after memory and policy. A rule with `after` has a `check` that finds nothing.
   */
  after?(findings: readonly Finding[], context: RuleContext): readonly Hit[];
}
