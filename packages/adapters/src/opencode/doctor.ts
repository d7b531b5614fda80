import type { DoctorKit } from '../adapter.js';
import { DOCTOR_CHAT, parseObject, textIn } from '../doctor.js';
import { STEP_EVENT, timeoutIn } from './plugin.js';

/**
 * Acting like guard's plugin for `guard doctor`: the payload it sends for a shell step, and how it
 * reads the answer (plugin.ts): silence runs the step, a block with a reason stops it with that
 * reason, anything else stops it as a failure of guard's hook.
 */
export const doctor: DoctorKit = {
  // the plugin runs the command with Node's `shell: true`: `/bin/sh -c`
  shell: 'sh',
  shellCall: (command, cwd) => ({
    event: STEP_EVENT,
    payload: {
      hook_event_name: STEP_EVENT,
      session_id: DOCTOR_CHAT,
      call_id: DOCTOR_CHAT,
      tool: 'bash',
      args: { command, description: DOCTOR_CHAT },
      directory: cwd,
      worktree: cwd,
    },
  }),
  readReply(stdout, exitCode) {
    const text = stdout.trim();
    if (exitCode === 0 && text === '') return { effect: 'no-objection', why: 'no output' };
    const reply = parseObject(text);
    if (reply?.['decision'] === 'block' && typeof reply['reason'] === 'string' && reply['reason'] !== '')
      return { effect: 'block', why: 'a block with a reason' };
    return {
      effect: 'failure',
      why: `${reply ? 'JSON that is not a block with a reason' : 'output that is not JSON'} (exit code ${exitCode}): the plugin blocks the step`,
    };
  },
  replyText: (stdout) => textIn(stdout, ['reason']),
  timeoutSeconds: timeoutIn,
};
