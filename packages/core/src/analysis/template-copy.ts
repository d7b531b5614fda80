/**
 * `cp .env.example .env`: the project's template copied onto its env file. The copy reads no
 * secret (secrets.read leaves it alone); what it can lose is the env file's stored values, when
 * one is there and holds some (fs.delete asks then, as for any file whose content goes).
 */
import type { FileEffect, RuleContext } from '../context/types.js';
import { cmdletOf } from '../programs/index.js';
import type { Invocation } from '../shell/types.js';

/** Copies a file: cp, install, and Copy-Item by any alias (`copy`, `cpi`). */
function copier(name: string): boolean {
  return name === 'install' || cmdletOf(name) === 'copy-item';
}

/** The write of a copy onto an env file (`.env`, `.env.local`) whose sources are no secret files. */
export function copiesTemplate(context: RuleContext, file: FileEffect, inv: Invocation): boolean {
  if (!copier(inv.name) || file.op !== 'write' || file.path.secret !== 'env-file') return false;
  const sources = context.filesOf(inv).filter((f) => f.op === 'read');
  return sources.length > 0 && sources.every((f) => f.path.secret === undefined);
}

/**
 * The env file such a copy writes holds nothing to lose: `-n` or `--update=none` keep one that
 * is there, a test right before the copy runs it only when there is none, or the probe says there
 * is none or that it is empty. Not knowing counts as one with values in it.
 */
export function overwritesNothing(context: RuleContext, file: FileEffect, inv: Invocation): boolean {
  const argv = context.argv(inv);
  if (argv.has('-n', '--no-clobber') || argv.values('--update').some((arg) => arg.value === 'none')) return true;
  const abs = file.path.abs;
  if (abs === '' || file.path.glob) return false;
  if (onlyWhenMissing(context, inv, abs)) return true;
  if (context.probe.exists?.(abs) === false) return true;
  return context.probe.readText?.(abs, 4096)?.trim() === '';
}

const FILE_TESTS = new Set(['-f', '-e']);

/**
 * The copy runs only when the file is not there: `test -f .env || cp …`, `[ -e .env ] || cp …`,
 * `[ ! -f .env ] && cp …`, `if [ ! -f .env ]; then cp …`. The test is the command right before it.
 */
function onlyWhenMissing(context: RuleContext, inv: Invocation, abs: string): boolean {
  const at = context.invocations.indexOf(inv);
  const test = at > 0 ? context.invocations[at - 1] : undefined;
  if (!test || (test.name !== 'test' && test.name !== '[') || test.via.length !== inv.via.length) return false;
  const args = test.name === 'test' ? test.args : test.args.slice(0, -1);
  const negated = args.length === 3 && args[0] === '!';
  const [flag, target] = negated ? args.slice(1) : args;
  if (args.length !== (negated ? 3 : 2) || flag === undefined || target === undefined || !FILE_TESTS.has(flag))
    return false;
  if (context.path(target, test.cwd).abs !== abs) return false;
  const between = context.text
    .slice(test.span[1], inv.span[0])
    .replace(/[\s;]+/g, ' ')
    .trim();
  return negated ? between === '&&' || between === 'then' : between === '||';
}
