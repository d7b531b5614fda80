import { describe, expect, it } from 'vitest';
import { evaluate } from '../../src/evaluate.js';
import { decideIn, MODES } from '../../src/modes.js';
import { SECRET_SCREEN } from '../../src/facts/paths.js';
import { EMPTY_POLICY } from '../../src/policy.js';
import type { GitWanted, Probe, ProbeTable } from '../../src/rule.js';
import { tableProbe } from '../../src/rule.js';
import { secretsCommit } from '../../src/rules/secrets-commit.js';
import { ENV, runRuleTests, stepFrom } from '../rule-tester.js';

const P = '/home/dev/project';
const ENV_UNTRACKED = { untracked: [`${P}/.env`, `${P}/src/app.ts`] };
const ONLY_CODE = { untracked: [`${P}/src/app.ts`, `${P}/.env.example`], modified: [`${P}/README.md`] };

runRuleTests(secretsCommit, {
  valid: [
    // nothing secret to take along
    { step: 'git add . && git commit -m x', probe: ONLY_CODE, note: 'only code is untracked' },
    { step: 'git add -A && git commit -m "feat: login"', probe: ONLY_CODE },
    { step: 'git commit -am "wip"', probe: ONLY_CODE, note: 'only README.md changed' },
    { step: 'git add src', probe: { untracked: [`${P}/src/app.ts`, `${P}/.env`] }, note: '.env is not under src' },
    { step: 'git -C sub add .', probe: { untracked: [`${P}/.env`] }, note: 'the pathspec is sub/' },
    {
      step: 'git add -u',
      probe: { untracked: [`${P}/.env`], modified: [`${P}/src/app.ts`] },
      note: '-u takes tracked files only',
    },
    // ignored files never count (git refuses them without -f)
    { step: 'git add .env', probe: { ignored: [`${P}/.env`] }, note: 'ignored: git refuses it' },
    // templates and ordinary files
    'git add .env.example',
    'git add src/password-reset.ts',
    'git add certs/server-cert.pem',
    'git commit -m "add .env to .gitignore"',
    'git commit -m "do not commit .env"',
    'git rm --cached .env',
    'echo .env >> .gitignore && git add .gitignore',
    // the probe knows nothing: only secrets named on the line are judged
    'git add -A',
    'git add . && git commit -m x',
    'git commit -a -m x',
    // looking, not adding
    'git add -n .',
    'git status',
    'git diff --cached',
    'git log -p -- .env',
  ],
  invalid: [
    // SPEC 4.1 example
    { step: 'git add . && git commit -m x', probe: ENV_UNTRACKED, note: '.env is untracked and not ignored' },
    // a secret named on the line
    'git add .env',
    'git add config/.env.production',
    'git add deploy/server.key',
    'git add ~/.ssh/id_ed25519',
    'git add terraform.tfstate',
    'git add .npmrc src/index.ts',
    { step: 'git add -f .env', probe: { ignored: [`${P}/.env`] }, note: 'forced past .gitignore' },
    'git commit .env -m "config"',
    'git commit -m "config" -- secrets/prod.pem',
    // what -A, ., a folder or -a takes along
    { step: 'git add -A', probe: ENV_UNTRACKED, note: '.env is untracked' },
    { step: 'git add --all && git commit -m "wip"', probe: ENV_UNTRACKED },
    { step: 'git add config', probe: { untracked: [`${P}/config/.env.local`] } },
    { step: 'git add "*.pem"', probe: { untracked: [`${P}/server.pem`] } },
    { step: 'git commit -am "wip"', probe: { modified: [`${P}/config/.env.production`] } },
    { step: 'git commit --all -m "wip"', probe: { modified: [`${P}/.npmrc`] } },
    { step: 'git add -u', probe: { modified: [`${P}/.env`] }, note: 'a tracked .env changed' },
    // through wrappers
    { step: 'cd app && git add . && git commit -m x', probe: { untracked: [`${P}/app/.env`] } },
    'git -C app add .env',
    'git stage .env',
    'g"i"t add .e""nv',
    "bash -c 'git add .env && git commit -m x'",
  ],
});

// SPEC §7: when git did not answer in time, a step that may stage a secret is asked (blocked under
// fail-closed) and says so; it is never let through as safe, nor blocked on a guess.
describe('secrets.commit when git could not answer', () => {
  const UNCHECKED = { unchecked: true } as const;
  const judge = (step: string, probe: ProbeTable, failClosed = false) =>
    evaluate(stepFrom(step), { ...ENV, probe: tableProbe(probe), failClosed }).findings.filter(
      (finding) => finding.ruleId === 'secrets.commit',
    );

  it.for([
    'git add -A && git commit -m x',
    'git add . && git commit -m x',
    'git add --all',
    'git add src',
    'git add "*.ts"',
    'git add -u',
    'git commit -am "wip"',
    'git commit --all -m x',
    'cd app && git add . && git commit -m x',
  ])('asks for %s, saying guard could not check in time', (step) => {
    const findings = judge(step, UNCHECKED);
    expect(findings.map((finding) => finding.decision)).toEqual(['ask']);
    expect(findings[0]?.reason).toMatch(/could not check in time/);
    expect(findings[0]?.remember).toBe('never');
    expect(judge(step, UNCHECKED, true).map((finding) => finding.decision)).toEqual(['block']);
    // no mode lets through what guard could not check (SPEC §12)
    const evaluation = evaluate(stepFrom(step), { ...ENV, probe: tableProbe(UNCHECKED), failClosed: false });
    for (const mode of MODES) expect(decideIn(mode, evaluation).evaluation.decision).toBe('ask');
  });

  it.for([
    { step: 'git status' },
    { step: 'git commit -m x', note: 'commits only what is staged: nothing to ask git' },
    { step: 'git add -n .', note: 'a dry run' },
    { step: 'git diff --cached' },
    { step: 'git log -p -- .env' },
    { step: 'git add -A', probe: { untracked: [`${P}/src/app.ts`], modified: [] }, note: 'git did answer' },
    { step: 'git add -A', probe: { unchecked: false }, note: 'no repository: nothing to stage' },
  ])('finds nothing in $step ($note)', ({ step, probe }) => {
    expect(judge(step, probe ?? UNCHECKED)).toEqual([]);
  });

  it('still blocks a secret named on the line, and what git did answer', () => {
    expect(judge('git add .env', UNCHECKED).map((finding) => finding.decision)).toEqual(['block', 'ask']);
    const partly = judge('git add -A', { untracked: [`${P}/.env`], unchecked: true });
    // the ask for what git did not say is folded into the block over the same words
    expect(partly.map((finding) => finding.decision)).toEqual(['block']);
  });
});

// A whole-tree question costs a status of the whole tree in a large repository: the rule asks git
// about what it needs alone (issue "fast at any size").
describe('secrets.commit asks git about what it needs', () => {
  const asked = (step: string, probe: ProbeTable, extraSecrets?: readonly string[]) => {
    const wanted: (GitWanted | undefined)[] = [];
    const table = tableProbe(probe);
    const recording: Probe = {
      ...table,
      gitModified: (cwd, scope, want) => {
        wanted.push(want);
        return table.gitModified?.(cwd, scope, want);
      },
    };
    const policy = extraSecrets === undefined ? EMPTY_POLICY : { ...EMPTY_POLICY, secrets: extraSecrets };
    const findings = evaluate(stepFrom(step), { ...ENV, probe: recording, policy }).findings.filter(
      (finding) => finding.ruleId === 'secrets.commit',
    );
    return { findings, wanted };
  };

  it.for([
    { step: 'git add -A && git commit -m x', probe: ONLY_CODE },
    { step: 'git commit -am "wip"', probe: ONLY_CODE },
    { step: 'git add -A', probe: { untracked: [], modified: [`${P}/config/.env.production`] }, blocked: true },
  ])('asks for changed tracked files through the secrets screen: $step', ({ step, probe, blocked }) => {
    const { findings, wanted } = asked(step, probe);
    expect(findings.map((finding) => finding.decision)).toEqual(blocked === true ? ['block'] : []);
    expect(wanted).toHaveLength(1);
    expect(wanted[0]?.screen).toBe(SECRET_SCREEN);
    expect(wanted[0]?.test(`${P}/.env`)).toBe(true);
    expect(wanted[0]?.test(`${P}/src/app.ts`)).toBe(false);
  });

  it('asks without a screen when the project names secrets of its own (the screen does not know them)', () => {
    const { wanted } = asked('git add -A', ONLY_CODE, ['config/prod.json']);
    expect(wanted).toHaveLength(1);
    expect(wanted[0]?.screen).toBeUndefined();
    expect(wanted[0]?.test(`${P}/config/prod.json`)).toBe(true);
  });

  it('does not ask about tracked files once an untracked secrets file settles it', () => {
    const { findings, wanted } = asked('git add -A && git commit -m x', ENV_UNTRACKED);
    expect(findings.map((finding) => finding.decision)).toEqual(['block']);
    expect(wanted).toEqual([]);
  });
});
