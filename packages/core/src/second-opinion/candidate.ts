import type { Evaluation } from '../evaluate.js';
import { mcpToolChanges } from '../facts/mcp.js';
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

/**
 * Programs that only print what they find, whatever their arguments (apart from the few options
 * that make some of them write, checked below). Kept short on purpose: anything else is sent.
 */
const LOOKERS = new Set([
  'ls',
  'dir',
  'tree',
  'pwd',
  'cd',
  'pushd',
  'popd',
  'cat',
  'head',
  'tail',
  'less',
  'more',
  'wc',
  'grep',
  'egrep',
  'fgrep',
  'rg',
  'ag',
  'ack',
  'find',
  'fd',
  'file',
  'stat',
  'du',
  'df',
  'echo',
  'printf',
  'which',
  'whereis',
  'type',
  'whoami',
  'id',
  'uname',
  'diff',
  'cmp',
  'sort',
  'uniq',
  'cut',
  'nl',
  'column',
  'jq',
  'realpath',
  'readlink',
  'basename',
  'dirname',
  'true',
  'false',
  'test',
  '[',
]);

/** git subcommands that only show things. */
const GIT_LOOKS = new Set([
  'status',
  'log',
  'diff',
  'show',
  'rev-parse',
  'ls-files',
  'ls-tree',
  'blame',
  'grep',
  'describe',
  'shortlog',
  'cat-file',
]);

/** Options that make a looker write or run something (`sort -o f`, `tree -o f`, `find -delete`, `find -exec`). */
const WRITING_OPTIONS = /^(?:-o|--output(?:=.*)?|-delete|-exec|-execdir|-ok|-okdir|-fprint.*|-fls)$/;

/** git's own options that take the next word as their value. */
const GIT_VALUE_OPTIONS = new Set(['-C', '-c', '--git-dir', '--work-tree', '--namespace']);

/** A shell command that only reads, searches or lists: every command in it only looks, and nothing is written. */
function onlyLooks(evaluation: Evaluation): boolean {
  if (evaluation.opaque.length > 0 || evaluation.invocations.length === 0) return false;
  if (evaluation.files.some((file) => file.op !== 'read')) return false;
  return evaluation.invocations.every(looks);
}

function looks(inv: Invocation): boolean {
  if (inv.remoteHost !== undefined || inv.code !== undefined) return false;
  if (inv.redirects.some((redirect) => redirect.write)) return false;
  if (inv.name === 'git') return gitLooks(inv.args);
  return LOOKERS.has(inv.name) && !inv.args.some((arg) => WRITING_OPTIONS.test(arg));
}

function gitLooks(args: readonly string[]): boolean {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (GIT_VALUE_OPTIONS.has(arg)) {
      i++;
      continue;
    }
    if (arg.startsWith('-')) continue;
    return GIT_LOOKS.has(arg) && !args.slice(i + 1).some((rest) => rest === '--output' || rest.startsWith('--output='));
  }
  return false;
}
