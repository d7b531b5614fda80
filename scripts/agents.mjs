#!/usr/bin/env node
// The real agents the end-to-end tests drive. Each is pinned in test/e2e/agents.json and installed
// from the package registry into its own folder, .agents/<id>/ (not a dependency of the repository,
// so building and installing guard never fetches them).
//   node scripts/agents.mjs install [id...]   installs each named agent (all when none is named) that
//                                            is missing or at another version; the rest are left
//   node scripts/agents.mjs list [--json]     the pinned agents and whether each is installed
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
/** @type {Record<string, {package: string, version: string}>} */
export const AGENTS = JSON.parse(readFileSync(join(root, 'test/e2e/agents.json'), 'utf8'));

/** The folder an agent is installed in. */
export const agentFolder = (id) => join(root, '.agents', id);

/** The installed version of an agent's package, or undefined. */
function installedVersion(id) {
  const file = join(agentFolder(id), 'node_modules', AGENTS[id].package, 'package.json');
  try {
    return JSON.parse(readFileSync(file, 'utf8')).version;
  } catch {
    return undefined;
  }
}

const isCurrent = (id) => installedVersion(id) === AGENTS[id].version;

/** Installs one agent with npm (no install scripts: the tests run each agent's files as shipped). */
function install(id) {
  const { package: name, version } = AGENTS[id];
  const folder = agentFolder(id);
  rmSync(folder, { recursive: true, force: true });
  mkdirSync(folder, { recursive: true });
  writeFileSync(
    join(folder, 'package.json'),
    `${JSON.stringify({ private: true, dependencies: { [name]: version } }, null, 2)}\n`,
  );
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const args = ['install', '--no-audit', '--no-fund', '--no-package-lock', '--ignore-scripts', '--loglevel=error'];
  return new Promise((resolve, reject) => {
    const child = spawn(npm, args, {
      cwd: folder,
      stdio: ['ignore', 'ignore', 'inherit'],
      shell: process.platform === 'win32',
    });
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 && isCurrent(id)
        ? resolve()
        : reject(new Error(`could not install ${name}@${version} for the ${id} tests (npm exit ${code})`)),
    );
  });
}

function usage(message) {
  console.error(
    `${message}\nusage: node scripts/agents.mjs install [${Object.keys(AGENTS).join('|')}...] | list [--json]`,
  );
  process.exit(2);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [command, ...rest] = process.argv.slice(2);
  const ids = rest.filter((arg) => !arg.startsWith('--'));
  for (const id of ids) if (!(id in AGENTS)) usage(`no pinned agent "${id}"`);
  const chosen = ids.length > 0 ? ids : Object.keys(AGENTS);
  if (command === 'install') {
    const missing = chosen.filter((id) => !isCurrent(id));
    if (missing.length > 0) {
      console.log(
        `installing the agents the end-to-end tests run: ${missing.map((id) => `${AGENTS[id].package}@${AGENTS[id].version}`).join(', ')}`,
      );
      const results = await Promise.allSettled(missing.map(install));
      const failed = results.filter((result) => result.status === 'rejected');
      for (const { reason } of failed) console.error(reason.message);
      if (failed.length > 0) process.exit(1);
    }
  } else if (command === 'list') {
    const rows = chosen.map((id) => ({
      id,
      ...AGENTS[id],
      installed: installedVersion(id) ?? null,
      folder: agentFolder(id),
    }));
    if (rest.includes('--json')) console.log(JSON.stringify(rows, null, 2));
    else
      for (const row of rows)
        console.log(
          `${row.id}\t${row.package}@${row.version}\t${row.installed === row.version ? 'installed' : row.installed === null ? 'missing' : `installed ${row.installed}`}`,
        );
  } else usage(command === undefined ? 'no command' : `unknown command "${command}"`);
}
