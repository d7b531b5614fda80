// Bundles what `guard explain` runs (the CLI's main(), commander, explain, the engine and the probe)
// into one script, packages/cli/dist/cli.bundle.cjs, and saves V8's compiled code for it after a
// pass over the corpus (cli.bundle-<hash>.cache). bin.js runs `guard explain` from it, and every
// other command, or explain when the bundle cannot be loaded, from the modules
// (packages/cli/src/cli-load.cts). Run by `npm run build` after the hook's bundle; scripts/package.mjs
// calls bundleCli() for the installable package. docs/performance.md, "`guard explain --jsonl`: the
// engine's cold pass", has the measurement behind it.
import { createHash } from 'node:crypto';
import { isBuiltin } from 'node:module';
import { readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { rolldown } from 'rolldown';
import { loaderScriptText } from './bundle-hook.mjs';
import { corpusLines, PROJECT } from './engine-throughput.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DIST = join(ROOT, 'packages/cli/dist');

// Loaded only when needed, so they stay outside the bundle (as in the hook's): the yaml parser (a
// project policy), TOML (a Codex config) and execa.
const LAZY = new Set(['yaml', 'execa', 'smol-toml']);

/**
 * The commands program.ts loads by import(): explain goes into the bundle, the others are not served
 * by it (nor the export's sender, which would bring the OTLP protobuf serializer).
 */
const COMMAND = /^\.\/(?:commands|hook|export)\/[^/]+\.js$/;
const BUNDLED_COMMAND = './commands/explain.js';
const ELSEWHERE = '\0guard-cli-elsewhere:';

/**
 * Writes cli.bundle.cjs and its code cache into `out`, which must hold cli-load.cjs (the loader the
 * warm-up runs the bundle through) with hook-base.cjs (what it requires) and ../package.json (the version commander is given). `lazy`:
 * packages left outside the bundle, loaded when first needed (from node_modules, or from where
 * `paths` maps them); `plugins`: rolldown plugins for the bundle. Returns the files written, with
 * their sizes, and the modules bundled.
 */
export async function bundleCli({ dist = DIST, out = dist, lazy = LAZY, paths = {}, plugins = [] } = {}) {
  const program = join(dist, 'program.js');
  const bundle = await rolldown({
    input: { 'cli.bundle': join(dist, 'main.js') },
    platform: 'node',
    treeshake: true,
    plugins: [
      ...plugins,
      {
        // bin.js sends only `guard explain` here: any other command's action throws (main() reports
        // it as an unexpected error) instead of pulling the whole CLI into the bundle
        name: 'guard-cli-explain-only',
        resolveId: (id, importer) =>
          importer === program && COMMAND.test(id) && id !== BUNDLED_COMMAND ? `${ELSEWHERE}${id}` : null,
        load: (id) =>
          id.startsWith(ELSEWHERE)
            ? `throw new Error(${JSON.stringify(`guard's CLI bundle serves \`guard explain\` only, not ${id.slice(ELSEWHERE.length)}`)});`
            : null,
      },
    ],
    external: (id) => id.startsWith('node:') || isBuiltin(id) || lazy.has(id),
    logLevel: 'warn',
  });
  const { output } = await bundle.generate({
    format: 'cjs',
    dynamicImportInCjs: true,
    minify: true,
    paths,
    codeSplitting: false,
  });
  await bundle.close();
  const chunks = output.filter((chunk) => chunk.type === 'chunk');
  if (chunks.length !== 1 || chunks[0].fileName !== 'cli.bundle.js')
    throw new Error(
      `the CLI bundle did not come out as one script: ${chunks.map((chunk) => chunk.fileName).join(', ')}`,
    );
  const [chunk] = chunks;
  const text = loaderScriptText(chunk.code, 'the CLI bundle').code;
  const hash = createHash('sha256').update(text).digest('hex').slice(0, 32);
  const file = join(out, 'cli.bundle.cjs');
  const source = `//guard-cli ${hash}\n${text}`;
  // the last build's caches go: their names no longer match anything
  for (const old of readdirSync(out)) if (CACHE_FILE.test(old)) rmSync(join(out, old), { force: true });
  writeFileSync(file, source, 'latin1');
  const cache = await warmUp(out);
  return {
    files: [
      { file: 'cli.bundle.cjs', bytes: source.length },
      { file: cache.file, bytes: cache.bytes },
    ],
    modules: chunk.moduleIds,
  };
}

/** The CLI bundle's caches as the loader names them. */
const CACHE_FILE = /^cli\.bundle-[0-9a-f]+\.cache$/;

/**
 * Runs the bundle in `out` (compiled fresh) over the corpus, one `guard explain --json` per line,
 * then saves V8's code cache next to it, so the saved code covers what a run calls, not only the top
 * level. Not through `--jsonl`: that raises V8's interrupt budget, and V8 rejects a code cache made
 * under other flags than the process that reads it.
 */
async function warmUp(out) {
  const { default: load } = await import(join(out, 'cli-load.cjs'));
  const loaded = load.loadBundledCli(false, join(out, 'cli.bundle.cjs'));
  if (!loaded) throw new Error('the CLI bundle was written but does not load');
  const lines = corpusLines(ROOT);
  if (lines.length === 0) throw new Error('the CLI bundle warms up over test/corpus, which has no lines');
  let answers = 0;
  const io = {
    out: () => answers++,
    err: (text) => {
      throw new Error(`the CLI bundle's warm-up wrote to stderr: ${text}`);
    },
    readStdin: () => Promise.resolve(''),
    stdinLines: () => [],
    env: { HOME: '/home/dev' },
    cwd: () => PROJECT,
    home: () => '/home/dev',
    tmp: () => '/tmp',
    // a root with no system settings: the warm-up must not read this machine's /etc
    systemRoot: join(out, 'no-system-root'),
  };
  // every line once would take seconds; every fourth reaches all the rules
  for (const [index, line] of lines.entries()) {
    if (index % 4 !== 0) continue;
    const code = await loaded.main(
      ['node', 'guard', 'explain', '--json', '--cwd', line.cwd ?? PROJECT, '--', line.command],
      io,
    );
    if (code !== 0)
      throw new Error(`the CLI bundle's warm-up: explain of ${JSON.stringify(line.command)} exited ${code}`);
  }
  if (answers === 0) throw new Error("the CLI bundle's warm-up got no answer");
  const data = loaded.script.createCachedData();
  writeFileSync(loaded.cache, data);
  return { file: loaded.cache.slice(out.length + 1), bytes: data.length };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { files, modules } = await bundleCli();
  console.log(
    `CLI bundle (guard explain): ${files.map((item) => `${item.file} ${Math.round(item.bytes / 1024)} KB`).join(', ')}, ${modules.length} modules`,
  );
}
