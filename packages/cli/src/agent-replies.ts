import type { AgentId } from '@guard/core';

/**
 * What `guard doctor` needs to act like an agent: a canned tool-step payload in each agent's own
 * shape (trimmed from payloads recorded from the real agents), and a reading of the hook's answer
 * the way that agent reads it.
 */

/** The chat id doctor's calls carry, so they are easy to tell apart in guard's log. */
export const DOCTOR_CHAT = 'guard-doctor';

/** One hook call as the agent makes it: the event it fires and the JSON it sends on stdin. */
export interface CannedCall {
  readonly event: string;
  readonly payload: Readonly<Record<string, unknown>>;
}

/** The payload an agent sends before running `command` in the shell, in folder `cwd`. */
export function cannedShellCall(agent: AgentId, command: string, cwd: string): CannedCall {
  switch (agent) {
    case 'codex':
      return {
        event: 'PreToolUse',
        payload: {
          session_id: DOCTOR_CHAT,
          turn_id: DOCTOR_CHAT,
          transcript_path: null,
          cwd,
          hook_event_name: 'PreToolUse',
          model: DOCTOR_CHAT,
          permission_mode: 'default',
          tool_name: 'Bash',
          tool_input: { command },
          tool_use_id: DOCTOR_CHAT,
        },
      };
    case 'cursor':
      return {
        event: 'beforeShellExecution',
        payload: {
          conversation_id: DOCTOR_CHAT,
          generation_id: DOCTOR_CHAT,
          model: DOCTOR_CHAT,
          command,
          cwd,
          sandbox: false,
          session_id: DOCTOR_CHAT,
          hook_event_name: 'beforeShellExecution',
          workspace_roots: [cwd],
          transcript_path: null,
        },
      };
    case 'antigravity':
      return {
        event: 'PreToolUse',
        payload: {
          toolCall: { name: 'run_command', args: { CommandLine: command, Cwd: cwd } },
          stepIdx: 0,
          conversationId: DOCTOR_CHAT,
          workspacePaths: [cwd],
        },
      };
    case 'copilot':
      return {
        event: 'preToolUse',
        payload: {
          sessionId: DOCTOR_CHAT,
          timestamp: 0,
          cwd,
          toolName: 'bash',
          toolArgs: { command, description: 'guard doctor check' },
        },
      };
  }
}

/** What the agent does with an answer: let the step run, stop it, ask the person, or count the hook as failed. */
export type Effect = 'no-objection' | 'block' | 'ask' | 'failure';

export interface ReadReply {
  readonly effect: Effect;
  /** In a few words, why the answer reads that way. */
  readonly why: string;
}

/**
 * How `agent` reads a hook's stdout and exit code (each agent's contract in the references).
 * `failClosedEntry`: the entry carries the agent's own fail-closed switch (Cursor), so silence fails.
 */
export function readReply(agent: AgentId, stdout: string, exitCode: number, failClosedEntry = false): ReadReply {
  const text = stdout.trim();
  const json = parseObject(text);
  const field = (key: string): unknown => json?.[key];
  switch (agent) {
    case 'codex': {
      if (exitCode === 2) return { effect: 'block', why: 'exit code 2' };
      if (exitCode !== 0) return { effect: 'failure', why: `exit code ${exitCode}` };
      if (text === '') return { effect: 'no-objection', why: 'no output' };
      const output = field('hookSpecificOutput');
      const decision = typeof output === 'object' && output !== null ? (output as Record<string, unknown>) : undefined;
      const reason = decision?.['permissionDecisionReason'];
      if (decision?.['permissionDecision'] === 'deny' && typeof reason === 'string' && reason.trim() !== '') {
        return { effect: 'block', why: 'a deny with a reason' };
      }
      return { effect: 'failure', why: json ? 'JSON that is not a deny with a reason' : 'output that is not JSON' };
    }
    case 'cursor': {
      if (exitCode === 2) return { effect: 'block', why: 'exit code 2' };
      if (exitCode !== 0) return { effect: 'failure', why: `exit code ${exitCode}` };
      if (text === '')
        return failClosedEntry
          ? { effect: 'failure', why: 'no output on a failClosed entry' }
          : { effect: 'no-objection', why: 'no output' };
      if (!json) return { effect: 'failure', why: 'output that is not one JSON object' };
      const permission = field('permission');
      if (permission === 'deny') return { effect: 'block', why: 'permission "deny"' };
      if (permission === 'ask') return { effect: 'ask', why: 'permission "ask"' };
      if (permission === 'allow' || permission === undefined)
        return { effect: 'no-objection', why: permission === undefined ? '{} (no decision)' : 'permission "allow"' };
      return { effect: 'failure', why: `unknown permission ${JSON.stringify(permission)}` };
    }
    case 'antigravity': {
      if (exitCode !== 0) return { effect: 'failure', why: `exit code ${exitCode}` };
      if (!json) return { effect: 'failure', why: text === '' ? 'no output' : 'output that is not one JSON object' };
      const decision = field('decision');
      if (decision === 'deny') return { effect: 'block', why: 'decision "deny"' };
      if (decision === 'force_ask') return { effect: 'ask', why: 'decision "force_ask"' };
      // "ask" hands the step to the person's own approval settings: guard has no objection.
      if (decision === 'ask' || decision === 'allow') return { effect: 'no-objection', why: `decision "${decision}"` };
      return {
        effect: 'failure',
        why: decision === undefined ? 'no decision' : `unknown decision ${JSON.stringify(decision)}`,
      };
    }
    case 'copilot': {
      if (exitCode === 2) return { effect: 'block', why: 'exit code 2' };
      if (exitCode !== 0) return { effect: 'failure', why: `exit code ${exitCode}` };
      if (text === '') return { effect: 'no-objection', why: 'no output' };
      if (!json) return { effect: 'failure', why: 'output that is not one JSON object' };
      const decision = field('permissionDecision');
      if (decision === 'deny') return { effect: 'block', why: 'permissionDecision "deny"' };
      if (decision === 'ask') return { effect: 'ask', why: 'permissionDecision "ask"' };
      if (decision === undefined || decision === 'allow')
        return {
          effect: 'no-objection',
          why: decision === undefined ? '{} (no decision)' : 'permissionDecision "allow"',
        };
      return { effect: 'failure', why: `unknown permissionDecision ${JSON.stringify(decision)}` };
    }
  }
}

function parseObject(text: string): Record<string, unknown> | undefined {
  if (!text.startsWith('{')) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}
