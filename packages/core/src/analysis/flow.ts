/**
 * Where a command's output goes within one step: into a program that runs it as code (a pipe into
 * `sh`, a `$(…)` handed to `bash -c` or `eval`, a file saved and then run, PowerShell's
 * `iex (…)`), or to the agent's eyes, as opposed to a program that only consumes it
 * (`docker login --password-stdin`). The shared facts behind exec.remote-code, exec.hidden,
 * env.print and the printed-login part of secrets.read.
 */
import type { RuleContext } from '../rule.js';
import type { Invocation } from '../shell/types.js';
import type { Span } from '../types.js';
import { operands } from './args.js';
import { runsStdinAsCode } from './effects.js';

/** How the output reaches the program that runs it. */
export interface CodeFeed {
  readonly runner: Invocation;
  readonly how: 'pipe' | 'substitution' | 'file' | 'expression';
}

const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'ash', 'fish', 'busybox']);
const INTERPRETERS = /^(?:python[\d.]*|pypy[\d.]*|py|node|nodejs|bun|deno|ruby|perl|php|tsx|ts-node)$/;
const EVALUATORS = new Set(['eval', 'iex', 'invoke-expression']);
const SHELL_WITH_VALUE = new Set(['-o', '+o', '-O', '+O', '--rcfile', '--init-file']);
const INTERPRETER_WITH_VALUE = new Set(['-W', '-X', '-r', '--require', '--import', '--loader', '-I', '-M']);
const POWERSHELL_CODE = /^[-/](?:c|command|f|file|ec|e|encodedcommand)$/i;
const WORD = /\w/;

/** Spans of the arguments an invocation runs as code (`bash -c CODE`, `eval …`, `bash <(…)`, `source FILE`). */
export function codeArgumentSpans(inv: Invocation): Span[] {
  const name = inv.name;
  const spanOf = (index: number): Span | undefined => inv.argSpans[index];
  const spans: (Span | undefined)[] = [];
  if (EVALUATORS.has(name)) {
    spans.push(...inv.argSpans);
  } else if (name === 'source' || name === '.') {
    spans.push(spanOf(0));
  } else if (SHELLS.has(name)) {
    const first = operands(inv, SHELL_WITH_VALUE)[0];
    // with -c the first operand is the code, without it the script file; either way it runs
    if (first) spans.push(first.span);
  } else if (INTERPRETERS.test(name)) {
    if (inv.code) spans.push(inv.code.span);
    const first = operands(inv, INTERPRETER_WITH_VALUE)[0];
    if (first) spans.push(first.span);
  } else if (name === 'pwsh' || name === 'powershell') {
    const flag = inv.args.findIndex((a) => POWERSHELL_CODE.test(a));
    spans.push(flag >= 0 ? spanOf(flag + 1) : operands(inv)[0]?.span);
  }
  return spans.filter((span): span is Span => span !== undefined);
}

function contains(outer: Span, inner: Span): boolean {
  return outer[0] <= inner[0] && inner[1] <= outer[1];
}

/** True when `inner` was reached through a `$(…)`/`<(…)` opened directly in `outer`'s words. */
function substitutedInto(inner: Invocation, outer: Invocation): boolean {
  const step = inner.via[outer.via.length];
  if (inner.via.length <= outer.via.length || (step?.kind !== 'substitution' && step?.kind !== 'process-substitution'))
    return false;
  return outer.via.every((via, i) => inner.via[i]?.kind === via.kind && inner.via[i]?.name === via.name);
}

/**
 * The program that runs `producer`'s output as code in this step, if any: a later stage of its
 * pipeline that reads code from stdin, a runner whose code argument holds it as a substitution, a
 * file it writes that the step later runs, or PowerShell's `iex (…)` around it.
 */
export function outputRunAsCode(context: RuleContext, producer: Invocation): CodeFeed | undefined {
  for (const inv of context.invocations) {
    if (inv === producer) continue;
    if (
      inv.pipeline.id === producer.pipeline.id &&
      inv.pipeline.index > producer.pipeline.index &&
      runsStdinAsCode(inv)
    ) {
      return { runner: inv, how: 'pipe' };
    }
    if (substitutedInto(producer, inv) && codeArgumentSpans(inv).some((span) => contains(span, producer.span))) {
      return { runner: inv, how: 'substitution' };
    }
    if ((inv.name === 'iex' || inv.name === 'invoke-expression') && inv.args.length === 0) {
      const end = expressionEnd(context.text, inv.span[1]);
      if (producer.span[0] >= inv.span[1] && producer.span[1] <= end) return { runner: inv, how: 'expression' };
    }
  }
  const written = new Set<string>();
  for (const file of context.files) {
    if (file.invocation === producer && (file.op === 'write' || file.op === 'create') && file.path.abs !== '')
      written.add(file.path.abs);
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

/** Programs that print what they are handed. */
const PRINTERS = new Set(['echo', 'printf', 'print', 'write-output', 'write-host', 'echo.', 'cat', 'tee', 'say']);
/** Programs that take a secret on stdin and show nothing of it, or only its size or hash. */
const CONSUMERS = new Set(['sha256sum', 'sha1sum', 'sha512sum', 'md5sum', 'shasum', 'b2sum', 'cksum', 'wc']);
const STDIN_SECRET_OPTIONS = new Set(['--password-stdin', '--with-token', '--token-stdin', '--stdin-password']);

/**
 * True when what the invocation prints reaches the agent or leaves with another command, false
 * when it only feeds a program that consumes it (`| docker login --password-stdin`, `| wc -c`,
 * `TOKEN=$(gh auth token) gh api …`).
 */
export function outputShown(context: RuleContext, inv: Invocation): boolean {
  if (inv.pipeline.index < inv.pipeline.length - 1) {
    for (const next of context.invocations) {
      if (next.pipeline.id !== inv.pipeline.id || next.pipeline.index <= inv.pipeline.index) continue;
      if (CONSUMERS.has(next.name) || next.args.some((a) => STDIN_SECRET_OPTIONS.has(a)) || isSecretSetter(next))
        return false;
    }
    return true;
  }
  const last = inv.via[inv.via.length - 1];
  if (last?.kind === 'substitution' || last?.kind === 'process-substitution') {
    // the value lands in the words of the command around it
    let outer: Invocation | undefined;
    for (const candidate of context.invocations) {
      if (
        candidate === inv ||
        !substitutedInto(inv, candidate) ||
        candidate.via.length !== inv.via.length - 1 ||
        !contains(candidate.span, inv.span)
      )
        continue;
      if (outer === undefined || candidate.span[1] - candidate.span[0] < outer.span[1] - outer.span[0])
        outer = candidate;
    }
    if (outer === undefined) return false;
    if (PRINTERS.has(outer.name)) return true;
    const target = outer;
    return context.net.some((net) => net.invocation === target && net.hostClass === 'other');
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
