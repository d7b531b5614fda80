import type { DoctorKit } from '../adapter.js';
import { configuredTimeout, DOCTOR_CHAT, nestedText, parseObject } from '../doctor.js';
import { parseJson, toValue } from '../json-text.js';

/**
 * Acting like Auggie for `guard doctor`: its PreToolUse payload for launch-process (trimmed from a
 * recorded one), and how it reads the hook's answer.
 */
export const doctor: DoctorKit = {
  shell: 'sh',
  shellCall: (command, cwd) => ({
    event: 'PreToolUse',
    payload: {
      hook_event_name: 'PreToolUse',
      conversation_id: DOCTOR_CHAT,
      workspace_roots: [cwd],
      tool_name: 'launch-process',
      tool_input: { command, wait: true, max_wait_seconds: 30, cwd },
      tool_output: '[undefined]',
      tool_error: null,
      is_mcp_tool: false,
    },
  }),
  readReply(stdout, exitCode) {
    // exit 2 blocks (stderr is the reason); any other code but 0, a crash included, runs the step;
    // on 0 a deny or `continue: false` blocks, and only with hookEventName beside the decision
    if (exitCode === 2) return { effect: 'block', why: 'exit code 2' };
    if (exitCode !== 0) return { effect: 'failure', why: `exit code ${exitCode}` };
    const text = stdout.trim();
    const json = parseObject(text);
    if (json?.['continue'] === false) return { effect: 'block', why: 'continue false' };
    const output = json?.['hookSpecificOutput'];
    const fields = typeof output === 'object' && output !== null ? (output as Record<string, unknown>) : undefined;
    const decision = fields?.['hookEventName'] === 'PreToolUse' ? fields['permissionDecision'] : undefined;
    if (decision === 'deny') return { effect: 'block', why: 'permissionDecision "deny"' };
    // Auggie runs an asked step without a question (seen): not an ask
    if (decision === 'ask') return { effect: 'failure', why: 'permissionDecision "ask" (runs the step)' };
    if (decision === 'allow') return { effect: 'failure', why: 'permissionDecision "allow" (an approval)' };
    if (text === '') return { effect: 'no-objection', why: 'no output' };
    return { effect: 'no-objection', why: json ? 'JSON with no decision' : 'text it does not read' };
  },
  replyText: nestedText,
  // milliseconds in the file; Auggie's own default is a minute
  timeoutSeconds: (configText) => {
    const value = configuredTimeout(configText, (text) => toValue(parseJson(text, { comments: true })));
    return value === undefined ? 60 : value / 1000;
  },
};
