import type { DoctorKit } from '../adapter.js';
import { configuredTimeout, DOCTOR_CHAT, nestedText, parseObject } from '../doctor.js';

/**
 * Acting like Codex for `guard doctor`: its PreToolUse payload for a shell command (trimmed from a
 * recorded one), and how it reads the hook's answer.
 */
export const doctor: DoctorKit = {
  // Codex runs hook commands through the person's login shell, whose profile may print or be slow
  shell: 'login',
  shellCall: (command, cwd) => ({
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
  }),
  readReply(stdout, exitCode) {
    // silence is no objection; only a deny with a reason blocks; anything else fails (and so runs)
    const text = stdout.trim();
    const json = parseObject(text);
    if (exitCode === 2) return { effect: 'block', why: 'exit code 2' };
    if (exitCode !== 0) return { effect: 'failure', why: `exit code ${exitCode}` };
    if (text === '') return { effect: 'no-objection', why: 'no output' };
    const output = json?.['hookSpecificOutput'];
    const decision = typeof output === 'object' && output !== null ? (output as Record<string, unknown>) : undefined;
    const reason = decision?.['permissionDecisionReason'];
    if (decision?.['permissionDecision'] === 'deny' && typeof reason === 'string' && reason.trim() !== '') {
      return { effect: 'block', why: 'a deny with a reason' };
    }
    return { effect: 'failure', why: json ? 'JSON that is not a deny with a reason' : 'output that is not JSON' };
  },
  replyText: nestedText,
  // Codex's own default when an entry sets none
  timeoutSeconds: (configText) => configuredTimeout(configText) ?? 600,
};
