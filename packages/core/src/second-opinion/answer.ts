import type { Judgement, OpinionBars } from './types.js';
import { OPINION_LIMITS } from './types.js';

/** A server's answer read into a judgement, or why it could not be read (the step then counts as not judged). */
export type Reading =
  { readonly ok: true; readonly judgement: Judgement } | { readonly ok: false; readonly why: string };

interface TokenChoice {
  readonly token: string;
  readonly logprob: number;
}

interface Token extends TokenChoice {
  readonly alternatives: readonly TokenChoice[];
}

/**
 * Reads a `chat/completions` response body (already parsed from JSON). The answer is the first
 * choice's message: a JSON object, or a text that holds one (a small model may wrap it in words or
 * a code fence). Each probability must be a number from 0 to 1 (`true`/`false` and numbers written
 * as strings are read too). Where the server returned token log-probabilities, an answer that
 * clears its bar counts only when the model was sure of it (see `sureShare`); otherwise it counts
 * as 0, so an unsure "probably" never raises.
 */
export function readOpinion(body: unknown, withRequest: boolean, bars: OpinionBars): Reading {
  const choice = firstChoice(body);
  if (choice === undefined) return { ok: false, why: 'the answer has no choices' };
  const content = messageText(choice);
  if (content === undefined) return { ok: false, why: 'the answer has no message text' };
  const object = jsonIn(content);
  if (object === undefined) return { ok: false, why: 'the answer holds no JSON object' };
  const irreversible = probability(object['irreversible']);
  if (irreversible === undefined) return { ok: false, why: 'the answer has no probability for "irreversible"' };
  const outside = withRequest ? probability(object['outside_request']) : undefined;
  if (withRequest && outside === undefined)
    return { ok: false, why: 'the answer has no probability for "outside_request"' };
  const tokens = tokensOf(choice);
  const sure = (field: string, value: number, bar: number): number => {
    if (value < bar || tokens === undefined) return value;
    const share = sureShare(content, field, tokens, bar);
    return share === undefined || share >= OPINION_LIMITS.sure ? value : 0;
  };
  const judgement: Judgement = {
    irreversible: sure('irreversible', irreversible, withRequest ? bars.irreversible : bars.irreversibleAlone),
    ...(outside === undefined ? {} : { outside: sure('outside_request', outside, bars.outside) }),
  };
  return { ok: true, judgement };
}

function fields(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

function firstChoice(body: unknown): Record<string, unknown> | undefined {
  const choices = fields(body)?.['choices'];
  return Array.isArray(choices) ? fields(choices[0]) : undefined;
}

function messageText(choice: Record<string, unknown>): string | undefined {
  const content = fields(choice['message'])?.['content'];
  if (typeof content === 'string') return content;
  // some servers answer in parts: [{type: 'text', text}]
  if (Array.isArray(content)) {
    const text = content
      .map((part) => fields(part)?.['text'])
      .filter((part): part is string => typeof part === 'string')
      .join('');
    return text === '' ? undefined : text;
  }
  // the legacy completions shape
  return typeof choice['text'] === 'string' ? choice['text'] : undefined;
}

/** The JSON object in a text: all of it, or the first `{…}` in it that parses. */
function jsonIn(text: string): Record<string, unknown> | undefined {
  const whole = parseObject(text.trim());
  if (whole !== undefined) return whole;
  // bounded: a long text full of braces is garbage, not worth thousands of parses
  let starts = 0;
  for (let start = text.indexOf('{'); start >= 0 && starts < 8; start = text.indexOf('{', start + 1), starts++) {
    let ends = 0;
    for (let end = text.indexOf('}', start); end >= 0 && ends < 8; end = text.indexOf('}', end + 1), ends++) {
      const found = parseObject(text.slice(start, end + 1));
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

function parseObject(text: string): Record<string, unknown> | undefined {
  if (!text.startsWith('{')) return undefined;
  try {
    return fields(JSON.parse(text));
  } catch {
    return undefined;
  }
}

/** A probability from 0 to 1 as the model wrote it, or undefined. */
function probability(value: unknown): number | undefined {
  if (value === true) return 1;
  if (value === false) return 0;
  const number = typeof value === 'number' ? value : typeof value === 'string' ? Number(value.trim()) : Number.NaN;
  return Number.isFinite(number) && number >= 0 && number <= 1 ? number : undefined;
}

/** The tokens of the answer with their log-probabilities, when the server sent them. */
function tokensOf(choice: Record<string, unknown>): readonly Token[] | undefined {
  const content = fields(choice['logprobs'])?.['content'];
  if (!Array.isArray(content) || content.length === 0) return undefined;
  const tokens: Token[] = [];
  for (const item of content) {
    const entry = fields(item);
    const token = entry?.['token'];
    const logprob = entry?.['logprob'];
    if (typeof token !== 'string' || typeof logprob !== 'number' || !Number.isFinite(logprob)) return undefined;
    const top = entry?.['top_logprobs'];
    const alternatives: TokenChoice[] = [];
    if (Array.isArray(top)) {
      for (const alt of top) {
        const a = fields(alt);
        if (typeof a?.['token'] === 'string' && typeof a['logprob'] === 'number' && Number.isFinite(a['logprob']))
          alternatives.push({ token: a['token'], logprob: a['logprob'] });
      }
    }
    tokens.push({ token, logprob, alternatives });
  }
  return tokens;
}

/**
 * How sure the model was that a field's value clears the bar, from its token log-probabilities: at
 * the token that made the written number clear the bar (the `9` of `0.9` against a bar of 0.8), the
 * share of probability on tokens that would clear it too (`8`, `9`, but not `7`; a token after
 * which the number is still open, such as `0` before `.`, counts as not clearing). The chosen
 * token counts with its own probability when the server lists no alternatives. Undefined when the
 * tokens do not spell the answer text or the value is not written as a number.
 */
export function sureShare(content: string, field: string, tokens: readonly Token[], bar: number): number | undefined {
  if (tokens.map((token) => token.token).join('') !== content) return undefined;
  const value = new RegExp(`"${field}"\\s*:\\s*"?([0-9][0-9.]*)`, 'd').exec(content);
  const span = value?.indices?.[1];
  if (span === undefined) return undefined;
  const [start, end] = span;
  let at = 0;
  for (const token of tokens) {
    const tokenStart = at;
    at += token.token.length;
    if (at <= start || tokenStart >= end) continue;
    const prefix = content.slice(start, Math.max(start, tokenStart));
    const written = prefix + token.token.slice(Math.max(0, start - tokenStart), end - tokenStart);
    if (!clears(written, bar)) continue;
    const choices = token.alternatives.some((alt) => alt.token === token.token)
      ? token.alternatives
      : [...token.alternatives, { token: token.token, logprob: token.logprob }];
    let share = 0;
    for (const alt of choices) {
      // before the number began, an alternative may carry the space in front of it
      const text = prefix === '' ? alt.token.trimStart() : alt.token;
      if (clears(prefix + numberHead(text), bar)) share += Math.exp(alt.logprob);
    }
    return Math.min(1, share);
  }
  return undefined;
}

/** The digits and dot a token starts with. */
function numberHead(token: string): string {
  return /^[0-9.]*/.exec(token)?.[0] ?? '';
}

/** Whether a number written so far (`0.9`, `1`, `0.`) is at least the bar, whatever digits follow. */
function clears(written: string, bar: number): boolean {
  if (!/^[0-9]+(?:\.[0-9]*)?$/.test(written)) return false;
  return Number(written) >= bar;
}
