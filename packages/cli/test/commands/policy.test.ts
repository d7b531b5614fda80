import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { main } from '../../src/main.js';
import { notePending, pinPolicy, readPin } from '../../src/state/policy-pins.js';
import { policyHash } from '../../src/world/project-policy.js';
import { captureIo } from '../capture-io.js';

let root: string;
let guardHome: string;
let project: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'guard-policy-'));
  guardHome = join(root, 'guard');
  project = join(root, 'project');
  mkdirSync(join(project, '.git'), { recursive: true });
  mkdirSync(join(project, 'src'), { recursive: true });
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const TIGHT = 'block:\n  - fs.delete\n';
const LOOSE = 'allow:\n  - rule: fs.delete\n    paths: ["**"]\n';
const write = (text: string): void => writeFileSync(join(project, '.guard.yaml'), text);
const tight = { secrets: [], block: ['fs.delete'], rules: [], allow: [] };

async function cli(args: readonly string[], cwd = join(project, 'src')) {
  const c = captureIo({ cwd, home: root });
  const code = await main(['node', 'guard', ...args], { ...c.io, env: { GUARD_HOME: guardHome } });
  return { code, stdout: c.stdout(), stderr: c.stderr() };
}

describe('guard policy', () => {
  it.for([
    { name: 'no file', file: undefined, pinned: false, says: /no policy file; the built-in rules apply/ },
    { name: 'a pinned file', file: TIGHT, pinned: true, says: /pinned; guard applies it as it is/ },
    { name: 'an unpinned file that only tightens', file: TIGHT, pinned: false, says: /only tightens; guard applies/ },
    {
      name: 'a loosening change',
      file: LOOSE,
      pinned: true,
      says: /loosens guard[^]*block: fs\.delete asks again[^]*allow: fs\.delete goes ahead for \*\*/,
    },
  ])('$name (from a folder inside the project)', async ({ file, pinned, says }) => {
    if (pinned) {
      write(TIGHT);
      pinPolicy(guardHome, project, policyHash(project), tight, new Date(0));
    }
    if (file !== undefined) write(file);
    for (const args of [['policy'], ['policy', 'show'], ['policy', 'status']]) {
      const shown = await cli(args);
      expect(shown).toMatchObject({ code: 0, stderr: '' });
      expect(shown.stdout).toMatch(says);
    }
    // showing pins nothing
    expect(readPin(guardHome, project)?.hash).toEqual(pinned ? expect.any(String) : undefined);
  });

  it('--json names the step that first saw a waiting change', async () => {
    write(TIGHT);
    pinPolicy(guardHome, project, policyHash(project), tight, new Date(0));
    write(LOOSE);
    const seen = { time: '2026-01-01T00:00:00.000Z', agent: 'codex', chat: 'c1', step: 'git stash pop' };
    notePending(guardHome, project, { hash: policyHash(project), loosens: ['x'], ...seen }, undefined);
    const shown = await cli(['policy', 'status', '--json']);
    const [view] = (JSON.parse(shown.stdout) as { projects: Record<string, unknown>[] }).projects;
    expect(view).toMatchObject({ project, pinned: false, waiting: seen });
    expect(view?.['loosens']).toHaveLength(2);
  });

  it('accept shows what loosens and pins the file; then nothing is left to accept', async () => {
    write(TIGHT);
    pinPolicy(guardHome, project, policyHash(project), tight, new Date(0));
    write(LOOSE);
    const accepted = await cli(['policy', 'accept']);
    expect(accepted.code).toBe(0);
    expect(accepted.stdout).toMatch(/allow: fs\.delete goes ahead for \*\*/);
    expect(accepted.stdout).toMatch(/Pinned .*\.guard\.yaml/);
    expect(readPin(guardHome, project)).toMatchObject({
      hash: policyHash(project),
      policy: { block: [], allow: [{ rule: 'fs.delete', paths: ['**'] }] },
    });
    expect((await cli(['policy', 'accept'])).stdout).toMatch(/^Nothing to accept/);
    expect((await cli(['policy', '--json'])).stdout).toMatch(/"pinned": true/);
  });

  it('accept takes the folders within the project the hook has seen, each shown', async () => {
    const sub = join(project, 'sub');
    mkdirSync(sub);
    writeFileSync(join(sub, '.guard.yaml'), LOOSE);
    notePending(
      guardHome,
      sub,
      { hash: 'h', loosens: ['x'], time: 't', agent: 'copilot', chat: 'c', step: 's' },
      undefined,
    );
    const accepted = await cli(['policy', 'accept', '--json'], project);
    const taken = (JSON.parse(accepted.stdout) as { accepted: { project: string }[] }).accepted.map((v) => v.project);
    expect(taken).toEqual([sub]);
    expect(readPin(guardHome, sub)?.pending).toBeUndefined();
  });

  it.for([
    { args: ['policy', 'take'], code: 2, stderr: /'take' is invalid/ },
    { args: ['policy', 'accept', '--force'], code: 2, stderr: /unknown option '--force'/ },
    { args: ['policy', 'accept', '--project'], code: 2, stderr: /argument missing/ },
    {
      args: ['policy', 'accept', '--project', 'nowhere'],
      code: 1,
      stderr: /is not a folder\.\n.*guard policy --project DIR/,
    },
  ])('guard $args.0 $args.1 $args.2 $args.3: exit $code, nothing pinned', async ({ args, code, stderr }) => {
    write(LOOSE);
    const ran = await cli(args, project);
    expect(ran.code).toBe(code);
    expect(ran.stderr).toMatch(stderr);
    expect(readPin(guardHome, project)).toBeUndefined();
  });
});
