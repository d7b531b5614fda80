import type { DoctorKit } from '../adapter.js';
import { DOCTOR_CHAT, parseObject, textIn } from '../doctor.js';
import { HOOK_TIMEOUT } from './files.js';
import { commandIn } from './hook-file.js';
import { SHELL_TOOL } from './payload.js';

/**
 * Acting like Cline for `guard doctor`: its PreToolUse payload for run_commands (trimmed from a
 * recorded one), and how it reads a hook's answer: JSON on stdout, the exit code never read; a
 * cancel stops the step (and the task), a replaced input runs instead of the step; silence, and
 * anything it cannot read, lets the step run.
 */
export const doctor: DoctorKit = {
  // Cline starts the file by its `#!` line; guard's runs the command with /bin/sh
  shell: 'sh',
  shellCall: (command, cwd) => ({
    event: 'PreToolUse',
    payload: {
      clineVersion: '',
      timestamp: '1970-01-01T00:00:00.000Z',
      taskId: DOCTOR_CHAT,
      workspaceRoots: [cwd],
      workspaceInfo: { rootPath: cwd, hint: 'project' },
      userId: 'unknown',
      agent_id: DOCTOR_CHAT,
      parent_agent_id: null,
      hookName: 'tool_call',
      iteration: 1,
      tool_call: { id: DOCTOR_CHAT, name: SHELL_TOOL, input: { commands: [command] } },
      preToolUse: { toolName: SHELL_TOOL, parameters: { commands: JSON.stringify([command]) } },
    },
  }),
  readReply(stdout) {
    const text = stdout.trim();
    if (text === '') return { effect: 'no-objection', why: 'no output' };
    const reply = parseObject(text);
    if (reply === undefined) return { effect: 'failure', why: 'output that is not JSON (Cline runs the step)' };
    if (reply['cancel'] === true) return { effect: 'block', why: 'cancel (the task ends)' };
    if (reply['overrideInput'] !== undefined) return { effect: 'block', why: 'its commands replaced' };
    if (Object.keys(reply).length === 0) return { effect: 'no-objection', why: 'an empty answer' };
    return { effect: 'no-objection', why: 'JSON that neither cancels nor replaces the step' };
  },
  replyText: (stdout) => textIn(stdout, ['context'], ['errorMessage']),
  // Cline's own limit, the same for every hook file; undefined for a file that is not guard's
  timeoutSeconds: (text) => (commandIn(text) === undefined ? undefined : HOOK_TIMEOUT),
};
