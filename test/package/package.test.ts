import { spawnSync } from 'node:child_process';
import type { SpawnSyncReturns } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { GUARD_PACKAGE } from '../../packages/core/src/product.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adapters, AGENT_IDS, plainCommand, readFallback } from '../../packages/adapters/src/index.js';
import type { AgentId, Effect } from '../../packages/adapters/src/index.js';
import { splitCommand } from '../../packages/cli/src/agents/config-io.js';
import type { StatusJson } from '../../packages/cli/src/agents/inspect.js';

// The package as a person gets it: `npm run package` makes the tarball, npm installs it into a
// prefix whose path has a space (offline: the tarball has no dependencies), and the installed
// `guard` runs from a folder outside this checkout, with Node alone on PATH (no codex, no
// node_modules/.bin) and a scratch HOME, GUARD_HOME and CODEX_HOME. `npm test` builds first;
// alone, run `npm run build` before `npx vitest run test/package`.

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const { version } = JSON.parse(readFileSync(join(ROOT, 'packages/cli/package.json'), 'utf8')) as { version: string };
const FORCE_PUSH = JSON.parse(
  readFileSync(join(ROOT, 'packages/adapters/test/fixtures/codex/pre-tool-use-git-push-force.json'), 'utf8'),
) as Record<string, unknown>;
const SLOW = 180_000;

const box = mkdtempSync(join(tmpdir(), 'guard-package-test-'));
const out = join(box, 'artifacts');
const prefix = join(box, 'npm prefix');
const home = join(box, 'home');
const guardHome = join(box, 'guard home');
const codexHome = join(home, '.codex');
const work = join(box, 'work');
const nodeOnly = join(box, 'node-only');
const npmCache = join(box, 'npm-cache');
// where every agent is set up and left set up, for `npm rm -g` without `guard uninstall`
const orphanHome = join(box, "orphan's home");
const bin = join(prefix, 'bin', 'guard');
/** The installed package's folder, as Node resolves it (tmpdir may be behind a symlink). */
let installed = '';

/** An environment with nothing from this checkout or the parent npm in it. */
function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  return { PATH: `${join(prefix, 'bin')}${delimiter}${nodeOnly}`, HOME: home, LANG: process.env.LANG ?? 'C', ...extra };
}

/** npm with this machine's PATH (npm itself may need it), a scratch HOME and cache, and no npm_config_* of the parent run. */
function npm(args: readonly string[], cwd: string): SpawnSyncReturns<string> {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH ?? '',
    HOME: home,
    npm_config_cache: npmCache,
    npm_config_update_notifier: 'false',
    npm_config_fund: 'false',
    npm_config_audit: 'false',
  };
  const cli = process.env.npm_execpath;
  return cli !== undefined && /npm-cli\.js$/.test(cli)
    ? spawnSync(process.execPath, [cli, ...args], { cwd, env, encoding: 'utf8' })
    : spawnSync('npm', args, { cwd, env, encoding: 'utf8' });
}

function guard(args: readonly string[], input = ''): SpawnSyncReturns<string> {
  return spawnSync(bin, args, {
    cwd: work,
    input,
    encoding: 'utf8',
    env: cleanEnv({ GUARD_HOME: guardHome, CODEX_HOME: codexHome }),
  });
}

function ok(result: SpawnSyncReturns<string>, what: string): string {
  expect(result.error, what).toBeUndefined();
  expect({ what, status: result.status, stderr: result.stderr }).toEqual({ what, status: 0, stderr: '' });
  return result.stdout;
}

function isInside(path: string, folder: string): boolean {
  const rel = relative(folder, path);
  return rel !== '' && !rel.startsWith('..') && !rel.startsWith(sep);
}

describe.skipIf(process.platform === 'win32')('the installable package', () => {
  beforeAll(() => {
    for (const built of ['bin.js', 'hook/run.js', 'hook.bundle.cjs']) {
      const file = join(ROOT, 'packages/cli/dist', built);
      if (!existsSync(file)) throw new Error(`${file} is missing: run \`npm run build\` first.`);
    }
    for (const dir of [out, home, guardHome, work, nodeOnly]) mkdirSync(dir, { recursive: true });
    mkdirSync(join(work, '.git'));
    // Node alone on PATH, for the installed bin's `#!/usr/bin/env node`
    symlinkSync(process.execPath, join(nodeOnly, 'node'));
    // a tarball from an older run, which packaging replaces
    writeFileSync(join(out, `${GUARD_PACKAGE}-0.0.1.tgz`), 'old');

    const packed = spawnSync(process.execPath, [join(ROOT, 'scripts/package.mjs'), '--out', out], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, npm_config_cache: npmCache },
    });
    expect({ status: packed.status, stderr: packed.stderr }).toEqual({ status: 0, stderr: '' });
    const tarballs = readdirSync(out).filter((file) => file.endsWith('.tgz'));
    expect(tarballs).toEqual([`${GUARD_PACKAGE}-${version}.tgz`]);

    const tarball = join(out, tarballs[0] as string);
    ok(npm(['install', '--global', '--prefix', prefix, '--offline', tarball], box), 'npm install -g');
    installed = realpathSync(join(prefix, 'lib', 'node_modules', GUARD_PACKAGE));
  }, SLOW);
  afterAll(() => rmSync(box, { recursive: true, force: true }));

  it('installs as one package with no dependencies, and puts guard on PATH inside the prefix', () => {
    const manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as Record<string, unknown>;
    expect(manifest).toMatchObject({ name: GUARD_PACKAGE, version, bin: { guard: 'dist/bin.js' } });
    expect(manifest.dependencies).toBeUndefined();
    expect(existsSync(join(installed, 'node_modules'))).toBe(false);
    expect(readdirSync(join(prefix, 'lib', 'node_modules'))).toEqual([GUARD_PACKAGE]);
    expect(realpathSync(bin)).toBe(join(installed, 'dist', 'bin.js'));
    expect(isInside(installed, realpathSync(prefix))).toBe(true);
    expect(isInside(installed, realpathSync(ROOT))).toBe(false);
    expect(readFileSync(join(installed, 'THIRD_PARTY_LICENSES.txt'), 'utf8')).toMatch(/^yaml \d/m);
    // the hook bundle and its lazy chunks, each with its code cache
    const files = readdirSync(join(installed, 'dist'));
    const chunks = files.filter((file) => /^hook-lazy-.+\.cjs$/.test(file));
    for (const name of ['policy', 'start-scan', 'second-opinion'])
      expect(chunks.some((file) => file.startsWith(`hook-lazy-${name}-`))).toBe(true);
    for (const script of chunks) expect(files).toContain(script.replace(/\.cjs$/, '.cache'));
    // the bundle's cache is named by the build's id, which the package holds
    const id = readFileSync(join(installed, 'dist', 'hook.bundle.id'), 'latin1').trim();
    expect(id).toMatch(/^[0-9a-f]{32}$/);
    expect(files).toContain('hook.bundle.cjs');
    // the hook client, the resident checker it hands calls to, the loader, and what they share
    for (const script of ['hook-entry.cjs', 'hook-server.cjs', 'hook-load.cjs', 'hook-base.cjs'])
      expect(files).toContain(script);
    expect(files).toContain(`hook.bundle-${id}.cache`);
    expect(files.filter((file) => /^hook\.bundle.*\.cache$/.test(file))).toEqual([`hook.bundle-${id}.cache`]);
  });

  it('guard explain runs from the CLI bundle and its code cache, with the answers of the modules', () => {
    const dist = join(installed, 'dist');
    const files = readdirSync(dist);
    expect(files).toContain('cli-load.cjs');
    const bundle = readFileSync(join(dist, 'cli.bundle.cjs'), 'latin1');
    const build = /^\/\/guard-cli ([0-9a-f]+)\n/.exec(bundle)?.[1];
    expect(files.filter((file) => file.startsWith('cli.bundle-'))).toEqual([`cli.bundle-${build}.cache`]);
    const state = spawnSync(
      process.execPath,
      [
        '-e',
        'const x = require(process.argv[1]).loadBundledCli(); process.stdout.write(String(x !== undefined && !x.cacheMissed))',
        join(dist, 'cli-load.cjs'),
      ],
      { encoding: 'utf8', env: cleanEnv({}) },
    );
    expect(ok(state, 'the CLI bundle loads with its cache')).toBe('true');
    // a slice of the corpus, through the bundle and then through the package's modules
    const input = ['harmless.jsonl', 'risky.jsonl']
      .flatMap((name) =>
        readFileSync(join(ROOT, 'test/corpus', name), 'utf8')
          .split('\n')
          .slice(0, 150),
      )
      .filter((line) => line.trim() !== '')
      .join('\n');
    const bundled = ok(guard(['explain', '--jsonl'], input), 'guard explain --jsonl (bundle)');
    expect(bundled.split('\n')).toHaveLength(input.split('\n').length + 1);
    renameSync(join(dist, 'cli.bundle.cjs'), join(dist, 'cli.bundle.off'));
    try {
      expect(ok(guard(['explain', '--jsonl'], input), 'guard explain --jsonl (modules)')).toBe(bundled);
    } finally {
      renameSync(join(dist, 'cli.bundle.off'), join(dist, 'cli.bundle.cjs'));
    }
  });

  it('guard --version, from a folder outside the checkout', () => {
    expect(ok(guard(['--version']), 'guard --version')).toBe(`${version}\n`);
  });

  it('setup codex → the hook command points into the prefix → it denies a force push → uninstall gives the file back', () => {
    const hooksFile = join(codexHome, 'hooks.json');
    const mine = '{\n  "hooks": {\n    "Stop": [{ "hooks": [{ "type": "command", "command": "echo bye" }] }]\n  }\n}\n';
    mkdirSync(codexHome, { recursive: true });
    writeFileSync(hooksFile, mine);

    const said = ok(guard(['setup', 'codex']), 'guard setup codex');
    expect(said).toContain(`Updated ${hooksFile}: added guard's hook`);
    // no codex on PATH: setup cannot have Codex trust the hook, and says what to do instead
    expect(said).toContain('type /hooks, and trust the guard hook');

    const hooks = JSON.parse(readFileSync(hooksFile, 'utf8')) as {
      hooks: Record<string, { hooks: { command: string }[] }[]>;
    };
    const command = hooks.hooks.PreToolUse?.[0]?.hooks[0]?.command ?? '';
    // on POSIX the plain command inside its own answer for when these two files are gone
    expect(readFallback(command)?.files).toEqual({
      node: splitCommand(plainCommand(command))[0],
      script: join(installed, 'dist', 'hook-entry.cjs'),
    });
    const [node = '', script = '', ...rest] = splitCommand(plainCommand(command));
    // the Node that ran setup, by its full path (Node reports its real path, not the symlink on PATH)
    expect(realpathSync(node)).toBe(realpathSync(process.execPath));
    expect(script).toBe(join(installed, 'dist', 'hook-entry.cjs'));
    expect(rest).toEqual(['hook', 'codex']);

    // the hook command as Codex runs it, through a shell, with a real payload
    const runHook = (payload: Record<string, unknown>): string =>
      ok(
        spawnSync('/bin/sh', ['-c', command], {
          cwd: work,
          input: JSON.stringify(payload),
          encoding: 'utf8',
          env: cleanEnv({ GUARD_HOME: guardHome }),
        }),
        `hook: ${JSON.stringify(payload.tool_input)}`,
      );
    const step = (text: string): Record<string, unknown> => ({
      ...FORCE_PUSH,
      cwd: work,
      transcript_path: null,
      tool_input: { command: text },
    });
    const denied = JSON.parse(runHook(step('git push --force origin main'))) as {
      hookSpecificOutput: { permissionDecision: string; permissionDecisionReason: string };
    };
    expect(denied.hookSpecificOutput.permissionDecision).toBe('deny');
    expect(denied.hookSpecificOutput.permissionDecisionReason).toMatch(/git\.rewrite-shared-history/);
    expect(runHook(step('git status'))).toBe('');
    // a project policy: the yaml parser, loaded only then, comes from the package too
    writeFileSync(
      join(work, '.guard.yaml'),
      'rules:\n  - id: policy.no-apply\n    program: terraform\n    args: [apply]\n    decision: block\n    reason: Not here.\n',
    );
    expect(runHook(step('terraform apply'))).toMatch(/"permissionDecision":"deny".*policy\.no-apply/);

    const status = JSON.parse(ok(guard(['status', '--json']), 'guard status --json')) as StatusJson;
    expect(status.hookScript).toEqual({ path: join(installed, 'dist', 'hook-entry.cjs'), exists: true });
    const codex = status.agents
      .find((agent) => agent.agent === 'codex')
      ?.levels.find((level) => level.level === 'user');
    expect(codex).toMatchObject({ installed: true, upToDate: true });
    expect(codex?.commands.map((entry) => [entry.nodeIs, entry.scriptIs, entry.advice])).toEqual([
      ['this', 'this', undefined],
    ]);

    const removed = ok(guard(['uninstall', 'codex']), 'guard uninstall codex');
    expect(removed).toContain(`Restored ${hooksFile} exactly as it was before guard's setup.`);
    expect(readFileSync(hooksFile, 'utf8')).toBe(mine);
  });

  it('setup of every agent in another home: each step command answers as guard while guard is there', () => {
    mkdirSync(orphanHome, { recursive: true });
    for (const agent of AGENT_IDS)
      ok(
        spawnSync(bin, ['setup', agent], {
          cwd: orphanHome,
          encoding: 'utf8',
          env: cleanEnv({ HOME: orphanHome, GUARD_HOME: guardHome }),
        }),
        `guard setup ${agent}`,
      );
    for (const agent of AGENT_IDS) expect(answerAfter(agent, 'git push --force origin main')).toBe('block');
  });

  it('uninstall --all finds nothing left and names the package to remove; npm rm -g takes guard off PATH', () => {
    const said = ok(guard(['uninstall', '--all']), 'guard uninstall --all');
    expect(said).toContain('guard was not set up for any agent');
    expect(said).toContain(`To remove the guard command itself: npm rm -g ${GUARD_PACKAGE}\n`);
    ok(npm(['rm', '--global', '--prefix', prefix, GUARD_PACKAGE], box), 'npm rm -g');
    expect(existsSync(bin)).toBe(false);
    expect(existsSync(installed)).toBe(false);
  });

  it("after npm rm -g without guard uninstall, every agent's hook asks by itself (as a shell runs it, and split into words)", () => {
    expect(existsSync(installed)).toBe(false);
    for (const agent of AGENT_IDS) {
      const want = adapters[agent].capabilities.ask === 'native' ? 'ask' : 'block';
      expect([agent, answerAfter(agent, 'git status')]).toEqual([agent, want]);
      expect([agent, answerAfter(agent, 'git status', true)]).toEqual([agent, want]);
    }
  });
});

/** How the agent reads the answer of its step command in the orphan home, run through sh (or split into words). */
function answerAfter(agent: AgentId, step: string, split = false): Effect {
  const adapter = adapters[agent];
  const text = readFileSync(adapter.configPath('user', { home: orphanHome, env: {}, projectRoot: orphanHome }), 'utf8');
  const call = adapter.doctor.shellCall(step, orphanHome);
  const command = adapter.installedCommand(text, call.event) ?? '';
  const [file = '', ...args] = split ? splitCommand(command) : ['/bin/sh', '-c', command];
  const result = spawnSync(file, args, {
    cwd: orphanHome,
    input: JSON.stringify(call.payload),
    encoding: 'utf8',
    env: cleanEnv({ HOME: orphanHome, GUARD_HOME: guardHome }),
  });
  return adapter.doctor.readReply(result.stdout, result.status ?? -1, false).effect;
}
