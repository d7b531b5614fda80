/**
 * Where a command's output goes within one step: into a program that runs it as code (a pipe into
 * `sh`, a `$(…)` handed to `bash -c` or `eval`, a file saved and then run, PowerShell's
 * `iex (…)`), or to the agent's eyes, as opposed to a program that only consumes it
 * (`docker login --password-stdin`). The shared facts behind exec.remote-code, exec.hidden,
 * env.print and the printed-login part of secrets.read.
 */
import { argvOf } from '../context/argv.js';
import type { FileEffect, RuleContext } from '../context/types.js';
import { cmdletOf, isA, sourceOf } from '../programs/index.js';
import type { Invocation, Via } from '../shell/types.js';
import type { Span } from '../types.js';
import { runsStdinAsCode } from './effects.js';

/** How the output reaches the program that runs it. */
export interface CodeFeed {
  readonly runner: Invocation;
  readonly how: 'pipe' | 'substitution' | 'file' | 'expression';
}

const WORD = /\w/;

/**
 * Spans of the arguments an invocation runs as code (`bash -c CODE`, `eval …`, `bash <(…)`,
 * `source FILE`, `python -c CODE`, `pwsh -Command …`): what the program knowledge base says it
 * runs (`sourceOf`), and every argument of an evaluator (`eval`, `iex`).
 */
export function codeArgumentSpans(inv: Invocation): Span[] {
  const spans: (Span | undefined)[] = [];
  if (isA(inv.name, 'evaluator')) {
    spans.push(...inv.argSpans);
  } else {
    const source = sourceOf(inv.name, inv.args);
    switch (source.kind) {
      case 'text':
        // the text itself, and the words after it that a joined text takes along
        spans.push(...(source.joined ? inv.argSpans.slice(source.at.index) : [inv.argSpans[source.at.index]]));
        break;
      case 'code':
        for (const part of source.parts) spans.push(inv.argSpans[part.index]);
        break;
      case 'script':
        spans.push(inv.argSpans[source.index]);
        break;
      case 'encoded':
        spans.push(inv.argSpans[source.index + 1]);
        break;
      default:
        break;
    }
    if (inv.code) spans.push(inv.code.span);
  }
  return spans.filter((span): span is Span => span !== undefined);
}

function contains(outer: Span, inner: Span): boolean {
  return outer[0] <= inner[0] && inner[1] <= outer[1];
}

/**
 * True when `inner` was reached through a `$(…)`/`<(…)` opened directly in `outer`'s words: the
 * words as written, before a prefix or runner there was taken off (`sudo bash -c "$(curl …)"`,
 * `xargs sh -c "$(…)"` substitute into the words of the whole command).
 */
export function substitutedInto(inner: Invocation, outer: Invocation): boolean {
  let own = outer.via.length;
  while (own > 0 && writtenWith(outer.via[own - 1] as Via)) own--;
  const step = inner.via[own];
  if (inner.via.length <= own || (step?.kind !== 'substitution' && step?.kind !== 'process-substitution')) return false;
  for (let i = 0; i < own; i++) {
    const via = outer.via[i] as Via;
    if (inner.via[i]?.kind !== via.kind || inner.via[i]?.name !== via.name) return false;
  }
  return true;
}

/** Via steps a command's own words bring (a prefix, a runner it names): not a level of its own. */
function writtenWith(via: Via): boolean {
  return via.kind === 'prefix' || via.kind === 'runner';
}

/**
 * The program that runs `producer`'s output as code in this step, if any: a later stage of its
 * pipeline that reads code from stdin, a runner whose code argument holds it as a substitution, a
 * file it writes that the step later runs, or PowerShell's `iex (…)` around it.
 */
export function outputRunAsCode(context: RuleContext, producer: Invocation): CodeFeed | undefined {
  const stages = context.pipeline(producer);
  for (let s = producer.pipeline.index + 1; s < stages.length; s++) {
    for (const inv of stages[s]?.commands ?? []) if (runsStdinAsCode(inv)) return { runner: inv, how: 'pipe' };
  }
  for (const inv of context.invocations) {
    if (inv === producer) continue;
    if (substitutedInto(producer, inv) && codeArgumentSpans(inv).some((span) => contains(span, producer.span))) {
      return { runner: inv, how: 'substitution' };
    }
    if (cmdletOf(inv.name) === 'invoke-expression' && inv.args.length === 0) {
      const end = expressionEnd(context.text, inv.span[1]);
      if (producer.span[0] >= inv.span[1] && producer.span[1] <= end) return { runner: inv, how: 'expression' };
    }
  }
  const written = new Set<string>();
  for (const file of context.filesOf(producer)) {
    if ((file.op === 'write' || file.op === 'create') && file.path.abs !== '') written.add(file.path.abs);
  }
  if (written.size > 0) {
    for (const file of context.files) {
      if (file.op === 'exec' && written.has(file.path.abs) && file.span[0] > producer.span[0] && file.invocation) {
        return { runner: file.invocation, how: 'file' };
      }
    }
  }
  return undefined;
}

/**
 * Files whose text the step runs as commands without naming them as a script, as `exec` effects
 * of the program that runs them (so they are read like any script the step runs): a file printed
 * into a shell (`cat cmds.txt | sh`, `source <(cat cmds.txt)`, `eval "$(cat cmds.txt)"`), or read by a
 * runner that hands what it reads to a shell as its text (`xargs -I{} sh -c {} < cmds.txt`,
 * `xargs -a cmds.txt -I % bash -c %`, `cat cmds.txt | xargs -I{} sh -c {}`).
 */
export function filesRunAsCode(invocations: readonly Invocation[], files: readonly FileEffect[]): FileEffect[] {
  const out: FileEffect[] = [];
  for (const file of files) {
    const inv = file.invocation;
    if (file.op !== 'read' || inv === undefined || file.path.abs === '') continue;
    const runner = isA(inv.name, 'content-reader')
      ? codeRunnerOf(invocations, inv)
      : isA(inv.name, 'runner')
        ? shellFed(invocations, inv)
        : undefined;
    if (runner !== undefined)
      out.push({ op: 'exec', path: file.path, span: file.span, by: runner.name, invocation: runner });
  }
  return out;
}

/** What runs a content reader's output as code: a later stage of its pipeline, or the code word it is substituted into. */
function codeRunnerOf(invocations: readonly Invocation[], producer: Invocation): Invocation | undefined {
  for (const inv of invocations) {
    if (inv === producer) continue;
    if (inv.pipeline.id === producer.pipeline.id && inv.pipeline.index === producer.pipeline.index + 1) {
      if (runsStdinAsCode(inv)) return inv;
      const shell = shellFed(invocations, inv);
      if (shell !== undefined) return shell;
    }
    if (substitutedInto(producer, inv) && codeArgumentSpans(inv).some((span) => contains(span, producer.span)))
      return inv;
  }
  return undefined;
}

/**
 * The shell a runner hands what it reads to as its text (`xargs -I{} sh -c {}`, `xargs -I % bash -c '%'`):
 * the runner's placeholder (`-I R`, `--replace=R`, `-i`, else `{}`) starts the shell's text.
 */
function shellFed(invocations: readonly Invocation[], runner: Invocation): Invocation | undefined {
  const argv = argvOf(runner);
  const placeholder = argv.values('-I', '--replace', '-i')[0]?.value || '{}';
  for (const inv of invocations) {
    const via = inv.via[inv.via.length - 1];
    if (via?.kind !== 'runner' || via.name !== runner.name || !contains(runner.span, inv.span)) continue;
    const source = sourceOf(inv.name, inv.args);
    // the line read is where the text starts: the command (`sh -c {}`, `sh -c '{} --verbose'`)
    if (
      source.kind === 'text' &&
      (inv.args[source.at.index] ?? '').slice(source.at.offset).trimStart().startsWith(placeholder)
    )
      return inv;
  }
  return undefined;
}

/**
 * End of the PowerShell expression after `iex` at `from`: a parenthesised group and the member
 * calls chained to it (`(New-Object Net.WebClient).DownloadString('…')`). Quotes are skipped;
 * the scan is bounded by the text.
 */
export function expressionEnd(text: string, from: number): number {
  let at = from;
  while (text[at] === ' ' || text[at] === '\t') at++;
  if (text[at] !== '(') return from;
  for (;;) {
    at = groupEnd(text, at);
    // `.Content`, `.DownloadString(…)`
    if (text[at] !== '.') return at;
    at++;
    while (at < text.length && WORD.test(text[at] ?? '')) at++;
    if (text[at] !== '(') return at;
  }
}

function groupEnd(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if (c === "'" || c === '"') {
      const close = text.indexOf(c, i + 1);
      if (close < 0) return text.length;
      i = close;
    } else if (c === '(') depth++;
    else if (c === ')') {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return text.length;
}

const STDIN_SECRET_OPTIONS = new Set(['--password-stdin', '--with-token', '--token-stdin', '--stdin-password']);

/**
 * True when what the invocation prints reaches the agent or leaves with another command, false
 * when it only feeds a program that consumes it (`| docker login --password-stdin`, `| wc -c`,
 * `TOKEN=$(gh auth token) gh api …`).
 */
export function outputShown(context: RuleContext, inv: Invocation): boolean {
  if (inv.pipeline.index < inv.pipeline.length - 1) {
    const stages = context.pipeline(inv);
    for (let s = inv.pipeline.index + 1; s < stages.length; s++) {
      for (const next of stages[s]?.commands ?? []) {
        // a hash, a size or a count shows nothing of it
        if (isA(next.name, 'summarizer') || next.args.some((a) => STDIN_SECRET_OPTIONS.has(a)) || isSecretSetter(next))
          return false;
      }
    }
    return true;
  }
  const last = inv.via[inv.via.length - 1];
  if (last?.kind === 'substitution' || last?.kind === 'process-substitution') {
    // the value lands in the words of the command around it
    let outer: Invocation | undefined;
    for (const candidate of context.invocations) {
      if (candidate === inv || !substitutedInto(inv, candidate) || !contains(candidate.span, inv.span)) continue;
      if (outer === undefined || candidate.span[1] - candidate.span[0] < outer.span[1] - outer.span[0])
        outer = candidate;
    }
    if (outer === undefined) return false;
    // printed, or named as a file whose name an error shows (`cat`), or written with tee
    if (isA(outer.name, 'printer') || isA(outer.name, 'content-reader') || cmdletOf(outer.name) === 'tee-object')
      return true;
    return context.netOf(outer).some((net) => net.hostClass === 'other');
  }
  return true;
}

/** `gh secret set X`, `wrangler secret put X`, `vercel env add X`: store a secret read from stdin. */
function isSecretSetter(inv: Invocation): boolean {
  const [a, b] = inv.args;
  return (
    (inv.name === 'gh' && a === 'secret' && b === 'set') ||
    (inv.name === 'wrangler' && a === 'secret' && b === 'put') ||
    (inv.name === 'vercel' && a === 'env' && b === 'add') ||
    (inv.name === 'docker' && a === 'secret' && b === 'create') ||
    (inv.name === 'fly' && a === 'secrets' && b === 'import')
  );
}
