import { argvOf } from '../context/argv.js';
import type { Evaluation } from '../evaluate.js';
import { mcpToolChanges } from '../facts/mcp.js';
import { isA, program, subcommandOf } from '../programs/index.js';
import type { Invocation } from '../shell/types.js';
import type { ToolStep } from '../types.js';

/**
 * Which steps the second opinion is asked about (SPEC §11): shell commands, file writes and patches,
 * and MCP calls that change things, when the rules let them through on their own. Never a read, a
 * search, a listing or a fetch (they do not leave the machine for this check), never a step the
 * rules ask about or block (the model can only raise, and those are raised already), and never a
 * step that a person's earlier yes let through (the person already decided about what it risks).
 */
export function consultable(step: ToolStep, evaluation: Evaluation): boolean {
  if (evaluation.decision !== 'allow' || evaluation.remembered.length > 0) return false;
  switch (step.kind) {
    case 'write':
    case 'patch':
      return true;
    case 'mcp':
      return mcpToolChanges(step.tool, step.annotations);
    case 'shell':
      return !onlyLooks(evaluation);
    default:
      // reads, fetches, and tools guard does not know (their arguments are not a command or a path)
      return false;
  }
}

/** Options that make a looker write or run something (`sort -o f`, `tree -o f`, `find -delete`, `find -exec`). */
const WRITING_OPTIONS = /^(?:-o|--output(?:=.*)?|-delete|-exec|-execdir|-ok|-okdir|-fprint.*|-fls)$/;

/** A shell command that only reads, searches or lists: every command in it only looks, and nothing is written. */
function onlyLooks(evaluation: Evaluation): boolean {
  if (evaluation.opaque.length > 0 || evaluation.invocations.length === 0) return false;
  if (evaluation.files.some((file) => file.op !== 'read')) return false;
  return evaluation.invocations.every(looks);
}

/**
 * A program that only shows what it finds, whatever its arguments (a `looker`, apart from the few
 * options that make some of them write), or a subcommand that does (`git status`, `git -C dir log`).
 */
function looks(inv: Invocation): boolean {
  if (inv.remoteHost !== undefined || inv.code !== undefined) return false;
  if (inv.redirects.some((redirect) => redirect.write)) return false;
  if (isA(inv.name, 'looker')) return !inv.args.some((arg) => WRITING_OPTIONS.test(arg));
  const found = program(inv.name);
  if (found?.subcommands === undefined) return false;
  const sub = argvOf(inv).sub;
  return (
    subcommandOf(found, sub?.name)?.looks === true &&
    !(sub?.words ?? []).some(({ value }) => value === '--output' || value.startsWith('--output='))
  );
}
