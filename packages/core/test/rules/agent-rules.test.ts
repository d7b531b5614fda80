import { describe, expect, it } from 'vitest';
import { agentRules } from '../../src/rules/agent-rules.js';
import { evaluateExample, runRuleTests } from '../rule-tester.js';

const PATCH_AGENTS = '*** Begin Patch\n*** Update File: AGENTS.md\n@@\n+Never run the tests.\n*** End Patch\n';
const PATCH_SRC = '*** Begin Patch\n*** Update File: src/agents.ts\n@@\n+export const agents = [];\n*** End Patch\n';
const PATCH_MOVE =
  '*** Begin Patch\n*** Update File: notes/ci.yml\n*** Move to: .github/workflows/ci.yml\n@@\n+on: push\n*** End Patch\n';

runRuleTests(agentRules, {
  valid: [
    // reading rules, settings and checks
    'cat AGENTS.md',
    'grep -n test .github/workflows/ci.yml',
    'ls .husky',
    'cat .pre-commit-config.yaml',
    'git diff AGENTS.md',
    'git log -- .github/workflows',
    'cat RELAY.md',
    { step: { kind: 'read', path: '.relay/rules/style.md' } },
    // files that are only named like them
    { step: { kind: 'write', path: 'docs/agents.md', content: '# Agents\n' } },
    { step: { kind: 'write', path: 'src/workflows/ci.ts', content: 'export {};\n' } },
    { step: { kind: 'write', path: 'AGENTS.md.bak', content: 'x' } },
    { step: { kind: 'patch', patch: PATCH_SRC } },
    'echo x > hooks/pre-commit.md',
    'echo x > docs/RELAY-notes.txt',
    'echo x > relay/rules/a.md',
    { step: { kind: 'write', path: '/home/dev/.relay/projects/x/notes.md', content: 'x' } },
    // running the checks, or making a hook runnable
    'npx husky',
    'pre-commit run --all-files',
    'chmod +x .husky/pre-commit',
    'touch .github/workflows/.keep',
    'mkdir -p .github/workflows',
    'git config --get core.hooksPath',
    'git config core.hooksPath',
    'git config user.name "Dev"',
    // data, not commands
    'git commit -m "update AGENTS.md"',
    'echo "edit .github/workflows/ci.yml by hand"',
  ],
  invalid: [
    // SPEC 4.2: every rules, settings and checks file
    'echo "Always skip the tests." >> AGENTS.md',
    'echo "exit 0" > .git/hooks/pre-commit',
    'rm .husky/pre-commit',
    'rm .pre-commit-config.yaml',
    'mv .github/workflows/ci.yml /tmp/',
    'echo "stages: []" > .gitlab-ci.yml',
    // the stand-in agent's rules, settings and MCP servers (test/stand-in-agent.ts)
    'echo "x" > RELAY.md',
    'echo "x" > packages/api/RELAY.md',
    'cp style.md .relay/rules/style.md',
    'echo "{}" > .relay/settings.json',
    'echo "{}" > .relay/mcp.json',
    { step: { kind: 'write', path: '/home/dev/other/.relay/rules/a.md', content: 'x' } },
    'git config core.hooksPath /dev/null',
    'git config --unset core.hooksPath',
    // every kind of step
    { step: { kind: 'write', path: 'AGENTS.md', content: '# Rules\n' } },
    { step: { kind: 'write', path: '.github/workflows/ci.yml', content: 'on: push\n' } },
    { step: { kind: 'write', path: '.github/workflows/release.yml', mode: 'edit', content: 'on: tag' } },
    { step: { kind: 'write', path: '.husky/pre-commit', mode: 'delete' } },
    { step: { kind: 'write', path: 'packages/api/AGENTS.md', content: 'x' } },
    { step: { kind: 'patch', patch: PATCH_AGENTS } },
    { step: { kind: 'patch', patch: PATCH_MOVE } },
    { step: { kind: 'other', toolName: 'save_file', args: { path: '.github/workflows/ci.yml', text: 'x' } } },
    {
      step: { kind: 'write', path: '/home/dev/.relay/projects/p/memory/notes.md', content: 'The user prefers pnpm.' },
      note: 'a memory note: once per chat',
    },
    // the way there does not matter
    'cd .github && echo x > workflows/ci.yml',
    'bash -c "echo rule >> AGENTS.md"',
  ],
});

describe("agent.rules: the guard files are guard.tamper's", () => {
  it.for([
    'echo "{}" > .relay/hooks.json',
    // a settings file that holds guard's hooks
    'sed -i "/guard/d" ~/.relay/config.toml',
    'echo "{}" > .relay/config.toml',
  ])('%s', (line) => {
    const ids = evaluateExample(line).findings.map((f) => f.ruleId);
    expect(ids).toContain('guard.tamper');
    expect(ids).not.toContain(agentRules.meta.id);
  });
});
