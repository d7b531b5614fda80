import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { EMPTY_POLICY } from '@guard/core';
import { notePending, pinPolicy, policyPinsPath, readPin, readPins } from '../../src/state/policy-pins.js';

const home = (): string => mkdtempSync(join(tmpdir(), 'guard-pins-'));
const dist = new URL('../../dist/state/policy-pins.js', import.meta.url).href;
const run = promisify(execFile);
const TIGHT = { ...EMPTY_POLICY, block: ['git.push'] };
const seen = (hash: string) => ({
  hash,
  loosens: ['allow: fs.delete goes ahead for **'],
  time: '2026-01-01T00:00:00.000Z',
  agent: 'codex',
  chat: 'c1',
  step: 'git checkout other',
});

describe('policy-pins.json', () => {
  it('keeps a pin per project, without where the policy came from', () => {
    const dir = home();
    pinPolicy(dir, '/p', 'h1', { ...TIGHT, source: '/p/.guard.yaml' }, new Date(0));
    expect(readPin(dir, '/p')).toEqual({ hash: 'h1', policy: TIGHT, time: new Date(0).toISOString() });
    expect(readPin(dir, '/q')).toBeUndefined();
    expect(readPin(dir, '/p/sub')).toBeUndefined();
  });

  it('a waiting change keeps the step that saw it first; a chat is told once; a pin settles it', () => {
    const dir = home();
    pinPolicy(dir, '/p', 'h1', TIGHT, new Date(0));
    notePending(dir, '/p', seen('h2'), undefined);
    notePending(dir, '/p', { ...seen('h2'), chat: 'c2', step: 'later' }, 'codex:c2');
    notePending(dir, '/p', { ...seen('h2'), chat: 'c2', step: 'later still' }, 'codex:c2');
    expect(readPin(dir, '/p')?.pending).toEqual({ ...seen('h2'), told: ['codex:c2'] });
    // another change that loosens: it is the one that waits now, first seen by its own step
    notePending(dir, '/p', { ...seen('h3'), step: 'tar xf t.tar' }, undefined);
    expect(readPin(dir, '/p')?.pending).toEqual({ ...seen('h3'), step: 'tar xf t.tar', told: [] });
    expect(readPin(dir, '/p')?.policy).toEqual(TIGHT);
    pinPolicy(dir, '/p', 'h3', EMPTY_POLICY, new Date(1));
    expect(readPin(dir, '/p')?.pending).toBeUndefined();
  });

  it('a waiting change with no pin yet waits beside the built-in catalogue', () => {
    const dir = home();
    notePending(dir, '/new', seen('h9'), 'codex:c1');
    expect(readPin(dir, '/new')).toMatchObject({ hash: 'none', policy: EMPTY_POLICY, pending: { hash: 'h9' } });
  });

  it.for([
    { name: 'not JSON', text: '{ v: 1' },
    { name: 'another version', text: '{"v":2,"projects":{"/p":{}}}' },
    {
      name: 'a pin whose policy is not whole',
      text: '{"v":1,"projects":{"/p":{"hash":"h","time":"t","policy":{"allow":[]}}}}',
    },
    {
      name: 'an allow of the wrong shape',
      text: '{"v":1,"projects":{"/p":{"hash":"h","time":"t","policy":{"secrets":[],"block":[],"rules":[],"allow":[{"rule":"fs.delete","paths":"**"}]}}}}',
    },
    {
      name: 'a rule whose decision is allow',
      text: '{"v":1,"projects":{"/p":{"hash":"h","time":"t","policy":{"secrets":[],"block":[],"rules":[{"id":"policy.x","program":"x","args":[],"decision":"allow","reason":"r"}],"allow":[]}}}}',
    },
  ])('a file that is $name holds no pin there (measured against the built-in catalogue)', ({ text }) => {
    const dir = home();
    writeFileSync(policyPinsPath(dir), text);
    expect(readPin(dir, '/p')).toBeUndefined();
  });

  it('a whole pin beside a broken one is kept', () => {
    const dir = home();
    pinPolicy(dir, '/p', 'h1', TIGHT, new Date(0));
    const text = `{"v":1,"projects":{"/p":${JSON.stringify(readPin(dir, '/p'))},"/q":{"hash":1}}}`;
    writeFileSync(policyPinsPath(dir), text);
    expect(Object.keys(readPins(dir))).toEqual(['/p']);
  });

  it('the built state module is there', () => {
    expect(existsSync(new URL(dist)), 'packages/cli/dist is missing: run `npm run build` first').toBe(true);
  });

  it('8 processes pinning 8 projects and 4 noting waiting changes at once: every one kept', async () => {
    const dir = home();
    await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        run(process.execPath, [
          '--input-type=module',
          '-e',
          i < 8
            ? `import { pinPolicy } from ${JSON.stringify(dist)};
               pinPolicy(process.argv[1], '/p${i}', 'h${i}', { secrets: [], block: ['git.push'], rules: [], allow: [] }, new Date());`
            : `import { notePending } from ${JSON.stringify(dist)};
               notePending(process.argv[1], '/w${i}', { hash: 'w', loosens: ['x'], time: new Date().toISOString(), agent: 'codex', chat: 'c', step: 's' }, 'codex:c');`,
          dir,
        ]),
      ),
    );
    const pins = readPins(dir);
    expect(Object.keys(pins).sort()).toEqual(
      [...Array.from({ length: 8 }, (_, i) => `/p${i}`), ...Array.from({ length: 4 }, (_, i) => `/w${i + 8}`)].sort(),
    );
    for (let i = 0; i < 8; i++) expect(pins[`/p${i}`]?.hash).toBe(`h${i}`);
    // no lock or temp file left behind
    expect(readdirSync(dir)).toEqual(['policy-pins.json']);
  }, 120_000);
});
