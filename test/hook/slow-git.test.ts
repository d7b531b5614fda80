import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { requireBuild } from './bin.js';
import type { World } from './chats.js';
import { CHATS, logOf, makeWorld, removeWorld } from './chats.js';
import { scaled } from '../machine.js';

vi.setConfig({ testTimeout: scaled(60_000), hookTimeout: scaled(60_000) });

/**
 * SPEC §7 (issue 12, slow git): when git does not answer within its budget, `git add -A && git
 * commit` over an untracked `.env` is asked with "could not check in time", on every agent; it is
 * never let through, and the answer is guard's verdict, not the deadline's failure answer.
 */

const sq = (text: string): string => `'${text.replaceAll("'", `'\\''`)}'`;

const base = makeWorld('slow-git', 20_000);
const bin = join(base.root, 'slow-bin');
let slow: World;
let fast: World;

beforeAll(() => {
  requireBuild();
  const git = (...args: string[]): string =>
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], {
      cwd: base.project,
      encoding: 'utf8',
    });
  git('init', '-q');
  git('add', '.');
  git('commit', '-q', '-m', 'init');
  writeFileSync(join(base.project, '.env'), 'API_KEY=1\n');
  // a git that never answers in time (a huge repository on a busy machine)
  mkdirSync(bin);
  writeFileSync(join(bin, 'git'), `#!/bin/sh\nexec ${sq(process.execPath)} -e 'setTimeout(() => {}, 30000)'\n`);
  chmodSync(join(bin, 'git'), 0o755);
  slow = { ...base, env: { ...base.env, PATH: bin } };
  fast = base;
});
afterAll(() => removeWorld(base));

describe.runIf(process.platform !== 'win32')('a git slower than its budget', () => {
  it.for(Object.keys(CHATS))('%s: git add -A && git commit over an untracked .env asks, saying why', async (agent) => {
    const chat = CHATS[agent as keyof typeof CHATS](slow, `slow-git-${agent}`);
    const answer = await chat.shell('git add -A && git commit -m wip');
    expect(chat.seen(answer)).not.toBe('allow');
    expect(chat.text(answer)).toMatch(/could not check in time/);
    const entry = logOf(slow).at(-1);
    expect(entry?.how).not.toBe('deadline');
    expect(entry?.how).not.toBe('failure');
  });

  it.for(Object.keys(CHATS))('%s: the same step with a git that answers is blocked', async (agent) => {
    const chat = CHATS[agent as keyof typeof CHATS](fast, `fast-git-${agent}`);
    const answer = await chat.shell('git add -A && git commit -m wip');
    expect(chat.seen(answer)).toBe('block');
    expect(chat.text(answer)).not.toMatch(/could not check/);
  });

  it('a harmless step asks nothing of git, so a slow git changes nothing', async () => {
    const chat = CHATS.cursor(slow, 'slow-git-harmless');
    for (const command of ['git status', 'npm test', 'git commit -m wip'])
      expect(chat.seen(await chat.shell(command)), command).toBe('allow');
  });
});
