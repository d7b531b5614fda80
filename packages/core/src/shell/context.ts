import type { Span } from '../types.js';
import type { Mapped } from './mapped.js';
import type { Assigned, Invocation, Opaque, ReadOptions, Via } from './types.js';

/** Hard bounds; exceeding one yields an Opaque entry instead of more work. */
export const LIMITS = {
  /** Nesting of inner shells, substitutions, groups, runners and inline code. */
  depth: 16,
  /** Characters read from one line; the rest is reported as `too-long`. */
  chars: 256 * 1024,
  /** Words, operators and redirections lexed in one call, over every inner text; a word's parts count too. */
  words: 5_000,
  /**
   * Parts of one word (variables, substitutions, quoted and unquoted text), and ten times as many
   * pieces of quoted text (`"a""b"`); the rest of a longer word is kept as written.
   */
  parts: 1_000,
  /** Invocations returned from one call. */
  invocations: 1_000,
  /** Aliases and functions expanded where they are used, over one call (`f(){ f; f; }; f` stops here). */
  expansions: 64,
} as const;

/** Which shell's syntax a text is written in. */
export type Dialect = 'posix' | 'powershell' | 'cmd';

/** Mutable form of an invocation while the reader fills it in. */
export type Draft = { -readonly [K in keyof Invocation]: Invocation[K] } & {
  pipeline: { id: number; index: number; length: number };
};

/** What one `readCommand` call accumulates, shared by every nested read. */
export interface Reader {
  readonly line: string;
  readonly options: ReadOptions;
  readonly invocations: Draft[];
  readonly opaque: Opaque[];
  /** `X=1` as a statement of its own (see Assigned). */
  readonly assigned: Assigned[];
  /** Original offsets of substitutions already read, so re-reading an inner string does not read them twice. */
  readonly seen: Set<number>;
  words: number;
  /** Commands lexed in one call, over every inner text; past LIMITS.invocations every lexer stops. */
  commands: number;
  /** Set once the word budget is spent: every lexer stops. */
  stopped: boolean;
  pipelines: number;
  /** Set once the invocation cap is reached. */
  full: boolean;
  /** Aliases and functions defined so far (none: nothing to look up for each command). */
  named: number;
  /** Alias and function expansions so far (bounded by LIMITS.expansions). */
  expansions: number;
  /** The functions being read at their call, innermost last (a call of one of them again recurses). */
  calling: string[] | undefined;
  /** `git config KEY VALUE` run earlier in the line: what later git commands read (aliases, hooks). */
  gitConfig: Map<string, Mapped> | undefined;
  /**
   * Groups `(…)` that follow a word of a simple command (`foreach ($f in $files)`, `@(1,2)`): no
   * POSIX shell runs what they hold (bash rejects the line, zsh and extglob take a pattern). Their
   * original spans, for the comparison with a PowerShell reading of the same line.
   */
  notRun: Span[] | undefined;
  /**
   * Files the line wrote with text it spells out (`cat > x.sh <<'EOF' … EOF`, `echo … > x.sh`), by
   * their path: a later command in the line that runs one of them (`bash x.sh`, `./x.sh`) runs that text.
   */
  written: Map<string, Mapped[]> | undefined;
  /**
   * Copies of a program's own file the line made (`cp /bin/rm ./ls`, `ln -s "$(which guard)" g`), by
   * their path: running one runs that program, named here.
   */
  programs: Map<string, string> | undefined;
}

/** Where a piece of text is being read: how it was reached and how deep. */
export interface Frame {
  readonly via: readonly Via[];
  readonly depth: number;
  readonly dialect: Dialect;
  readonly remoteHost?: string;
}

/**
 * The frame one level in: `via` added and the depth and dialect given, field by field
 * (docs/performance.md, "Field by field, not by spread").
 */
export function innerFrame(frame: Frame, via: readonly Via[], depth: number, dialect: Dialect): Frame {
  return { via, depth, dialect, ...(frame.remoteHost === undefined ? {} : { remoteHost: frame.remoteHost }) };
}

/** Starts the shared state of one call. */
export function newReader(line: string, options: ReadOptions): Reader {
  // the lists apart from the object: a literal nested in a literal takes a runtime call
  const invocations: Draft[] = [];
  const opaque: Opaque[] = [];
  return {
    line,
    options,
    invocations,
    opaque,
    assigned: [],
    seen: new Set(),
    words: 0,
    commands: 0,
    stopped: false,
    pipelines: 0,
    full: false,
    named: 0,
    expansions: 0,
    calling: undefined,
    gitConfig: undefined,
    notRun: undefined,
    written: undefined,
    programs: undefined,
  };
}

/** Records an opaque part; repeated reports of the same reason at the same place are kept once. */
export function addOpaque(reader: Reader, reason: Opaque['reason'], span: Span, detail?: string): void {
  const last = reader.opaque[reader.opaque.length - 1];
  if (last && last.reason === reason && last.span[0] === span[0]) return;
  if (reader.opaque.length >= LIMITS.invocations) {
    // a line this broken is not read any further: more of it would only cost time
    reader.stopped = true;
    return;
  }
  const start = Math.max(0, Math.min(span[0], reader.line.length));
  const end = Math.max(start, Math.min(span[1], reader.line.length));
  reader.opaque.push(detail === undefined ? { reason, span: [start, end] } : { reason, span: [start, end], detail });
}
