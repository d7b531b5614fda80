import {
  copyFileSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The built binary, as agents and people run it. `npm test` builds before it runs the tests.
const BIN = fileURLToPath(new URL('../../dist/bin.js', import.meta.url));
const HOME = mkdtempSync(join(tmpdir(), 'guard-e2e-'));
// only this: GUARD_HOME, XDG_STATE_HOME or CODEX_HOME of the person running the tests must not reach guard
const ENV = { HOME, PATH: process.env.PATH ?? '' };

beforeAll(() => {
  if (!existsSync(BIN)) {
    throw new Error(`${BIN} is missing: run \`npm run build\` first (\`npm test\` builds before testing).`);
  }
});
afterAll(() => rmSync(HOME, { recursive: true, force: true }));

// a harmless shell step as Codex sends it (see packages/adapters/test/fixtures/codex)
const HOOK_PAYLOAD = JSON.stringify({
  session_id: 's1',
  cwd: HOME,
  hook_event_name: 'PreToolUse',
  permission_mode: 'default',
  tool_name: 'Bash',
  tool_input: { command: 'git status' },
  tool_use_id: 'call_0',
});

const guard = (args: readonly string[], input = '') =>
  execa(process.execPath, [BIN, ...args], { reject: false, input, env: ENV, extendEnv: false, cwd: HOME });

describe('guard (built)', () => {
  it.for([
    { name: 'help', args: ['--help'], exitCode: 0, stdout: /Usage: guard/, stderr: /^$/ },
    { name: 'version', args: ['--version'], exitCode: 0, stdout: /^\d+\.\d+\.\d+$/, stderr: /^$/ },
    {
      name: 'unknown command',
      args: ['frobnicate'],
      exitCode: 2,
      stdout: /^$/,
      stderr: /unknown command 'frobnicate'/,
    },
    {
      name: 'explain with no command',
      args: ['explain'],
      exitCode: 2,
      stdout: /^$/,
      stderr: /^guard: No command to explain/,
    },
    {
      name: 'status on a fresh machine',
      args: ['status'],
      exitCode: 0,
      stdout: /^guard is on; fail-closed is off\.\n/,
      stderr: /^$/,
    },
    {
      name: 'explain as text',
      args: ['explain', '--', 'git status'],
      exitCode: 0,
      stdout: /^(allow|ask|block)\n/,
      stderr: /^$/,
    },
  ])('$name exits $exitCode', async ({ args, exitCode, stdout, stderr }) => {
    const result = await guard(args);
    expect(result.exitCode).toBe(exitCode);
    expect(result.stdout).toMatch(stdout);
    expect(result.stderr).toMatch(stderr);
  });

  it('explain --json prints exactly one object and exits 0', async () => {
    const command = 'sudo sh -c "cd /repo && git push --force"';
    const result = await guard(['explain', '--json', '--', command]);
    expect(result.exitCode).toBe(0);
    const answer = JSON.parse(result.stdout) as Record<string, unknown>;
    expect(answer).toMatchObject({ command, cwd: HOME, findings: expect.any(Array), invocations: expect.any(Array) });
    expect(['allow', 'ask', 'block']).toContain(answer['decision']);
  });

  it('explain --jsonl answers 3,000 lines in one process, one line each, in order', async () => {
    const commands = ['git status', 'ls -la | wc -l', 'rm -rf build', 'npm test', 'git push --force origin main'];
    const lines = Array.from({ length: 3000 }, (_, i) =>
      i % 500 === 7 ? 'not json' : JSON.stringify({ command: `${commands[i % commands.length]} # ${i}` }),
    );
    const result = await guard(['explain', '--jsonl'], `${lines.join('\n')}\n`);
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toBe('');
    const answers = result.stdout.split('\n').map((line) => JSON.parse(line) as { command?: string; error?: string });
    expect(answers).toHaveLength(3000);
    answers.forEach((answer, i) => {
      if (i % 500 === 7) expect(answer.error).toMatch(/not valid JSON/);
      else expect(answer.command).toBe(`${commands[i % commands.length]} # ${i}`);
    });
  });

  it('explain --jsonl answers a caller that waits for each answer before it writes the next line', async () => {
    // output is gathered per turn of the event loop: an answer must still go out while the next line is awaited
    const subprocess = execa(process.execPath, [BIN, 'explain', '--jsonl'], {
      reject: false,
      env: ENV,
      extendEnv: false,
      cwd: HOME,
      buffer: { stdout: false },
    });
    const answers: string[] = [];
    let pending = '';
    let waiting: (() => void) | undefined;
    subprocess.stdout.setEncoding('utf8');
    subprocess.stdout.on('data', (chunk: string) => {
      pending += chunk;
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      answers.push(...lines);
      waiting?.();
    });
    const commands = ['git status', 'git push --force origin main', 'not json'];
    for (const [i, command] of commands.entries()) {
      subprocess.stdin.write(`${command === 'not json' ? command : JSON.stringify({ command })}\n`);
      while (answers.length <= i) await new Promise<void>((resolve) => (waiting = resolve));
      expect(answers).toHaveLength(i + 1);
    }
    subprocess.stdin.end();
    const result = await subprocess;
    expect(result.exitCode).toBe(0);
    const parsed = answers.map((line) => JSON.parse(line) as { command?: string; decision?: string; error?: string });
    expect(parsed.map((answer) => answer.command)).toEqual([...commands.slice(0, 2), undefined]);
    expect(parsed[1]?.decision).not.toBe('allow');
    expect(parsed[2]?.error).toMatch(/not valid JSON/);
  });

  it('stops quietly when the reader of its output goes away', async () => {
    const input = `${Array.from({ length: 3000 }, () => '{"command": "git status"}').join('\n')}\n`;
    const subprocess = execa(process.execPath, [BIN, 'explain', '--jsonl'], {
      reject: false,
      input,
      env: ENV,
      extendEnv: false,
      buffer: { stdout: false },
    });
    subprocess.stdout.once('data', () => subprocess.stdout.destroy());
    const result = await subprocess;
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
  });

  it('hook answers a harmless Codex step with silence, exit 0', async () => {
    const result = await guard(['hook', 'codex'], HOOK_PAYLOAD);
    expect(result).toMatchObject({ exitCode: 0, stdout: '', stderr: '' });
  });

  // Agents run `guard hook` on every tool call: it must not pay for loading commander.
  // The same probe on `rules` is the near miss that shows the probe can see commander at all
  // (`explain` runs from the CLI bundle, which holds its own commander: see cli-bundle.test.ts).
  it.for([
    { args: ['hook', 'codex'], commander: false },
    { args: ['rules'], commander: true },
  ])('loads commander for $args.0: $commander', async ({ args, commander }) => {
    const probe = [
      'const { pathToFileURL } = await import("node:url");',
      'const { createRequire } = await import("node:module");',
      'const [bin, ...rest] = process.argv.slice(1);',
      'process.argv = [process.argv[0], bin, ...rest];',
      'await import(pathToFileURL(bin).href);',
      'const cache = Object.keys(createRequire(pathToFileURL(bin)).cache);',
      'process.stderr.write(`commander:${cache.some((file) => file.includes("/commander/"))}`);',
    ].join('\n');
    const result = await execa(process.execPath, ['--input-type=module', '-e', probe, BIN, ...args], {
      reject: false,
      input: HOOK_PAYLOAD,
      env: ENV,
      extendEnv: false,
    });
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toBe(`commander:${commander}`);
  });
});

// The build saves V8's code cache for the hook bundle; a Node upgrade since then makes V8 reject it.
// The first call that finds no usable cache saves this Node's, and every call answers the same.
describe('the hook bundle code cache', () => {
  const DIST = dirname(BIN);
  const copy = mkdtempSync(join(tmpdir(), 'guard-cache-'));
  afterAll(() => rmSync(copy, { recursive: true, force: true }));
  // the bundle's cache is named by the build's id (a hash of the hook's scripts)
  const id = readFileSync(join(DIST, 'hook.bundle.id'), 'latin1').trim();
  const cacheName = `hook.bundle-${id}.cache`;
  const cache = join(copy, cacheName);
  const hook = (payload: string) =>
    execa(process.execPath, [join(copy, 'hook-entry.cjs'), 'hook', 'codex'], {
      reject: false,
      input: payload,
      // the code cache is the in-process path's: no resident checker answers these calls
      env: { ...ENV, GUARD_RESIDENT: 'off' },
      extendEnv: false,
    });
  const FORCE_PUSH = HOOK_PAYLOAD.replace('git status', 'git push --force origin main');

  it.for([
    { name: 'no cache', before: undefined },
    { name: "another Node's cache (V8 rejects it)", before: Buffer.from('not a code cache for this Node') },
  ])('$name: the call answers as usual, then leaves a cache this Node accepts', async ({ before }) => {
    for (const file of ['hook-entry.cjs', 'hook-load.cjs', 'hook-base.cjs', 'hook.bundle.cjs', 'hook.bundle.id'])
      copyFileSync(join(DIST, file), join(copy, file));
    rmSync(cache, { force: true });
    if (before !== undefined) writeFileSync(cache, before);

    const first = await hook(FORCE_PUSH);
    expect(first).toMatchObject({ exitCode: 0, stderr: '' });
    expect(first.stdout).toMatch(/"permissionDecision":"deny"/);
    const saved = readFileSync(cache);
    expect(saved.length).toBeGreaterThan(1000);
    expect(readdirSync(copy).filter((file) => file.endsWith('.tmp'))).toEqual([]);

    // V8 takes it now
    const probe = await execa(process.execPath, [
      '-e',
      'process.stdout.write(String(require(process.argv[1]).loadBundledHook().cacheMissed))',
      join(copy, 'hook-load.cjs'),
    ]);
    expect(probe.stdout).toBe('false');
    // the next call uses it (and leaves it as it is), with the same answers
    const second = await hook(FORCE_PUSH);
    expect(second).toMatchObject({ exitCode: 0, stderr: '', stdout: first.stdout });
    expect((await hook(HOOK_PAYLOAD)).stdout).toBe('');
    expect(readFileSync(cache).equals(saved)).toBe(true);
  });

  it("a lazy chunk with no cache (a project policy's reader) is loaded, then its cache is saved and kept", async () => {
    const lazy = readdirSync(DIST).filter((file) => /^hook-lazy-.+\.(?:cjs|cache)$/.test(file));
    const policy = lazy.find((file) => file.startsWith('hook-lazy-policy-') && file.endsWith('.cjs'));
    expect(policy).toBeDefined();
    const policyCache = join(copy, (policy ?? '').replace(/\.cjs$/, '.cache'));
    for (const file of [
      'hook-entry.cjs',
      'hook-load.cjs',
      'hook-base.cjs',
      'hook.bundle.cjs',
      'hook.bundle.id',
      cacheName,
      ...lazy,
    ])
      copyFileSync(join(DIST, file), join(copy, file));
    rmSync(policyCache);
    // the policy's YAML parser comes from the CLI's node_modules, as in a checkout
    if (!existsSync(join(copy, 'node_modules')))
      symlinkSync(join(DIST, '..', 'node_modules'), join(copy, 'node_modules'));
    const project = mkdtempSync(join(copy, 'project-'));
    writeFileSync(
      join(project, '.guard.yaml'),
      'rules:\n  - id: policy.no-apply\n    program: terraform\n    args: [apply]\n    decision: block\n    reason: Not here.\n',
    );
    const step = JSON.stringify({ ...(JSON.parse(HOOK_PAYLOAD) as object), cwd: project });

    // the project's own rule answers
    const first = await hook(step.replace('git status', 'terraform apply'));
    expect(first).toMatchObject({ exitCode: 0, stderr: '' });
    expect(first.stdout).toMatch(/"permissionDecision":"deny".*policy\.no-apply/);
    const saved = readFileSync(policyCache);
    expect(saved.length).toBeGreaterThan(1000);
    const second = await hook(step.replace('git status', 'terraform apply'));
    expect(second).toMatchObject({ exitCode: 0, stderr: '', stdout: first.stdout });
    expect(readFileSync(policyCache).equals(saved)).toBe(true);
  });

  // V8 checks a cache against the script's length only: another build's cache is never read, found by the id
  it.for([
    { name: "this build's id", id: () => id, missed: 'false' },
    { name: "another build's id (a rebuild of the same length)", id: () => 'f'.repeat(32), missed: 'true' },
    { name: 'no id', id: () => undefined, missed: 'true' },
    { name: 'an id that is not one', id: () => '../hook.bundle', missed: 'true' },
  ])('the bundle cache is read by the id: $name', async ({ id: idOf, missed }) => {
    for (const file of ['hook-entry.cjs', 'hook-load.cjs', 'hook-base.cjs', 'hook.bundle.cjs', cacheName])
      copyFileSync(join(DIST, file), join(copy, file));
    const given = idOf();
    if (given === undefined) rmSync(join(copy, 'hook.bundle.id'), { force: true });
    else writeFileSync(join(copy, 'hook.bundle.id'), `${given}\n`);
    const probe = await execa(process.execPath, [
      '-e',
      'process.stdout.write(String(require(process.argv[1]).loadBundledHook().cacheMissed))',
      join(copy, 'hook-load.cjs'),
    ]);
    expect(probe.stdout).toBe(missed);
    // whatever the cache, the same answer
    expect((await hook(FORCE_PUSH)).stdout).toMatch(/"permissionDecision":"deny"/);
    // the build's cache is left as it was; a call under another id saved that id's own
    expect(readFileSync(cache).equals(readFileSync(join(DIST, cacheName)))).toBe(true);
    const other = join(copy, `hook.bundle-${'f'.repeat(32)}.cache`);
    expect(existsSync(other)).toBe(given === 'f'.repeat(32));
    rmSync(other, { force: true });
  });

  it("the build's own cache is left alone", async () => {
    const built = readFileSync(join(DIST, cacheName));
    for (const file of [
      'hook-entry.cjs',
      'hook-load.cjs',
      'hook-base.cjs',
      'hook.bundle.cjs',
      'hook.bundle.id',
      cacheName,
    ])
      copyFileSync(join(DIST, file), join(copy, file));
    expect((await hook(FORCE_PUSH)).stdout).toMatch(/"permissionDecision":"deny"/);
    expect(readFileSync(cache).equals(built)).toBe(true);
  });
});
