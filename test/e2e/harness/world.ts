import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LogEntry } from '../../../packages/cli/src/state/decision-log.js';
import { pathWithoutAgents } from '../../../packages/cli/test/agent-free-path.js';
import { BIN } from '../../hook/bin.js';
import { scaled } from '../../machine.js';
import { runBounded } from './process.js';
import type { RunResult } from './process.js';
import type { ScratchEtc } from './namespace.js';

/** The repository root. */
export const REPO = fileURLToPath(new URL('../../../', import.meta.url));
/** Where `node scripts/agents.mjs install` puts the pinned agent `id` (see test/e2e/agents.json). */
export function agentFolder(id: string): string {
  return join(REPO, '.agents', id, 'node_modules');
}

/**
 * One test's machine: a temporary home, agent homes, guard's folder and a project, all under one
 * temporary folder that `cleanup` removes. Nothing here reads the real home.
 */
export interface World {
  readonly root: string;
  readonly home: string;
  readonly guardHome: string;
  readonly codexHome: string;
  readonly copilotHome: string;
  /** The folder the agent works in. */
  readonly project: string;
  /** The environment every process of this world gets, built from scratch. */
  env(extra?: Readonly<Record<string, string>>): Record<string, string>;
  cleanup(): void;
}

export interface WorldOptions {
  /** Shared cache folder (Copilot unpacks itself there once per suite). */
  readonly cacheHome?: string;
}

// A PATH a person might have, on which no agent is found (neither the repo's pinned ones nor any
// installed on this machine); node and git are on it.
const SYSTEM_PATH = pathWithoutAgents([dirname(process.execPath), '/usr/local/bin', '/usr/bin', '/bin'].join(':'));

/** A fresh world under the system temp folder. */
export function makeWorld(options: WorldOptions = {}): World {
  const root = mkdtempSync(join(tmpdir(), 'guard-e2e-'));
  const dirs = {
    home: join(root, 'home'),
    guardHome: join(root, 'guard'),
    codexHome: join(root, 'home', '.codex'),
    copilotHome: join(root, 'home', '.copilot'),
    project: join(root, 'home', 'project'),
  };
  for (const dir of Object.values(dirs)) mkdirSync(dir, { recursive: true });
  const base: Record<string, string> = {
    PATH: SYSTEM_PATH,
    HOME: dirs.home,
    SHELL: '/bin/bash',
    LANG: 'C.UTF-8',
    GUARD_HOME: dirs.guardHome,
    CODEX_HOME: dirs.codexHome,
    COPILOT_HOME: dirs.copilotHome,
    XDG_CACHE_HOME: options.cacheHome ?? join(dirs.home, '.cache'),
    // git in the project (the agent's and the test's) needs a name and no machine-wide config
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_AUTHOR_NAME: 'Dev',
    GIT_AUTHOR_EMAIL: 'dev@example.com',
    GIT_COMMITTER_NAME: 'Dev',
    GIT_COMMITTER_EMAIL: 'dev@example.com',
    // the test run's (vitest.config.ts): a resident checker the hooks start leaves soon after
    ...(process.env['GUARD_SERVER_IDLE_MS'] === undefined
      ? {}
      : { GUARD_SERVER_IDLE_MS: process.env['GUARD_SERVER_IDLE_MS'] }),
  };
  return {
    root,
    ...dirs,
    env: (extra = {}) => ({ ...base, ...extra }),
    // an agent's background writer (Cline's task store) can still be adding a file while the folder
    // goes: retry instead of failing the test that just passed (ENOTEMPTY)
    cleanup: () => rmSync(root, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 }),
  };
}

/** Throws a clear error when a file the suite needs is missing. */
export function requireFile(path: string, fix: string): void {
  if (!existsSync(path)) throw new Error(`${path} is missing: ${fix}`);
}

/** Runs the built guard CLI in this world (cwd: the project), over a scratch /etc if given one. */
export function guard(
  world: World,
  args: readonly string[],
  extraEnv: Readonly<Record<string, string>> = {},
  etc?: ScratchEtc,
): Promise<RunResult> {
  return runBounded(process.execPath, [BIN, ...args], {
    cwd: world.project,
    env: world.env(extraEnv),
    limitMs: scaled(60_000),
    ...(etc === undefined ? {} : { etc }),
  });
}

/** Runs the built guard CLI and fails with its output when it does not exit 0. */
export async function guardOk(
  world: World,
  args: readonly string[],
  extraEnv: Readonly<Record<string, string>> = {},
  etc?: ScratchEtc,
): Promise<string> {
  const result = await guard(world, args, extraEnv, etc);
  if (result.code !== 0)
    throw new Error(`guard ${args.join(' ')} exited ${String(result.code)}:\n${result.stdout}${result.stderr}`);
  return result.stdout;
}

/** guard's log in this world, one entry per line (torn or foreign lines are an error here). */
export function readLog(world: World): LogEntry[] {
  const path = join(world.guardHome, 'log.jsonl');
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as LogEntry);
}

/** The log entries about tool steps (the ones with a decision). */
export function stepEntries(world: World): LogEntry[] {
  return readLog(world).filter((entry) => entry.decision !== undefined);
}

/** Runs git in `cwd` with the world's environment; returns stdout. */
export function git(world: World, cwd: string, args: readonly string[]): string {
  return execFileSync('git', args, {
    cwd,
    env: world.env(),
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: scaled(30_000),
  });
}

/** A bare repository the project pushes to. */
export interface Remote {
  readonly path: string;
  /** The commit a branch points at in the remote, or undefined when it has no such branch. */
  head(branch: string): string | undefined;
}

/**
 * Makes the project a git repository whose `origin` is a local bare repository with `main` pushed.
 * Then the local `main` moves on: `ahead` adds a commit (a plain push would move the remote),
 * `diverged` rewrites the pushed one (only a force push would).
 */
export function remote(world: World, local: 'ahead' | 'diverged'): Remote {
  const path = join(world.root, 'remote.git');
  git(world, world.root, ['init', '--quiet', '--bare', '--initial-branch=main', path]);
  git(world, world.project, ['init', '--quiet', '--initial-branch=main']);
  git(world, world.project, ['commit', '--quiet', '--allow-empty', '-m', 'first']);
  git(world, world.project, ['remote', 'add', 'origin', path]);
  git(world, world.project, ['push', '--quiet', 'origin', 'main']);
  const change =
    local === 'ahead'
      ? ['commit', '--quiet', '--allow-empty', '-m', 'second']
      : ['commit', '--quiet', '--amend', '--allow-empty', '-m', 'rewritten'];
  git(world, world.project, change);
  return {
    path,
    head: (branch) => {
      try {
        return git(world, path, ['rev-parse', '--verify', '--quiet', `refs/heads/${branch}`]).trim();
      } catch {
        return undefined;
      }
    },
  };
}
