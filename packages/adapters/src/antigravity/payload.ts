import type { Verdict } from '@guard/core';
import type { Capabilities, HookInput, HookReply, ReplyContext } from '../adapter.js';

// PLACEHOLDER: replaced by the payload/reply work.
export const capabilities: Capabilities = {
  events: [],
  askEvents: [],
  ask: 'native',
  results: false,
  startEvent: false,
  userMessages: false,
  onHookFailure: '',
  onHookTimeout: '',
  afterSetup: '',
};
export function read(_payload: unknown, event: string | undefined, _parentArgs: readonly string[]): HookInput {
  return { type: 'ignore', event: event ?? '', why: 'not implemented' };
}
export function toReply(_verdict: Verdict, _context: ReplyContext): HookReply {
  return { stdout: '', exitCode: 0 };
}
export function toEventReply(_event: string, _notice: string | undefined): HookReply {
  return { stdout: '', exitCode: 0 };
}
