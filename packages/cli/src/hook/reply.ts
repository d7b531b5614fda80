// The hook's fourth stage: reply. The one place that writes the agent's answer: exactly once, and
// always within the call's deadline. What the answer is when guard could not decide (a failure, the
// deadline) and how long the deadline is are decided here too, so the answer to a step guard could
// not check, and a deadline the agent declares, are each one change in this module.
import type { HookReply } from '@guard/adapters';
import { ExitCode } from '../errors.js';
import type { LogEntry } from '../state/decision-log.js';
import type { Call, CallEntry } from './call.js';
import { describeInput, oneLine } from './call.js';
import { failureAnswer, isBrokenCode } from './failure.js';

/** Below every agent's own hook timeout (the shortest is Cursor's 10 s as guard installs it). */
export const DEFAULT_DEADLINE_MS = 2_000;

/**
 * A chat start asks the local MCP servers for their tools, within 5 s of the call's start (SPEC §5),
 * so it gets that plus time to save and answer on a busy machine; still below every agent's timeout.
 */
export const START_DEADLINE_MS = 7_000;

/** An answer to give: the reply's bytes and exit code, and the log fields that go with it. */
export interface Answer {
  readonly reply: HookReply;
  readonly entry: CallEntry;
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
  const deadlineMs = call.deps.deadlineMs ?? deadlineFrom(io.env);
  let replied = false;
  let timer: NodeJS.Timeout | undefined;
  let due = started;
  let expire: (answered: Answered) => void = () => undefined;
  const expired = new Promise<Answered>((resolve) => (expire = resolve));

  const give = ({ reply, entry }: Answer): Answered => {
    if (replied) return { code: reply.exitCode };
    replied = true;
    io.out(reply.stdout);
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

  // fail-closed, never list still applied, guard off: the failure policy is failure.ts's
  const fail = (how: 'failure' | 'deadline', error: unknown): Answered => {
    if (replied) return { code: ExitCode.Ok };
    const cause = oneLine(error);
    const { agent, payload, env } = call;
    const { event, input, settings } = known;
    const answer = failureAnswer({ agent, payload, event, input, settings, env, brokenCode: isBrokenCode(error) });
    if (answer.how !== 'off') io.err(`guard: ${cause}\n`);
    return give({
      reply: answer.reply,
      entry: {
        ...describeInput(input, event),
        decision: answer.decision,
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
  arm(deadlineMs);

  return {
    expired,
    give,
    fail: (error) => fail('failure', error),
    due: () => due,
    starting: () => arm(Math.max(deadlineMs, START_DEADLINE_MS)),
    stop: () => clearTimeout(timer),
  };
}

/** The deadline `GUARD_DEADLINE_MS` sets (a whole number of ms above 0), else the default. */
export function deadlineFrom(env: Readonly<Record<string, string | undefined>>): number {
  const value = Number(env.GUARD_DEADLINE_MS);
  return Number.isInteger(value) && value > 0 ? value : DEFAULT_DEADLINE_MS;
}
