import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { pluginText } from '../../packages/adapters/src/opencode/plugin.js';
import { scaled } from '../machine.js';

// guard's OpenCode plugin file itself, loaded here by Node as both of OpenCode's loaders would
// call it (v1: the default export's server(); v2: setup() with a context that has tool.hook),
// with stand-in commands for guard's hook: what each answer, failure and timeout does to a step.

const dir = mkdtempSync(join(tmpdir(), 'guard-opencode-plugin-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Hooks = Record<string, (input: unknown, output: unknown) => Promise<void>>;
interface Plugin {
  id: string;
  server(context: { directory: string; worktree: string }): Promise<Hooks>;
  setup(context: unknown): void;
}

let count = 0;
/** The plugin with `command` as guard's hook, written and imported as a module of its own. */
async function plugin(command: string, timeoutMs = 5_000): Promise<Plugin> {
  const file = join(dir, `guard-${++count}.mjs`);
  writeFileSync(file, pluginText('OpenCode', command, timeoutMs));
  return ((await import(pathToFileURL(file).href)) as { default: Plugin }).default;
}

/** Runs one bash step through the v1 hook: undefined when it may run, else the error's message. */
async function step(guard: Plugin, command = 'git status', callID = 'call_1'): Promise<string | undefined> {
  const hooks = await guard.server({ directory: dir, worktree: dir });
  try {
    await hooks['tool.execute.before']?.({ tool: 'bash', sessionID: 'ses_1', callID }, { args: { command } });
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

const BLOCK = `printf '%s\\n' '{"decision":"block","reason":"guard: blocked (git.push)."}'`;

describe("guard's OpenCode plugin, run by Node", () => {
  it('exports one object for both loaders: id, server and setup', async () => {
    const guard = await plugin('true');
    expect(guard.id).toBe('guard');
    expect(typeof guard.server).toBe('function');
    expect(typeof guard.setup).toBe('function');
  });

  it.for<{ name: string; command: string; want: RegExp | undefined }>([
    { name: 'silence, exit 0: the step runs', command: 'cat > /dev/null', want: undefined },
    {
      name: 'a block: its reason is thrown',
      command: `cat > /dev/null; ${BLOCK}`,
      want: /^guard: blocked \(git\.push\)\.$/,
    },
    // every other answer blocks, saying guard's hook failed
    {
      name: 'exit 1, silent',
      command: 'exit 1',
      want: /^guard: blocked, because guard's hook gave no answer guard writes \(exit code 1\)/,
    },
    { name: 'a missing program', command: `${join(dir, 'no-such-node')} hook opencode`, want: /\(exit code 127\)/ },
    { name: 'text that is not JSON', command: 'echo ok', want: /gave no answer guard writes \(exit code 0\)/ },
    { name: 'JSON that is not a block', command: `echo '{"decision":"allow"}'`, want: /gave no answer guard writes/ },
    {
      name: 'a block without a reason',
      command: `echo '{"decision":"block","reason":""}'`,
      want: /gave no answer guard writes/,
    },
    { name: 'a block with exit 2', command: `${BLOCK}; exit 2`, want: /^guard: blocked \(git\.push\)\.$/ },
    { name: 'killed by a signal', command: 'kill -9 $$', want: /was stopped by SIGKILL/ },
  ])('$name', async ({ command, want }) => {
    const reason = await step(await plugin(command));
    if (want === undefined) expect(reason).toBeUndefined();
    else expect(reason).toMatch(want);
  });

  it('a hook that does not answer in time is stopped, and the step blocked', async () => {
    // a hook that would hang for ten minutes: only the timer can end the step well before that,
    // however loaded the machine (the time allowed is stretched for it, far below the sleep);
    // `exec` makes the sleep the process the plugin kills, so none is left behind
    const started = Date.now();
    const reason = await step(await plugin('exec sleep 600', 300));
    expect(reason).toMatch(/did not answer within 0\.3 seconds, so this step was not checked/);
    expect(Date.now() - started).toBeLessThan(scaled(4_000));
  });

  it('the step goes to guard as JSON on stdin, with the session, call, tool, arguments and folders', async () => {
    const out = join(dir, 'payload.json');
    const guard = await plugin(`cat > '${out}'`);
    expect(await step(guard, 'ls -la', 'call_7')).toBeUndefined();
    expect(JSON.parse(readFileSync(out, 'utf8'))).toEqual({
      hook_event_name: 'tool.execute.before',
      session_id: 'ses_1',
      call_id: 'call_7',
      tool: 'bash',
      args: { command: 'ls -la' },
      directory: dir,
      worktree: dir,
    });
  });

  it("the person's message goes to guard too; its answer, or a failure, never stops the message", async () => {
    const out = join(dir, 'message.json');
    const hooks = await (await plugin(`cat > '${out}'; exit 3`)).server({ directory: dir, worktree: dir });
    const parts = [
      { type: 'text', text: 'yes, K7QX' },
      { type: 'text', text: 'added by OpenCode', synthetic: true },
      { type: 'file', url: 'file:///x' },
    ];
    await expect(hooks['chat.message']?.({ sessionID: 'ses_1' }, { message: {}, parts })).resolves.toBeUndefined();
    expect(JSON.parse(readFileSync(out, 'utf8'))).toMatchObject({
      hook_event_name: 'chat.message',
      prompt: 'yes, K7QX',
    });
  });

  it('v2: setup hangs the check on tool.hook("execute.before") where the context has it, and nothing where it does not', async () => {
    const guard = await plugin(`cat > /dev/null; ${BLOCK}`);
    const hooked: [string, (event: unknown) => Promise<void>][] = [];
    guard.setup({
      directory: dir,
      tool: { hook: (name: string, callback: (event: unknown) => Promise<void>) => hooked.push([name, callback]) },
    });
    expect(hooked.map(([name]) => name)).toEqual(['execute.before']);
    await expect(
      hooked[0]?.[1]({ tool: 'bash', sessionID: 'ses_2', callID: 'call_1', input: { command: 'git push' } }),
    ).rejects.toThrow(/^guard: blocked \(git\.push\)\.$/);
    // 1.18.33's context has no tool: nothing to hang, no error
    expect(() => guard.setup({ options: {}, agent: {} })).not.toThrow();
  });

  it('a step both contracts see (same session and call) is checked once; another call is checked again', async () => {
    const calls = join(dir, 'calls.txt');
    const guard = await plugin(`cat > /dev/null; echo x >> '${calls}'`);
    const hooked: ((event: unknown) => Promise<void>)[] = [];
    guard.setup({
      directory: dir,
      tool: { hook: (_: string, callback: (event: unknown) => Promise<void>) => hooked.push(callback) },
    });
    const hooks = await guard.server({ directory: dir, worktree: dir });
    await Promise.all([
      hooks['tool.execute.before']?.(
        { tool: 'bash', sessionID: 'ses_3', callID: 'call_1' },
        { args: { command: 'ls' } },
      ),
      hooked[0]?.({ tool: 'bash', sessionID: 'ses_3', callID: 'call_1', input: { command: 'ls' } }),
    ]);
    expect(readFileSync(calls, 'utf8')).toBe('x\n');
    await hooks['tool.execute.before']?.(
      { tool: 'bash', sessionID: 'ses_3', callID: 'call_2' },
      { args: { command: 'ls' } },
    );
    expect(readFileSync(calls, 'utf8')).toBe('x\nx\n');
  });
});
