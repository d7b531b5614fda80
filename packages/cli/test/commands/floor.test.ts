import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { main } from '../../src/main.js';
import { keepForProject } from '../../src/state/allowed.js';
import { captureIo } from '../capture-io.js';
import { writeSystemSettings } from '../system-root.js';

// The commands that change a setting, under a scratch system root: each one that would loosen below
// the system floor says so, exits 1 and changes nothing; one that tightens (or that the floor does
// not govern) goes ahead; `guard status` says where each setting came from.

let guardHome: string;
let root: string;
beforeEach(() => {
  guardHome = mkdtempSync(join(tmpdir(), 'guard-floor-cmd-'));
  root = join(guardHome, 'system-root');
});
afterEach(() => rmSync(guardHome, { recursive: true, force: true }));

async function guard(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const { io, stdout, stderr } = captureIo({ systemRoot: root });
  const code = await main(['node', 'guard', ...argv], { ...io, env: { GUARD_HOME: guardHome } });
  return { code, stdout: stdout(), stderr: stderr() };
}

/** Every file in guard's folder and its bytes: what "changes nothing" is checked against. */
function folder(): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (path === root || path.startsWith(`${root}/`)) continue;
      if (entry.isDirectory()) walk(path);
      else out[path.slice(guardHome.length)] = readFileSync(path, 'utf8');
    }
  };
  if (existsSync(guardHome)) walk(guardHome);
  return out;
}

const OPINION = 'secondOpinion: true\nsecondOpinionUrl: https://judge.example/v1\nsecondOpinionModel: judge-1\n';
const EXPORT = 'exportOtlp: https://collector.example:4318\n';

describe('a command that loosens below the floor is refused, and changes nothing', () => {
  it.for([
    { system: 'offAllowed: false\n', argv: ['off'], says: 'do not allow `guard off`' },
    { system: 'failClosed: true\n', argv: ['fail-closed', 'off'], says: 'keep fail-closed on' },
    { system: 'mostPermissiveMode: extended\n', argv: ['mode', 'full'], says: 'allow at most mode extended' },
    { system: 'mostPermissiveMode: standard\n', argv: ['mode', 'extended'], says: 'allow at most mode standard' },
    { system: OPINION, argv: ['second-opinion', 'off'], says: 'set the second opinion for everyone' },
    {
      system: OPINION,
      argv: ['second-opinion', 'on', '--url', 'http://127.0.0.1:9/v1', '--model', 'mine'],
      says: 'set the second opinion',
    },
    { system: EXPORT, argv: ['export', 'off'], says: 'send every decision to https://collector.example:4318/v1/logs' },
    { system: EXPORT, argv: ['export', 'on', '--otlp', 'http://127.0.0.1:9'], says: 'send every decision to' },
    { system: 'failClosed: [\n', argv: ['off'], says: 'cannot be read' },
    { system: 'failClosed: [\n', argv: ['fail-closed', 'off'], says: 'cannot be read' },
    { system: 'failClosed: [\n', argv: ['mode', 'extended'], says: 'cannot be read' },
  ])('guard $argv under $system', async ({ system, argv, says }) => {
    writeSystemSettings(root, system);
    // the user's own settings as they were: fail-closed on, so `fail-closed off` would change them
    await guard('fail-closed', 'on');
    const before = folder();
    const { code, stdout, stderr } = await guard(...argv);
    expect(code).toBe(1);
    expect(stderr).toContain(says);
    expect(stderr).toContain('nothing was changed');
    expect(stdout).toBe('');
    expect(folder()).toEqual(before);
  });
});

describe('near misses: what tightens, or what the floor does not govern, goes ahead', () => {
  it.for([
    { system: 'offAllowed: false\n', argv: ['on'] },
    { system: 'failClosed: true\n', argv: ['fail-closed', 'on'] },
    { system: 'failClosed: true\n', argv: ['off'] },
    { system: 'mostPermissiveMode: extended\n', argv: ['mode', 'extended'] },
    { system: 'mostPermissiveMode: extended\n', argv: ['mode', 'standard'] },
    { system: 'offAllowed: false\n', argv: ['second-opinion', 'off'] },
    { system: 'offAllowed: false\n', argv: ['export', 'off'] },
    { system: 'failClosed: [\n', argv: ['fail-closed', 'on'] },
    { system: 'failClosed: [\n', argv: ['mode', 'standard'] },
  ])('guard $argv under $system', async ({ system, argv }) => {
    writeSystemSettings(root, system);
    const { code, stderr } = await guard(...argv);
    expect(stderr).toBe('');
    expect(code).toBe(0);
  });
});

describe('guard status says where each setting came from', () => {
  it('no system file: as today, nothing about system settings in the text', async () => {
    const { stdout } = await guard('status');
    expect(stdout).not.toContain('system settings');
    const json = JSON.parse((await guard('status', '--json')).stdout) as { settingsFrom: unknown };
    expect(json.settingsFrom).toMatchObject({
      system: { state: 'none' },
      from: { enabled: 'default', failClosed: 'default', mode: 'default' },
      ignored: [],
      lockedRules: [],
    });
  });

  it('a floor, with a loosening already in the user file', async () => {
    writeFileSync(join(guardHome, 'settings.yaml'), 'mode: full\nstrict: true\n');
    writeSystemSettings(root, 'failClosed: true\nmostPermissiveMode: extended\nlockedRules: git.push\n');
    const { stdout } = await guard('status');
    expect(stdout).toContain('fail-closed is on');
    expect(stdout).toContain('mode: extended');
    expect(stdout).toContain('system settings: ');
    expect(stdout).toContain(
      'fail-closed from system; strict from user; mode from system; second opinion from default',
    );
    expect(stdout).toContain('locked rules (no allow list, project yes or mode lets them go ahead): git.push');
    expect(stdout).toContain('not used: mode full is not used: the system settings allow at most extended');
    const json = JSON.parse((await guard('status', '--json')).stdout) as Record<string, unknown>;
    expect(json).toMatchObject({
      failClosed: true,
      mode: 'extended',
      settingsFrom: { system: { state: 'read' }, from: { failClosed: 'system', mode: 'system', strict: 'user' } },
    });
  });

  it('a broken system file: status and doctor say guard works at the strictest', async () => {
    writeSystemSettings(root, 'mostPermissiveMode: paranoid\n');
    const { stdout } = await guard('status');
    expect(stdout).toContain('CANNOT BE USED');
    expect(stdout).toContain('guard is on');
    expect(stdout).toContain('fail-closed is on');
    const doctor = JSON.parse((await guard('doctor', '--json')).stdout) as { guard: { name: string; ok: boolean }[] };
    expect(doctor.guard.find((check) => check.name === 'system settings')).toMatchObject({ ok: false });
  });
});

describe('export on for everyone from the system settings', () => {
  it('export status names the system collector, with projects hashed unless it says otherwise', async () => {
    writeSystemSettings(root, `${EXPORT}exportProjectPath: true\nexportHeader-X-Tenant: acme\n`);
    const json = JSON.parse((await guard('export', 'status', '--json')).stdout) as Record<string, unknown>;
    expect(json).toMatchObject({
      on: true,
      from: 'system',
      projectPath: true,
      headers: ['X-Tenant'],
      encoding: 'json',
    });
    expect((await guard('export', 'status')).stdout).toContain('set by the system settings, for everyone');
  });

  it.for([
    { extra: 'exportProjectSalt: acme-2026\n', salted: true },
    // near misses: no salt; a salt with the folders sent as they are (nothing hashed)
    { extra: '', salted: false },
    { extra: 'exportProjectSalt: acme-2026\nexportProjectPath: true\n', salted: false },
  ])(
    'export status says whether projects are hashed with a salt ($extra), never the salt',
    async ({ extra, salted }) => {
      writeSystemSettings(root, `${EXPORT}${extra}`);
      const { stdout } = await guard('export', 'status', '--json');
      expect(JSON.parse(stdout)).toMatchObject({ on: true, projectSalted: salted });
      expect(stdout).not.toContain('acme-2026');
      const text = (await guard('export', 'status')).stdout;
      expect(text.includes("hashed with the organisation's salt")).toBe(salted);
      expect(text).not.toContain('acme-2026');
    },
  );

  it.for([
    { line: 'exportEncoding: protobuf\n', encoding: 'protobuf' },
    { line: 'exportEncoding: json\n', encoding: 'json' },
    { line: '', encoding: 'json' },
  ])('the system settings choose the encoding: "$line" is $encoding', async ({ line, encoding }) => {
    // the user's choice does not count while the system's export is on
    expect((await guard('export', 'on', '--otlp', 'http://127.0.0.1:9', '--encoding', 'protobuf')).code).toBe(0);
    writeSystemSettings(root, `${EXPORT}${line}`);
    const json = JSON.parse((await guard('export', 'status', '--json')).stdout) as Record<string, unknown>;
    expect(json).toMatchObject({ on: true, from: 'system', encoding });
    expect((await guard('export', 'status')).stdout).toContain(`as OTLP ${encoding === 'json' ? 'JSON' : 'protobuf'}`);
  });

  it('near miss: without it, the user export is as it was', async () => {
    expect((await guard('export', 'on', '--otlp', 'http://127.0.0.1:9')).code).toBe(0);
    const json = JSON.parse((await guard('export', 'status', '--json')).stdout) as Record<string, unknown>;
    expect(json).toMatchObject({ on: true, from: 'user', projectPath: false });
    expect((await guard('export', 'off')).code).toBe(0);
  });
});

describe('guard allowed marks a yes kept for a locked rule as not used', () => {
  it.for([
    { system: 'lockedRules: pkg.install\n', unused: [true, false] },
    { system: "lockedRules: '*'\n", unused: [true, true] },
    // near misses: another rule locked, no system file
    { system: 'lockedRules: git.push\n', unused: [false, false] },
    { system: undefined, unused: [false, false] },
  ])('$system', async ({ system, unused }) => {
    if (system !== undefined) writeSystemSettings(root, system);
    keepForProject(
      guardHome,
      join(guardHome, 'project'),
      ['pkg.install:npm:zod', 'net.new-site:example.org'],
      new Date(),
    );
    const text = (await guard('allowed')).stdout.split('\n');
    expect(
      ['pkg.install:npm:zod', 'net.new-site:example.org'].map(
        (key) => text.find((line) => line.includes(key))?.includes('not used') ?? false,
      ),
    ).toEqual(unused);
    const json = JSON.parse((await guard('allowed', '--json')).stdout) as { allowed: { notUsed?: string }[] };
    expect(json.allowed.map((entry) => entry.notUsed !== undefined)).toEqual(unused);
  });
});

describe('guard explain answers as the hook would under the floor', () => {
  interface Answer {
    decision: string;
    mode?: string;
    modeAsked?: string;
    byMode?: string[];
    findings: { ruleId: string; locked?: true }[];
  }
  const explainJson = async (...argv: string[]): Promise<Answer> => {
    const { code, stdout } = await guard('explain', '--json', ...argv);
    expect(code).toBe(0);
    return JSON.parse(stdout) as Answer;
  };
  it.for([
    // a mode looser than the floor is answered in the floor's mode, and says so
    {
      system: 'mostPermissiveMode: extended\n',
      mode: 'full',
      push: 'ask',
      cp: 'allow',
      used: 'extended',
      raised: true,
    },
    { system: 'mostPermissiveMode: standard\n', mode: 'full', push: 'ask', cp: 'ask', used: 'standard', raised: true },
    {
      system: 'mostPermissiveMode: standard\n',
      mode: 'extended',
      push: 'ask',
      cp: 'ask',
      used: 'standard',
      raised: true,
    },
    { system: 'failClosed: [\n', mode: 'full', push: 'ask', cp: 'ask', used: 'standard', raised: true },
    // near misses: a mode the floor allows, or no floor at all, is answered as asked
    {
      system: 'mostPermissiveMode: extended\n',
      mode: 'extended',
      push: 'ask',
      cp: 'allow',
      used: 'extended',
      raised: false,
    },
    {
      system: 'mostPermissiveMode: extended\n',
      mode: 'standard',
      push: 'ask',
      cp: 'ask',
      used: 'standard',
      raised: false,
    },
    { system: 'failClosed: true\n', mode: 'full', push: 'allow', cp: 'allow', used: 'full', raised: false },
    { system: undefined, mode: 'full', push: 'allow', cp: 'allow', used: 'full', raised: false },
  ])('--mode $mode under $system', async ({ system, mode, push, cp, used, raised }) => {
    if (system !== undefined) writeSystemSettings(root, system);
    const answers = [
      await explainJson('--mode', mode, '--', 'git push origin main'),
      await explainJson('--mode', mode, '--', 'cp a.json /opt/other/a.json'),
    ];
    expect(answers.map((answer) => answer.decision)).toEqual([push, cp]);
    for (const answer of answers) {
      expect(answer.mode).toBe(used);
      expect(answer.modeAsked).toBe(raised ? mode : undefined);
    }
    const text = (await guard('explain', '--mode', mode, '--', 'git push origin main')).stdout.split('\n')[1];
    expect(text?.startsWith(`mode: ${used}`)).toBe(true);
    expect(text?.includes(`not ${mode}: the system settings allow at most ${used}`)).toBe(raised);
  });

  it.for([
    { system: 'lockedRules: git.push\n', push: 'ask', locked: true },
    { system: "lockedRules: '*'\n", push: 'ask', locked: true },
    { system: 'failClosed: [\n', push: 'ask', locked: true },
    // near misses: another rule locked, no system file
    { system: 'lockedRules: fs.write-outside\n', push: 'allow', locked: false },
    { system: undefined, push: 'allow', locked: false },
  ])('a locked rule in full mode under $system', async ({ system, push, locked }) => {
    if (system !== undefined) writeSystemSettings(root, system);
    const answer = await explainJson('--mode', 'full', '--', 'git push origin main');
    expect(answer.decision).toBe(push);
    expect(answer.byMode).toEqual(locked ? [] : ['git.push']);
    // the rules' own answer (no --mode) marks the locked finding
    const plain = await explainJson('--', 'git push origin main');
    expect(plain.findings.map((finding) => finding.locked === true)).toEqual([locked]);
    const text = (await guard('explain', '--', 'git push origin main')).stdout;
    expect(text.includes('Locked by the system settings')).toBe(locked);
  });
});
