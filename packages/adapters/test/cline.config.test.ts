import { describe, expect, it } from 'vitest';
import { ConfigError } from '../src/adapter.js';
import type { InstallOptions, Locations } from '../src/adapter.js';
import { FILE_MARK, commandIn } from '../src/cline/hook-file.js';
import { readFallback } from '../src/fallback.js';
import { adapters } from '../src/index.js';

const { cline } = adapters;
const NODE = '/usr/local/bin/node';
const SCRIPT = "/home/dev/.npm/lib/node_modules/guard's/dist/hook-entry.cjs";
const hookCommand = `"${NODE}" "${SCRIPT}" hook cline`;
const plain: InstallOptions = { hookCommand, failClosed: false };
const pinned: InstallOptions = {
  ...plain,
  fallback: { node: NODE, script: SCRIPT, home: '/home/dev/.local/state/guard' },
};
const where = (env: Record<string, string> = {}): Locations => ({ home: '/home/dev', env, projectRoot: '/work/app' });

describe("guard setup cline: a hook file of guard's own, created and removed whole", () => {
  it.for<{ name: string; env?: Record<string, string>; level: 'user' | 'project'; path: string }>([
    { name: 'user', level: 'user', path: '/home/dev/.cline/hooks/PreToolUse.bash' },
    {
      name: 'user, CLINE_DIR set',
      env: { CLINE_DIR: '/srv/cline' },
      level: 'user',
      path: '/srv/cline/hooks/PreToolUse.bash',
    },
    {
      name: 'user, empty CLINE_DIR',
      env: { CLINE_DIR: '' },
      level: 'user',
      path: '/home/dev/.cline/hooks/PreToolUse.bash',
    },
    // --hooks-dir adds a folder; the person's own stays where guard writes
    {
      name: 'user, CLINE_HOOKS_DIR set',
      env: { CLINE_HOOKS_DIR: '/srv/hooks' },
      level: 'user',
      path: '/home/dev/.cline/hooks/PreToolUse.bash',
    },
    { name: 'project', level: 'project', path: '/work/app/.clinerules/hooks/PreToolUse.bash' },
  ])('$name → $path', ({ env, level, path }) => {
    expect(cline.configPath(level, where(env))).toBe(path);
  });

  it.for([
    { name: 'plain command', options: plain },
    { name: 'command with its own answer', options: pinned },
    { name: 'fail-closed', options: { ...pinned, failClosed: true } },
  ])('$name: created from nothing, the same on every setup, removed whole', ({ options }) => {
    const text = cline.install('', options);
    expect(text.startsWith(FILE_MARK)).toBe(true);
    expect(cline.install(text, options)).toBe(text);
    const [command] = cline.installedCommands(text);
    expect(cline.installedCommands(text)).toHaveLength(1);
    expect(cline.installedCommand(text, 'PreToolUse')).toBe(command);
    // near misses: Cline's other events, and its payload's own name for this one
    expect(cline.installedCommand(text, 'UserPromptSubmit')).toBeUndefined();
    expect(cline.installedCommand(text, 'tool_call')).toBeUndefined();
    expect(cline.doctor.timeoutSeconds(text)).toBe(120);
    expect(cline.uninstall(text)).toBe('');
  });

  it('the command with its own answer cancels the step when guard is gone (Cline runs a step whose hook is silent)', () => {
    for (const failClosed of [false, true]) {
      const command = cline.installedCommands(cline.install('', { ...pinned, failClosed }))[0] ?? '';
      expect(JSON.parse(readFallback(command)?.reply.stdout ?? '')).toMatchObject({
        cancel: true,
        errorMessage: expect.stringMatching(/^guard: blocked\. This step was not checked: guard's files are gone/),
      });
    }
  });

  it('a command holding quotes and backslashes is read back exactly', () => {
    const odd = `"/opt/n o\\de" "/x/\\"q\\"/hook-entry.cjs" hook cline`;
    expect(commandIn(cline.install('', { ...plain, hookCommand: odd }))).toBe(odd);
  });

  it.for<{ name: string; text: string }>([
    { name: "the person's own PreToolUse.bash", text: '#!/bin/bash\necho "{}"\n' },
    // near miss: guard's first lines, but no command guard wrote
    { name: "guard's mark without a command", text: `${FILE_MARK}\nexit 0\n` },
    { name: "guard's file for another agent", text: cline.install('', plain).replace('hook cline', 'hook qwen') },
  ])('$name: setup refuses to overwrite it, uninstall leaves it', ({ text }) => {
    expect(() => cline.install(text, plain)).toThrow(ConfigError);
    expect(cline.uninstall(text)).toBe(text);
    expect(cline.installedCommands(text)).toEqual([]);
    expect(cline.doctor.timeoutSeconds(text)).toBeUndefined();
  });

  it.for([`"${NODE}" "${SCRIPT}" hook codex`, `${hookCommand} --event PreToolUse`, `${NODE} hook`])(
    'a hook command that is not for cline is refused: %s',
    (command) => {
      expect(() => cline.install('', { ...plain, hookCommand: command })).toThrow(ConfigError);
    },
  );
});

describe("guard doctor, acting like Cline: how it reads a hook's answer", () => {
  it.for<{ stdout: string; exit: number; effect: string }>([
    { stdout: '', exit: 0, effect: 'no-objection' },
    // the exit code is never read
    { stdout: '', exit: 2, effect: 'no-objection' },
    { stdout: '{}', exit: 0, effect: 'no-objection' },
    { stdout: '{"cancel":true,"errorMessage":"guard: blocked."}', exit: 0, effect: 'block' },
    { stdout: '{"overrideInput":{"commands":["exit 1"]},"context":"guard: blocked."}', exit: 1, effect: 'block' },
    // near misses: a cancel that is not true, a review (auto-approved headless), plain text
    { stdout: '{"cancel":false}', exit: 0, effect: 'no-objection' },
    { stdout: '{"review":true}', exit: 0, effect: 'no-objection' },
    { stdout: 'guard: blocked', exit: 0, effect: 'failure' },
  ])('$stdout (exit $exit) → $effect', ({ stdout, exit, effect }) => {
    expect(cline.doctor.readReply(stdout, exit, false).effect).toBe(effect);
  });

  it("its shell step payload is one the hook reads as Cline's own", () => {
    const { event, payload } = cline.doctor.shellCall('git status', '/work/app');
    expect(event).toBe('PreToolUse');
    expect(cline.read(payload, undefined, [])).toMatchObject({
      type: 'step',
      step: { kind: 'shell', command: 'git status', cwd: '/work/app', toolName: 'run_commands' },
    });
  });
});
