import type { Capabilities } from '../adapter.js';
import { claudeHook, denyThenChatReply } from '../claude-dialect.js';
import { argsAfter, contentText, hasFlag } from '../wire.js';
import { INPUT_KEYS, TOOLS } from './files.js';

/** What Factory Droid (0.215.0) can do with guard's hooks (docs/agents-observed.md, Factory Droid). */
export const capabilities: Capabilities = {
  events: ['PreToolUse', 'PostToolUse', 'SessionStart', 'UserPromptSubmit'],
  askEvents: ['PreToolUse'],
  // Droid settles an "ask" by its own autonomy level (`droid exec --auto high` ran an asked step):
  // guard blocks, has the agent ask in the chat, and reads the yes from the next prompt
  ask: 'block-then-chat',
  results: true,
  startEvent: true,
  userMessages: true,
  onHookFailure:
    'Factory Droid runs the step when the hook crashes, exits with a code other than 0 or 2, or prints something it cannot read; it has no fail-closed switch, so under fail-closed guard answers its own failures with a deny, which covers everything but a hook that never answers.',
  onHookTimeout: 'Factory Droid stops the hook after its timeout and runs the step, whatever fail-closed says.',
  afterSetup: 'Start a new Droid session; it reads its hooks when a session starts.',
};

// Every other event Droid 0.215.0 has; guard registers none of them, a hand-made entry may.
const IGNORED = new Set(['Notification', 'Stop', 'SubagentStop', 'PreCompact', 'SessionEnd']);

// `droid` (its npm bin, or the binary it starts) as the hook's ancestors show it
const PROGRAM = /(?:^|[\\/])droid(?:\.cmd|\.exe)?$/i;
// `droid exec` answers one prompt and exits: nobody reads the chat
const HEADLESS = ['exec'];

const hook = claudeHook({
  id: 'droid',
  displayName: 'Factory Droid',
  tools: TOOLS,
  inputKeys: INPUT_KEYS,
  ignored: IGNORED,
  // Droid hands additionalContext of these to the model (unverified but for SessionStart)
  contextEvents: new Set(['SessionStart', 'UserPromptSubmit', 'PostToolUse']),
  program: PROGRAM,
  printFlags: HEADLESS,
  // a result is the text the model reads
  output: (response) => contentText(response),
  // Execute's result ends with Droid's own `[Process exited with code N]`
  exitCode: (output) => {
    const code = [...output.matchAll(/\[Process exited with code (\d+)\]/g)].at(-1)?.[1];
    return code === undefined ? undefined : Number(code);
  },
});

/** Factory Droid's payloads: Claude Code's dialect over Droid's own tools (claude-dialect.ts). */
export const { read, toEventReply } = hook;

/** Whether a person reads the chat, from the command line alone: only a run known not to be `droid exec`. */
export function canAskUnread(parentArgs: readonly string[]): boolean {
  const args = argsAfter(parentArgs, PROGRAM);
  return args !== undefined && !hasFlag(args, HEADLESS);
}

/** The reply to a verdict on a PreToolUse step: block-then-chat, as claude-dialect.ts gives it for Droid. */
export const toReply = denyThenChatReply;
