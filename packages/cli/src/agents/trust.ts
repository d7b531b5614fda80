import type { Adapter, TrustReport } from '@guard/adapters';
import { locationsFrom, readBytes, textOf } from './config-io.js';
import { GuardError } from '../errors.js';
import type { Io } from '../io.js';

/**
 * Whether the agent will run guard's hooks in this file, from its trust records (Codex skips a hook
 * nobody trusted, without a word). Undefined for an agent that keeps no trust records. Reads the
 * records file; writes nothing.
 */
export function trustOf(adapter: Adapter, path: string, text: string, io: Io): TrustReport | undefined {
  const trust = adapter.trust;
  if (trust === undefined) return undefined;
  const records = trust.recordsPath(locationsFrom(io));
  let recordsText: string;
  try {
    recordsText = textOf(records, readBytes(records));
  } catch (error) {
    if (!(error instanceof GuardError)) throw error;
    return { state: 'unknown', detail: error.message };
  }
  return trust.state(path, text, recordsText);
}
