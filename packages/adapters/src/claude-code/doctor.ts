import type { DoctorKit } from '../adapter.js';
import { configuredTimeout, DOCTOR_CHAT, nestedText, parseObject } from '../doctor.js';

const DECISIONS = new Set(['allow', 'deny', 'ask', 'defer']);

/**
 * Acting like Claude Code for `guard doctor`: its PreToolUse payload for Bash (trimmed from a
 * recorded one), and how it reads the hook's answer.
 */
export const doctor: DoctorKit = {
  shell: 'sh',
  shellCall: (command, cwd) => ({
    event: 'PreToolUse',
    payload: {
      session_id: DOCTOR_CHAT,
      transcript_path: '',
      cwd,
      permission_mode: 'default',
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command, description: 'guard doctor check' },
      tool_use_id: DOCTOR_CHAT,
    },
  }),
  readReply(stdout, exitCode, failClosedEntry) {
    // exit 2 blocks; a JSON decision is read whatever the exit code; other failures block only
    // where guard's entry says onFailure "block"; plain text is shown, not read, so the step runs
    const failure = (why: string) =>
      failClosedEntry
        ? { effect: 'block' as const, why: `${why}, and onFailure "block"` }
        : { effect: 'failure' as const, why };
    if (exitCode === 2) return { effect: 'block', why: 'exit code 2' };
    const text = stdout.trim();
    const json = parseObject(text);
    const output = json?.['hookSpecificOutput'];
    const decision =
      typeof output === 'object' && output !== null
        ? (output as Record<string, unknown>)['permissionDecision']
        : undefined;
    if (decision === 'deny') return { effect: 'block', why: 'permissionDecision "deny"' };
    if (decision === 'ask') return { effect: 'ask', why: 'permissionDecision "ask"' };
    if (decision !== undefined && !(typeof decision === 'string' && DECISIONS.has(decision)))
      return failure(`permissionDecision ${JSON.stringify(decision)}, which Claude Code rejects`);
    if (exitCode !== 0) return failure(`exit code ${exitCode}`);
    // an "allow" approves the step past Claude Code's own prompt: never guard's "no objection"
    if (decision === 'allow') return { effect: 'failure', why: 'permissionDecision "allow" (an approval)' };
    if (text === '') return { effect: 'no-objection', why: 'no output' };
    return { effect: 'no-objection', why: json ? 'JSON with no decision' : 'plain text (shown, not read)' };
  },
  replyText: nestedText,
  // Claude Code's own default when an entry sets none: ten minutes
  timeoutSeconds: (configText) => configuredTimeout(configText) ?? 600,
};
