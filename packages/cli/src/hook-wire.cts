// What the hook client (hook-entry.cts) and the resident checker (hook-server.cts) send each other:
// types only, so neither loads anything for them.

/** The header a client sends, one JSON line before stdin's bytes. */
export interface Header {
  readonly v: number;
  readonly id: string;
  readonly argv: readonly string[];
  readonly env: Record<string, string | undefined>;
  readonly ppid: number;
  /** When the client's process started (ms since epoch): the call's deadline counts from it. */
  readonly started: number;
  readonly home: string;
  readonly tmp: string;
  /** The client's Node (process.version): a checker on another Node is stale, as one of another build is. */
  readonly node: string;
}

/** A frame the checker sends, one JSON line each. */
export type Frame =
  | { readonly t: 'accepted' }
  /** The checker's deadline for the call, in ms after the header's `started` (sent at once, and when it moves). */
  | { readonly t: 'deadline'; readonly ms: number }
  | { readonly t: 'stale' }
  | { readonly t: 'done'; readonly out: string; readonly err: string; readonly code: number };
