import { existsSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import type { HookInput, HookReply, ReplyContext } from '@guard/adapters';
import { AGENT_IDS } from '@guard/adapters/agents';
import type { Environment, Evaluation, Probe, Rule, Settled } from '@guard/core';
import {
  consultable,
  evaluate,
  keepsServer,
  logText,
  redactForLog,
  rememberedBy,
  settle,
  stepText,
  viewOf,
} from '@guard/core';
import { ExitCode } from '../errors.js';
import type { AgentPayload } from './adapter.js';
import { loadPayload } from './adapter.js';
import { failureAnswer, isBrokenCode, NO_OBJECTION } from './failure.js';
import { parseHookArgs, readAll, sniffEvent } from './input.js';
import { ancestorArgs } from './parent.js';
import type { RawStdio } from './stdio.js';
import { rawStdio } from './stdio.js';
import type { SessionLayer } from './session.js';
import { chatSessions } from '../state/memory.js';
import type { PolicyResult } from '../world/project-policy.js';
import { projectPolicy } from '../world/project-policy.js';
import type { Io } from '../io.js';
import type { TimedProbe } from '../world/probe.js';
import { createProbe } from '../world/probe.js';
import type { LogEntry } from '../state/decision-log.js';
import { appendLog } from '../state/decision-log.js';
import { projectYes } from '../state/allowed.js';
import type { Settings } from '../state/settings.js';
import { effectiveSettings, guardHomeFrom } from '../state/settings.js';
import type { ChatMemory } from '../state/memory.js';
import { NO_MEMORY } from '../state/memory.js';
import { stepEnvironment } from '../world/environment.js';
import { keepRequest } from '../state/opinion.js';
import type { Consulted, ConsultInput } from './second-opinion.js';

/** What the hook touches of its process; tests pass a fake one. */
export interface HookIo {
  /** Stdin, as it arrives. */
  readonly stdin: AsyncIterable<Uint8Array | string>;
  /** Stops reading stdin (after the answer went out early), so the process can end. */
  stopInput(): void;
  /** Writes to stdout (the reply, once). */
  out(text: string): void;
  /** Writes to stderr (a short cause, never the reply). */
  err(text: string): void;
  readonly env: Readonly<Record<string, string | undefined>>;
  home(): string;
  /** The system temp folder. */
  tmp(): string;
  /** The command line of the agent that ran the hook (parent processes), when it can be read. */
  parentArgs(): readonly string[];
  /** Told when the call's deadline moves (a chat's start gets longer), as ms after the call began. */
  deadline?(ms: number): void;
}

/** Replaceable parts of the runtime (tests; the session layer plugs in here). */
export interface HookDeps {
  readonly session?: SessionLayer;
  readonly probe?: () => Probe & Partial<TimedProbe>;
  readonly policy?: (projectRoot: string) => Promise<PolicyResult>;
  /** The catalogue to run (default: every built-in rule). */
  readonly rules?: readonly Rule[];
  /** The budget for one call, in ms (default 2 s, or `GUARD_DEADLINE_MS`). */
  readonly deadlineMs?: number;
  /** The second opinion's HTTP call (tests pass another). */
  readonly post?: ConsultInput['post'];
}

/** A log line as the runtime fills it in (time, agent and duration are added when it is written). */
type CallEntry = Omit<LogEntry, 'time' | 'ms' | 'agent'>;

type StepInput = Extract<HookInput, { type: 'step' }>;

const DAY_MS = 86_400_000;

/** Below every agent's own hook timeout (the shortest is Cursor's 10 s as guard installs it). */
export const DEFAULT_DEADLINE_MS = 2_000;

/** The most one git question may take in a hook call, and what is kept back from the deadline for answering. */
const GIT_BUDGET_MS = 1_000;
const ANSWER_RESERVE_MS = 400;

/**
 * What the second opinion leaves of the hook's deadline for everything after it: settling, the
 * reply, the log and saving the chat, on a busy machine.
 */
export const AFTER_OPINION_MS = 400;

/**
 * A chat start asks the local MCP servers for their tools, within 5 s of the call's start (SPEC §5),
 * so it gets that plus time to save and answer on a busy machine; still below every agent's timeout.
 */
export const START_DEADLINE_MS = 7_000;

export { ancestorArgs };

/** The process's own stdin, stdout and stderr (`stdio`: another reader of them, the hook client's). */
export function processHookIo(stdio: RawStdio = rawStdio()): HookIo {
  return {
    stdin: stdio.chunks,
    stopInput: stdio.stop,
    out: (text) => stdio.write(1, text),
    err: (text) => stdio.write(2, text),
    env: process.env,
    home: homedir,
    tmp: tmpdir,
    parentArgs: () => ancestorArgs(process.ppid),
  };
}

/** A HookIo over the CLI's Io (for `main()`; the bin's own hook path uses processHookIo). */
export function hookIoFrom(io: Io): HookIo {
  return {
    stdin: (async function* () {
      yield await io.readStdin();
    })(),
    stopInput: () => undefined,
    out: io.out,
    err: io.err,
    env: io.env,
    home: () => io.home(),
    tmp: () => io.tmp(),
    parentArgs: () => ancestorArgs(process.ppid),
  };
}

/**
 * `guard hook <agent> [--event NAME]`: reads one payload from stdin, judges it, writes the
 * agent's reply to stdout exactly once, and logs one line. Always answers within the deadline,
 * whatever the input; returns the exit code the agent expects (a usage error in the hook
 * command itself, which is a setup mistake, exits 2).
 */
export async function runHook(
  argv: readonly string[],
  io: HookIo = processHookIo(),
  deps: HookDeps = {},
): Promise<number> {
  const started = Date.now();
  const args = parseHookArgs(argv);
  if (typeof args === 'string') {
    io.err(
      `guard: ${args}\nThe hook command should read like \`guard hook ${AGENT_IDS[0]}\`; run \`guard setup <agent>\` to write it again.\n`,
    );
    return ExitCode.Usage;
  }
  const { agent } = args;
  const payload = await loadPayload(agent);
  const guardHome = guardHomeFrom(io.env, io.home());
  const env: Environment = stepEnvironment({ env: io.env, home: io.home(), tmp: io.tmp(), guardHome });

  // What is known so far; a failure is answered from whatever that is.
  let settings: Settings | undefined;
  /** Why guard works with other settings than settings.yaml's, or without the chat's memory. */
  const problems: string[] = [];
  let input: HookInput | undefined;
  let event = args.event;
  let replied = false;

  /** Writes the reply (once: later calls do nothing), logs it, and returns the exit code. */
  const respond = (reply: HookReply, entry: CallEntry): number => {
    if (replied) return reply.exitCode;
    replied = true;
    io.out(reply.stdout);
    const error = [...problems, ...(entry.error === undefined ? [] : [entry.error])].join('; ');
    const line: LogEntry = {
      time: new Date().toISOString(),
      agent,
      ...entry,
      ...(error === '' ? {} : { error }),
      ms: Date.now() - started,
    };
    try {
      appendLog(guardHome, line);
    } catch (error) {
      io.err(`guard: could not write the log in ${guardHome}: ${oneLine(error)}\n`);
    }
    return reply.exitCode;
  };

  /** The chat memory: injected in tests, else guard's own, per the settings (read before any event). */
  let made: SessionLayer | undefined;
  const session = (): SessionLayer =>
    (made ??=
      deps.session ??
      chatSessions({
        guardHome,
        env,
        strict: settings?.strict ?? false,
        idleMs: (settings?.idleDays ?? 7) * DAY_MS,
        scanEnv: io.env,
        startedAt: started,
      }));

  const fail = (how: 'failure' | 'deadline', error: unknown): number => {
    if (replied) return ExitCode.Ok;
    const cause = oneLine(error);
    const answer = failureAnswer({ agent, payload, event, input, settings, env, brokenCode: isBrokenCode(error) });
    if (answer.how !== 'off') io.err(`guard: ${cause}\n`);
    return respond(answer.reply, {
      ...describeInput(input, event),
      decision: answer.decision,
      rules: answer.rules,
      how: answer.how === 'off' ? 'off' : how,
      error: cause,
    });
  };

  const work = async (): Promise<number> => {
    // a broken settings.yaml never loosens: the last good settings, or the strictest
    const loaded = await effectiveSettings(guardHome);
    settings = loaded.settings;
    if (loaded.problem !== undefined) {
      problems.push(loaded.problem);
      io.err(`guard: ${loaded.problem}\n`);
    }
    const { text, json: parsed } = await readAll(io.stdin);
    if (text.trim() === '') throw new Error('stdin was empty: no payload to read');
    // should the payload not be readable, a failure is still answered in its event's shape
    event ??= sniffEvent(text);
    let json = parsed;
    if (json === undefined) {
      try {
        json = JSON.parse(text);
      } catch {
        // the parser's own message quotes the payload, which may hold a key: keep only the fact
        throw new Error(`the payload is not valid JSON (${text.length} characters)`);
      }
    }
    input = payload.read(json, args.event, io.parentArgs());
    event = input.event;
    if (settings?.enabled === false) return off(payload, input, settings, respond);
    if (input.type !== 'step') {
      if (input.type === 'start') arm(Math.max(deadlineMs, START_DEADLINE_MS));
      // the person's message is the turn's request, kept only while the second opinion is on
      if (input.type === 'prompt' && input.chatId !== '' && settings?.secondOpinion.on === true) {
        try {
          keepRequest(guardHome, agent, input.chatId, input.prompt, Date.now());
        } catch (error) {
          io.err(`guard: could not keep this turn's request for the second opinion: ${oneLine(error)}\n`);
        }
      }
      const notice = await session().onEvent(agent, input, guardHome);
      const code = respond(payload.toEventReply(input.event, notice), {
        ...describeInput(input, event),
        how: input.type === 'ignore' ? 'ignored' : 'event',
      });
      session().tidy?.();
      return code;
    }
    return judge(input);
  };

  /**
   * The chat's memory for a step. When it cannot be read, fail-closed blocks (a failure); fail-open
   * judges the step as the first of a fresh chat, so every rule that needs no memory still applies.
   */
  const chatMemory = async (step: StepInput['step'], failClosed: boolean): Promise<ChatMemory> => {
    try {
      return await session().forStep(agent, step, guardHome);
    } catch (error) {
      // guard's own code that could not be loaded (the chat-start scan) is a failure, never a fresh chat
      if (failClosed || isBrokenCode(error)) throw error;
      const problem = `the chat's memory could not be read (${oneLine(error)}); judged as a fresh chat`;
      problems.push(problem);
      io.err(`guard: ${problem}\n`);
      return NO_MEMORY;
    }
  };

  const judge = async (input: StepInput): Promise<number> => {
    const { step } = input;
    const failClosed = settings?.failClosed ?? false;
    const memory = await chatMemory(step, failClosed);
    const { policy, error: policyError } = await (deps.policy ?? projectPolicy)(step.projectRoot);
    const probe = (deps.probe ?? hookProbe)();
    const evaluation = evaluate(step, {
      ...env,
      probe,
      session: viewOf(memory.chat),
      policy,
      failClosed,
      remembered: rememberedBy(memory.chat, projectYes(guardHome, step.projectRoot)),
      ...(deps.rules === undefined ? {} : { rules: deps.rules }),
    });
    const call = {
      canAsk: input.canAsk,
      ask: payload.capabilities.ask,
      deferred: input.deferAsk === true,
      mode: settings?.mode ?? 'standard',
      ...(memory.announce === undefined ? {} : { announce: memory.announce }),
    };
    // fail-closed: a look guard could not finish in time is a failure, and a failure blocks
    if (failClosed && probe.gaveUp?.() === true && evaluation.decision !== 'block')
      throw new Error('git did not answer within its time budget, so guard could not check this step');
    // the second opinion may raise what the rules let through (only loaded when it is on)
    const opinion =
      settings?.secondOpinion.on === true && input.deferAsk !== true && consultable(step, evaluation)
        ? await secondOpinion(settings.secondOpinion, step, evaluation, memory.chat)
        : undefined;
    const judged = opinion?.evaluation ?? evaluation;
    const settled = settle(memory.chat, step, judged, call, { now: Date.now(), exists: existsSync });
    const answeredHere = !replied;
    const entry = stepEntry(judged, settled, input.canAsk);
    const code = respond(payload.toReply(settled.verdict, replyContext(input, failClosed, settled, payload)), {
      ...describeInput(input, event),
      ...(policyError === undefined ? {} : { error: `project policy: ${policyError}` }),
      ...entry,
      ...(judged !== evaluation && entry.how === 'rules' ? { how: 'second-opinion' as const } : {}),
      ...(opinion?.record === undefined ? {} : { opinion: opinion.record }),
    });
    if (opinion?.paused !== undefined) {
      try {
        appendLog(guardHome, { time: new Date().toISOString(), how: 'second-opinion-paused', reason: opinion.paused });
      } catch {
        // the step's own line says it could not be judged, and why
      }
    }
    // a reply the deadline already gave is not this verdict: nothing to remember
    if (!answeredHere) return code;
    // a new or changed MCP server whose tool goes ahead after a yes is known from now on
    if (step.kind === 'mcp' && keepsServer(settled)) {
      try {
        memory.serverRan?.(step.server);
      } catch (error) {
        io.err(`guard: could not keep the MCP server as known: ${oneLine(error)}\n`);
      }
    }
    try {
      memory.save(opinion?.change === undefined ? settled.change : { ...settled.change, opinion: opinion.change });
    } catch (error) {
      io.err(`guard: could not save this chat's memory: ${oneLine(error)}\n`);
    }
    made?.tidy?.();
    return code;
  };

  /** The second opinion on a step the rules let through, within what is left of the deadline. */
  const secondOpinion = async (
    second: Settings['secondOpinion'] & { on: true },
    step: StepInput['step'],
    evaluation: Evaluation,
    chat: ConsultInput['chat'],
  ): Promise<Consulted> => {
    if ('problem' in second)
      return { evaluation, record: { outcome: 'unavailable', why: `its settings cannot be used (${second.problem})` } };
    const { consult } = await import('./second-opinion.js');
    return consult({
      guardHome,
      agent,
      step,
      evaluation,
      chat,
      config: second.config,
      env: io.env,
      timeLeftMs: deadlineMs - (Date.now() - started) - AFTER_OPINION_MS,
      idleMs: (settings?.idleDays ?? 7) * DAY_MS,
      ...(deps.post === undefined ? {} : { post: deps.post }),
    });
  };

  const deadlineMs = deps.deadlineMs ?? deadlineFrom(io.env);
  // git gets what is left of the deadline after what answering and saving need, so a slow git
  // ends in a "could not check" in time rather than in the deadline's failure answer
  const hookProbe = (): Probe & TimedProbe =>
    createProbe({ timeoutMs: GIT_BUDGET_MS, answerBy: started + deadlineMs - ANSWER_RESERVE_MS, env: io.env });
  let timer: NodeJS.Timeout | undefined;
  let expire: (code: number) => void = () => undefined;
  const deadline = new Promise<number>((resolve) => (expire = resolve));
  /** (Re)sets the deadline to `ms` after the call began. */
  function arm(ms: number): void {
    clearTimeout(timer);
    io.deadline?.(ms);
    timer = setTimeout(
      () => expire(fail('deadline', new Error(`no answer within ${ms} ms`))),
      Math.max(0, ms - (Date.now() - started)),
    );
  }
  arm(deadlineMs);
  try {
    return await Promise.race([work().catch((error: unknown) => fail('failure', error)), deadline]);
  } finally {
    clearTimeout(timer);
    io.stopInput();
  }
}

/** What the adapter needs to word the answer to a step. */
function replyContext(input: StepInput, failClosed: boolean, settled: Settled, payload: AgentPayload): ReplyContext {
  // how long a yes lasts is told where guard learns of the yes (the person's message, or the
  // result), once the person chose a mode: in standard the ask reads word for word as it always has
  const carries =
    settled.mode !== 'standard' && (payload.capabilities.ask === 'block-then-chat' || payload.capabilities.results);
  return {
    event: input.event,
    canAsk: input.canAsk,
    failClosed,
    ...(settled.approvalCode === undefined ? {} : { approvalCode: settled.approvalCode }),
    ...(settled.notice === undefined ? {} : { notice: settled.notice }),
    ...(settled.yesLasts === undefined || !carries ? {} : { yesLasts: settled.yesLasts }),
  };
}

/** The log fields of a judged step: the rules' verdict, what the agent was told where it differs, and how. */
function stepEntry(evaluation: Evaluation, settled: Settled, canAsk: boolean): CallEntry {
  if (settled.how === 'deferred') {
    return { decision: 'allow', rules: [], how: 'ignored', reason: 'judged again on the next event for this call' };
  }
  const told = settled.verdict.decision;
  // an ask nobody can answer reaches the agent as a block
  const answer = told === 'ask' && !canAsk ? 'block' : told !== evaluation.decision ? told : undefined;
  return {
    decision: evaluation.decision,
    ...(answer === undefined ? {} : { answer }),
    // a step an earlier yes let through names the rules that yes was for
    rules: (evaluation.findings.length > 0 ? evaluation.findings : evaluation.remembered).map(
      (finding) => finding.ruleId,
    ),
    ...(evaluation.findings[0] === undefined ? {} : { reason: evaluation.findings[0].reason }),
    ...(settled.approvalCode === undefined ? {} : { code: settled.approvalCode }),
    how: settled.how,
    // the mode that answered, where it is not the default
    ...(settled.mode === 'standard' ? {} : { mode: settled.mode }),
  };
}

/** guard is off: no objection to anything, in the agent's own words, logged as such. */
function off(
  payload: AgentPayload,
  input: HookInput,
  settings: Settings,
  respond: (reply: HookReply, entry: CallEntry) => number,
): number {
  const reply =
    input.type === 'step'
      ? payload.toReply(NO_OBJECTION, { event: input.event, canAsk: input.canAsk, failClosed: settings.failClosed })
      : payload.toEventReply(input.event, undefined);
  return respond(reply, {
    ...describeInput(input, input.event),
    ...(input.type === 'step' ? { decision: 'allow' as const } : {}),
    how: 'off',
  });
}

// Keys are redacted over this much of the step text; the log keeps far less than that.
const REDACT_SPAN = 64 * 1024;

/** The log fields that describe the call: chat, event, tool, kind, and the step text with keys redacted. */
function describeInput(input: HookInput | undefined, event: string | undefined): Omit<CallEntry, 'how'> {
  const named = event === undefined ? {} : { event };
  if (input === undefined) return named;
  switch (input.type) {
    case 'step':
    case 'result': {
      const step = input.type === 'step' ? input.step : input.result.step;
      return {
        ...named,
        chat: step.chatId,
        tool: step.toolName,
        kind: step.kind,
        step: logText(step, stepText(step).slice(0, REDACT_SPAN)),
      };
    }
    case 'start':
    case 'prompt':
      // the person's message is not logged
      return { ...named, chat: input.chatId };
    case 'ignore':
      return { ...named, reason: input.why };
  }
}

function deadlineFrom(env: Readonly<Record<string, string | undefined>>): number {
  const value = Number(env.GUARD_DEADLINE_MS);
  return Number.isInteger(value) && value > 0 ? value : DEFAULT_DEADLINE_MS;
}

/** An error as one short line with keys redacted: its message, never its stack. */
function oneLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return redactForLog(text.replace(/\s+/g, ' ').trim().slice(0, 300)) || 'unknown error';
}
