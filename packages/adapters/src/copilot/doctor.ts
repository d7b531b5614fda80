import type { DoctorKit } from '../adapter.js';
import { configuredTimeout, DOCTOR_CHAT, parseObject, textIn } from '../doctor.js';

/**
 * Acting like Copilot for `guard doctor`: its preToolUse payload for bash (trimmed from a recorded
 * one), and how it reads the hook's answer.
 */
export const doctor: DoctorKit = {
  shell: 'sh',
  shellCall: (command, cwd) => ({
    event: 'preToolUse',
    payload: {
      sessionId: DOCTOR_CHAT,
      timestamp: 0,
      cwd,
      toolName: 'bash',
      toolArgs: { command, description: 'guard doctor check' },
    },
  }),
  readReply(stdout, exitCode) {
    // silence and {} are no objection; deny blocks; exit 2 blocks; other exits fail
    const text = stdout.trim();
    const json = parseObject(text);
    if (exitCode === 2) return { effect: 'block', why: 'exit code 2' };
    if (exitCode !== 0) return { effect: 'failure', why: `exit code ${exitCode}` };
    if (text === '') return { effect: 'no-objection', why: 'no output' };
    if (!json) return { effect: 'failure', why: 'output that is not one JSON object' };
    const decision = json['permissionDecision'];
    if (decision === 'deny') return { effect: 'block', why: 'permissionDecision "deny"' };
    if (decision === 'ask') return { effect: 'ask', why: 'permissionDecision "ask"' };
    if (decision === undefined || decision === 'allow')
      return {
        effect: 'no-objection',
        why: decision === undefined ? '{} (no decision)' : 'permissionDecision "allow"',
      };
    return { effect: 'failure', why: `unknown permissionDecision ${JSON.stringify(decision)}` };
  },
  replyText: (stdout) => textIn(stdout, ['permissionDecisionReason'], ['additionalContext']),
  // Copilot's own default when an entry sets none
  timeoutSeconds: (configText) => configuredTimeout(configText) ?? 30,
};
