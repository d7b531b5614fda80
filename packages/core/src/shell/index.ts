// How the reader is put together:
//   mapped.ts      text with the original position of every character (spans survive re-reading)
//   lexer.ts       words, operators, redirections, heredocs and substitutions, with positions
//   walk.ts        lists, pipelines, subshells, groups and compound commands (explicit stack)
//   command.ts     one simple command: assignments, prefixes, the invocation, what it runs in turn
//   expand.ts      quote joining and variable resolution; scope.ts holds variables and the cwd
//   prefixes.ts    sudo, env, nice, timeout, …; nested.ts: inner shells and runners
//   inline-code.ts commands inside python -c, node -e, ruby -e, perl -e, php -r, deno eval
// It knows how shells run things, never which things are risky: that is the rules' business.
import { addOpaque, LIMITS, newReader } from './context.js';
import type { Draft, Frame } from './context.js';
import { identity } from './mapped.js';
import { rootScope } from './scope.js';
import type { ReadOptions, ReadResult, Via } from './types.js';
import { readSource } from './walk.js';

export type * from './types.js';
/** The reader's hard bounds (nesting depth, characters, words, invocations). */
export { LIMITS as READ_LIMITS } from './context.js';

/**
 * Reads one command line the way a shell would and returns every invocation in it: what runs,
 * with which arguments, where, and how it was reached. Parts it cannot read are returned as
 * opaque. Never throws; work is linear in the line's length and bounded (see LIMITS).
 */
export function readCommand(line: string, options: ReadOptions): ReadResult {
  const reader = newReader(line, options);
  let text = line;
  if (line.length > LIMITS.chars) {
    text = line.slice(0, LIMITS.chars);
    addOpaque(reader, 'too-long', [LIMITS.chars, line.length], `longer than ${LIMITS.chars} characters`);
  }
  const via: Via[] = [];
  const frame: Frame = { via, depth: 0, dialect: options.shell ?? 'posix' };
  readSource(reader, identity(text), frame, rootScope(options.cwd, options.home, options.tmp));
  return {
    line,
    invocations: detached(reader.invocations),
    opaque: [...reader.opaque].sort((a, b) => a.span[0] - b.span[0]),
  };
}

// Every invocation gets a pipeline object of its own (stages of one pipeline share one while the
// reader counts them); the drafts are not used after the read, so they are handed out as they are.
function detached(drafts: Draft[]): Draft[] {
  for (let d = 0; d < drafts.length; d++) {
    const draft = drafts[d] as Draft;
    draft.pipeline = { id: draft.pipeline.id, index: draft.pipeline.index, length: draft.pipeline.length };
  }
  return drafts;
}
