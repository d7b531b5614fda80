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
