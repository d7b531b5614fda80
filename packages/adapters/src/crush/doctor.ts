import type { DoctorKit } from '../adapter.js';
import { DOCTOR_CHAT, parseObject, textIn } from '../doctor.js';

/**
 * Acting like Crush for `guard doctor`: its PreToolUse payload for bash (as another guard's Crush
 * integration documents it), and how it reads the hook's answer: a deny or exit code 2 blocks.
 */
export const doctor: DoctorKit = {
  shell: 'sh',
  shellCall: (command, cwd) => ({
    event: 'PreToolUse',
    payload: {
      event: 'PreToolUse',
      session_id: DOCTOR_CHAT,
      cwd,
      tool_name: 'bash',
      tool_input: { command, description: 'guard doctor checks its own hook' },
    },
  }),
  readReply(stdout, exitCode) {
    if (exitCode === 2) return { effect: 'block', why: 'exit code 2' };
    // another exit code: not documented, taken as a failure that runs the step
    if (exitCode !== 0) return { effect: 'failure', why: `exit code ${exitCode}` };
    const decision = parseObject(stdout.trim())?.['decision'];
    if (decision === 'deny') return { effect: 'block', why: 'decision "deny"' };
    if (decision === 'allow') return { effect: 'failure', why: 'decision "allow" (an approval)' };
    if (stdout.trim() === '') return { effect: 'no-objection', why: 'no output' };
    return { effect: 'no-objection', why: 'no decision' };
  },
  replyText: (stdout) => textIn(stdout, ['reason']),
  // guard writes no timeout, and Crush's own is not documented
  timeoutSeconds: () => undefined,
};
