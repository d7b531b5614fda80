import type { DoctorKit } from '../adapter.js';
import { configuredTimeout, DOCTOR_CHAT, parseObject, textIn } from '../doctor.js';

/**
 * Acting like Cursor for `guard doctor`: its beforeShellExecution payload (trimmed from a recorded
 * one), and how it reads the hook's answer.
 */
export const doctor: DoctorKit = {
  // Cursor splits the words itself, which reads guard's quoting the way `sh -c` does
  shell: 'sh',
  shellCall: (command, cwd) => ({
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
  }),
  readReply(stdout, exitCode, failClosedEntry) {
    // {} and allow let the step run; deny blocks; ask asks; silence fails only on failClosed entries
    const text = stdout.trim();
    const json = parseObject(text);
    if (exitCode === 2) return { effect: 'block', why: 'exit code 2' };
    if (exitCode !== 0) return { effect: 'failure', why: `exit code ${exitCode}` };
    if (text === '')
      return failClosedEntry
        ? { effect: 'failure', why: 'no output on a failClosed entry' }
        : { effect: 'no-objection', why: 'no output' };
    if (!json) return { effect: 'failure', why: 'output that is not one JSON object' };
    const permission = json['permission'];
    if (permission === 'deny') return { effect: 'block', why: 'permission "deny"' };
    if (permission === 'ask') return { effect: 'ask', why: 'permission "ask"' };
    if (permission === 'allow' || permission === undefined)
      return { effect: 'no-objection', why: permission === undefined ? '{} (no decision)' : 'permission "allow"' };
    return { effect: 'failure', why: `unknown permission ${JSON.stringify(permission)}` };
  },
  replyText: (stdout) => textIn(stdout, ['agent_message'], ['additional_context']),
  // Cursor documents no default
  timeoutSeconds: (configText) => configuredTimeout(configText),
};
