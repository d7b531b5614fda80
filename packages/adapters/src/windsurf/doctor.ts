import type { DoctorKit } from '../adapter.js';
import { DOCTOR_CHAT, exitCodeText } from '../doctor.js';

/**
 * Acting like Windsurf for `guard doctor`: its pre_run_command payload (as its documentation shows
 * it), and how it reads the hook's answer: exit 2 blocks, any other exit lets the step run.
 */
export const doctor: DoctorKit = {
  shell: 'sh',
  shellCall: (command, cwd) => ({
    event: 'pre_run_command',
    payload: {
      agent_action_name: 'pre_run_command',
      trajectory_id: DOCTOR_CHAT,
      execution_id: DOCTOR_CHAT,
      timestamp: '2026-01-01T00:00:00Z',
      tool_info: { command_line: command, cwd },
    },
  }),
  readReply(_stdout, exitCode) {
    if (exitCode === 2) return { effect: 'block', why: 'exit code 2' };
    if (exitCode === 0) return { effect: 'no-objection', why: 'exit code 0' };
    return { effect: 'failure', why: `exit code ${exitCode}` };
  },
  replyText: exitCodeText,
  // Windsurf's file has no timeout and its documentation names none
  timeoutSeconds: () => undefined,
};
