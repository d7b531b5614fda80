import { stepText } from '../context/build.js';
import type { ToolStep } from '../types.js';
import { sha256Hex } from './sha256.js';

/**
 * How a chat names steps and commands without keeping their text. These strings are stored in the
 * chat's state file, so changing how they are made forgets what chats in progress remember.
 */

/** A short stable hash (SHA-256, hex), for step fingerprints and command identities. */
export function shortHash(text: string, length = 16): string {
  return sha256Hex(text).slice(0, length);
}

/** A step's identity within a chat: what it does, where (never stored as text). */
export function fingerprint(step: ToolStep): string {
  return shortHash(`${step.kind}\u0000${step.cwd}\u0000${stepText(step)}`, 20);
}

/** A shell command's identity, for counting its failures in a row. */
export function commandId(command: string): string {
  return shortHash(command);
}

const CODE_LETTERS = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/**
 * A short code, easy to type, different for each asked step: made from the chat, the step's
 * fingerprint and the time it was asked, so the same call always gets the same code.
 */
export function approvalCode(chat: string, step: string, now: number): string {
  const hash = shortHash(`${chat}\u0000${step}\u0000${now}`, 16);
  let code = '';
  for (let i = 0; i < 4; i++) code += CODE_LETTERS[parseInt(hash.slice(i * 2, i * 2 + 2), 16) % CODE_LETTERS.length];
  return code;
}
