import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AgentId, InstallOptions } from '@guard/adapters';
import { hookCommand } from '../../src/agents/config-io.js';
import { main } from '../../src/main.js';
import { hookScriptPath } from '../../src/self.js';
import { pathWithoutAgents } from '../agent-free-path.js';
import { captureIo } from '../capture-io.js';

/** A throwaway machine: a home folder, guard's folder, and a git project with a subfolder. */
export interface AgentHome {
  readonly root: string;
  readonly home: string;
  readonly guardHome: string;
  readonly project: string;
  /** A folder inside the project (the cwd of every command). */
  readonly cwd: string;
  /** Environment the commands see. */
  readonly env: Record<string, string | undefined>;
  /** Runs `guard <args>` in process; returns the exit code and what it printed. */
  guard(...args: string[]): Promise<{ readonly code: number; readonly stdout: string; readonly stderr: string }>;
  cleanup(): void;
}

export function makeAgentHome(env: Record<string, string> = {}): AgentHome {
  const root = mkdtempSync(join(tmpdir(), 'guard-setup-'));
  const home = join(root, 'home');
  const guardHome = join(root, 'guard');
  const project = join(root, 'project');
  const cwd = join(project, 'src', 'lib');
  mkdirSync(home, { recursive: true });
  mkdirSync(join(project, '.git'), { recursive: true });
  mkdirSync(cwd, { recursive: true });
  // no Codex on PATH unless a test says so, or setup would really ask Codex to trust the hook
  const path = pathWithoutAgents(process.env.PATH ?? '');
  const fullEnv = { HOME: home, GUARD_HOME: guardHome, PATH: path, SHELL: '/bin/sh', ...env };
  return {
    root,
    home,
    guardHome,
    project,
    cwd,
    env: fullEnv,
    async guard(...args) {
      const captured = captureIo({ cwd, home });
      const io = { ...captured.io, env: fullEnv, tmp: () => root };
      const code = await main(['node', 'guard', ...args], io);
      return { code, stdout: captured.stdout(), stderr: captured.stderr() };
    },
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  };
}

/**
 * What setup hands the adapter here: this Node and this guard's hook script, and off Windows the
 * same two as the files whose absence the command answers by itself, with guard's folder (`guardHome`).
 */
export function setupOptions(agent: AgentId, more: Partial<InstallOptions> = {}): InstallOptions {
  // guard's folder, which the command pins, is the one setup found (the box's GUARD_HOME)
  const home = more.guardHome === undefined ? {} : { home: more.guardHome };
  const files = { node: process.execPath, script: hookScriptPath(), ...home };
  return {
    hookCommand: hookCommand(agent),
    failClosed: false,
    ...(process.platform === 'win32' ? {} : { fallback: files }),
    ...more,
  };
}

/** The bytes of a file as text, or undefined when it is not there. */
export function readIfThere(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** Every file and folder under `dir`, with its bytes (a folder as '/'). */
export function snapshotOf(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) Object.assign(out, { [path]: '/' }, snapshotOf(path));
    else out[path] = readIfThere(path) as string;
  }
  return out;
}

/** Modification time in ns (to prove a file was not rewritten). */
export function mtimeOf(path: string): bigint {
  return statSync(path, { bigint: true }).mtimeNs;
}
