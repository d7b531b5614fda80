// What `guard scan` reads of an agent's past chats: each agent keeps its transcripts where its
// declaration says (`AgentFiles.transcripts`) and reads one with a pure reader of its own
// (`<agent>/transcript.ts`): the text of one transcript in, the tool steps the agent attempted out,
// each made by the agent's own payload reader from the call as the hook would have been sent it, so
// its tool table decides what kind of step each is.
import type { ToolStep } from '@guard/core';
import type { Agent, HookInput } from './adapter.js';

/** One thing in a transcript that the chat's memory hears of, in the order the chat had them. */
export type TranscriptEvent =
  /** A tool step the agent attempted (whether it then ran, was denied or failed). */
  | { readonly type: 'step'; readonly line: number; readonly time?: number; readonly step: ToolStep }
  /** A message the person sent. */
  | { readonly type: 'prompt'; readonly line: number; readonly time?: number; readonly prompt: string }
  /** What a step of the chat gave back (its output is read for what it brings into the chat, never kept). */
  | {
      readonly type: 'result';
      readonly line: number;
      readonly time?: number;
      readonly step: ToolStep;
      readonly output: string;
      readonly failed?: true;
    };

/** A transcript as read: what happened in it, the lines that could not be read, or why none could. */
export interface TranscriptRead {
  readonly events: readonly TranscriptEvent[];
  /** Lines that are not what the format says (1-based), each with why; the rest were read. */
  readonly malformed: readonly { readonly line: number; readonly reason: string }[];
  /** Set when the text is not a transcript this agent writes: nothing of it was read. */
  readonly unknown?: string;
}

/** An agent's transcript reader: pure, the text of one chat file in. */
export interface TranscriptReader {
  read(text: string): TranscriptRead;
}

export type Fields = Readonly<Record<string, unknown>>;

export const isFields = (value: unknown): value is Fields =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : undefined;

/** A timestamp (ISO text or ms) as ms since epoch, or undefined. */
export function timeOf(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value !== 'string') return undefined;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : ms;
}

/**
 * Reads a JSON-lines transcript: `each` gets every object line with its number, a line that is not
 * a JSON object is named. When no line is one `recognised` says the agent writes, the text is not
 * this agent's transcript (`unknown`), and nothing of it counts.
 */
export function readJsonLines(
  source: string,
  what: string,
  recognised: (value: Fields) => boolean,
  each: (value: Fields, line: number) => void,
): Pick<TranscriptRead, 'malformed' | 'unknown'> {
  const malformed: { line: number; reason: string }[] = [];
  let known = 0;
  let line = 0;
  for (let at = 0; at < source.length;) {
    const end = source.indexOf('\n', at);
    const raw = source.slice(at, end < 0 ? source.length : end);
    at = end < 0 ? source.length : end + 1;
    line += 1;
    if (raw.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (error) {
      malformed.push({ line, reason: `not JSON (${error instanceof Error ? error.message : String(error)})` });
      continue;
    }
    if (!isFields(value)) {
      malformed.push({ line, reason: 'not a JSON object' });
      continue;
    }
    if (recognised(value)) known += 1;
    each(value, line);
  }
  if (known === 0 && line > 0) return { malformed: [], unknown: `not a ${what} transcript guard knows` };
  return { malformed };
}

/**
 * The step an agent's hook would have been handed for this call, read by the agent's own payload
 * reader (`payload` is the call as that agent's hook receives it); undefined when it is no step.
 * Throws the reader's PayloadError on a call it cannot read.
 */
export function stepOf(agent: Pick<Agent, 'read'>, payload: Fields, event?: string): ToolStep | undefined {
  const input: HookInput = agent.read(payload, event, []);
  return input.type === 'step' ? input.step : undefined;
}

/**
 * Collects a transcript's events: `step` adds the step a call makes (a call the agent's reader
 * cannot read is a malformed line), `prompt` a person's message.
 */
export function collector(agent: Pick<Agent, 'read'>): {
  readonly events: TranscriptEvent[];
  readonly malformed: { line: number; reason: string }[];
  /**
   * `payload` may be a function making it, whose PayloadError names the line too; `call` is the
   * call's id in the transcript, which its result names.
   */
  step(line: number, time: number | undefined, payload: Fields | (() => Fields), call?: string, event?: string): void;
  prompt(line: number, time: number | undefined, prompt: string): void;
  /** The result of the call `call`: kept only for a step read before it, once. */
  result(line: number, time: number | undefined, call: string | undefined, output: string, failed?: boolean): void;
} {
  const events: TranscriptEvent[] = [];
  const malformed: { line: number; reason: string }[] = [];
  // the steps whose result is still to come, by call id
  const waiting = new Map<string, ToolStep>();
  const at = (time: number | undefined) => (time === undefined ? {} : { time });
  return {
    events,
    malformed,
    step(line, time, payload, call, event) {
      try {
        const step = stepOf(agent, typeof payload === 'function' ? payload() : payload, event);
        if (step === undefined) return;
        events.push({ type: 'step', line, ...at(time), step });
        if (call !== undefined) waiting.set(call, step);
      } catch (error) {
        malformed.push({ line, reason: error instanceof Error ? error.message : String(error) });
      }
    },
    prompt(line, time, prompt) {
      events.push({ type: 'prompt', line, ...at(time), prompt });
    },
    result(line, time, call, output, failed) {
      const step = call === undefined ? undefined : waiting.get(call);
      if (step === undefined || call === undefined) return;
      waiting.delete(call);
      events.push({ type: 'result', line, ...at(time), step, output, ...(failed === true ? { failed } : {}) });
    },
  };
}

/** A result's text: a string as it is, the text parts of a list of parts, anything else as JSON. */
export function outputText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value))
    return value
      .map((part) => (isFields(part) && typeof part['text'] === 'string' ? part['text'] : outputText(part)))
      .join('\n');
  if (value === undefined || value === null) return '';
  return JSON.stringify(value);
}

/** The transcript read: the collected events, and the malformed lines of both the reading and the calls. */
export function finished(
  collected: ReturnType<typeof collector>,
  lines: Pick<TranscriptRead, 'malformed' | 'unknown'>,
): TranscriptRead {
  if (lines.unknown !== undefined) return { events: [], malformed: [], unknown: lines.unknown };
  const malformed = [...lines.malformed, ...collected.malformed].sort((a, b) => a.line - b.line);
  return { events: collected.events, malformed };
}
