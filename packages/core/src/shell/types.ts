import type { Language } from '../programs/types.js';
import type { Span } from '../types.js';

/**
 * One step on the way from the top of a command line to an invocation. `kind` names the
 * mechanism, `name` the program or construct that opened it (`sudo`, `bash`, `xargs`, `$(`).
 */
export interface Via {
  readonly kind:
    | 'prefix' // sudo, env, nice, timeout, … (removed for matching, kept as a fact)
    | 'shell-c' // bash -c, sh -c, zsh -c, su -c, script -c, watch, pwsh -Command, cmd /c
    | 'eval'
    | 'remote' // ssh host "…", docker exec CONTAINER …, kubectl exec POD -- …
    | 'runner' // xargs, parallel, find -exec/-execdir, npx, pnpm dlx, bunx
    | 'substitution' // $(…), `…`
    | 'process-substitution' // <(…), >(…)
    | 'heredoc' // a heredoc or here-string fed to a shell or interpreter
    | 'inline-code' // a command found inside python -c, node -e, … code
    | 'function' // the body of a function defined in the line, read where it is called
    | 'subshell'; // ( … ), { …; }
  readonly name: string;
  /**
   * A `runner` guard does not know (`mytool git push`): its words start a program guard knows, so
   * they are read as the command it may run; the rules judge that command apart (at least an ask).
   */
  readonly guessed?: true;
}

/** A redirection attached to an invocation. */
export interface Redirect {
  /** As written: `>`, `>>`, `&>`, `&>>`, `2>`, `2>>`, `>|`, `<`, `<<`, `<<<`, `<>` … */
  readonly op: string;
  /** File descriptor number when written (`2>`), else undefined. */
  readonly fd?: number;
  /** The target after quote joining and variable resolution (`&1` for fd duplication). */
  readonly target: string;
  /** True when this redirection writes a file (not `/dev/null`, `/dev/stdout`, `/dev/stderr`, not `>&2`). */
  readonly write: boolean;
  /** True for `>>` / `&>>` (appends rather than truncates). */
  readonly append: boolean;
  readonly span: Span;
}

/** Inline program text handed to an interpreter (`python -c CODE`, `node -e CODE`, heredoc to `python -`). */
export interface InlineCode {
  readonly language: Language;
  readonly text: string;
  /** Span of the code in the original line (best effort when escaped). */
  readonly span: Span;
}

/**
 * One simple command as the shell would run it, after quote joining, prefix removal and
 * variable resolution. Rules match these, never raw substrings of the line.
 */
export interface Invocation {
  /** The program word as written after quote joining (`git`, `/usr/bin/rm`, `.\\x.ps1`). */
  readonly program: string;
  /** Normalised name for matching: basename, lower-cased, without `.exe`/`.cmd`/`.bat`/`.com` (`/usr/bin/git`, `GIT.EXE` → `git`). */
  readonly name: string;
  /** Arguments after the program word, quote-joined and resolved (unresolved `$VARS` kept as written). */
  readonly args: readonly string[];
  /** Spans of each argument in the original line (parallel to `args`; best effort inside inner shells). */
  readonly argSpans: readonly Span[];
  /** `VAR=value` assignments written before the program (after prefixes too: `sudo HUSKY=0 git …`). */
  readonly env: Readonly<Record<string, string>>;
  readonly redirects: readonly Redirect[];
  /** Effective working directory: absolute when known, else as far as it could be resolved. */
  readonly cwd: string;
  /** False when a `cd` to an unresolved place came before (cwd is then a best guess). */
  readonly cwdKnown: boolean;
  /** Span of this simple command in the original line. */
  readonly span: Span;
  /** How it was reached, outermost first; empty at top level. */
  readonly via: readonly Via[];
  /** Harmless prefixes that were removed in front of it (`sudo`, `env`, `timeout`, …) with their flags. */
  readonly prefixes: readonly { readonly name: string; readonly args: readonly string[] }[];
  /**
   * Set when reached through `ssh host "…"` (the host), `docker exec` (`container NAME`) or
   * `kubectl exec` (`pod NAME`): the invocation runs there, not on this computer.
   */
  readonly remoteHost?: string;
  /** Inline code handed to this interpreter (`python -c`, `node -e`, heredoc to `python -`). */
  readonly code?: InlineCode;
  /** Text fed on stdin by a heredoc or here-string, when it is data (not read as commands). */
  readonly stdinText?: string;
  /**
   * Its place in a pipeline: `id` is shared by all stages of one pipeline (unique within the
   * result), `index` is the stage (0 = first). A lone command is a pipeline of one.
   * `a | b` gives a at index 0 and b at index 1 with the same id, so rules can see what feeds b.
   */
  readonly pipeline: { readonly id: number; readonly index: number; readonly length: number };
}

/**
 * `NAME=value` as a statement of its own (`X=1; tool`, a line of only assignments): it sets a shell
 * variable, and one the shell already exports (`HOME`, one the environment has) goes on with its new
 * value to every later command, as with `export`. Not an invocation: nothing runs.
 */
export interface Assigned {
  readonly name: string;
  readonly value: string;
  /** The assignment word in the line. */
  readonly span: Span;
  /** How it was reached (`sh -c '…'`), as an invocation's `via`. */
  readonly via: readonly Via[];
}

/** A part of the line the reader could not read; rules treat it as unknown (SPEC 4.3). */
export interface Opaque {
  readonly reason:
    | 'unbalanced-quote'
    | 'unterminated-substitution'
    | 'unterminated-heredoc'
    | 'too-deep'
    | 'too-long'
    | 'too-many-stages'
    | 'dynamic-program' // the program name itself comes from an unresolved variable or substitution
    | 'dotnet-call' // a PowerShell call of a .NET method the reader does not know to be harmless
    | 'unfinished' // a compound command left open, a closer with nothing open, `&&` or `|` with nothing after
    | 'unreadable';
  readonly span: Span;
  readonly detail?: string;
}

export interface ReadOptions {
  /** Absolute working directory the line runs in. */
  readonly cwd: string;
  /** The home folder, for `~`, `$HOME`, `${HOME}`, `%USERPROFILE%`, `$env:USERPROFILE`. */
  readonly home: string;
  /** The system temp folder, for `$TMPDIR`, `$TMP`, `$TEMP`, `%TEMP%`. */
  readonly tmp?: string;
  /** guard's own folder, for `$GUARD_HOME`. */
  readonly guardHome?: string;
  /** The syntax of the line: a POSIX shell (default), PowerShell, or cmd.exe. */
  readonly shell?: 'posix' | 'powershell' | 'cmd';
}

export interface ReadResult {
  /** The line that was read; every span indexes into it. */
  readonly line: string;
  readonly invocations: readonly Invocation[];
  readonly opaque: readonly Opaque[];
  /** Statement-level assignments, in line order (left out when there are none). */
  readonly assigned?: readonly Assigned[];
}
