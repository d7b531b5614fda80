import type { Capabilities } from '../adapter.js';
import { claudeHook } from '../claude-dialect.js';
import { contentText, isFields } from '../wire.js';
import { TOOLS } from './files.js';

/** What Qwen Code (0.24) can do with guard's hooks (docs/agents-observed.md, Qwen Code). */
export const capabilities: Capabilities = {
  events: ['PreToolUse', 'PostToolUse', 'PostToolUseFailure', 'SessionStart', 'UserPromptSubmit'],
  askEvents: ['PreToolUse'],
  // an "ask" shows Qwen Code's own confirmation; where it cannot (-p), Qwen Code refuses the step
  ask: 'native',
  results: true,
  startEvent: true,
  userMessages: true,
  onHookFailure:
    'Qwen Code runs the step when the hook crashes, exits with a code other than 0 or 2, or prints something it cannot read; it has no fail-closed switch, so under fail-closed guard answers its own failures with a deny, which covers everything but a hook that never answers.',
  onHookTimeout: 'Qwen Code stops the hook after its timeout and runs the step, whatever fail-closed says.',
  afterSetup: 'Start a new Qwen Code session; it reads its settings when a session starts.',
};

// Every other event Qwen Code 0.24.4 has; guard registers none of them, a hand-made entry may.
const IGNORED = new Set([
  'PostToolBatch',
  'Notification',
  'UserPromptExpansion',
  'Stop',
  'StopFailure',
  'MessageDisplay',
  'SubagentStart',
  'SubagentStop',
  'PreCompact',
  'PostCompact',
  'SessionEnd',
  'SessionDelete',
  'PermissionRequest',
  'PermissionDenied',
  'TodoCreated',
  'TodoCompleted',
  'InstructionsLoaded',
]);

/**
 * Qwen Code's payloads and replies: Claude Code's dialect (claude-dialect.ts) over tools of its own
 * (Gemini CLI's names, Claude Code's argument keys). A step is answered with nothing for no
 * objection, a deny, or an "ask" that Qwen Code shows as its own confirmation; `-p` refuses an ask
 * with its reason, as a deny.
 */
export const { read, canAsk, toReply, toEventReply } = claudeHook({
  id: 'qwen',
  displayName: 'Qwen Code',
  tools: TOOLS,
  // run_shell_command's folder, relative to the session's
  shellFolder: 'directory',
  ignored: IGNORED,
  // Qwen Code hands additionalContext of these to the model (seen for SessionStart)
  contextEvents: new Set(['SessionStart', 'UserPromptSubmit', 'PostToolUse']),
  // `qwen` (its npm bin, cli-entry.js, which may start cli.js) as the hook's ancestors show it
  program: /(?:^|[\\/])qwen(?:\.cmd|\.exe)?$|[\\/]qwen-code[\\/](?:cli-entry|cli)\.js$/i,
  printFlags: ['-p', '--prompt'],
  // a result's text is its `llmContent`
  output: (response) => contentText(isFields(response) ? response['llmContent'] : response),
  // a command's exit code is on its own line of the result: the last such line is Qwen Code's own
  exitCode: (output) => {
    const code = [...output.matchAll(/(?:^|\n)Exit Code: (\d+)(?:\n|$)/g)].at(-1)?.[1];
    return code === undefined ? undefined : Number(code);
  },
});
