// The hook's fourth stage: reply. The one place that writes the agent's answer: exactly once, and
// always within the call's deadline. What the answer is when guard could not decide (a failure, the
// deadline: failure.ts's policy, fed what is known by then) and how long the deadline is (the
// agent's own hook timeout less a margin) are decided here too.
import type { HookReply } from '@guard/adapters';
import { AGENTS } from '@guard/adapters/agents';
import { ExitCode } from '../errors.js';
import type { LogEntry } from '../state/decision-log.js';
import type { Call, CallEntry, HookIo } from './call.js';
import { describeInput, oneLine } from './call.js';
import type { Unchecked } from './failure.js';
import { failureAnswer, isBrokenCode } from './failure.js';
import { sniffEvent } from './input.js';

/**
 * What is kept back of the agent's own hook timeout (the seconds its declaration gives, as setup
 * writes them): 30 % of it, and never less than 3 s. The deadline counts from the start of the Node
 * process (io.started), so Node's own start, slow under load, is inside it; the margin is for what
 * is not: the agent's spawn of the command (Codex's through a login shell, whose profile may take
 * seconds), a timer that fires late on a loaded machine, writing the answer and exiting. What slows
 * those grows with the load, as does everything else in the call, hence a share and not a constant.
 */
const MARGIN_SHARE = 0.3;
const MIN_MARGIN_MS = 3_000;

/**
 * A chat start asks the local MCP servers for their tools, within 5 s of the call's start (SPEC §5),
 * so it gets that plus time to save and answer on a busy machine, when the agent's timeout allows.
 */
export const START_DEADLINE_MS = 7_000;

/** The most a hook call of an agent that waits `timeoutSeconds` may take: its timeout less the margin. */
export function ceilingMs(timeoutSeconds: number): number {
  const ms = timeoutSeconds * 1000;
  return Math.max(0, Math.min(ms - MIN_MARGIN_MS, Math.floor(ms * (1 - MARGIN_SHARE))));
}

/** A call's deadlines, in ms after it began: for a step (and any other event), and for a chat start. */
export interface Deadlines {
  readonly step: number;
  readonly start: number;
}

/**
 * The deadlines of a call of an agent that waits `timeoutSeconds`: the agent's ceiling, shorter
 * when `GUARD_DEADLINE_MS` (or `wantedMs`, in its place) asks for less, never longer; a chat start's
 * at least START_DEADLINE_MS within the same ceiling. `reserveMs` is kept back of both, up to half.
 */
export function deadlinesFor(
  timeoutSeconds: number,
  env: Readonly<Record<string, string | undefined>>,
  options: { readonly wantedMs?: number | undefined; readonly reserveMs?: number | undefined } = {},
): Deadlines {
  const ceiling = ceilingMs(timeoutSeconds);
  const wanted = options.wantedMs ?? deadlineFrom(env) ?? ceiling;
  const step = Math.min(ceiling, wanted);
  const start = Math.min(ceiling, Math.max(step, START_DEADLINE_MS));
  const kept = (ms: number): number => ms - Math.min(options.reserveMs ?? 0, Math.floor(ms / 2));
  return { step: kept(step), start: kept(start) };
}

/** An answer to give: the reply's bytes and exit code, and the log fields that go with it. */
export interface Answer {
  readonly reply: HookReply;
  readonly entry: CallEntry;
  /** Another hook of the same tool call gave this answer and wrote its log line: none here. */
  readonly unlogged?: true;
}

/** An answer as the reply stage gave it. */
export interface Answered {
  readonly code: number;
  /** The call's log line, when this answer is the one that went out (another went out first: none). */
  readonly line?: LogEntry;
}

/** The call's deadline, as the stages before the reply see it. */
export interface Clock {
  /** When the answer is due (ms since epoch). */
  due(): number;
  /** The call is a chat start: it gets the longer deadline its scan of the MCP servers needs. */
  starting(): void;
}

/** The reply stage of one call. */
export interface Replier extends Clock {
  /** The failure answer the deadline gave, when it came first. */
  readonly expired: Promise<Answered>;
  /** Writes `answer` unless an answer went out already. */
  give(answer: Answer): Answered;
  /** Writes the failure answer for `error` unless an answer went out already. */
  fail(error: unknown): Answered;
  /** The call is over: the deadline no longer runs. */
  stop(): void;
}

/** Arms the call's deadline; the returned replier answers the call once. */
export function replyStage(call: Call): Replier {
  const { io, known, started } = call;
  const deadlines = deadlinesFor(AGENTS[call.agent].files.hookTimeout, io.env, {
    wantedMs: call.deps.deadlineMs,
    reserveMs: call.deps.reserveMs,
  });
  let replied = false;
  let timer: NodeJS.Timeout | undefined;
  let due = started;
  let expire: (answered: Answered) => void = () => undefined;
  const expired = new Promise<Answered>((resolve) => (expire = resolve));

  const give = ({ reply, entry, unlogged }: Answer): Answered => {
    if (replied) return { code: reply.exitCode };
    replied = true;
    io.out(reply.stdout);
    if (reply.stderr !== undefined) io.err(reply.stderr);
    if (unlogged === true) return { code: reply.exitCode };
    const error = [...known.problems, ...(entry.error === undefined ? [] : [entry.error])].join('; ');
    const line: LogEntry = {
      time: new Date().toISOString(),
      agent: call.agent,
      ...entry,
      ...(error === '' ? {} : { error }),
      ms: Date.now() - started,
    };
    return { code: reply.exitCode, line };
  };

  // a step guard could not check is asked (blocked under fail-closed), the never list still
  // applied to what could be read, guard off: the failure policy is failure.ts's
  const fail = (how: 'failure' | 'deadline', error: unknown): Answered => {
    if (replied) return { code: ExitCode.Ok };
    const cause = oneLine(error);
    const { agent, payload, env } = call;
    const { input, settings, checked } = known;
    const what: Unchecked =
      how === 'deadline' ? 'deadline' : isBrokenCode(error) ? 'broken' : input === undefined ? 'unread' : 'error';
    const unread = input === undefined ? { text: known.read?.() ?? '', parentArgs: argsOf(io) } : {};
    // a payload cut short still names its event, as a whole one that is not JSON does
    const event = known.event ?? (unread.text === undefined ? undefined : sniffEvent(unread.text));
    const answer = failureAnswer({
      agent,
      payload,
      event,
      input,
      settings,
      env,
      what,
      ...unread,
      ...(checked === undefined || how !== 'deadline' ? {} : { checked }),
    });
    if (answer.how !== 'off') io.err(`guard: ${cause}\n`);
    return give({
      reply: answer.reply,
      entry: {
        ...describeInput(input, event),
        decision: answer.decision,
        ...(answer.answer === undefined ? {} : { answer: answer.answer }),
        rules: answer.rules,
        how: answer.how === 'off' ? 'off' : how,
        error: cause,
      },
    });
  };

  /** (Re)sets the deadline to `ms` after the call began. */
  const arm = (ms: number): void => {
    clearTimeout(timer);
    io.deadline?.(ms);
    due = started + ms;
    timer = setTimeout(
      () => expire(fail('deadline', new Error(`no answer within ${ms} ms`))),
      Math.max(0, due - Date.now()),
    );
  };
  arm(deadlines.step);

  return {
    expired,
    give,
    fail: (error) => fail('failure', error),
    due: () => due,
    starting: () => arm(deadlines.start),
    stop: () => clearTimeout(timer),
  };
}

/** The agent's command line, or none when it cannot be read. */
function argsOf(io: HookIo): readonly string[] {
  try {
    return io.parentArgs();
  } catch {
    return [];
  }
}

/** The deadline `GUARD_DEADLINE_MS` asks for (a whole number of ms above 0), else undefined. */
export function deadlineFrom(env: Readonly<Record<string, string | undefined>>): number | undefined {
  const value = Number(env.GUARD_DEADLINE_MS);
  return Number.isInteger(value) && value > 0 ? value : undefined;
}
