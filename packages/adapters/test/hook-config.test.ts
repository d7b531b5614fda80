import { describe, expect, it } from 'vitest';
import type { AgentId } from '../src/agents.js';
import { isGuardCommand } from '../src/hook-config.js';

describe('isGuardCommand: the one test for "this hook entry is guard\'s"', () => {
  it.for<{ command: string; agent: AgentId }>([
    { command: '"/usr/local/bin/node" "/home/dev/.local/share/guard/hook.js" hook codex', agent: 'codex' },
    // paths with spaces, whatever they are
    { command: '"/opt/my node/bin/node" "/home/dev/my tools/hook.js" hook cursor', agent: 'cursor' },
    { command: 'node /x/hook.js hook antigravity --event PreToolUse', agent: 'antigravity' },
    {
      command: '& "C:\\Program Files\\nodejs\\node.exe" "C:\\guard\\hook.js" hook copilot --event preToolUse',
      agent: 'copilot',
    },
    // written by hand from the agent docs
    { command: 'guard hook codex', agent: 'codex' },
    { command: 'guard hook copilot  --event  sessionStart  ', agent: 'copilot' },
    { command: 'hook cursor', agent: 'cursor' },
  ])('guard: $command', ({ command, agent }) => {
    expect(isGuardCommand(command, agent)).toBe(true);
  });

  it.for<{ command: string; agent: AgentId }>([
    // another agent's entry
    { command: 'guard hook cursor', agent: 'codex' },
    { command: 'guard hook codex --event PreToolUse', agent: 'antigravity' },
    // near misses of the words
    { command: 'guard hook codexx', agent: 'codex' },
    { command: 'guard hooks codex', agent: 'codex' },
    { command: 'my-hook codex', agent: 'codex' },
    { command: '/home/dev/bin/prehook codex', agent: 'codex' },
    { command: 'guard hook-codex', agent: 'codex' },
    // more after the agent than an event
    { command: 'guard hook codex --verbose', agent: 'codex' },
    { command: 'guard hook codex --event', agent: 'codex' },
    { command: 'guard hook codex --event A --event B', agent: 'codex' },
    { command: 'guard hook codex; rm -rf /tmp/x', agent: 'codex' },
    { command: 'guard hook codex > /tmp/log', agent: 'codex' },
    // the words inside quotes are data
    { command: 'echo "hook codex"', agent: 'codex' },
    { command: '', agent: 'codex' },
  ])('not guard: $command ($agent)', ({ command, agent }) => {
    expect(isGuardCommand(command, agent)).toBe(false);
  });
});
