import type { Argv } from '../context/types.js';
import { cmdletOf, grammarOf, takesValue } from '../programs/index.js';
import type { Hit, Rule, RuleContext } from '../rule.js';
import type { Invocation } from '../shell/types.js';
import type { Span } from '../types.js';

/** Programs that stop every process matching a name, a pattern or a port. */
const BY_NAME = new Set(['pkill', 'killall', 'kill-port', 'fkill', 'fkill-cli', 'killport']);
const KILLALL_LOOKS = new Set(['-l', '--list', '-V', '--version', '-h', '--help']);
/** Programs that stop the processes whose ids they are given. */
const KILLERS = new Set(['kill', 'taskkill']);
/** Programs that find process ids by name, pattern or port. */
const FINDERS = new Set(['pgrep', 'pidof', 'lsof', 'fuser', 'ps', 'ss', 'netstat', 'get-nettcpconnection']);

/** Stops processes by id: kill, taskkill, and Stop-Process by any alias (`spps`). */
const killer = (name: string): boolean => KILLERS.has(name) || cmdletOf(name) === 'stop-process';
/** Finds process ids: pgrep, lsof, …, and Get-Process by any alias (`gps`). */
const finder = (name: string): boolean => FINDERS.has(name) || cmdletOf(name) === 'get-process';

export const processKillByName = {
  meta: {
    id: 'process.kill-by-name',
    decision: 'ask',
    remember: 'every-time',
    concern: 'destructive',
    title: 'stopping programs by name or port',
    reason:
      "This stops every program that matches a name or a port, which can include the person's other servers, editors and projects; stop the one process this work started, by its id.",
    owasp: ['LLM06:2025'],
    examples: {
      match: [
        'pkill node',
        'killall -9 python3',
        'npx kill-port 3000',
        'lsof -ti:3000 | xargs kill',
        'taskkill /f /im node.exe',
        'Stop-Process -Name node',
      ],
      noMatch: ['kill 1234', 'kill -9 %1', 'pgrep -fl vite', 'lsof -i :3000', 'taskkill /pid 4242 /f'],
    },
  },
  programs: new Set([...BY_NAME, ...KILLERS, 'stop-process', 'spps', 'fuser']),
  check(context) {
    const feeds = finders(context.invocations);
    const hits: Hit[] = [];
    for (const inv of context.invocations) {
      if (killsByName(inv, context) || (killer(inv.name) && fedByFinder(inv, feeds)))
        hits.push({ span: inv.span, detail: inv.name });
    }
    return hits;
  },
} as const satisfies Rule;

function killsByName(inv: Invocation, context: RuleContext): boolean {
  const name = inv.name;
  if (BY_NAME.has(name))
    return (
      inv.args.length > 0 &&
      !inv.args.every((arg) => KILLALL_LOOKS.has(arg)) &&
      !(name === 'pkill' && onlyByParent(inv, context.argv(inv)))
    );
  switch (cmdletOf(name) === 'stop-process' ? 'stop-process' : name) {
    case 'fuser':
      return context.argv(inv).has('-k', '--kill');
    case 'taskkill':
      // `/im node.exe` names an image; `/fi "IMAGENAME eq …"` filters by one
      return inv.args.some((arg) => /^[/-](?:im|fi)$/i.test(arg));
    case 'stop-process':
      // PowerShell's Stop-Process (alias `kill`) by -Name; POSIX `kill -9 -1` stops every process
      return context.argv(inv).values('-Name', '-ProcessName').length > 0 || (name === 'kill' && killsEverything(inv));
    default:
      return false;
  }
}

/** A signal written as an option (`-9`, `-KILL`, `-SIGTERM`). */
const SIGNAL = /^-(?:[0-9]+|[A-Z]+|SIG[A-Z]+)$/;

/** `pkill -P $$`: no name or pattern, only the children of one process id. */
function onlyByParent(inv: Invocation, argv: Argv): boolean {
  let parent = false;
  for (const option of argv.options) {
    if (option.name === '-P' || option.name === '--parent') parent = true;
    // another option widens or changes the pick; a signal (`-9`, `-TERM`) does not
    else if (!SIGNAL.test(inv.args[option.index] ?? '')) return false;
  }
  // a pattern names processes
  return parent && argv.operands.length === 0;
}

/** `kill -9 -1`, `kill -- -1`: pid -1 is every process the user may signal. */
function killsEverything(inv: Invocation): boolean {
  const args = inv.args;
  // the signal comes first (`-9`, `-KILL`, `-s KILL`); so `kill -1 1234` sends signal 1 to one pid
  let at = takesValue(grammarOf('kill'), args[0] ?? '') ? 2 : /^-[A-Za-z0-9+]+$/.test(args[0] ?? '') ? 1 : 0;
  if (args[at] === '--') at++;
  return args.slice(at).includes('-1');
}

interface Finders {
  /** Pipeline id → the earliest stage that finds ids by name or port. */
  readonly firstStage: ReadonlyMap<number, number>;
  /** Spans of finders run inside a substitution (`$(pgrep node)`), sorted by start. */
  readonly substituted: readonly Span[];
}

function finders(invocations: readonly Invocation[]): Finders {
  const firstStage = new Map<number, number>();
  const substituted: Span[] = [];
  for (const inv of invocations) {
    if (!finder(inv.name) || byId(inv)) continue;
    const { id, index } = inv.pipeline;
    if (index < (firstStage.get(id) ?? Infinity)) firstStage.set(id, index);
    if (inv.via.some((via) => via.kind === 'substitution')) substituted.push(inv.span);
  }
  substituted.sort((a, b) => a[0] - b[0]);
  return { firstStage, substituted };
}

/**
 * A killer whose ids come from a finder: an earlier stage of its pipeline (`lsof -ti:3000 |
 * xargs kill`, `Get-Process node | Stop-Process`) or a substitution in its arguments (`kill
 * $(pgrep node)`).
 */
function fedByFinder(inv: Invocation, feeds: Finders): boolean {
  if ((feeds.firstStage.get(inv.pipeline.id) ?? Infinity) < inv.pipeline.index) return true;
  return inv.argSpans.some((span) => spanWithin(feeds.substituted, span));
}

/** Whether a span of the sorted list lies inside `outer` (binary search: no scan per argument). */
function spanWithin(sorted: readonly Span[], outer: Span): boolean {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if ((sorted[mid] as Span)[0] < outer[0]) low = mid + 1;
    else high = mid;
  }
  const first = sorted[low];
  return first !== undefined && first[0] < outer[1] && first[1] <= outer[1];
}

/** `Get-Process -Id 42` finds one process by its id, which is what the person asked for. */
function byId(inv: Invocation): boolean {
  return cmdletOf(inv.name) === 'get-process' && inv.name !== 'ps' && inv.args.some((arg) => /^-id$/i.test(arg));
}
