import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { explain, type ExplainJson } from '../../src/commands/explain.js';
import { captureIo } from '../capture-io.js';

// `guard explain` judges a command the way the hook would: with the real probe (files, package
// lists, git) and the project's .guard.yaml. Each project here is a temp folder holding `.git`.

const base = mkdtempSync(join(tmpdir(), 'guard-explain-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

function project(name: string, files: Readonly<Record<string, string>>): string {
  const dir = join(base, name);
  mkdirSync(join(dir, '.git'), { recursive: true });
  for (const [path, text] of Object.entries(files)) writeFileSync(join(dir, path), text);
  return dir;
}

async function explainJson(command: string, cwd: string): Promise<{ answer: ExplainJson; stderr: string }> {
  const io = captureIo({ cwd, home: join(base, 'home') });
  await explain({ command, json: true, jsonl: false, cwd: undefined }, io.io);
  return { answer: JSON.parse(io.stdout()) as ExplainJson, stderr: io.stderr() };
}

const POLICY = [
  'rules:',
  '  - id: policy.no-apply',
  '    program: terraform',
  '    args: [apply]',
  '    decision: block',
  '    reason: Terraform runs from CI in this project.',
  '',
].join('\n');

describe('explain applies the project policy', () => {
  const dir = project('with-policy', { '.guard.yaml': POLICY });

  it.for([
    { command: 'terraform apply', ids: ['policy.no-apply'] },
    { command: 'cd infra && terraform apply -auto-approve', ids: ['policy.no-apply'] },
    { command: 'terraform plan', ids: [] },
    { command: 'echo terraform apply', ids: [] },
  ])('$command', async ({ command, ids }) => {
    const { answer, stderr } = await explainJson(command, dir);
    expect(answer.findings.map((f) => f.ruleId).filter((id) => id.startsWith('policy.'))).toEqual(ids);
    expect(stderr).toBe('');
  });

  it('warns once, naming the file, when the policy has mistakes, and still applies its valid rules', async () => {
    const broken = project('broken-policy', {
      '.guard.yaml': `${POLICY}allow:\n  - rule: fs.wipe\n    paths: ["**"]\n`,
    });
    const io = captureIo({ cwd: broken, stdin: '{"command": "terraform apply"}\n{"command": "ls"}\n' });
    await explain({ command: undefined, json: false, jsonl: true, cwd: undefined }, io.io);
    expect(io.stderr()).toBe(
      `guard: warning: ${join(broken, '.guard.yaml')} has mistakes; the built-in rules apply all the same.\n` +
        '.guard.yaml:8: allow[0].rule: fs.wipe is on the never list and cannot be allowed.\n',
    );
    const answers = io
      .stdout()
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as ExplainJson);
    expect(answers.map((a) => a.findings.map((f) => f.ruleId))).toEqual([['policy.no-apply'], []]);
  });
});

describe('explain asks the real probe', () => {
  it.for([
    {
      name: 'a package the project does not list',
      files: { 'package.json': '{"dependencies": {"react": "^19"}}' },
      command: 'npm install reactt',
      flagged: true,
    },
    {
      name: 'a package the project lists',
      files: { 'package.json': '{"dependencies": {"react": "^19"}}' },
      command: 'npm install react',
      flagged: false,
    },
    { name: 'a folder with no list', files: {}, command: 'npm install reactt', flagged: false },
  ])('pkg.unlisted: $name', async ({ name, files, command, flagged }) => {
    const { answer } = await explainJson(command, project(`pkg-${name.replace(/\W+/g, '-')}`, files));
    expect(answer.findings.some((f) => f.ruleId === 'pkg.unlisted')).toBe(flagged);
  });
});

describe('findings point at their own part of the line', () => {
  it('ls && git reset --hard && rm -rf ~: a delete and a wipe, each marked inside its own command', async () => {
    const command = 'ls && git reset --hard && rm -rf ~';
    const { answer } = await explainJson(command, project('two-findings', {}));
    expect(answer.decision).toBe('block');
    const part = (id: string): string => {
      const finding = answer.findings.find((f) => f.ruleId === id);
      const owner = answer.invocations.find(
        (inv) => finding !== undefined && inv.span[0] <= finding.span[0] && finding.span[1] <= inv.span[1],
      );
      return owner?.text ?? `no ${id} finding inside one command`;
    };
    expect(part('fs.delete')).toBe('git reset --hard');
    expect(part('fs.wipe')).toBe('rm -rf ~');
  });
});
