import type { DoctorKit } from '../adapter.js';
import { DOCTOR_CHAT, exitCodeText } from '../doctor.js';
import { guardCommandAgent } from '../hook-config.js';
import { isFields } from '../wire.js';
import { DEFAULT_TIMEOUT_MS } from './files.js';

/**
 * Acting like Kiro CLI for `guard doctor`: its preToolUse payload for its shell tool (as its
 * documentation shows the payload), and how it reads the hook's answer: exit 2 blocks, exit 0 lets
 * the step run, any other exit warns and runs it.
 */
export const doctor: DoctorKit = {
  shell: 'sh',
  shellCall: (command, cwd) => ({
    event: 'preToolUse',
    payload: {
      hook_event_name: 'preToolUse',
      session_id: DOCTOR_CHAT,
      cwd,
      tool_name: 'execute_bash',
      tool_input: { command, summary: 'guard doctor' },
    },
  }),
  readReply(_stdout, exitCode) {
    if (exitCode === 2) return { effect: 'block', why: 'exit code 2' };
    if (exitCode === 0) return { effect: 'no-objection', why: 'exit code 0' };
    return { effect: 'failure', why: `exit code ${exitCode}` };
  },
  replyText: exitCodeText,
  timeoutSeconds: (configText) => {
    const found = timeoutsMs(configText);
    return found === undefined ? undefined : Math.min(...found) / 1000;
  },
};

/** The `timeout_ms` of guard's entries (Kiro's default where one sets none); undefined when there are none or the file does not parse. */
function timeoutsMs(text: string): number[] | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch {
    return undefined;
  }
  const hooks = isFields(parsed) ? parsed['hooks'] : undefined;
  if (!isFields(hooks)) return undefined;
  const found = Object.values(hooks)
    .flatMap((list): unknown[] => (Array.isArray(list) ? list : []))
    .filter(isFields)
    .filter((entry) => typeof entry['command'] === 'string' && guardCommandAgent(entry['command']) !== undefined)
    .map((entry) => (typeof entry['timeout_ms'] === 'number' ? entry['timeout_ms'] : DEFAULT_TIMEOUT_MS));
  return found.length === 0 ? undefined : found;
}
