import type { AgentId } from '@guard/adapters';
import { AGENT_IDS, agentId } from '@guard/adapters/agents';

/** `guard hook <agent> [--event NAME]`, read by hand: commander costs too much on this path. */
export interface HookArgs {
  readonly agent: AgentId;
  readonly event: string | undefined;
}

/** The arguments after `hook`, or a one-line message saying what is wrong with them. */
export function parseHookArgs(argv: readonly string[]): HookArgs | string {
  let agent: string | undefined;
  let event: string | undefined;
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i] ?? '';
    if (arg === '--event' || arg.startsWith('--event=')) {
      const value = arg === '--event' ? argv[(i += 1)] : arg.slice('--event='.length);
      if (value === undefined || value === '') return 'option --event needs an event name.';
      event = value;
    } else if (arg.startsWith('-')) {
      return `unknown option '${arg}' for guard hook.`;
    } else if (agent === undefined) {
      agent = arg;
    } else {
      return `unexpected argument '${arg}' for guard hook.`;
    }
  }
  if (agent === undefined) return `guard hook needs an agent: ${AGENT_IDS.join(', ')}.`;
  const known = agentId(agent);
  if (known === undefined) return `unknown agent '${agent}' for guard hook; expected one of ${AGENT_IDS.join(', ')}.`;
  return { agent: known, event };
}

/** Most stdin guard reads; a bigger payload is a failure, not a hang or an out-of-memory. */
export const MAX_INPUT_BYTES = 16 * 1024 * 1024;

/** Stdin that was too big to read. */
export class InputTooBigError extends Error {
  override readonly name = 'InputTooBigError';
}

/** Stdin as read: its text, and the JSON value when reading stopped at a whole one. */
export interface Payload {
  readonly text: string;
  /** Set when a chunk completed one JSON object (so it is parsed once, not again by the caller). */
  readonly json?: unknown;
}

/**
 * Reads a byte stream to its end, as UTF-8 text without a leading byte order mark (Cursor's CLI on
 * Windows sends one). Reading chunk by chunk until the end, rather than one `readFileSync(0)`,
 * works on every kind of stdin (that call can fail with EAGAIN on a non-blocking pipe). A chunk
 * that completes one JSON object ends the reading too: an agent that leaves stdin open after its
 * payload is answered at once, not at the deadline. `parts` gets each chunk as it arrives, so what
 * was read can be looked at before the end (`textOf`: the deadline's look at a payload cut short).
 */
export async function readAll(
  chunks: AsyncIterable<Uint8Array | string>,
  maxBytes: number = MAX_INPUT_BYTES,
  parts: Buffer[] = [],
): Promise<Payload> {
  let size = 0;
  for await (const chunk of chunks) {
    const bytes =
      typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    size += bytes.length;
    if (size > maxBytes) throw new InputTooBigError(`the payload is larger than ${maxBytes} bytes`);
    parts.push(bytes);
    if (!endsObject(bytes)) continue;
    const sofar = textOf(parts);
    try {
      return { text: sofar, json: JSON.parse(sofar) };
    } catch {
      // not a whole object yet (or not JSON at all): read on
    }
  }
  return { text: textOf(parts) };
}

/** Chunks of stdin as text (UTF-8, a leading byte order mark dropped; a character cut at the end is replaced). */
export function textOf(parts: readonly Buffer[]): string {
  const all = Buffer.concat(parts).toString('utf8');
  return all.charCodeAt(0) === 0xfeff ? all.slice(1) : all;
}

/** Whether a chunk's last byte other than white space is `}`. */
function endsObject(bytes: Uint8Array): boolean {
  for (let i = bytes.length - 1; i >= 0; i--) {
    const byte = bytes[i];
    if (byte === 0x7d) return true;
    if (byte !== 0x20 && byte !== 0x0a && byte !== 0x0d && byte !== 0x09) return false;
  }
  return false;
}

/**
 * The event a payload names, read from its raw text (it may not even parse as JSON), so that a failure
 * can still be answered in that event's shape). Undefined when it cannot be seen.
 */
export function sniffEvent(text: string): string | undefined {
  return /"(?:hook_event_name|hookEventName)"\s*:\s*"([A-Za-z]{1,64})"/.exec(text.slice(0, 64 * 1024))?.[1];
}
