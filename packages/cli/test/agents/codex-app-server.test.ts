import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  AppServerError,
  appServerTrust,
  findOnPath,
  listGuardHooks,
  trustGuardHooks,
} from '../../src/agents/codex-app-server.js';
import type { ListedHook } from '../../src/agents/codex-app-server.js';
import { captureIo } from '../capture-io.js';

// The real `codex app-server` is exercised in test/e2e/codex-trust.test.ts. Here stand-in programs
// speak (or fail to speak) its JSON-RPC, to pin what guard sends and how it ends a bad conversation.

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'guard-app-server-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

// A home folder of its own (Codex is started in the folder above .codex, so it must exist here);
// made at load time because the tables below name it.
const home = mkdtempSync(join(tmpdir(), 'guard-app-server-home-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));
mkdirSync(join(home, '.codex'));
const HOOKS = join(home, '.codex', 'hooks.json');
const escaped = (text: string): string => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
const GUARD = '"/usr/bin/node" "/opt/guard/dist/bin.js" hook codex';

function hook(overrides: Partial<ListedHook> & { key: string }): ListedHook {
  return {
    command: GUARD,
    sourcePath: HOOKS,
    currentHash: `sha256:${overrides.key}`,
    trustStatus: 'untrusted',
    enabled: true,
    isManaged: false,
    ...overrides,
  };
}

/**
 * Writes a stand-in `codex` that answers `initialize`, then `hooks/list` with `lists` in turn (the
 * last one again after that), records every message it gets in `<root>/got.jsonl`, and its PID in
 * `<root>/pid`. `mode` changes that: hang (never answers), exit (dies at once), error (answers
 * every request with a JSON-RPC error), broken (lists with an error, as for a bad config.toml).
 */
function fakeCodex(
  lists: readonly (readonly ListedHook[])[],
  mode: 'answer' | 'hang' | 'exit' | 'error' | 'broken' = 'answer',
): string {
  const file = join(root, 'codex');
  const script = `const fs = require('node:fs');
fs.writeFileSync(${JSON.stringify(join(root, 'pid'))}, String(process.pid));
const mode = ${JSON.stringify(mode)};
if (mode === 'exit') process.exit(3);
const lists = ${JSON.stringify(lists)};
let listed = 0;
let buffer = '';
process.stdin.setEncoding('utf8').on('data', (chunk) => {
  buffer += chunk;
  for (let end = buffer.indexOf('\\n'); end >= 0; end = buffer.indexOf('\\n')) {
    const message = JSON.parse(buffer.slice(0, end));
    buffer = buffer.slice(end + 1);
    fs.appendFileSync(${JSON.stringify(join(root, 'got.jsonl'))}, JSON.stringify(message) + '\\n');
    if (mode === 'hang' || message.id === undefined) continue;
    const reply = (result) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: message.id, ...result }) + '\\n');
    if (mode === 'error') { reply({ error: { code: -32600, message: 'config.toml: expected a key' } }); continue; }
    // a notification first, as the real one sends, and a request of its own with the same id
    process.stdout.write('{"jsonrpc":"2.0","method":"remoteControl/status/changed","params":{}}\\n');
    process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: message.id, method: 'item/tool/requestUserInput', params: {} }) + '\\n');
    const errors = mode === 'broken' ? [{ path: '/', message: 'config.toml:3:22: unclosed table' }] : [];
    if (message.method === 'hooks/list') reply({ result: { data: [{ cwd: '/', hooks: lists[Math.min(listed++, lists.length - 1)], warnings: [], errors }] } });
    else reply({ result: {} });
  }
});
setInterval(() => {}, 1000);
`;
  // a shell launcher, not a #! line naming node: that breaks where node's path has a space in it
  const quote = (text: string): string => `'${text.replaceAll("'", `'\\''`)}'`;
  writeFileSync(`${file}.cjs`, script);
  writeFileSync(file, `#!/bin/sh\nexec ${quote(process.execPath)} ${quote(`${file}.cjs`)} "$@"\n`);
  chmodSync(file, 0o755);
  return file;
}

function got(): { method?: string; params?: unknown }[] {
  const path = join(root, 'got.jsonl');
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { method?: string; params?: unknown });
}

/** Whether the stand-in's process is still alive. */
function alive(): boolean {
  const pid = Number(readFileSync(join(root, 'pid'), 'utf8'));
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const io = () => ({ ...captureIo({ cwd: root, home: root }).io, env: { PATH: '/usr/bin:/bin' } });

describe('trustGuardHooks', () => {
  it("upserts hooks.state for exactly guard's untrusted, enabled, unmanaged hooks from this file, then lists again", async () => {
    const before = [
      hook({ key: `${HOOKS}:pre_tool_use:0:0` }),
      hook({ key: `${HOOKS}:post_tool_use:0:0`, trustStatus: 'modified' }),
      hook({ key: `${HOOKS}:session_start:0:0`, trustStatus: 'trusted' }),
      hook({ key: `${HOOKS}:user_prompt_submit:0:0`, enabled: false }),
      // not guard's: the person's own hook, guard's command from another file, a managed one
      hook({ key: `${HOOKS}:pre_tool_use:0:1`, command: './mine.sh' }),
      hook({
        key: `${join(home, 'project', '.codex', 'hooks.json')}:pre_tool_use:0:0`,
        sourcePath: join(home, 'project', '.codex', 'hooks.json'),
      }),
    ];
    const after = before.map((one) =>
      one.command === GUARD && one.sourcePath === HOOKS && one.enabled
        ? { ...one, trustStatus: 'trusted' as const }
        : one,
    );
    const codex = fakeCodex([before, after]);
    expect(await trustGuardHooks(codex, HOOKS, [GUARD], io())).toEqual({ total: 4, trusted: 3, disabled: 1 });
    const methods = got().map((message) => message.method);
    expect(methods).toEqual(['initialize', 'initialized', 'hooks/list', 'config/batchWrite', 'hooks/list']);
    expect(got()[3]?.params).toEqual({
      edits: [
        {
          keyPath: 'hooks.state',
          mergeStrategy: 'upsert',
          value: {
            [`${HOOKS}:pre_tool_use:0:0`]: { trusted_hash: `sha256:${HOOKS}:pre_tool_use:0:0` },
            [`${HOOKS}:post_tool_use:0:0`]: { trusted_hash: `sha256:${HOOKS}:post_tool_use:0:0` },
          },
        },
      ],
      reloadUserConfig: true,
    });
    expect(alive()).toBe(false);
  });

  it('writes nothing when every guard hook is already trusted', async () => {
    const trusted = [hook({ key: `${HOOKS}:pre_tool_use:0:0`, trustStatus: 'trusted' })];
    const codex = fakeCodex([trusted]);
    expect(await trustGuardHooks(codex, HOOKS, [GUARD], io())).toEqual({ total: 1, trusted: 1, disabled: 0 });
    expect(got().map((message) => message.method)).not.toContain('config/batchWrite');
  });

  it.for([
    {
      name: "Codex lists none of guard's hooks",
      mode: 'answer',
      lists: [[hook({ key: 'x', command: './mine.sh' })]],
      error: new RegExp(`^Codex does not load guard's hooks from ${escaped(HOOKS)}$`),
    },
    {
      name: 'Codex cannot read its config',
      mode: 'broken',
      lists: [[]],
      error: new RegExp(
        `^Codex does not load guard's hooks from ${escaped(HOOKS)} \\(Codex says: config\\.toml:3:22: unclosed table\\)$`,
      ),
    },
    {
      name: 'Codex answers with an error',
      mode: 'error',
      lists: [[]],
      error: /^Codex answered config\.toml: expected a key$/,
    },
    {
      name: 'Codex exits at once',
      mode: 'exit',
      lists: [[]],
      error: /^codex app-server stopped early \(exit code 3\)$/,
    },
    {
      name: 'Codex never answers',
      mode: 'hang',
      lists: [[]],
      error: /^codex app-server did not answer within 0\.5 s$/,
    },
  ] as const)('$name: a clear AppServerError, and the process is gone', async ({ mode, lists, error }) => {
    const codex = fakeCodex(lists, mode);
    // only the silent Codex should run into the limit; the others answer, however busy the machine
    const attempt = trustGuardHooks(codex, HOOKS, [GUARD], io(), mode === 'hang' ? 500 : 30_000);
    await expect(attempt).rejects.toThrow(AppServerError);
    await expect(attempt).rejects.toThrow(error);
    expect(got().some((message) => message.method === 'config/batchWrite')).toBe(false);
    expect(alive()).toBe(false);
  });

  it('a project folder that does not exist is named, and Codex is not started', async () => {
    const project = join(root, 'gone', '.codex', 'hooks.json');
    const codex = fakeCodex([[]]);
    await expect(listGuardHooks(codex, project, [GUARD], io())).rejects.toThrow(
      `cannot start codex app-server: the folder ${join(root, 'gone')} does not exist; create it or run guard from a folder that exists`,
    );
    expect(existsSync(join(root, 'pid'))).toBe(false);
  });

  it('listGuardHooks asks for the project folder of a project file', async () => {
    const project = join(root, 'project', '.codex', 'hooks.json');
    mkdirSync(join(root, 'project', '.codex'), { recursive: true });
    const codex = fakeCodex([[hook({ key: `${project}:pre_tool_use:0:0`, sourcePath: project })]]);
    expect(await listGuardHooks(codex, project, [GUARD], io())).toHaveLength(1);
    expect(got().find((message) => message.method === 'hooks/list')?.params).toEqual({ cwds: [join(root, 'project')] });
  });
});

describe("appServerTrust (setup's step)", () => {
  it.for([
    { name: 'no codex on PATH: nothing to say (setup names /hooks)', onPath: false, lists: [[]], says: '' },
    {
      name: 'all trusted',
      onPath: true,
      lists: [[hook({ key: 'a' })], [hook({ key: 'a', trustStatus: 'trusted' })]],
      says: "now trusts guard's 1 hooks",
    },
    {
      name: 'one switched off',
      onPath: true,
      lists: [
        [hook({ key: 'a' }), hook({ key: 'b', enabled: false })],
        [hook({ key: 'a', trustStatus: 'trusted' }), hook({ key: 'b', enabled: false })],
      ],
      says: "trusts 1 of guard's 2 hooks (1 switched off in Codex: turn them on in /hooks)",
    },
    {
      name: 'Codex fails',
      onPath: true,
      lists: [[]],
      says: "guard could not mark its hook trusted through `codex app-server`: Codex does not load guard's hooks",
    },
  ] as const)('$name', async ({ onPath, lists, says }) => {
    fakeCodex(lists);
    const captured = captureIo();
    await appServerTrust({ ...captured.io, cwd: () => root, env: { PATH: onPath ? root : join(root, 'nowhere') } })(
      HOOKS,
      [GUARD],
    );
    if (says === '') expect(captured.stdout()).toBe('');
    else expect(captured.stdout()).toContain(says);
  });
});

describe('findOnPath', () => {
  it.for([
    { name: 'the first runnable file wins', setup: ['a/codex:755', 'b/codex:755'], path: ['a', 'b'], found: 'a/codex' },
    {
      name: 'a file that cannot run is skipped',
      setup: ['a/codex:644', 'b/codex:755'],
      path: ['a', 'b'],
      found: 'b/codex',
    },
    { name: 'a folder named codex is skipped', setup: ['a/codex/', 'b/codex:755'], path: ['a', 'b'], found: 'b/codex' },
    { name: 'another name is not codex', setup: ['a/codex-old:755'], path: ['a'], found: undefined },
    { name: 'empty PATH entries are ignored', setup: ['a/codex:755'], path: ['', 'a'], found: 'a/codex' },
    { name: 'nothing on PATH', setup: [], path: [], found: undefined },
  ])('$name', ({ setup, path, found }) => {
    for (const entry of setup) {
      const [name = '', mode] = entry.split(':');
      if (name.endsWith('/')) mkdirSync(join(root, name), { recursive: true });
      else {
        mkdirSync(join(root, name, '..'), { recursive: true });
        writeFileSync(join(root, name), '#!/bin/sh\n');
        chmodSync(join(root, name), Number.parseInt(mode ?? '644', 8));
      }
    }
    const env = { PATH: path.map((dir) => (dir === '' ? '' : join(root, dir))).join(':') };
    expect(findOnPath('codex', env, 'linux')).toBe(found === undefined ? undefined : join(root, found));
  });
});
