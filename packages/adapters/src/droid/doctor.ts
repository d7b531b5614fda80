import type { DoctorKit } from '../adapter.js';
import { configuredTimeout, DOCTOR_CHAT, nestedText, parseObject } from '../doctor.js';
import { parseJson, toValue } from '../json-text.js';

/**
 * Acting like Factory Droid for `guard doctor`: its PreToolUse payload for Execute (trimmed from a
 * recorded one), and how it reads the hook's answer.
 */
export const doctor: DoctorKit = {
  shell: 'sh',
  shellCall: (command, cwd) => ({
    event: 'PreToolUse',
    payload: {
      session_id: DOCTOR_CHAT,
      transcript_path: '',
      cwd,
      permission_mode: 'auto-high',
      hook_event_name: 'PreToolUse',
      tool_name: 'Execute',
      tool_input: {
        summary: 'Run the guard doctor check',
        command,
        riskLevelReason: 'guard doctor checks its own hook.',
        riskLevel: 'low',
      },
    },
  }),
  readReply(stdout, exitCode) {
    // exit 2 blocks (stderr is the reason); a deny blocks; anything else, a crash or a reply it
    // cannot read included, lets the step run. Whether Droid reads a reply on another exit code was
    // not seen: doctor takes it as a failure, never as a block
    if (exitCode === 2) return { effect: 'block', why: 'exit code 2' };
    if (exitCode !== 0) return { effect: 'failure', why: `exit code ${exitCode}` };
    const json = parseObject(stdout.trim());
    const output = json?.['hookSpecificOutput'];
    const decision =
      typeof output === 'object' && output !== null
        ? (output as Record<string, unknown>)['permissionDecision']
        : undefined;
    if (decision === 'deny') return { effect: 'block', why: 'permissionDecision "deny"' };
    // Droid settles an ask by its autonomy level (`--auto high` ran the step): not a question to the person
    if (decision === 'ask') return { effect: 'failure', why: 'permissionDecision "ask" (settled by autonomy)' };
    if (decision === 'allow') return { effect: 'failure', why: 'permissionDecision "allow" (an approval)' };
    if (stdout.trim() === '') return { effect: 'no-objection', why: 'no output' };
    return { effect: 'no-objection', why: json ? 'JSON with no decision' : 'text it does not read' };
  },
  replyText: nestedText,
  // seconds in the file; Droid's own default is a minute
  timeoutSeconds: (configText) =>
    configuredTimeout(configText, (text) => toValue(parseJson(text, { comments: true }))) ?? 60,
};
