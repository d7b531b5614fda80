import type { Capabilities } from '../adapter.js';
import { claudeHook } from '../claude-dialect.js';
import { isFields } from '../wire.js';
import { TOOLS } from './files.js';

/** What Claude Code (2.1) can do with guard's hooks (see the Claude Code hook reference). */
export const capabilities: Capabilities = {
  events: ['PreToolUse', 'PostToolUse', 'PostToolUseFailure', 'SessionStart', 'UserPromptSubmit'],
  askEvents: ['PreToolUse'],
  ask: 'native',
  results: true,
  startEvent: true,
  userMessages: true,
  onHookFailure:
    'Claude Code runs the step when the hook crashes, exits with a code other than 0 or 2, or prints JSON it rejects; under fail-closed guard\'s entries carry onFailure "block", and Claude Code blocks the step instead.',
  onHookTimeout:
    'Claude Code stops the hook after its timeout and runs the step; under fail-closed (onFailure "block" on guard\'s entries) it blocks the step instead.',
  afterSetup: 'Start a new Claude Code session; it reads its settings when a session starts.',
};

// Every other event Claude Code 2.1.328 has; guard registers none of them, a hand-made entry may.
const IGNORED = new Set([
  'PostToolBatch',
  'Notification',
  'UserPromptExpansion',
  'SessionEnd',
  'Stop',
  'StopFailure',
  'SubagentStart',
  'SubagentStop',
  'PreCompact',
  'PostCompact',
  'PreModelSwitch',
  'PostModelSwitch',
  'PermissionRequest',
  'PermissionDenied',
  'Setup',
  'TeammateIdle',
  'TaskCreated',
  'TaskCompleted',
  'Elicitation',
  'ElicitationResult',
  'ConfigChange',
  'WorktreeCreate',
  'WorktreeRemove',
  'InstructionsLoaded',
  'CwdChanged',
  'FileChanged',
  'DirectoryAdded',
  'MessageDisplay',
]);

// Events whose replies may carry hookSpecificOutput.additionalContext: Claude Code hands it to the
// model as a system message (seen on all three).
const CONTEXT_EVENTS = new Set(['SessionStart', 'UserPromptSubmit', 'PostToolUse']);

/**
 * Claude Code's payloads and replies, in the dialect it made (claude-dialect.ts): reads one payload
 * (the event in `hook_event_name`); answers a step with nothing for no objection (an "allow" would
 * approve the step past Claude Code's own permission prompt), a deny, or Claude Code's own "ask";
 * under `-p` (print mode refuses an "ask") nobody is there to ask.
 */
export const { read, canAsk, toReply, toEventReply } = claudeHook({
  id: 'claude-code',
  displayName: 'Claude Code',
  tools: TOOLS,
  ignored: IGNORED,
  contextEvents: CONTEXT_EVENTS,
  // The native binary (`claude`, `claude.exe`, the native installer's `claude/versions/<version>`),
  // or the Node launchers of the npm package (`cli-wrapper.cjs`; `cli.js` before 2.1).
  program:
    /(?:^|[\\/])claude(?:\.exe)?$|[\\/]claude[\\/]versions[\\/][^\\/]+$|[\\/]claude-code[\\/](?:cli-wrapper\.cjs|cli\.js)$/i,
  printFlags: ['-p', '--print'],
  output: outputOf,
  // a Bash command that exits non-zero fails with "Exit code N" first
  exitCode: (output, failed) => {
    const code = failed ? /^Exit code (\d+)/.exec(output)?.[1] : undefined;
    return code === undefined ? undefined : Number(code);
  },
});

/**
 * A result's text: Bash's output, a read file's content, what WebFetch made of a page, an MCP
 * tool's text blocks, else the JSON.
 */
function outputOf(response: unknown): string {
  if (typeof response === 'string') return response;
  if (Array.isArray(response)) {
    const texts = response.flatMap((block) =>
      isFields(block) && typeof block['text'] === 'string' ? [block['text']] : [],
    );
    if (texts.length === response.length) return texts.join('\n');
  }
  if (isFields(response)) {
    const { stdout, stderr } = response;
    if (typeof stdout === 'string' || typeof stderr === 'string') {
      return [stdout, stderr].filter((part): part is string => typeof part === 'string' && part !== '').join('\n');
    }
    const file = response['file'];
    if (isFields(file) && typeof file['content'] === 'string') return file['content'];
    if (typeof response['result'] === 'string') return response['result'];
  }
  return JSON.stringify(response) ?? '';
}
