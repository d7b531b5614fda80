import { spawn } from 'node:child_process';
import {
  chmodSync,
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { adapters, AGENT_IDS, AGENTS } from '../../packages/adapters/src/index.js';
import type { AgentId } from '../../packages/adapters/src/index.js';
import { pathWithoutAgents } from '../../packages/cli/test/agent-free-path.js';

/**
 * A scratch machine for the self-attack suite: a copy of the built checkout (so "guard's own
 * package" is a folder of the test's own), a home folder, guard's folder, a project, every agent set
 * up at user and project level by the copy's own `guard setup`, and a few things a hostile agent
 * would have made in earlier steps (a link to guard's folder, a link to and a copy of guard's CLI).
 */

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const PACKAGES = ['core', 'adapters', 'cli'];

export interface World {
  readonly root: string;
  readonly checkout: string;
  /** The copy's packages/cli/dist. */
  readonly dist: string;
  readonly home: string;
  readonly guardHome: string;
  readonly project: string;
  /** A repository inside the project with its own `.guard.yaml`. */
  readonly inner: string;
  /** A second project whose `.guard.yaml` tries to allow things outside it. */
  readonly loose: string;
  readonly tmp: string;
  /** `<tmp>/state-link` → guardHome. */
  readonly linkToGuardHome: string;
  /** `<tmp>/tool.js` → dist/bin.js. */
  readonly linkToBin: string;
  /** `<tmp>/tool-copy`: a copy of dist. */
  readonly copyOfDist: string;
  readonly env: Readonly<Record<string, string>>;
  /**
   * Every variable that moves an agent's folder (the registry's), pointed into the temp folder for
   * the attempts (setup ran without them, so the agents' default folders hold guard's entries).
   */
  readonly moved: Readonly<Record<string, string>>;
  /** Per agent, the hook command setup wrote for the event that carries a shell step. */
  readonly hookCommands: Readonly<Record<AgentId, string>>;
}

/**
 * Runs `guard <words>` for each of `steps`, one after another in one Node process, through the main()
 * of the built CLI in `dist` (as its bin.js runs one), with only `env`; throws at the first that
 * fails, saying which (a process for each would start the CLI once for each).
 */
export async function guardSteps(
  dist: string,
  steps: readonly (readonly string[])[],
  options: { env: Readonly<Record<string, string>>; cwd: string },
): Promise<void> {
  const script = [
    'const { main } = await import(process.argv[1]);',
    'for (const words of JSON.parse(process.argv[2])) {',
    "  const code = await main(['node', 'guard', ...words]);",
    "  if (code !== 0) process.stderr.write('guard ' + words.join(' ') + ' exited ' + code + '\\n');",
    '  if (code !== 0) process.exit(1);',
    '}',
  ].join('\n');
  const url = pathToFileURL(join(dist, 'main.js')).href;
  const ran = await run(process.execPath, ['--input-type=module', '-e', script, url, JSON.stringify(steps)], options);
  if (ran.code !== 0) throw new Error(`guard's steps failed: ${ran.stdout}${ran.stderr}`);
}

/** Builds the world: copies the built packages, sets every agent up, makes the links and the copy. */
export async function makeWorld(): Promise<World> {
  if (!existsSync(join(REPO, 'packages', 'cli', 'dist', 'bin.js'))) {
    throw new Error(
      'packages/cli/dist/bin.js is missing: run `npm run build` first (`npm test` builds before testing).',
    );
  }
  // realpath: on some systems the temp folder is itself a link, and guard names folders by what they are
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'guard-self-attack-')));
  const checkout = join(root, 'checkout');
  const dist = join(checkout, 'packages', 'cli', 'dist');
  const home = join(root, 'home');
  const guardHome = join(root, 'state', 'guard');
  const project = join(home, 'work', 'project');
  const inner = join(project, 'vendor', 'inner');
  const loose = join(home, 'work', 'loose');
  const tmp = join(root, 'tmp');
  copyBuiltCheckout(checkout);
  for (const dir of [home, guardHome, tmp, join(project, '.git'), join(inner, '.git'), join(loose, '.git')])
    mkdirSync(dir, { recursive: true });
  writeFileSync(join(project, 'package.json'), '{ "name": "project", "private": true }\n');
  writeFileSync(join(project, 'README.md'), 'a project\n');
  // the person's own policies: the outer project blocks writes outside it; the nested repository's
  // file, and the loose project's, try to allow deletes and writes on the whole machine
  writeFileSync(join(project, '.guard.yaml'), 'block:\n  - fs.write-outside\n');
  writeFileSync(join(inner, '.guard.yaml'), 'allow:\n  - rule: fs.write-outside\n    paths: ["**"]\n');
  writeFileSync(
    join(loose, '.guard.yaml'),
    [
      'allow:',
      '  - rule: fs.delete',
      '    paths: ["**", "/**", "/opt/**", "../**", "~/**"]',
      '  - rule: fs.write-outside',
      '    paths: ["**", "/**", "/opt/**", "../**"]',
      '',
    ].join('\n'),
  );
  const env = {
    HOME: home,
    GUARD_HOME: guardHome,
    TMPDIR: tmp,
    SHELL: '/bin/sh',
    PATH: pathWithoutAgents(process.env['PATH'] ?? ''),
  };
  const moved = Object.fromEntries(
    Object.values(AGENTS)
      .flatMap((agent) => agent.files.homes)
      .filter((home) => home.file !== true)
      .map((home) => [home.variable, join(tmp, 'moved', home.variable.toLowerCase())]),
  );
  const world: Omit<World, 'hookCommands'> = {
    root,
    checkout,
    dist,
    home,
    guardHome,
    project,
    inner,
    loose,
    tmp,
    linkToGuardHome: join(tmp, 'state-link'),
    linkToBin: join(tmp, 'tool.js'),
    copyOfDist: join(tmp, 'tool-copy'),
    env: { ...env, ...moved },
    moved,
  };
  for (const folder of Object.values(moved)) mkdirSync(folder, { recursive: true });
  symlinkSync(guardHome, world.linkToGuardHome);
  symlinkSync(join(dist, 'bin.js'), world.linkToBin);
  cpSync(dist, world.copyOfDist, { recursive: true });
  // every agent at both levels, then the person's own settings (so guard's folder holds what it holds
  // on a machine in use), by the copy's own CLI in one process: a process each was 31 CLI starts
  const steps = [
    ...AGENT_IDS.flatMap((agent) => [
      ['setup', agent],
      ['setup', agent, '--project'],
    ]),
    ['fail-closed', 'on'],
  ];
  await guardSteps(dist, steps, { env, cwd: project });
  const commands: Partial<Record<AgentId, string>> = {};
  for (const agent of AGENT_IDS) {
    const where = { home, env, projectRoot: project };
    const text = readFileSync(adapters[agent].configPath('user', where), 'utf8');
    const event = adapters[agent].doctor.shellCall('true', project).event;
    const command = adapters[agent].installedCommand(text, event);
    if (command === undefined) throw new Error(`no hook command for ${agent}`);
    commands[agent] = command;
  }
  return { ...world, hookCommands: commands as Record<AgentId, string> };
}

export function removeWorld(world: World | undefined): void {
  if (world === undefined) return;
  // a test that made something read-only must not keep the folder from going
  try {
    chmodSync(world.guardHome, 0o700);
  } catch {
    // already gone
  }
  rmSync(world.root, { recursive: true, force: true });
}

/** Each package's package.json and dist, and node_modules linked the way pnpm makes them. */
function copyBuiltCheckout(checkout: string): void {
  for (const name of PACKAGES) {
    const from = join(REPO, 'packages', name);
    const to = join(checkout, 'packages', name);
    mkdirSync(to, { recursive: true });
    cpSync(join(from, 'package.json'), join(to, 'package.json'));
    cpSync(join(from, 'dist'), join(to, 'dist'), { recursive: true });
    linkModules(join(from, 'node_modules'), join(to, 'node_modules'));
  }
  cpSync(join(REPO, 'package.json'), join(checkout, 'package.json'));
  cpSync(join(REPO, 'README.md'), join(checkout, 'README.md'));
}

function linkModules(from: string, to: string): void {
  if (!existsSync(from)) return;
  mkdirSync(to, { recursive: true });
  for (const entry of readdirSync(from)) {
    if (entry === '.bin') continue;
    const source = join(from, entry);
    if (!lstatSync(source).isSymbolicLink()) {
      linkModules(source, join(to, entry));
      continue;
    }
    const real = realpathSync(source);
    const workspace = real.startsWith(join(REPO, 'packages'));
    symlinkSync(workspace ? readlinkSync(source) : real, join(to, entry));
  }
}

export interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs a program with only the given environment, feeding `input` on stdin. */
export function run(
  file: string,
  args: readonly string[],
  options: { env: Readonly<Record<string, string>>; cwd: string; input?: string },
): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { env: options.env, cwd: options.cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.on('error', () => undefined);
    child.stdin.end(options.input ?? '');
  });
}

/** Runs a hook command the way its agent does: Codex through the login shell, the others through `sh -c`. */
export function runAsAgent(world: World, agent: AgentId, payload: unknown): Promise<Run> {
  return run(world.env.SHELL ?? '/bin/sh', [agent === 'codex' ? '-lc' : '-c', world.hookCommands[agent]], {
    env: world.env,
    cwd: world.project,
    input: JSON.stringify(payload),
  });
}

/** Answers of `guard explain --jsonl` from the copy's own CLI, one per command, in order. */
export async function explainAll(
  world: World,
  requests: readonly { readonly command: string; readonly cwd: string }[],
): Promise<{ decision: string; findings: { ruleId: string; decision: string }[]; error?: string }[]> {
  const input = requests.map((request) => JSON.stringify(request)).join('\n') + '\n';
  const answer = await run(process.execPath, [join(world.dist, 'bin.js'), 'explain', '--jsonl'], {
    env: world.env,
    cwd: world.project,
    input,
  });
  if (answer.code !== 0) throw new Error(`guard explain --jsonl failed: ${answer.stderr}`);
  const lines = answer.stdout.split('\n').filter((line) => line !== '');
  if (lines.length !== requests.length) throw new Error(`${lines.length} answers for ${requests.length} commands`);
  return lines.map((line) => JSON.parse(line) as never);
}

/** Runs `tasks` with at most `limit` at a time. */
export async function pool<T, R>(items: readonly T[], limit: number, task: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      out[index] = await task(items[index] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

export { dirname };
