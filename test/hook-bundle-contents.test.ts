import { describe, expect, it } from 'vitest';

/** The build's check (scripts/bundle-hook.mjs, plain JavaScript). */
const { commandOnlyModules, slowBuiltins } = (await import(
  new URL('../scripts/bundle-hook.mjs', import.meta.url).href
)) as {
  commandOnlyModules(ids: readonly string[]): { id: string; what: string }[];
  slowBuiltins(imports: readonly string[]): string[];
};

// The hook runs on every tool call: scripts/bundle-hook.mjs fails a build whose hook bundle (or a
// lazy chunk of it) holds a module only a command needs. This is its list, row by row: each kind of
// module it refuses, and the near misses the hook does load, which it must let through.
const ROOT = '/repo';

describe("the hook bundle's contents: what only a command needs stays out", () => {
  it.for([
    ['packages/adapters/dist/index.js', 'setup, status and doctor'],
    ['packages/adapters/dist/doctor.js', 'setup, status and doctor'],
    ['packages/adapters/dist/hook-config.js', 'setup, status and doctor'],
    ['packages/adapters/dist/codex/config.js', 'setup, status and doctor'],
    ['packages/adapters/dist/codex/trust.js', 'setup, status and doctor'],
    ['packages/adapters/dist/claude-code/index.js', 'setup, status and doctor'],
    ['packages/cli/dist/commands/status.js', 'a command'],
    ['packages/cli/dist/commands/explain.js', 'a command'],
    ['packages/cli/dist/main.js', "the CLI's commander front"],
    ['packages/cli/dist/program.js', "the CLI's commander front"],
    ['packages/cli/dist/bin.js', "the CLI's commander front"],
    ['packages/cli/dist/report/html.js', 'the HTML report'],
    ['packages/cli/dist/export/send.js', "the export's sender"],
    ['packages/cli/dist/agents/install.js', "setup's and doctor's agent files"],
    ['packages/cli/dist/agents/line-diff.js', "setup's and doctor's agent files"],
    [
      'node_modules/.pnpm/@opentelemetry+otlp-transformer@0.223.1/node_modules/@opentelemetry/otlp-transformer/build/esm/index.js',
      "the export's OpenTelemetry encoder",
    ],
    ['node_modules/protobufjs/index.js', "the export's OpenTelemetry encoder"],
    ['node_modules/.pnpm/commander@14.0.0/node_modules/commander/lib/command.js', 'a library only commands use'],
    ['node_modules/diff/libesm/index.js', 'a library only commands use'],
  ] as const)('%s is refused (%s)', ([path, what]) => {
    const id = `${ROOT}/${path}`;
    expect(commandOnlyModules([id])).toEqual([{ id, what }]);
    // a Windows build names it with backslashes
    const windows = `C:\\repo\\${path.replaceAll('/', '\\')}`;
    expect(commandOnlyModules([windows])).toEqual([{ id: windows, what }]);
  });

  it.for([
    // the agents' registry and what each agent gives the hook
    'packages/adapters/dist/agents.js',
    'packages/adapters/dist/ids.js',
    'packages/adapters/dist/codex/agent.js',
    'packages/adapters/dist/codex/payload.js',
    'packages/adapters/dist/codex/files.js',
    'packages/adapters/dist/claude-dialect.js',
    // what the hook shares with the commands
    'packages/cli/dist/export/config.js',
    'packages/cli/dist/agents/admin.js',
    'packages/cli/dist/hook/run.js',
    'packages/cli/dist/state/settings.js',
    'packages/cli/dist/world/probe.js',
    'packages/cli/dist/self.js',
    'packages/cli/dist/errors.js',
    // names like the refused ones, elsewhere
    'packages/core/dist/programs/entries/commands.js',
    'packages/core/dist/index.js',
    'packages/core/dist/floor.js',
    'packages/cli/dist/hook/program.js',
    'packages/cli/dist/state/report.js',
    // the libraries the hook loads lazily, and names like the refused ones
    'node_modules/.pnpm/yaml@2.8.0/node_modules/yaml/dist/index.js',
    'node_modules/diff-sequences/build/index.js',
    'node_modules/commander-extra/index.js',
    '\0rolldown/runtime.js',
  ])('%s is let through', (path) => {
    expect(commandOnlyModules([`${ROOT}/${path}`])).toEqual([]);
  });

  it('names every refused module of a bundle, in its order, and only those', () => {
    const ids = ['packages/cli/dist/hook/run.js', 'packages/cli/dist/commands/setup.js', 'packages/core/dist/index.js'];
    expect(commandOnlyModules(ids.map((id) => `${ROOT}/${id}`))).toEqual([
      { id: `${ROOT}/packages/cli/dist/commands/setup.js`, what: 'a command' },
    ]);
  });
});

// …and the bundle's top requires none of Node's modules that take milliseconds to load: the hook
// loads them where a call uses them (node:crypto for a pinned file's hash, once a minute at most)
describe("the hook bundle's top: none of Node's slow modules", () => {
  it.for([
    'node:crypto',
    'crypto',
    'node:child_process',
    'node:net',
    'node:http',
    'node:https',
    'node:zlib',
    'node:stream',
  ])('%s is refused', (id) => {
    expect(slowBuiltins([id])).toEqual([id]);
  });

  it.for([
    'node:fs',
    'node:path',
    'node:os',
    'node:url',
    'url',
    'node:module',
    'node:vm',
    'node:cryptography',
    'stream-json',
  ])('%s is let through', (id) => {
    expect(slowBuiltins([id])).toEqual([]);
  });
});
