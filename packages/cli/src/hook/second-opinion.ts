import { basename } from 'node:path';
import type { Change, Chat, Evaluation, OpinionHealth, OpinionRecord, Plan, ToolStep } from '@guard/core';
import {
  afterAnswer,
  afterFailure,
  briefOf,
  memoOf,
  planOpinion,
  raised,
  raises,
  readOpinion,
  requestBody,
} from '@guard/core/second-opinion';
import type { SecondOpinionConfig } from '../state/settings.js';
import { readHealth, readRequest, updateHealth } from '../state/opinion.js';
import { postJson } from '../world/model-server.js';

/**
 * The second opinion on one step, as the hook asks it (SPEC §11): loaded only when it is on. What
 * to do is core's (`planOpinion`, `readOpinion`, `raises`, the health bookkeeping); this file reads
 * and writes its files and makes the one HTTP call. Whatever goes wrong, the rules' verdict stands
 * and the step is recorded as not judged: this never throws, and never lowers a verdict.
 */

export interface ConsultInput {
  readonly guardHome: string;
  readonly agent: string;
  readonly step: ToolStep;
  /** The rules' verdict. */
  readonly evaluation: Evaluation;
  /** The chat as read before the step (undefined: the payload names no chat). */
  readonly chat: Chat | undefined;
  readonly config: SecondOpinionConfig;
  /** The hook's environment (the key is read from it, never stored). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The most the judgement may take, what is left of the hook's own deadline included. */
  readonly timeLeftMs: number;
  /** Chats idle for longer are forgotten, and their requests with them. */
  readonly idleMs: number;
  readonly now?: () => number;
  /** The HTTP call (tests pass another). */
  readonly post?: typeof postJson;
}

export interface Consulted {
  /** The verdict to settle: the rules', or raised to an ask. */
  readonly evaluation: Evaluation;
  /** What the log records of it (absent: the step was not one for the second opinion). */
  readonly record?: OpinionRecord;
  /** What to save in the chat: a judgement was sent this turn, and its answer. */
  readonly change?: Change['opinion'];
  /** The pause that began with this step, to be logged once. */
  readonly paused?: string;
}

/** The shortest time limit worth a round trip. */
const MIN_TIME_MS = 50;

export async function consult(input: ConsultInput): Promise<Consulted> {
  const now = input.now ?? Date.now;
  const { evaluation, config } = input;
  try {
    const request =
      input.step.chatId === ''
        ? undefined
        : readRequest(input.guardHome, input.agent, input.step.chatId, now(), input.idleMs);
    const health = readHealth(input.guardHome);
    const plan: Plan = planOpinion({
      step: input.step,
      evaluation,
      chat: input.chat,
      ...(request === undefined ? {} : { request }),
      health,
      now: now(),
    });
    switch (plan.kind) {
      case 'skip':
        return { evaluation };
      case 'unavailable':
        return { evaluation, record: { outcome: 'unavailable', why: plan.why } };
      case 'remembered': {
        const raise = raises(plan.judgement, plan.asked.withRequest, config.bars);
        return {
          evaluation: raise ? raised(evaluation, plan.judgement, plan.asked) : evaluation,
          record: { outcome: raise ? 'raised' : 'judged', ...plan.judgement, remembered: true },
        };
      }
      case 'send':
        break;
    }
    const { asked } = plan;
    const key = config.keyEnv === undefined ? undefined : input.env[config.keyEnv];
    if (config.keyEnv !== undefined && (key === undefined || key === ''))
      return {
        evaluation,
        record: { outcome: 'unavailable', why: `the environment variable ${config.keyEnv} is not set` },
      };
    const limit = Math.min(config.timeoutMs, Math.floor(input.timeLeftMs));
    if (limit < MIN_TIME_MS)
      return { evaluation, record: { outcome: 'unavailable', why: "no time left in the hook's deadline" } };

    const brief = briefOf(input.step, request?.text, basename(input.step.projectRoot) || input.step.projectRoot);
    const started = now();
    const failed = (why: string): Consulted => {
      // counted on the health as it is now: another hook may have failed meanwhile
      let paused = false;
      const after =
        saveHealth(input.guardHome, (current) => {
          const next = afterFailure(current, why, now());
          paused = next.paused;
          return next.health;
        }) ?? afterFailure(health, why, now()).health;
      return {
        evaluation,
        record: { outcome: 'unavailable', why, ms: now() - started },
        change: { turn: asked.turn },
        ...(paused
          ? {
              paused: `the second opinion failed 3 times in a row (last: ${why}), so the rules decide alone until ${new Date(after.pausedUntil ?? 0).toISOString()}`,
            }
          : {}),
      };
    };
    let text: string;
    try {
      const posted = await (input.post ?? postJson)(
        config.endpoint,
        requestBody({ model: config.model }, brief),
        key === undefined ? {} : { authorization: `Bearer ${key}` },
        limit,
      );
      if (posted.status < 200 || posted.status > 299) return failed(`the server answered HTTP ${posted.status}`);
      text = posted.text;
    } catch (error) {
      return failed(error instanceof Error ? error.message : String(error));
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return failed('the answer is not JSON');
    }
    const reading = readOpinion(body, asked.withRequest, config.bars);
    if (!reading.ok) return failed(reading.why);
    const ms = now() - started;
    if (afterAnswer(health) !== health) saveHealth(input.guardHome, afterAnswer);
    const raise = raises(reading.judgement, asked.withRequest, config.bars);
    return {
      evaluation: raise ? raised(evaluation, reading.judgement, asked) : evaluation,
      record: { outcome: raise ? 'raised' : 'judged', ...reading.judgement, ms },
      change: { turn: asked.turn, memo: memoOf(asked, reading.judgement) },
    };
  } catch (error) {
    // a bug or an unreadable folder here must not cost the step its rules' verdict
    return {
      evaluation,
      record: {
        outcome: 'unavailable',
        why: `guard failed: ${error instanceof Error ? error.message : String(error)}`,
      },
    };
  }
}

/** How long a hook waits for the health's lock before its answer goes out without the count. */
const HEALTH_LOCK_MS = 200;

/** The health changed on disk (undefined when it could not be saved). */
function saveHealth(guardHome: string, change: (health: OpinionHealth) => OpinionHealth): OpinionHealth | undefined {
  try {
    // the answer waits for this: a short wait, not the lock's full one (several seconds)
    return updateHealth(guardHome, change, { timeoutMs: HEALTH_LOCK_MS });
  } catch {
    // the count is lost, not the verdict: the next failure starts it again
    return undefined;
  }
}

/** What one round trip to the model gave (for `guard doctor`). */
export interface RoundTrip {
  readonly ok: boolean;
  readonly ms: number;
  /** What it answered, or why it could not answer. */
  readonly detail: string;
}

/** The longest `guard doctor` waits, to report the time even of a server slower than the limit. */
const DOCTOR_WAIT_MS = 10_000;

/**
 * One judgement of a made-up harmless step under a made-up request, as the hook would send it,
 * timed. It passes when the answer can be read and came within the time limit; the health (failures
 * in a row, a pause) is left as it is.
 */
export async function roundTrip(
  config: SecondOpinionConfig,
  env: Readonly<Record<string, string | undefined>>,
  cwd: string,
  post: typeof postJson = postJson,
): Promise<RoundTrip> {
  const key = config.keyEnv === undefined ? undefined : env[config.keyEnv];
  if (config.keyEnv !== undefined && (key === undefined || key === ''))
    return { ok: false, ms: 0, detail: `the environment variable ${config.keyEnv} is not set` };
  const step: ToolStep = {
    agent: 'doctor',
    chatId: 'guard-doctor',
    cwd,
    projectRoot: cwd,
    toolName: 'shell',
    kind: 'shell',
    command: 'npm test',
  };
  const brief = briefOf(step, 'run the tests and tell me what fails', basename(cwd) || cwd);
  const started = Date.now();
  let posted;
  try {
    posted = await post(
      config.endpoint,
      requestBody({ model: config.model }, brief),
      key === undefined ? {} : { authorization: `Bearer ${key}` },
      Math.max(config.timeoutMs, DOCTOR_WAIT_MS),
    );
  } catch (error) {
    return { ok: false, ms: Date.now() - started, detail: error instanceof Error ? error.message : String(error) };
  }
  const ms = Date.now() - started;
  if (posted.status < 200 || posted.status > 299)
    return { ok: false, ms, detail: `the server answered HTTP ${posted.status}` };
  let body: unknown;
  try {
    body = JSON.parse(posted.text);
  } catch {
    return { ok: false, ms, detail: 'the answer is not JSON' };
  }
  const reading = readOpinion(body, true, config.bars);
  if (!reading.ok) return { ok: false, ms, detail: reading.why };
  const said = `irreversible ${reading.judgement.irreversible.toFixed(2)}, outside the request ${(reading.judgement.outside ?? 0).toFixed(2)}`;
  if (ms > config.timeoutMs)
    return {
      ok: false,
      ms,
      detail: `it answered (${said}) in ${ms} ms, over the time limit of ${config.timeoutMs} ms, so every step would go ahead unjudged`,
    };
  return {
    ok: true,
    ms,
    detail: `${config.model} answered in ${ms} ms (limit ${config.timeoutMs} ms): ${said} for \`npm test\``,
  };
}
