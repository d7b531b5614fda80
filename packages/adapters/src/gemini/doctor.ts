import type { DoctorKit } from '../adapter.js';
import { configuredTimeout, DOCTOR_CHAT, parseObject, textIn } from '../doctor.js';
import { parseJson, toValue } from '../json-text.js';

/**
 * Acting like Gemini CLI for `guard doctor`: its BeforeTool payload for run_shell_command (trimmed
 * from a recorded one), and how it reads the hook's answer.
 */
export const doctor: DoctorKit = {
  shell: 'sh',
  shellCall: (command, cwd) => ({
    event: 'BeforeTool',
    payload: {
      session_id: DOCTOR_CHAT,
      transcript_path: '',
      cwd,
      hook_event_name: 'BeforeTool',
      timestamp: '1970-01-01T00:00:00.000Z',
      tool_name: 'run_shell_command',
      tool_input: { command, description: 'guard doctor check' },
    },
  }),
  readReply(stdout, exitCode) {
    // exit 2 blocks; a JSON deny is read whatever the exit code; other failures let the step run
    if (exitCode === 2) return { effect: 'block', why: 'exit code 2' };
    const text = stdout.trim();
    const json = parseObject(text);
    const decision = json?.['decision'];
    if (decision === 'deny' || decision === 'block') return { effect: 'block', why: `decision "${decision}"` };
    if (json?.['continue'] === false) return { effect: 'block', why: 'continue false (stops the agent)' };
    if (exitCode !== 0) return { effect: 'failure', why: `exit code ${exitCode}` };
    if (decision === 'ask') return { effect: 'ask', why: 'decision "ask"' };
    if (text === '') return { effect: 'no-objection', why: 'no output' };
    if (json === undefined) return { effect: 'no-objection', why: 'plain text (shown as a message, not read)' };
    return {
      effect: 'no-objection',
      why: decision === undefined ? 'JSON with no decision' : `decision ${JSON.stringify(decision)}`,
    };
  },
  replyText: (stdout) => textIn(stdout, ['reason'], ['hookSpecificOutput', 'additionalContext']),
  // milliseconds in the file; Gemini CLI's own default when an entry sets none is a minute
  timeoutSeconds: (configText) => {
    const ms = configuredTimeout(configText, (text) => toValue(parseJson(text, { comments: true })));
    return ms === undefined ? 60 : ms / 1000;
  },
};
