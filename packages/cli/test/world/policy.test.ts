import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EMPTY_POLICY, evaluate, rules, type Policy, type ShellStep } from '@guard/core';
import { afterAll, describe, expect, it } from 'vitest';
import { loadPolicy, parsePolicy } from '../../src/world/policy.js';

const lines = (...rows: string[]): string => `${rows.join('\n')}\n`;
const policyOf = (parts: Partial<Policy>): Policy => ({ ...EMPTY_POLICY, source: '.guard.yaml', ...parts });

describe('valid policy files', () => {
  it.for([
    { name: 'empty file', text: '', policy: policyOf({}) },
    { name: 'only comments', text: lines('# nothing here yet', '---'), policy: policyOf({}) },
    {
      name: 'every section',
      text: lines(
        'secrets:',
        '  - config/credentials.yml',
        '  - "*.secret"',
        '  - ~/.config/acme/token',
        'block: [git.push, pkg.publish]',
        'rules:',
        '  - id: policy.no-terraform-apply',
        '    program: terraform',
        '    args: [apply]',
        '    decision: block',
        '    reason: Terraform runs from CI in this project.',
        '  - id: policy.ask-make-deploy',
        '    program: make',
        '    decision: ask',
        '    reason: The deploy target changes the staging server.',
        'allow:',
        '  - rule: fs.delete',
        '    paths: ["fixtures/**", tmp/*.log]',
      ),
      policy: policyOf({
        secrets: ['config/credentials.yml', '*.secret', '~/.config/acme/token'],
        block: ['git.push', 'pkg.publish'],
        rules: [
          {
            id: 'policy.no-terraform-apply',
            program: 'terraform',
            args: ['apply'],
            decision: 'block',
            reason: 'Terraform runs from CI in this project.',
          },
          {
            id: 'policy.ask-make-deploy',
            program: 'make',
            args: [],
            decision: 'ask',
            reason: 'The deploy target changes the staging server.',
          },
        ],
        allow: [{ rule: 'fs.delete', paths: ['fixtures/**', 'tmp/*.log'] }],
      }),
    },
    { name: 'empty lists', text: lines('secrets: []', 'block: []', 'rules: []', 'allow: []'), policy: policyOf({}) },
    {
      name: 'args with a wildcard',
      text: lines(
        'rules:',
        '  - {id: policy.prod, program: kubectl, args: ["--context=prod*"], decision: ask, reason: Production cluster.}',
      ),
      policy: policyOf({
        rules: [
          {
            id: 'policy.prod',
            program: 'kubectl',
            args: ['--context=prod*'],
            decision: 'ask',
            reason: 'Production cluster.',
          },
        ],
      }),
    },
  ])('$name', ({ text, policy }) => {
    expect(parsePolicy(text)).toEqual({ policy });
  });
});

describe('invalid policy files name the file and line, tighten what they validly can, and allow nothing', () => {
  it.for([
    {
      name: 'allowing a never-list rule',
      text: lines(
        'secrets:',
        '  - deploy/*.key',
        'block:',
        '  - git.push',
        'allow:',
        '  - rule: fs.delete',
        '    paths: [build/**]',
        '  - rule: git.rewrite-shared-history',
        '    paths: ["**"]',
      ),
      error: '.guard.yaml:8: allow[1].rule: git.rewrite-shared-history is on the never list and cannot be allowed.',
      policy: policyOf({ secrets: ['deploy/*.key'], block: ['git.push'] }),
    },
    {
      name: 'unknown and never-list ids in block',
      text: lines('block:', '  - git.pushh', '  - fs.wipe', '  - infra.destroy'),
      error: lines(
        '.guard.yaml:2: block[0]: git.pushh is not a rule guard knows; `guard rules` lists them.',
        '.guard.yaml:3: block[1]: fs.wipe is on the never list and is always blocked already.',
      ).trimEnd(),
      policy: policyOf({ block: ['infra.destroy'] }),
    },
    {
      name: 'a misspelt top-level key',
      text: lines('secrets: [a.txt]', 'alow:', '  - rule: fs.delete', '    paths: [x]'),
      error: '.guard.yaml:2: alow: unknown key; the keys here are secrets, block, rules, allow.',
      policy: policyOf({ secrets: ['a.txt'] }),
    },
    {
      name: 'a list at the top',
      text: lines('- git.push'),
      error: '.guard.yaml:1: the top level must be a mapping with the keys secrets, block, rules, allow.',
      policy: policyOf({}),
    },
    {
      name: 'a scalar instead of a list',
      text: lines('', 'secrets: .env.prod'),
      error: '.guard.yaml:2: secrets: must be a list of path globs.',
      policy: policyOf({}),
    },
    {
      name: 'a number in a list',
      text: lines('secrets:', '  - ok.txt', '  - 42', '  - ""'),
      error: lines(
        '.guard.yaml:3: secrets[1]: must be a path glob.',
        '.guard.yaml:4: secrets[2]: must be a path glob.',
      ).trimEnd(),
      policy: policyOf({ secrets: ['ok.txt'] }),
    },
    {
      name: 'a rule with every field wrong',
      text: lines(
        'rules:',
        '  - id: no-deploy',
        '    program: /usr/bin/make',
        '    args: deploy',
        '    decision: deny',
        '    reason: Deploys.',
        '  - id: policy.ok',
        '    program: make',
        '    decision: ask',
        '    reason: Fine.',
      ),
      error: lines(
        '.guard.yaml:2: rules[0].id: "no-deploy" must look like policy.some-name (lower-case words joined by dashes).',
        '.guard.yaml:3: rules[0].program: "/usr/bin/make" must be a bare program name such as terraform (no folder, no spaces).',
        '.guard.yaml:4: rules[0].args: must be a list of argument words.',
        '.guard.yaml:5: rules[0].decision: must be ask or block, not "deny".',
      ).trimEnd(),
      policy: policyOf({ rules: [{ id: 'policy.ok', program: 'make', args: [], decision: 'ask', reason: 'Fine.' }] }),
    },
    {
      name: 'a rule with missing fields and a repeated id',
      text: lines(
        'rules:',
        '  - id: policy.a',
        '    program: make',
        '    decision: block',
        '    reason: One.',
        '  - id: policy.a',
        '    program: npm',
        '    decision: block',
      ),
      error: lines(
        '.guard.yaml:6: rules[1].id: policy.a is used by an earlier rule.',
        '.guard.yaml:6: rules[1].reason: is missing; give one sentence saying why, for the agent and the person.',
      ).trimEnd(),
      policy: policyOf({ rules: [{ id: 'policy.a', program: 'make', args: [], decision: 'block', reason: 'One.' }] }),
    },
    {
      name: 'allow without paths, with an unknown rule, and not a mapping',
      text: lines(
        'allow:',
        '  - rule: fs.delete',
        '  - rule: fs.deletes',
        '    paths: [a]',
        '  - fs.delete',
        '  - rule: net.new-site',
        '    paths: []',
      ),
      error: lines(
        '.guard.yaml:2: allow[0].paths: must list at least one path glob (use "**" for the whole project).',
        '.guard.yaml:3: allow[1].rule: fs.deletes is not a rule guard knows; `guard rules` lists them.',
        '.guard.yaml:5: allow[2]: must be a mapping with the keys rule and paths.',
        '.guard.yaml:7: allow[3].paths: must list at least one path glob (use "**" for the whole project).',
      ).trimEnd(),
      policy: policyOf({}),
    },
    {
      name: 'an unknown key inside a rule',
      text: lines(
        'rules:',
        '  - id: policy.x',
        '    program: make',
        '    decision: ask',
        '    reason: X.',
        '    note: extra',
      ),
      error: '.guard.yaml:6: rules[0].note: unknown key; the keys here are id, program, args, decision, reason.',
      policy: policyOf({ rules: [{ id: 'policy.x', program: 'make', args: [], decision: 'ask', reason: 'X.' }] }),
    },
  ])('$name', ({ text, error, policy }) => {
    expect(parsePolicy(text)).toEqual({ policy, error });
  });

  it.for([
    { name: 'unbalanced brackets', text: lines('block: [git.push', 'secrets: [x]'), line: 2 },
    { name: 'a key given twice', text: lines('secrets: [a]', 'block: [git.push]', 'secrets: [b]'), line: 3 },
    { name: 'a tab for indentation', text: lines('secrets:', '\t- a'), line: 2 },
  ])('a file that is not YAML applies nothing ($name)', ({ text, line }) => {
    const loaded = parsePolicy(text);
    expect(loaded.policy).toEqual(policyOf({}));
    expect(loaded.error).toMatch(new RegExp(`^\\.guard\\.yaml:${line}: .+; nothing in the file was applied\\.$`));
  });
});

describe('loadPolicy', () => {
  const base = mkdtempSync(join(tmpdir(), 'guard-policy-'));
  afterAll(() => rmSync(base, { recursive: true, force: true }));
  const project = (name: string, text?: string | Buffer): string => {
    const dir = join(base, name);
    mkdirSync(dir, { recursive: true });
    if (text !== undefined) writeFileSync(join(dir, '.guard.yaml'), text);
    return dir;
  };

  it('answers the empty policy when the project has no file, or the root is no folder', () => {
    expect(loadPolicy(project('none'))).toEqual({ policy: EMPTY_POLICY });
    expect(loadPolicy(join(base, 'missing', 'deeper'))).toEqual({ policy: EMPTY_POLICY });
  });

  it('reads the file and records where it came from', () => {
    const dir = project('one', 'block: [git.push]\n');
    expect(loadPolicy(dir)).toEqual({
      policy: { ...EMPTY_POLICY, block: ['git.push'], source: join(dir, '.guard.yaml') },
    });
  });

  it('refuses a file too large to be a policy, and a folder in its place, without throwing', () => {
    const big = loadPolicy(project('big', `# ${'x'.repeat(300 * 1024)}\n`));
    expect(big).toEqual({
      policy: EMPTY_POLICY,
      error: '.guard.yaml:1: the file is larger than 256 KB, so guard did not read it.',
    });
    const dir = project('folder');
    mkdirSync(join(dir, '.guard.yaml'));
    expect(loadPolicy(dir)).toEqual({
      policy: EMPTY_POLICY,
      error: '.guard.yaml:1: this is not a regular file, so guard did not read it.',
    });
  });

  it.runIf(process.platform !== 'win32')('answers at once when the file is a named pipe nobody writes to', (ctx) => {
    const dir = project('fifo');
    try {
      execFileSync('mkfifo', [join(dir, '.guard.yaml')], { stdio: 'ignore' });
    } catch {
      // Node cannot make a named pipe by itself, and mkfifo (POSIX) is not on every machine
      ctx.skip('mkfifo could not be run here');
    }
    expect(loadPolicy(dir)).toEqual({
      policy: EMPTY_POLICY,
      error: '.guard.yaml:1: this is not a regular file, so guard did not read it.',
    });
  });

  it('says why an unreadable file was not read', () => {
    const dir = project('unreadable', 'block: [git.push]\n');
    chmodSync(join(dir, '.guard.yaml'), 0o000);
    const loaded = loadPolicy(dir);
    // root reads any file, whatever its mode
    if (process.getuid?.() === 0) expect(loaded.policy.block).toEqual(['git.push']);
    else expect(loaded).toEqual({ policy: EMPTY_POLICY, error: '.guard.yaml:1: the file could not be read (EACCES).' });
  });

  it.runIf(process.platform !== 'win32')('says why a file nobody can read was not read (as root too)', () => {
    // a link to itself cannot be opened by anyone, root included
    const dir = project('loop');
    symlinkSync('.guard.yaml', join(dir, '.guard.yaml'));
    expect(loadPolicy(dir)).toEqual({
      policy: EMPTY_POLICY,
      error: '.guard.yaml:1: the file could not be read (ELOOP).',
    });
  });
});

describe('a loaded policy in the engine', () => {
  const step = (command: string): ShellStep => ({
    kind: 'shell',
    agent: 'codex',
    toolName: 'Bash',
    chatId: 'c',
    cwd: '/home/dev/project',
    projectRoot: '/home/dev/project',
    command,
  });
  const env = { home: '/home/dev', tmp: '/tmp' };
  const { policy } = parsePolicy(
    lines(
      'block: [shell.opaque]',
      'rules:',
      '  - {id: policy.no-apply, program: terraform, args: [apply], decision: block, reason: Terraform runs from CI.}',
      '  - {id: policy.prod, program: kubectl, args: ["--context=prod*"], decision: ask, reason: Production cluster.}',
    ),
  );

  it.for([
    { command: 'terraform apply -auto-approve', ids: ['policy.no-apply'], decision: 'block' },
    { command: 'cd infra && terraform apply', ids: ['policy.no-apply'], decision: 'block' },
    { command: 'kubectl --context=prod-eu get pods', ids: ['policy.prod'], decision: 'ask' },
    { command: 'echo "unterminated', ids: ['shell.opaque'], decision: 'block', note: 'an ask turned into a block' },
    { command: 'terraform plan', ids: [], decision: 'allow' },
    { command: 'echo terraform apply', ids: [], decision: 'allow' },
    { command: 'kubectl --context=staging get pods', ids: [], decision: 'allow' },
  ])('$command', ({ command, ids, decision }) => {
    // only the rule the policy turns into a block, so rows do not depend on the rest of the catalogue
    const result = evaluate(step(command), {
      ...env,
      policy,
      rules: rules.filter((rule) => rule.meta.id === 'shell.opaque'),
    });
    expect(result.findings.map((f) => f.ruleId)).toEqual(ids);
    expect(result.decision).toBe(decision);
  });
});
