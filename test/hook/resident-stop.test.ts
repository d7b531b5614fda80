import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { StatusJson } from '../../packages/cli/src/agents/inspect.js';
import { main } from '../../packages/cli/src/main.js';
import { captureIo } from '../../packages/cli/test/capture-io.js';
import { requireBuild } from './bin.js';
import { alive, answers, checkerPid, checkerSocket, startChecker } from './resident.js';
import { scaled } from '../machine.js';

// `guard uninstall --all` stops the resident checker of guard's folder, and returns only once it
// has left; `guard status` says whether one runs. A checker of another guard folder is not touched.

vi.setConfig({ testTimeout: scaled(60_000), hookTimeout: scaled(60_000) });

const ROOT = mkdtempSync(join(tmpdir(), 'guard-resident-stop-'));
const HOME = join(ROOT, 'home');
let homes = 0;

beforeAll(() => {
  requireBuild();
  mkdirSync(HOME, { recursive: true });
});
// any checker still running leaves once its folder is gone
afterAll(() => rmSync(ROOT, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 }));

function guardHome(): { guardHome: string; env: Record<string, string> } {
  const dir = join(ROOT, `guard-${(homes += 1)}`);
  mkdirSync(dir);
  return { guardHome: dir, env: { HOME, GUARD_HOME: dir, GUARD_SERVER_IDLE_MS: '60000' } };
}

/** `guard <args>` in-process, in the home folder, with this guard folder. */
async function guard(dir: string, ...args: string[]): Promise<{ code: number; stdout: string }> {
  const captured = captureIo({ cwd: HOME, home: HOME });
  const code = await main(['node', 'guard', ...args], { ...captured.io, env: { HOME, GUARD_HOME: dir } });
  return { code, stdout: captured.stdout() };
}

async function running(dir: string): Promise<number> {
  return (JSON.parse((await guard(dir, 'status', '--json')).stdout) as StatusJson).resident.running;
}

const STOPPED = "Stopped guard's resident checker";

describe.skipIf(process.platform !== 'linux')('guard uninstall --all stops the resident checker', () => {
  it('a running checker has left when the command returns; status says it ran, then that none runs', async () => {
    const there = guardHome();
    await startChecker(there.guardHome, there.env);
    const { run, socket } = checkerSocket(there.guardHome);
    const pid = checkerPid(socket);
    expect(await running(there.guardHome)).toBe(1);
    expect((await guard(there.guardHome, 'status')).stdout).toContain('\nresident checker: running (');

    const result = await guard(there.guardHome, 'uninstall', '--all');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`${STOPPED} (the process that kept guard's hook loaded).\n`);
    expect(alive(pid)).toBe(false);
    expect(existsSync(run)).toBe(false);
    expect(await running(there.guardHome)).toBe(0);
    expect((await guard(there.guardHome, 'status')).stdout).toContain('\nresident checker: not running (');
  });

  it('a checker of another guard folder goes on (the near miss)', async () => {
    const mine = guardHome();
    const other = guardHome();
    await startChecker(mine.guardHome, mine.env);
    await startChecker(other.guardHome, other.env);
    const otherPid = checkerPid(checkerSocket(other.guardHome).socket);
    expect((await guard(mine.guardHome, 'uninstall', '--all')).stdout).toContain(STOPPED);
    expect(alive(otherPid)).toBe(true);
    expect(await answers(checkerSocket(other.guardHome).socket)).toBe(true);
    process.kill(otherPid);
  });

  it('a socket a killed checker left behind is cleared without a word about stopping', async () => {
    const there = guardHome();
    await startChecker(there.guardHome, there.env);
    const { run, socket } = checkerSocket(there.guardHome);
    process.kill(checkerPid(socket), 'SIGKILL');
    while (await answers(socket)) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(existsSync(socket)).toBe(true);
    const result = await guard(there.guardHome, 'uninstall', '--all');
    expect(result.stdout).not.toContain(STOPPED);
    expect(existsSync(socket)).toBe(false);
    expect(existsSync(run)).toBe(false);
  });

  it('no checker: nothing said about one, and nothing breaks', async () => {
    const there = guardHome();
    const result = await guard(there.guardHome, 'uninstall', '--all');
    expect(result).toMatchObject({ code: 0 });
    expect(result.stdout).not.toContain('resident checker');
    expect(await running(there.guardHome)).toBe(0);
  });
});
