import type { DoctorKit } from '../adapter.js';
import { configuredTimeout, DOCTOR_CHAT, parseObject, textIn } from '../doctor.js';

/**
 * Acting like Antigravity for `guard doctor`: its PreToolUse payload for run_command (trimmed from a
 * recorded one), and how it reads the hook's answer.
 */
export const doctor: DoctorKit = {
  shell: 'sh',
  shellCall: (command, cwd) => ({
    event: 'PreToolUse',
    payload: {
      toolCall: { name: 'run_command', args: { CommandLine: command, Cwd: cwd } },
      stepIdx: 0,
      conversationId: DOCTOR_CHAT,
      workspacePaths: [cwd],
    },
  }),
  readReply(stdout, exitCode) {
    // "ask" is its no objection; silence, {} and non-JSON are failures (which it blocks)
    const text = stdout.trim();
    const json = parseObject(text);
    if (exitCode !== 0) return { effect: 'failure', why: `exit code ${exitCode}` };
    if (!json) return { effect: 'failure', why: text === '' ? 'no output' : 'output that is not one JSON object' };
    const decision = json['decision'];
    if (decision === 'deny') return { effect: 'block', why: 'decision "deny"' };
    if (decision === 'force_ask') return { effect: 'ask', why: 'decision "force_ask"' };
    // "ask" hands the step to the person's own approval settings: guard has no objection.
    if (decision === 'ask' || decision === 'allow') return { effect: 'no-objection', why: `decision "${decision}"` };
    return {
      effect: 'failure',
      why: decision === undefined ? 'no decision' : `unknown decision ${JSON.stringify(decision)}`,
    };
  },
  replyText: (stdout) => textIn(stdout, ['reason']),
  // Antigravity's own default when an entry sets none
  timeoutSeconds: (configText) => configuredTimeout(configText) ?? 30,
};
