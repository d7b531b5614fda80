// The first of the hook's stages: read the call (its arguments, the agent, guard's folder and what
// core is told of the machine). The stages after it: step.ts reads the step, decide.ts decides,
// reply.ts answers (once, within the deadline), record.ts writes what the call leaves; run.ts runs
// them in that order.
import type { AgentId, HookInput } from '@guard/adapters';
import { AGENT_IDS } from '@guard/adapters/agents';
import type { Environment, Probe, Rule, Verdict } from '@guard/core';
import { logText, redactForLog, stepText } from '@guard/core';
import type { LogEntry } from '../state/decision-log.js';
import type { Settings } from '../state/settings.js';
import { guardHomeFrom } from '../state/settings.js';
import type { TimedProbe } from '../world/probe.js';
import type { PolicyResult } from '../world/project-policy.js';
import { stepEnvironment } from '../world/environment.js';
import { SYSTEM_ROOT } from '../world/system-root.js';
import type { AgentPayload } from './adapter.js';
import { loadPayload } from './adapter.js';
import { parseHookArgs } from './input.js';
import type { ConsultInput } from './second-opinion.js';
import type { SessionLayer } from './session.js';

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
  /**
   * When the call began (ms since epoch): the start of the process the agent ran (the hook client's,
   * for a call the resident checker answers), so its deadline counts the time Node took to start.
   * Left out, the call begins when it is read.
   */
  readonly started?: number;
  /** Told when the call's deadline is set or moves (a chat's start gets longer), as ms after the call began. */
  deadline?(ms: number): void;
}

/** Replaceable parts of the runtime (tests; the session layer plugs in here). */
export interface HookDeps {
  readonly session?: SessionLayer;
  readonly probe?: () => Probe & Partial<TimedProbe>;
  readonly policy?: (projectRoot: string) => Promise<PolicyResult>;
  /** The catalogue to run (default: every built-in rule). */
  readonly rules?: readonly Rule[];
  /**
   * The budget for one call, in ms, in place of `GUARD_DEADLINE_MS`; like it, it only shortens the
   * agent's own (reply.ts `deadlinesFor`).
   */
  readonly deadlineMs?: number;
  /**
   * Ms of the deadline this runtime keeps back for another to answer in, should it not: the resident
   * checker answers this much before the call's deadline, and the hook client runs the call itself
   * in what is left when the checker does not answer by then.
   */
  readonly reserveMs?: number;
  /** The second opinion's HTTP call (tests pass another). */
  readonly post?: ConsultInput['post'];
  /** The system root the system settings are read under (world/system-root.ts; tests pass a scratch folder). */
  readonly systemRoot?: string;
}

/**
 * What is known of the call so far, filled in as the stages learn it: a failure is answered from
 * it (`failureAnswer`), and its problems go into the call's log line.
 */
export interface Known {
  /** The event as best known: `--event`, then the raw text, then the payload as read. */
  event: string | undefined;
  settings?: Settings;
  /** The system settings turn export on for everyone. */
  systemExport?: boolean;
  input?: HookInput;
  /** Stdin's text as far as it has been read (the payload, whole or cut short). */
  read?: () => string;
  /** The rules' verdict on the step, once they have judged it (the deadline's answer when it comes first). */
  checked?: Verdict;
  /** Why guard works with other settings than settings.yaml's, or without the chat's memory. */
  readonly problems: string[];
}

/** One hook call, as read from its arguments and process. */
export interface Call {
  /**
   * The agent that sent the payload: the hook command's, until the step stage finds the payload is
   * from a host that runs that agent's hook files (step.ts); from then on the call is that host's,
   * read, remembered, logged and answered as it would be through the host's own hook.
   */
  agent: AgentId;
  /** The agent whose hook command this is (`guard hook <agent>`), whoever sent the payload. */
  readonly command: AgentId;
  /** The event `--event` names, if any. */
  readonly event: string | undefined;
  /** The agent's payload reader and replies (the host's, once it is known). */
  payload: AgentPayload;
  readonly guardHome: string;
  /** What core is told of the machine. */
  readonly env: Environment;
  readonly io: HookIo;
  readonly deps: HookDeps;
  /** When the call began (ms since epoch): the deadline and the log's duration count from here. */
  readonly started: number;
  readonly known: Known;
}

/** The call, or what to print for a hook command that cannot be right (a setup mistake). */
export async function readCall(argv: readonly string[], io: HookIo, deps: HookDeps): Promise<Call | string> {
  const now = Date.now();
  // a start in the future (a clock that moved) counts as now: the deadline never grows
  const started = io.started === undefined || !(io.started <= now) ? now : Math.floor(io.started);
  const args = parseHookArgs(argv);
  if (typeof args === 'string')
    return `guard: ${args}\nThe hook command should read like \`guard hook ${AGENT_IDS[0]}\`; run \`guard setup <agent>\` to write it again.\n`;
  const { agent, event } = args;
  const payload = await loadPayload(agent);
  const guardHome = guardHomeFrom(io.env, io.home());
  const env: Environment = stepEnvironment({
    env: io.env,
    home: io.home(),
    tmp: io.tmp(),
    guardHome,
    systemRoot: deps.systemRoot ?? SYSTEM_ROOT,
  });
  return { agent, command: agent, event, payload, guardHome, env, io, deps, started, known: { event, problems: [] } };
}

/** A log line as the runtime fills it in (time, agent and duration are added when the reply goes out). */
export type CallEntry = Omit<LogEntry, 'time' | 'ms' | 'agent'>;

// Keys are redacted over this much of the step text; the log keeps far less than that.
const REDACT_SPAN = 64 * 1024;

/**
 * The log fields that describe the call: chat, event, tool, kind (and whether the tool was one guard
 * could not read at all), and the step text with keys redacted.
 */
export function describeInput(input: HookInput | undefined, event: string | undefined): Omit<CallEntry, 'how'> {
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
        ...(step.projectRoot === '' ? {} : { project: step.projectRoot }),
        ...(step.kind === 'other' && step.unknown === true ? { unknown: true as const } : {}),
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

/** An error as one short line with keys redacted: its message, never its stack. */
export function oneLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return redactForLog(text.replace(/\s+/g, ' ').trim().slice(0, 300)) || 'unknown error';
}
