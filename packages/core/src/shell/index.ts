import type { ReadOptions, ReadResult } from './types.js';

export type * from './types.js';

/**
 * Reads one command line the way a shell would and returns every invocation in it.
 * PLACEHOLDER: splits on whitespace only; the real reader replaces this file.
 */
export function readCommand(line: string, options: ReadOptions): ReadResult {
  const words = [...line.matchAll(/\S+/g)];
  const first = words[0];
  if (!first) return { line, invocations: [], opaque: [] };
  const program = first[0];
  return {
    line,
    opaque: [],
    invocations: [
      {
        program,
        name: program.split('/').pop() ?? program,
        args: words.slice(1).map((m) => m[0]),
        argSpans: words.slice(1).map((m) => [m.index, m.index + m[0].length] as const),
        env: {},
        redirects: [],
        cwd: options.cwd,
        cwdKnown: true,
        span: [first.index, line.trimEnd().length],
        via: [],
        prefixes: [],
        pipeline: { id: 0, index: 0, length: 1 },
      },
    ],
  };
}
