import type { Verdict } from '@guard/core';
import { PayloadError } from '../adapter.js';
import type { Capabilities, HookInput, HookReply, ReplyContext } from '../adapter.js';
import { claudeStep } from '../claude-dialect.js';
import type { StepDialect } from '../claude-dialect.js';
import { awayMessage, blockMessage } from '../messages.js';
import { emptyReply, fieldsOf, isFields, jsonReply, optionalString } from '../wire.js';
import type { Fields } from '../wire.js';
import { TOOLS } from './files.js';

/** The one event guard registers, and the hook answers. */
export const STEP_EVENT = 'PreToolUse';

/**
 * What Crush can do with guard's hook, from another guard's Crush integration (not observed on a
 * binary: docs/agents-observed.md, Crush).
 */
export const capabilities: Capabilities = {
  events: [STEP_EVENT],
  // no documented answer raises Crush's own permission prompt, and no documented hook carries the
  // person's messages: an ask is a block that says nobody could approve it
  askEvents: [],
  ask: 'block-then-chat',
  results: false,
  startEvent: false,
  userMessages: false,
  onHookFailure:
    'Crush blocks a step on a deny or exit code 2; what it does when the hook crashes or prints something it cannot read is not documented (taken as running the step): under fail-closed guard answers its own failures with a deny.',
  onHookTimeout: "Crush's hook timeout and what it does past it are not documented.",
  afterSetup: 'Start Crush again: it reads its config when it starts.',
};

// Crush names an MCP server's tool `mcp_<server>_<tool>`: the server is taken to end at the first `_`
// (a server's name with `_` in it cannot be told apart; its tool's name keeps the rest)
const MCP_TOOL = /^mcp_([^_]+)_(.+)$/;

const DIALECT: StepDialect = {
  id: 'crush',
  tools: TOOLS,
  shellFolder: 'working_dir',
  mcpTool(toolName) {
    const match = MCP_TOOL.exec(toolName);
    return match?.[1] !== undefined && match[2] !== undefined ? { server: match[1], tool: match[2] } : undefined;
  },
};

/** Reads one Crush hook payload: `{"event":"PreToolUse","session_id","cwd","tool_name","tool_input"}`. */
export function read(payload: unknown, event: string | undefined): HookInput {
  const what = 'Crush hook payload';
  const fields = fieldsOf(payload, what);
  const name = optionalString(fields, 'event', what) ?? event;
  if (name === undefined) throw new PayloadError(`${what}: "event" is missing.`);
  if (name !== STEP_EVENT) throw new PayloadError(`${what}: unknown event "${name}".`);
  const where = `Crush ${name} payload`;
  return { type: 'step', event: name, step: claudeStep(DIALECT, withEdits(fields, where), where), canAsk: false };
}

/** multiedit's `edits` as one edit whose new text is theirs, one after the other. */
function withEdits(fields: Fields, where: string): Fields {
  const input = fields['tool_input'];
  if (fields['tool_name'] !== 'multiedit' || !isFields(input)) return fields;
  const edits = input['edits'];
  const news = Array.isArray(edits) ? edits.map((edit) => (isFields(edit) ? edit['new_string'] : undefined)) : [];
  if (!Array.isArray(edits) || !news.every((text) => typeof text === 'string'))
    throw new PayloadError(`${where} tool_input: "edits" must be a list of edits, each with a "new_string".`);
  return { ...fields, tool_input: { ...input, new_string: news.join('\n') } };
}

/**
 * The reply to a verdict on a step: nothing for no objection (an "allow" could approve the step past
 * Crush's own permission prompt), or the documented deny with its reason (exit 0).
 */
export function toReply(verdict: Verdict, context: ReplyContext): HookReply {
  switch (verdict.decision) {
    case 'allow':
      return emptyReply;
    case 'block':
      return deny(blockMessage(verdict, context.notice));
    case 'ask':
      return deny(awayMessage(verdict, context.notice, context.approvalCode));
  }
}

/** The reply to any other event: nothing, exit 0 (guard registers none). */
export function toEventReply(_event: string, _notice: string | undefined): HookReply {
  return emptyReply;
}

function deny(reason: string): HookReply {
  return jsonReply({ decision: 'deny', reason });
}
