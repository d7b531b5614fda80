import type { FileEffect, NetEffect } from './analysis/effects.js';
import type { KeyHit } from './facts/keys.js';
import type { PathContext, PathFacts } from './facts/paths.js';
import type { Invocation, Opaque } from './shell/types.js';
import type { Decision, Finding, MemoryScope, Span, ToolStep } from './types.js';

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

/**
 * Questions a rule may ask about the world outside the step. Every member is optional and may
 * answer `undefined` ("don't know"); the engine treats a throwing or missing probe the same way.
 */
export interface Probe {
  /** Of these absolute paths, the ones git ignores (cwd = the repository to ask). */
  gitIgnored?(cwd: string, paths: readonly string[]): ReadonlySet<string> | undefined;
  /** Absolute paths of untracked, not ignored files under `cwd` (what `git add -A` would add). */
  gitUntracked?(cwd: string): readonly string[] | undefined;
  /** Absolute paths of tracked files with changes (what `git commit -a` would take). */
  gitModified?(cwd: string): readonly string[] | undefined;
  /** The current branch in `cwd`. */
  gitBranch?(cwd: string): string | undefined;
  /** Text of a file, at most `maxBytes` (undefined when missing or unreadable). */
  readText?(path: string, maxBytes: number): string | undefined;
  /** Whether a path exists. */
  exists?(path: string): boolean | undefined;
  /** Package names the project lists (package.json, pyproject.toml, requirements*.txt, …); undefined when it lists none. */
  projectPackages?(projectRoot: string): ReadonlySet<string> | undefined;
}

/** What this chat's memory says, as far as rules need it (SPEC §5). */
export interface SessionView {
  /** Absolute paths of files the agent created in this chat. */
  readonly createdFiles: ReadonlySet<string>;
  /** Untrusted content was read since the person's last message (or in this chat, when strict). */
  readonly untrusted: boolean;
  /** A result showed injection signs (or a rules file did at chat start). */
  readonly injection: boolean;
  /** A key-shaped value came back in a result. */
  readonly keySeen: boolean;
  /** MCP servers whose tool descriptions showed injection signs at chat start. */
  readonly poisonedServers: ReadonlySet<string>;
  /** How many times in a row this exact command failed, with no file changed since (0 when unknown). */
  failuresInARow(command: string): number;
}

/** A rule's view of one step: the step, what the reader found, and the facts derived from it. */
export interface RuleContext {
  readonly step: ToolStep;
  /** The text every span indexes into. */
  readonly text: string;
  /** Shell invocations (shell steps only; empty otherwise). */
  readonly invocations: readonly Invocation[];
  readonly opaque: readonly Opaque[];
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
}

/** One place a rule matched. */
export interface Hit {
  readonly span: Span;
  /** What a yes is remembered by, after the rule id (`origin/main`, `lodash`, `/abs/path`). */
  readonly key?: string;
  /** A fact to add to the reason (a package name, a file): "… (lodash)". Never a secret value. */
  readonly detail?: string;
  /** The absolute path the hit is about, when it is about one (for path-scoped policy allows). */
  readonly path?: string;
  /** This hit is remembered differently from the rule's default (a plain memory note: once per chat). */
  readonly remember?: MemoryScope;
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
}

/** A Probe that answers from a table and knows nothing else (what a field leaves out is "don't know"). */
export function tableProbe(p: ProbeTable = {}): Probe {
  return {
    gitUntracked: () => p.untracked,
    gitModified: () => p.modified,
    gitIgnored: (_cwd, paths) => new Set(paths.filter((path) => (p.ignored ?? []).includes(path))),
    gitBranch: () => p.branch,
    readText: (path) => p.files?.[path],
    exists: (path) => (p.files ? path in p.files : undefined),
    projectPackages: () => (p.packages ? new Set(p.packages) : undefined),
  };
}

/** A documented example, with the world it assumes. */
export interface Example {
  readonly step: ExampleStep;
  /** Session facts the example assumes (defaults: a fresh chat). */
  readonly session?: Partial<Omit<SessionView, 'failuresInARow' | 'createdFiles' | 'poisonedServers'>> & {
    readonly createdFiles?: readonly string[];
    readonly poisonedServers?: readonly string[];
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
  readonly decision: Exclude<Decision, 'allow'>;
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
