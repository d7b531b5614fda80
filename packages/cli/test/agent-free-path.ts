import { existsSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { findOnPath } from '../src/agents/codex-app-server.js';

const AGENTS = ['codex', 'copilot'];
let links: string | undefined;

/**
 * `path` as it would be on a machine with no agent installed: without any node_modules/.bin (npm
 * puts the repo's, with the pinned Codex, on PATH) and without any folder that holds a runnable
 * `codex` or `copilot` (a global install sits next to node or in /usr/bin; setup would then really
 * ask that Codex to trust the hook). Node and git (found on `path`, else on this process's PATH) stay
 * on it: where their folder had to go, or was never on `path`, a folder of this run's own links to them.
 */
export function pathWithoutAgents(path: string): string {
  const dirs = path.split(delimiter).filter((dir) => dir !== '');
  const kept = [...new Set(dirs)].filter(
    (dir) =>
      !/node_modules[\\/]\.bin$/.test(dir) && AGENTS.every((name) => findOnPath(name, { PATH: dir }) === undefined),
  );
  const keptPath = kept.join(delimiter);
  const lost = [
    { name: 'node', file: process.execPath },
    { name: 'git', file: findOnPath('git', { PATH: path }) ?? findOnPath('git', process.env) },
  ].filter(({ name, file }) => file !== undefined && findOnPath(name, { PATH: keptPath }) === undefined);
  if (lost.length === 0) return keptPath;
  if (links === undefined) {
    const made = mkdtempSync(join(tmpdir(), 'guard-test-bin-'));
    process.once('exit', () => rmSync(made, { recursive: true, force: true }));
    links = made;
  }
  for (const { name, file } of lost) {
    if (file !== undefined && !existsSync(join(links, name))) symlinkSync(file, join(links, name));
  }
  return [links, ...kept].join(delimiter);
}
