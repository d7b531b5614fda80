import {
  cpSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scaled } from '../../../../test/machine.js';

// `guard explain` runs from the CLI bundle (cli.bundle.cjs and its code cache, made by the build:
// scripts/bundle-cli.mjs), and from the modules when the bundle is missing or cannot be loaded.
// Either way every answer is the same, byte for byte. Each test works on a copy of the built
// dist/ (the libraries come from the CLI's node_modules, as in a checkout), so it can take files away.
const DIST = fileURLToPath(new URL('../../dist/', import.meta.url));
const CORPUS = fileURLToPath(new URL('../../../../test/corpus/', import.meta.url));
const HOME = mkdtempSync(join(tmpdir(), 'guard-cli-bundle-'));
const ENV = { HOME, PATH: process.env.PATH ?? '' };
// a folder that does not exist, as the corpus and the bench assume
const PROJECT = join(HOME, 'missing', 'project');
// (on a quiet machine: stretched on a busy one)
const LONG = scaled(120_000);

/** Every corpus line's command and cwd, as `guard explain --jsonl` reads them. */
const INPUT = readdirSync(CORPUS)
  .filter((name) => name.endsWith('.jsonl'))
  .sort()
  .flatMap((name) => readFileSync(join(CORPUS, name), 'utf8').split('\n'))
  .filter((line) => line.trim() !== '')
  .map((line) => JSON.parse(line) as { command?: unknown; cwd?: unknown })
  .filter((line): line is { command: string; cwd?: string } => typeof line.command === 'string')
  .map((line) => JSON.stringify({ command: line.command, ...(typeof line.cwd === 'string' ? { cwd: line.cwd } : {}) }))
  .join('\n');

/** The build's bundle, its cache (by its hashed name) and a fresh copy of dist/ with both. */
const built = () => {
  const caches = readdirSync(DIST).filter((file) => /^cli\.bundle-[0-9a-f]+\.cache$/.test(file));
  return { caches, bundle: readFileSync(join(DIST, 'cli.bundle.cjs'), 'latin1') };
};
let copies = 0;
function copyOfDist(): { dist: string; cache: string } {
  const root = join(HOME, `copy-${++copies}`);
  cpSync(DIST, join(root, 'dist'), { recursive: true });
  cpSync(join(DIST, '..', 'package.json'), join(root, 'package.json'));
  symlinkSync(join(DIST, '..', 'node_modules'), join(root, 'node_modules'));
  const [cache] = built().caches;
  return { dist: join(root, 'dist'), cache: join(root, 'dist', cache ?? 'missing.cache') };
}

const guard = (dist: string, args: readonly string[], input = '') =>
  execa(process.execPath, [join(dist, 'bin.js'), ...args], {
    reject: false,
    input,
    env: ENV,
    extendEnv: false,
    cwd: HOME,
    maxBuffer: 256 * 1024 * 1024,
  });
const explainAll = (dist: string) => guard(dist, ['explain', '--jsonl', '--cwd', PROJECT], INPUT);

/** Whether the bundle in `dist` loads, and with a code cache V8 took. */
async function bundleState(dist: string): Promise<{ loaded: boolean; cacheMissed?: boolean }> {
  const probe = await execa(process.execPath, [
    '-e',
    'const x = require(process.argv[1]).loadBundledCli(); process.stdout.write(JSON.stringify(x === undefined ? { loaded: false } : { loaded: true, cacheMissed: x.cacheMissed }))',
    join(dist, 'cli-load.cjs'),
  ]);
  return JSON.parse(probe.stdout) as { loaded: boolean; cacheMissed?: boolean };
}

// the whole corpus through the modules: what every row must give
let reference = '';
beforeAll(async () => {
  if (!existsSync(join(DIST, 'cli.bundle.cjs')))
    throw new Error(`${DIST}cli.bundle.cjs is missing: run \`npm run build\` first.`);
  const { dist } = copyOfDist();
  for (const file of readdirSync(dist)) if (file.startsWith('cli.bundle')) rmSync(join(dist, file));
  const result = await explainAll(dist);
  expect(result).toMatchObject({ exitCode: 0, stderr: '' });
  reference = result.stdout;
  expect(reference.split('\n')).toHaveLength(INPUT.split('\n').length);
}, LONG);
afterAll(() => rmSync(HOME, { recursive: true, force: true }), LONG);

describe('guard explain through the CLI bundle', () => {
  it('the build made one bundle and one cache for it, which V8 takes', async () => {
    const { caches, bundle } = built();
    expect(caches).toHaveLength(1);
    expect(bundle).toMatch(/^\/\/guard-cli [0-9a-f]{32}\n/);
    expect(caches[0]).toBe(`cli.bundle-${/^\/\/guard-cli ([0-9a-f]+)/.exec(bundle)?.[1]}.cache`);
    expect(/[^\x00-\x7f]/.test(bundle)).toBe(false);
    expect(await bundleState(DIST)).toEqual({ loaded: true, cacheMissed: false });
  });

  it(
    'answers the whole corpus byte for byte as the modules do, from the bundle alone',
    async () => {
      const { dist, cache } = copyOfDist();
      const before = readFileSync(cache);
      // without explain's module the modules could not answer: the answers come from the bundle
      rmSync(join(dist, 'commands', 'explain.js'));
      const result = await explainAll(dist);
      expect(result).toMatchObject({ exitCode: 0, stderr: '' });
      expect(result.stdout).toBe(reference);
      // the build's cache was taken and left as it was
      expect(readFileSync(cache).equals(before)).toBe(true);
    },
    LONG,
  );

  // A broken or missing bundle or cache changes no answer: explain falls back to the modules or
  // compiles the bundle, and where the bundle loaded it saves a cache this build's V8 takes.
  it.for<{ name: string; breakIt: (dist: string, cache: string) => void; bundle: boolean }>([
    { name: 'no bundle', breakIt: (dist) => rmSync(join(dist, 'cli.bundle.cjs')), bundle: false },
    {
      name: 'a torn bundle (half of it)',
      breakIt: (dist) => {
        const text = readFileSync(join(dist, 'cli.bundle.cjs'), 'latin1');
        writeFileSync(join(dist, 'cli.bundle.cjs'), text.slice(0, text.length >> 1), 'latin1');
      },
      bundle: false,
    },
    {
      name: 'a bundle without its build line',
      breakIt: (dist) => {
        const text = readFileSync(join(dist, 'cli.bundle.cjs'), 'latin1');
        writeFileSync(join(dist, 'cli.bundle.cjs'), text.slice(text.indexOf('\n') + 1), 'latin1');
      },
      bundle: false,
    },
    {
      name: 'a bundle whose top level throws',
      breakIt: (dist) => {
        const text = readFileSync(join(dist, 'cli.bundle.cjs'), 'latin1');
        const newline = text.indexOf('\n') + 1;
        writeFileSync(
          join(dist, 'cli.bundle.cjs'),
          `${text.slice(0, newline)}throw new Error('broken');${text.slice(newline)}`,
          'latin1',
        );
      },
      bundle: false,
    },
    {
      name: 'a bundle without main()',
      breakIt: (dist) => {
        const text = readFileSync(join(dist, 'cli.bundle.cjs'), 'latin1');
        writeFileSync(join(dist, 'cli.bundle.cjs'), `${text}\nmodule.exports = {};`, 'latin1');
      },
      bundle: false,
    },
    { name: 'no cache', breakIt: (_, cache) => rmSync(cache), bundle: true },
    {
      name: 'a torn cache (half of it)',
      breakIt: (_, cache) => {
        const data = readFileSync(cache);
        writeFileSync(cache, data.subarray(0, data.length >> 1));
      },
      bundle: true,
    },
    {
      name: "another build's cache under this build's name",
      breakIt: (dist, cache) => {
        // the same bundle but for one more statement: V8 made its cache for another source
        const other = join(dist, 'other.cjs');
        const text = readFileSync(join(dist, 'cli.bundle.cjs'), 'latin1');
        const newline = text.indexOf('\n') + 1;
        writeFileSync(other, `${text.slice(0, newline)}void 0;${text.slice(newline)}`, 'latin1');
        const probe = [
          'const load = require(process.argv[1]);',
          'const x = load.loadBundledCli(false, process.argv[2]);',
          'require("node:fs").writeFileSync(process.argv[3], x.script.createCachedData());',
        ].join('\n');
        const made = execaSync(['-e', probe, join(dist, 'cli-load.cjs'), other, cache]);
        expect(made).toBe(0);
        rmSync(other);
      },
      bundle: true,
    },
    {
      name: "another build's cache under its own name, and none for this build",
      breakIt: (_, cache) => {
        writeFileSync(cache.replace(/-[0-9a-f]+\.cache$/, `-${'0'.repeat(32)}.cache`), readFileSync(cache));
        rmSync(cache);
      },
      bundle: true,
    },
  ])('$name: the same answers for the whole corpus', { timeout: LONG }, async ({ breakIt, bundle }) => {
    const { dist, cache } = copyOfDist();
    breakIt(dist, cache);
    const result = await explainAll(dist);
    expect(result).toMatchObject({ exitCode: 0, stderr: '' });
    expect(result.stdout).toBe(reference);
    expect(readdirSync(dist).filter((file) => file.endsWith('.tmp'))).toEqual([]);
    if (bundle) {
      // the run saved this Node's cache for this build, which V8 takes from now on
      expect(await bundleState(dist)).toEqual({ loaded: true, cacheMissed: false });
      const saved = readFileSync(cache);
      const again = await guard(dist, ['explain', '--json', '--', 'git push --force']);
      expect(again).toMatchObject({ exitCode: 0, stderr: '' });
      expect(JSON.parse(again.stdout)).toMatchObject({ decision: 'block' });
      expect(readFileSync(cache).equals(saved)).toBe(true);
    } else {
      expect(await bundleState(dist)).toEqual({ loaded: false });
    }
    rmSync(dirname(dist), { recursive: true, force: true });
  });
});

function execaSync(args: readonly string[]): number | null {
  return spawnSync(process.execPath, args).status;
}

// The commands bin.js does not send to the bundle, and explain's own usage errors and help, are the
// same with and without it.
describe('the CLI with and without the bundle', () => {
  const texts = async (dist: string, args: readonly string[]) => {
    const result = await guard(dist, args);
    return { exitCode: result.exitCode, stdout: result.stdout, stderr: result.stderr };
  };
  let withBundle = '';
  let without = '';
  beforeAll(() => {
    withBundle = copyOfDist().dist;
    without = copyOfDist().dist;
    rmSync(join(without, 'cli.bundle.cjs'));
  });
  it.for([
    ['--help'],
    ['--version'],
    ['rules'],
    ['explain', '--help'],
    ['explain'],
    ['explain', '--jsonl', 'ls'],
    ['explain', '--mode', 'loose', '--', 'ls'],
    ['explain', '--', 'sudo sh -c "cd /repo && git push --force"'],
    ['explain', '--json', '--mode', 'full', '--', 'git push --force origin main'],
    ['mode', '--json'],
    ['frobnicate'],
  ])('guard %s', async (args) => {
    const expected = await texts(without, args);
    expect(expected.stdout + expected.stderr).not.toBe('');
    expect(await texts(withBundle, args)).toEqual(expected);
  });
});
