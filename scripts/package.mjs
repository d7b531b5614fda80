#!/usr/bin/env node
// `npm run package` (builds first): installable guard, one tarball in artifacts/ that
// `npm install -g` puts on PATH as `guard`.
//
//   node scripts/package.mjs [--out DIR] [--keep-deps]
//
// The tarball declares no dependencies and holds no node_modules, so it installs offline:
//   dist/bin.js, dist/*.js   the CLI, bundled with @guard/core and @guard/adapters into ES module
//                            chunks (each command still loads only when it runs)
//   dist/hook-entry.cjs, hook-server.cjs, hook-load.cjs, hook-base.cjs, hook.bundle.cjs, .id and -<id>.cache, the hook's lazy chunks and theirs
//                            the hook, bundled and warmed up exactly as `npm run build` makes it
//                            for a checkout (scripts/bundle-hook.mjs)
//   dist/cli-load.cjs, cli.bundle.cjs and cli.bundle-<hash>.cache
//                            `guard explain`, one script and its code cache, as `npm run build`
//                            makes them (scripts/bundle-cli.mjs); without them explain runs from
//                            the chunks above
//   dist/vendor/<name>.js    each library the CLI depends on (commander, execa, yaml, smol-toml),
//                            one ES module each with its own dependencies; the CLI and the hook
//                            import these where a checkout imports the package from node_modules
//   THIRD_PARTY_LICENSES.txt the licences of everything bundled from npm
// docs/performance.md has the measurement behind bundling the libraries; `--keep-deps` builds the
// other choice (the libraries as dependencies that npm fetches at install) to measure it again.
// Older tarballs in the output folder (default artifacts/) are removed, so exactly one is left.
import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { isBuiltin } from 'node:module';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { rolldown } from 'rolldown';
import { bundleCli } from './bundle-cli.mjs';
import { bundleHook } from './bundle-hook.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CLI = join(ROOT, 'packages/cli');
const DIST = join(CLI, 'dist');

class PackageError extends Error {}

/**
 * Libraries bundled into the chunk that imports them, from their ES module build, so that only what
 * guard calls goes in, not vendored whole: the OpenTelemetry serializer the export's sender loads
 * for protobuf (13 KB of its modules where vendoring its index would take 240 KB). The hook's
 * bundle may not hold them (scripts/bundle-hook.mjs checks).
 */
const INTO_CHUNKS = new Set(['@opentelemetry/otlp-transformer', '@opentelemetry/api']);

const { values } = parseArgs({
  options: {
    out: { type: 'string', default: join(ROOT, 'artifacts') },
    'keep-deps': { type: 'boolean', default: false },
  },
});
try {
  await makePackage(values.out, values['keep-deps']);
} catch (error) {
  if (!(error instanceof PackageError)) throw error;
  process.stderr.write(`package: ${error.message}\n`);
  process.exitCode = 1;
}

async function makePackage(out, keepDeps) {
  for (const built of [
    'bin.js',
    'hook/run.js',
    'hook-load.cjs',
    'hook-entry.cjs',
    'hook-server.cjs',
    'hook-base.cjs',
    'main.js',
    'cli-load.cjs',
  ]) {
    const file = join(DIST, built);
    if (!existsSync(file)) fail(`${file} is missing: run \`npm run package\` (it builds first).`);
  }
  const { GUARD_PACKAGE } = await import(pathToFileURL(join(ROOT, 'packages/core/dist/product.js')).href);
  const cli = JSON.parse(readFileSync(join(CLI, 'package.json'), 'utf8'));
  // the libraries the CLI loads at run time (the workspace packages, and those bundled into the
  // chunk that imports them, are bundled in)
  const libraries = Object.keys(cli.dependencies).filter(
    (name) => !cli.dependencies[name].startsWith('workspace:') && !INTO_CHUNKS.has(name),
  );
  const external = new Set(libraries);
  const stage = mkdtempSync(join(tmpdir(), 'guard-package-'));
  try {
    const dist = join(stage, 'dist');
    mkdirSync(dist);
    // every output file sits in dist/ itself, so `./vendor/…` (and `../package.json`, which
    // self.ts reads for the version) mean the same from each
    const paths = keepDeps ? {} : Object.fromEntries(libraries.map((name) => [name, `./vendor/${name}.js`]));
    const { AGENT_IDS } = await import(pathToFileURL(join(ROOT, 'packages/adapters/dist/agents.js')).href);
    const plugins = [agentAdapters(AGENT_IDS), ...(keepDeps ? [] : [vendorRequire(paths)])];
    const modules = new Set();
    if (!keepDeps) {
      for (const name of libraries) {
        for (const id of await bundleLibrary(name, join(dist, 'vendor', `${name}.js`))) modules.add(id);
      }
    }

    // The CLI: bin.js and a chunk per lazily loaded command. bin.js loads the hook and the CLI
    // bundle through the CommonJS loaders next to it, which stay files of their own (each finds its
    // bundle by __dirname), as does the module they share (hook-base.cjs).
    const bundle = await rolldown({
      input: join(DIST, 'bin.js'),
      platform: 'node',
      treeshake: true,
      // a package with an ES module build is read from it, which tree-shaking can cut (INTO_CHUNKS)
      resolve: { mainFields: ['module', 'main'] },
      plugins,
      external: (id) =>
        isBuiltin(id) || id === './hook-load.cjs' || id === './cli-load.cjs' || external.has(packageOf(id)),
      logLevel: 'warn',
    });
    const { output } = await bundle.write({
      dir: dist,
      format: 'esm',
      chunkFileNames: '[name]-[hash].js',
      minify: true,
      paths,
    });
    await bundle.close();
    const chunks = output.filter((chunk) => chunk.type === 'chunk');
    for (const chunk of chunks) for (const id of chunk.moduleIds) modules.add(id);
    for (const file of ['hook-load.cjs', 'hook-entry.cjs', 'hook-server.cjs', 'hook-base.cjs', 'cli-load.cjs'])
      copyFileSync(join(DIST, file), join(dist, file));
    const hook = await bundleHook({ out: dist, lazy: external, paths, plugins });

    copyFileSync(join(ROOT, 'README.md'), join(stage, 'README.md'));
    const manifest = {
      name: GUARD_PACKAGE,
      version: cli.version,
      description:
        'A safety check in front of AI coding agents: it reads each step the agent is about to take and blocks or asks before what cannot be undone. To remove it, run `guard uninstall --all` before `npm rm -g`.',
      keywords: ['ai', 'agent', 'codex', 'cursor', 'copilot', 'hooks', 'security'],
      type: 'module',
      bin: { guard: 'dist/bin.js' },
      files: ['dist', 'THIRD_PARTY_LICENSES.txt'],
      engines: JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).engines,
      ...(keepDeps
        ? { dependencies: Object.fromEntries(libraries.map((name) => [name, cli.dependencies[name]])) }
        : {}),
    };
    writeFileSync(join(stage, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);

    // `guard explain`'s bundle (commander in it; the lazily loaded libraries from vendor/), warmed
    // up here: it needs the manifest above for the version
    const cliBundle = await bundleCli({
      out: dist,
      lazy: new Set([...external].filter((name) => name !== 'commander')),
      paths,
      plugins,
    });
    for (const id of cliBundle.modules) modules.add(id);
    const texts = [
      ...chunks.map((chunk) => chunk.code),
      ...Object.values(paths).map((path) => readFileSync(join(dist, path), 'utf8')),
      // the hook bundle and its lazy chunks, and the CLI bundle
      ...hook.files.map((item) => readFileSync(join(dist, item.file), 'latin1')),
      readFileSync(join(dist, 'cli.bundle.cjs'), 'latin1'),
    ];
    const computed = texts.flatMap(computedImports);
    if (computed.length > 0) fail(`the bundle still has imports of computed names: ${computed.join(', ')}`);
    const left = keepDeps ? [] : [...new Set(texts.flatMap(bareImports))];
    if (left.length > 0) fail(`the bundle still loads ${left.join(', ')} by name, and the package has no node_modules`);

    const bundled = bundledLibraries(modules);
    writeFileSync(join(stage, 'THIRD_PARTY_LICENSES.txt'), licenceText(bundled));
    mkdirSync(out, { recursive: true });
    for (const old of readdirSync(out)) if (old.endsWith('.tgz')) rmSync(join(out, old));
    const [{ filename, size, unpackedSize, entryCount }] = JSON.parse(
      npm(['pack', '--json', '--ignore-scripts', '--pack-destination', out], stage),
    );
    const tarball = join(out, filename);
    if (statSync(tarball).size !== size) fail(`npm pack reported ${size} bytes, but ${tarball} has another size`);
    const shown = relative(process.cwd(), tarball);
    const inside = keepDeps
      ? `dependencies: ${libraries.join(', ')}`
      : `bundled from npm: ${bundled.map((lib) => lib.name).join(', ')}`;
    console.log(
      `${shown.startsWith('..') ? tarball : shown}: ${kb(size)}, ${kb(unpackedSize)} unpacked, ${entryCount} files (${inside})`,
    );
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

/**
 * One library and its dependencies as one ES module with the library's own exports (named ones,
 * and `default` where it has one). Returns the modules it holds.
 */
async function bundleLibrary(name, file) {
  const entry = `\0guard-vendor:${name}`;
  const bundle = await rolldown({
    input: entry,
    cwd: CLI,
    platform: 'node',
    treeshake: true,
    external: (id) => isBuiltin(id),
    plugins: [
      {
        name: 'guard-vendor-entry',
        resolveId: (id) => (id === entry ? id : null),
        async load(id) {
          if (id !== entry) return null;
          // the exports of the very file rolldown picks for `import … from name` (its import conditions)
          const resolved = await this.resolve(name, join(CLI, 'package.json'));
          if (!resolved || resolved.external) fail(`cannot find ${name} from ${CLI}`);
          const exported = Object.keys(await import(pathToFileURL(resolved.id).href));
          const named = exported.filter((key) => key !== 'default' && key !== '__esModule');
          return [
            named.length > 0 ? `export { ${named.join(', ')} } from ${JSON.stringify(name)};` : '',
            exported.includes('default') ? `export { default } from ${JSON.stringify(name)};` : '',
          ].join('\n');
        },
      },
    ],
    logLevel: 'warn',
  });
  const { output } = await bundle.write({ file, format: 'esm', codeSplitting: false, minify: true });
  await bundle.close();
  return output.flatMap((chunk) => (chunk.type === 'chunk' ? chunk.moduleIds : []));
}

/**
 * policy.ts and probe.ts load yaml and smol-toml with `createRequire(import.meta.url)(name)`: off
 * the hook's start-up, yet synchronous. No bundler follows that call, so the name in it is turned
 * into the library's file in dist/vendor (an ES module, which require() loads on Node >= 20.19).
 */
function vendorRequire(paths) {
  const call = /(createRequire\(import\.meta\.url\)\(\s*)(['"])([^'"./][^'"]*)\2/g;
  return {
    name: 'guard-vendor-require',
    transform(code) {
      if (!code.includes('createRequire(import.meta.url)')) return null;
      const next = code.replace(call, (whole, head, quote, name) =>
        paths[name] === undefined ? whole : `${head}${quote}${paths[name]}${quote}`,
      );
      return next === code ? null : { code: next };
    },
  };
}

/**
 * The adapters' index loads each agent's folder by its id (`import(\`@guard/adapters/${id}/adapter\`)`),
 * which no bundler can follow; written out as one import per agent in AGENT_IDS, rolldown bundles
 * each into a chunk of its own, loaded as before.
 */
function agentAdapters(ids) {
  const call = /\bimport\(\s*`@guard\/adapters\/\$\{([^`{}]+)\}\/adapter`\s*\)/g;
  const table = `{ ${ids.map((id) => `${JSON.stringify(id)}: () => import(${JSON.stringify(`@guard/adapters/${id}/adapter`)})`).join(', ')} }`;
  return {
    name: 'guard-agent-adapters',
    transform(code) {
      if (!code.includes('@guard/adapters/${')) return null;
      const next = code.replace(
        call,
        (_, id) =>
          `(Object.hasOwn(${table}, ${id}) ? ${table}[${id}]() : Promise.reject(new Error(\`no agent \${${id}}\`)))`,
      );
      return next === code ? null : { code: next };
    },
  };
}

/** Dynamic imports and requires of a name computed at run time, which the package cannot serve. */
function computedImports(code) {
  const loads = /\b(?:__import|import|require)\(\s*(?:`[^`]*\$\{[^`]*`|(?!['"`])[^)]{0,60})/g;
  return [...code.matchAll(loads)].map((match) => match[0]);
}

/** Package names a bundled file still imports or requires by name (node's own modules aside). */
function bareImports(code) {
  const loads =
    /\b(?:__import|import|require)\s*\(\s*(['"`])([^'"`]+)\1\s*\)|(?<![.\w$])from\s*(['"`])([^'"`]+)\3|createRequire\((?:[^()]|\([^()]*\))*\)\(\s*(['"`])([^'"`]+)\5/g;
  const packageName = /^(?:@[\w.-]+\/)?[\w-][\w.-]*(?:\/[\w./-]*)?$/;
  return [...code.matchAll(loads)]
    .map((match) => match[2] ?? match[4] ?? match[6])
    .filter((name) => packageName.test(name) && !isBuiltin(name));
}

/** `yaml` for `yaml` and `yaml/util`; `@scope/name` for `@scope/name/x`. */
function packageOf(specifier) {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/** The npm packages whose files went into the bundles: name, version, licence and its text. */
function bundledLibraries(moduleIds) {
  const roots = new Set();
  for (const id of moduleIds) {
    const match = /^(.*[\\/]node_modules[\\/](?:@[^\\/]+[\\/])?[^\\/]+)[\\/]/.exec(id);
    if (match) roots.add(match[1]);
  }
  const libraries = new Map();
  for (const root of roots) {
    const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
    if (manifest.name.startsWith('@guard/')) continue;
    const notice = readdirSync(root).find((file) => /^(?:licen[cs]e|copying)(?:[.-].*)?$/i.test(file));
    libraries.set(`${manifest.name}@${manifest.version}`, {
      name: manifest.name,
      version: manifest.version,
      license: typeof manifest.license === 'string' ? manifest.license : 'see the package',
      text: notice === undefined ? undefined : readFileSync(join(root, notice), 'utf8').trim(),
    });
  }
  return [...libraries.values()].sort((a, b) => a.name.localeCompare(b.name) || a.version.localeCompare(b.version));
}

function licenceText(libraries) {
  const parts = [
    'guard bundles these npm packages into dist/. Each is distributed under its own licence, quoted here.',
  ];
  for (const lib of libraries) {
    const text = lib.text ?? `The package ships no licence file; its package.json names ${lib.license}.`;
    parts.push(`${'-'.repeat(72)}\n${lib.name} ${lib.version} (${lib.license})\n\n${text}`);
  }
  return `${parts.join('\n\n')}\n`;
}

/** Runs npm (the one running this script under `npm run`, else the one on PATH) and returns its stdout. */
function npm(args, cwd) {
  const cli = process.env.npm_execpath;
  const [command, argv] = cli && /npm-cli\.js$/.test(cli) ? [process.execPath, [cli, ...args]] : ['npm', args];
  const result = spawnSync(command, argv, {
    cwd,
    encoding: 'utf8',
    shell: command === 'npm' && process.platform === 'win32',
  });
  if (result.status !== 0) {
    fail(`npm ${args[0]} failed (${result.error?.message ?? `exit ${result.status}`}):\n${result.stderr}`);
  }
  return result.stdout;
}

function kb(bytes) {
  return `${Math.round(bytes / 1024)} KB`;
}

function fail(message) {
  throw new PackageError(message);
}
