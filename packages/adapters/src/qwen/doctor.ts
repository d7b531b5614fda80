import type { DoctorKit } from '../adapter.js';
import { configuredTimeout, DOCTOR_CHAT, nestedText, parseObject } from '../doctor.js';
import { parseJson, toValue } from '../json-text.js';

const DECISIONS = new Set(['allow', 'deny', 'ask']);

/**
 * Acting like Qwen Code for `guard doctor`: its PreToolUse payload for run_shell_command (trimmed
 * from a recorded one), and how it reads the hook's answer.
 */
export const doctor: DoctorKit = {
  shell: 'sh',
  shellCall: (command, cwd) => ({
    event: 'PreToolUse',
    payload: {
      session_id: DOCTOR_CHAT,
      transcript_path: '',
      cwd,
      hook_event_name: 'PreToolUse',
      timestamp: '1970-01-01T00:00:00.000Z',
      permission_mode: 'default',
      tool_name: 'run_shell_command',
      tool_input: { command, description: 'guard doctor check' },
      tool_use_id: DOCTOR_CHAT,
    },
  }),
  readReply(stdout, exitCode) {
    // exit 2 blocks (stderr is the reason); otherwise stdout is read whatever the exit code; a crash
    // or a reply that starts like JSON and does not parse lets the step run
    if (exitCode === 2) return { effect: 'block', why: 'exit code 2' };
    const text = stdout.trim();
    const json = parseObject(text);
    if (json === undefined && text.startsWith('{')) return { effect: 'failure', why: 'JSON it cannot read' };
    const output = json?.['hookSpecificOutput'];
    const specific =
      typeof output === 'object' && output !== null
        ? (output as Record<string, unknown>)['permissionDecision']
        : undefined;
    const decision = typeof specific === 'string' && DECISIONS.has(specific) ? specific : json?.['decision'];
    if (decision === 'deny' || decision === 'block') return { effect: 'block', why: `decision "${decision}"` };
    if (decision === 'ask') return { effect: 'ask', why: 'permissionDecision "ask"' };
    if (json?.['continue'] === false) return { effect: 'block', why: 'continue false (stops the agent)' };
    if (exitCode !== 0 && text === '') return { effect: 'failure', why: `exit code ${exitCode}` };
    // an "allow" approves the step past Qwen Code's own confirmation: never guard's "no objection"
    if (decision === 'allow' || decision === 'approve')
      return { effect: 'failure', why: 'decision "allow" (an approval)' };
    if (exitCode !== 0) return { effect: 'failure', why: `exit code ${exitCode}` };
    if (text === '') return { effect: 'no-objection', why: 'no output' };
    return { effect: 'no-objection', why: json ? 'JSON with no decision' : 'plain text (shown, not read)' };
  },
  replyText: nestedText,
  // seconds in the file (1000 and more: milliseconds); Qwen Code's own default is a minute
  timeoutSeconds: (configText) => {
    const value = configuredTimeout(configText, (text) => toValue(parseJson(text, { comments: true })));
    if (value === undefined) return 60;
    return value >= 1000 ? value / 1000 : value;
  },
};
