import { describe, expect, it } from 'vitest';
import { ConfigError } from '../src/adapter.js';
import type { InstallOptions, Locations } from '../src/adapter.js';
import { plainCommand, readFallback } from '../src/fallback.js';
import { adapters } from '../src/index.js';
import { commandIn, PLUGIN_MARK, timeoutIn } from '../src/opencode/plugin.js';

const { opencode } = adapters;
const NODE = '/usr/local/bin/node';
const SCRIPT = "/home/dev/.npm/lib/node_modules/guard's/dist/hook-entry.cjs";
const hookCommand = `"${NODE}" "${SCRIPT}" hook opencode`;
const plain: InstallOptions = { hookCommand, failClosed: false };
const pinned: InstallOptions = {
  ...plain,
  fallback: { node: NODE, script: SCRIPT, home: '/home/dev/.local/state/guard' },
};
const where = (env: Record<string, string> = {}): Locations => ({ home: '/home/dev', env, projectRoot: '/work/app' });

describe('guard setup opencode: the plugin file guard creates and removes whole', () => {
  it.for<{ name: string; env?: Record<string, string>; level: 'user' | 'project'; path: string }>([
    { name: 'user', level: 'user', path: '/home/dev/.config/opencode/plugins/guard.js' },
    {
      name: 'user, XDG_CONFIG_HOME set',
      env: { XDG_CONFIG_HOME: '/srv/xdg' },
      level: 'user',
      path: '/srv/xdg/opencode/plugins/guard.js',
    },
    // OPENCODE_CONFIG_DIR adds a folder, it does not move the person's own
    {
      name: 'user, OPENCODE_CONFIG_DIR set',
      env: { OPENCODE_CONFIG_DIR: '/srv/more' },
      level: 'user',
      path: '/home/dev/.config/opencode/plugins/guard.js',
    },
    {
      name: 'user, empty XDG_CONFIG_HOME',
      env: { XDG_CONFIG_HOME: '' },
      level: 'user',
      path: '/home/dev/.config/opencode/plugins/guard.js',
    },
    { name: 'project', level: 'project', path: '/work/app/.opencode/plugins/guard.js' },
  ])('$name → $path', ({ env, level, path }) => {
    expect(opencode.configPath(level, where(env))).toBe(path);
  });

  it.for([
    { name: 'plain command', options: plain },
    { name: 'command with its own answer', options: pinned },
    { name: 'fail-closed', options: { ...pinned, failClosed: true } },
  ])('$name: created from nothing, the same on every setup, removed whole', ({ options }) => {
    const text = opencode.install('', options);
    expect(text.startsWith(PLUGIN_MARK)).toBe(true);
    expect(opencode.install(text, options)).toBe(text);
    // a command per event: the same plain command, each with its event's own answer when guard is gone
    const step = opencode.installedCommand(text, 'tool.execute.before');
    const message = opencode.installedCommand(text, 'chat.message');
    expect(opencode.installedCommands(text)).toEqual([...new Set([step, message])]);
    expect(plainCommand(message ?? '')).toBe(plainCommand(step ?? ''));
    expect(message === step).toBe(options.fallback === undefined);
    expect(opencode.installedCommand(text, 'PreToolUse')).toBeUndefined();
    expect(timeoutIn(text)).toBe(opencode.files.hookTimeout);
    expect(opencode.doctor.timeoutSeconds(text)).toBe(opencode.files.hookTimeout);
    expect(opencode.uninstall(text)).toBe('');
    // the file is a module both loaders read: a default export with id, server and setup
    expect(text).toMatch(/^export default \{ id: 'guard', server, setup \};$/m);
  });

  it('the command with its own answer blocks the step when guard is gone (OpenCode has no ask)', () => {
    const command = opencode.installedCommands(opencode.install('', pinned))[0] ?? '';
    const reply = readFallback(command)?.reply;
    expect(JSON.parse(reply?.stdout ?? '')).toMatchObject({
      decision: 'block',
      reason: expect.stringMatching(/^guard: /),
    });
  });

  it('a command holding quotes, backslashes and newlines-free shell text is read back exactly', () => {
    const odd = `"/opt/n o\\de" "/x/\\"q\\"/hook-entry.cjs" hook opencode`;
    expect(commandIn(opencode.install('', { ...plain, hookCommand: odd }))).toBe(odd);
  });

  it.for<{ name: string; text: string }>([
    {
      name: 'a plugin of the person named guard.js',
      text: 'export default { id: "mine", server: async () => ({}) };\n',
    },
    // near miss: guard's first line, but no command guard wrote
    { name: "guard's mark without a command", text: `${PLUGIN_MARK}\nconsole.log(1);\n` },
    // another agent's command in guard's form
    {
      name: "guard's plugin for another agent",
      text: opencode.install('', plain).replaceAll('hook opencode', 'hook kilo'),
    },
  ])('$name: setup refuses to overwrite it, uninstall leaves it', ({ text }) => {
    expect(() => opencode.install(text, plain)).toThrow(ConfigError);
    expect(opencode.uninstall(text)).toBe(text);
    expect(opencode.installedCommands(text)).toEqual([]);
    expect(opencode.installedCommand(text, 'chat.message')).toBeUndefined();
  });

  it.for([`"${NODE}" "${SCRIPT}" hook codex`, `${hookCommand} --event chat.message`, `${NODE} hook`])(
    'a hook command that is not for opencode is refused: %s',
    (command) => {
      expect(() => opencode.install('', { ...plain, hookCommand: command })).toThrow(ConfigError);
    },
  );
});
