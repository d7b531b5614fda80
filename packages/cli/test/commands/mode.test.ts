import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rules } from '@guard/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { forget, listAllowed } from '../../src/commands/allowed.js';
import { mode } from '../../src/commands/mode.js';
import { GuardError } from '../../src/errors.js';
import { main } from '../../src/main.js';
import { allowedId, keepForProject, readAllowed } from '../../src/state/allowed.js';
import type { LogEntry } from '../../src/state/decision-log.js';
import { readSettings } from '../../src/state/settings.js';
import { captureIo } from '../capture-io.js';

let guardHome: string;
beforeEach(() => {
  guardHome = mkdtempSync(join(tmpdir(), 'guard-mode-'));
});
afterEach(() => rmSync(guardHome, { recursive: true, force: true }));

const settingsFile = (): string => join(guardHome, 'settings.yaml');

function captured(cwd?: string) {
  const c = captureIo(cwd === undefined ? {} : { cwd });
  return { ...c, io: { ...c.io, env: { GUARD_HOME: guardHome } } };
}

async function cli(args: readonly string[], cwd?: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const c = captured(cwd);
  const code = await main(['node', 'guard', ...args], c.io);
  return { code, stdout: c.stdout(), stderr: c.stderr() };
}

function switches(): LogEntry[] {
  if (!existsSync(join(guardHome, 'log.jsonl'))) return [];
  return readFileSync(join(guardHome, 'log.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as LogEntry);
}

describe('guard mode', () => {
  it('shows standard on a fresh machine and writes nothing', async () => {
    const c = captured();
    await mode(undefined, { json: false }, c.io);
    expect(c.stdout()).toMatch(/^guard's mode is standard: asks about everything on the ask list\.\n/);
    expect(c.stdout()).toContain('In every mode the never list blocks');
    expect(existsSync(settingsFile())).toBe(false);
  });

  it.for(['extended', 'full', 'standard'] as const)(
    'keeps %s in settings.yaml with every comment and key of the person, and logs the switch',
    async (wanted) => {
      writeFileSync(settingsFile(), '# my note\nidleDays: 3 # a week is too long\nmode: extended\n');
      const c = captured();
      await mode(wanted, { json: false }, c.io);
      const text = readFileSync(settingsFile(), 'utf8');
      expect(text).toContain('# my note\n');
      expect(text).toContain('idleDays: 3 # a week is too long\n');
      expect(await readSettings(guardHome)).toMatchObject({ mode: wanted, idleDays: 3 });
      if (wanted === 'extended') {
        expect(c.stdout()).toMatch(/^guard's mode was already extended; nothing changed\./);
        expect(switches()).toEqual([]);
      } else {
        expect(c.stdout()).toMatch(new RegExp(`^guard's mode is now ${wanted}: `));
        expect(switches()).toMatchObject([{ how: 'switch', changed: { mode: wanted } }]);
      }
    },
  );

  it('--json prints the mode and whether it changed', async () => {
    // pretty, as every other --json
    const doc = (mode: string, changed: boolean) => `{\n  "mode": "${mode}",\n  "changed": ${changed}\n}\n`;
    expect((await cli(['mode', '--json'])).stdout).toBe(doc('standard', false));
    expect((await cli(['mode', 'full', '--json'])).stdout).toBe(doc('full', true));
    expect((await cli(['mode', '--json'])).stdout).toBe(doc('full', false));
  });

  it.for([
    ['mode', 'bogus'],
    ['mode', 'Full'],
    ['mode', 'strict'],
  ])('refuses %s %s as a usage error, and writes nothing', async (args) => {
    const result = await cli(args);
    expect(result.code).toBe(2);
    expect(existsSync(settingsFile())).toBe(false);
  });

  it('a settings.yaml naming no known mode is an error, never a quiet fall back', async () => {
    writeFileSync(settingsFile(), 'mode: yolo\n');
    await expect(readSettings(guardHome)).rejects.toThrow(/mode must be standard, extended or full, not "yolo"/);
    const c = captured();
    await expect(mode('full', { json: false }, c.io)).rejects.toBeInstanceOf(GuardError);
    expect(readFileSync(settingsFile(), 'utf8')).toBe('mode: yolo\n');
  });

  it('guard status shows the mode, in text and in --json', async () => {
    await cli(['mode', 'extended']);
    const text = await cli(['status']);
    expect(text.stdout.split('\n')[1]).toBe(
      'mode: extended (steps outside the project go ahead; the rest of the ask list asks; `guard mode` tells more)',
    );
    const json = JSON.parse((await cli(['status', '--json'])).stdout) as { mode: string };
    expect(json.mode).toBe('extended');
  });
});

describe('guard explain --mode', () => {
  it.for([
    ['git push origin main', 'ask', 'ask', 'allow'],
    ['cp a.json /opt/other/a.json', 'ask', 'allow', 'allow'],
    ['git push --force origin main', 'block', 'block', 'block'],
    ['rm -rf "$DIR/cache"', 'ask', 'ask', 'ask'],
  ])('%s: %s, %s, %s', async ([command, ...answers]) => {
    const got = [];
    for (const m of ['standard', 'extended', 'full']) {
      const result = await cli(['explain', '--json', '--mode', m, '--', command ?? '']);
      const json = JSON.parse(result.stdout) as { decision: string; mode: string; byMode: string[] };
      expect(json.mode).toBe(m);
      got.push(json.decision);
    }
    expect(got).toEqual(answers);
  });

  it('without --mode, the answer is the rules’ own, with no mode fields', async () => {
    const json = JSON.parse((await cli(['explain', '--json', '--', 'git push origin main'])).stdout) as object;
    expect(json).not.toHaveProperty('mode');
    expect(json).not.toHaveProperty('byMode');
  });

  it('the text names what the mode let go ahead', async () => {
    const result = await cli(['explain', '--mode', 'full', '--', 'git push origin main']);
    expect(result.stdout).toMatch(/^allow\nmode: full \(lets go ahead: git\.push\)\n/);
  });
});

describe('guard rules lists the concern classes', () => {
  it('--json: every ask rule in exactly one class, never-list rules in none', async () => {
    const json = JSON.parse((await cli(['rules', '--json'])).stdout) as {
      concerns: { id: string; rules: string[]; modes: Record<string, string> }[];
    };
    expect(json.concerns.map((c) => c.id)).toEqual([
      'outside',
      'sending',
      'secrets',
      'destructive',
      'rules-or-machine',
    ]);
    const listed = json.concerns.flatMap((c) => c.rules).sort();
    expect(listed).toEqual(
      rules
        .filter((r) => r.meta.decision === 'ask')
        .map((r) => r.meta.id)
        .sort(),
    );
    expect(json.concerns.find((c) => c.id === 'outside')?.modes).toEqual({
      standard: 'ask',
      extended: 'allow',
      full: 'allow',
    });
  });

  it('text: each ask rule says its class and what each mode does', async () => {
    const { stdout } = await cli(['rules']);
    expect(stdout).toContain('    outside the project: standard asks, extended goes ahead, full goes ahead;');
    expect(stdout).toContain('    secrets: standard asks, extended asks, full asks; a yes lasts this step');
  });
});

describe('guard allowed / guard forget', () => {
  const PROJECT = join(tmpdir(), 'guard-allowed-project');
  const OTHER = join(tmpdir(), 'guard-allowed-other');
  const at = new Date(Date.UTC(2026, 0, 2, 3, 4, 5));

  it('lists nothing, then each kept yes under its project, this project first', async () => {
    expect((await cli(['allowed'])).stdout).toMatch(/^No yes is kept for a whole project\./);
    keepForProject(guardHome, OTHER, ['net.new-site:example.org'], at);
    keepForProject(guardHome, PROJECT, ['pkg.install:npm:zod', 'pkg.install:npm:zod'], at);
    expect(readAllowed(guardHome)).toHaveLength(2);
    const c = captured(PROJECT);
    await listAllowed({ json: false }, c.io);
    const lines = c.stdout().split('\n');
    expect(lines[0]).toBe(`${PROJECT} (this project)`);
    expect(lines[1]).toBe(
      `  ${allowedId(PROJECT, 'pkg.install:npm:zod')}  pkg.install:npm:zod  (2026-01-02T03:04:05.000Z)`,
    );
    expect(lines[2]).toBe(OTHER);
    const json = JSON.parse((await cli(['allowed', '--json'])).stdout) as { allowed: { key: string }[] };
    expect(json.allowed.map((entry) => entry.key)).toEqual(['net.new-site:example.org', 'pkg.install:npm:zod']);
  });

  it('forgets one by id, a project’s, or all; a wrong id is an error', async () => {
    keepForProject(guardHome, PROJECT, ['pkg.install:npm:zod', 'git.push:origin/feature'], at);
    keepForProject(guardHome, OTHER, ['net.new-site:example.org'], at);
    const one = captured();
    forget(allowedId(PROJECT, 'git.push:origin/feature'), { project: false, all: false }, one.io);
    expect(one.stdout()).toBe('Forgot one yes: git.push:origin/feature. Those steps ask again.\n');
    expect(() => forget('nope', { project: false, all: false }, captured().io)).toThrow(/No kept yes has the id nope/);
    forget(undefined, { project: true, all: false }, captured(PROJECT).io);
    expect(readAllowed(guardHome).map((entry) => entry.key)).toEqual(['net.new-site:example.org']);
    forget(undefined, { project: false, all: true }, captured().io);
    expect(readAllowed(guardHome)).toEqual([]);
  });

  it.for([[['forget']], [['forget', 'abc', '--all']], [['forget', '--project', '--all']]])(
    '%j is a usage error',
    async ([args]) => {
      expect((await cli(args ?? [])).code).toBe(2);
    },
  );

  it('a file that cannot be read keeps no yes (asking again is the safe side)', () => {
    for (const text of ['not json', '{"v":2,"entries":[]}', '{"v":1,"entries":[{"id":1}]}', 'null']) {
      writeFileSync(join(guardHome, 'allowed.json'), text);
      expect(readAllowed(guardHome)).toEqual([]);
    }
  });
});
