import { describe, expect, it } from 'vitest';
import { ConfigError } from '../src/adapter.js';
import type { InstallOptions, Locations } from '../src/adapter.js';
import { adapters } from '../src/index.js';
import { PLUGIN_MARK, timeoutIn } from '../src/opencode/plugin.js';

const { kilo, opencode } = adapters;
const NODE = '/usr/local/bin/node';
const SCRIPT = "/home/dev/.npm/lib/node_modules/guard's/dist/hook-entry.cjs";
const hookCommand = `"${NODE}" "${SCRIPT}" hook kilo`;
const plain: InstallOptions = { hookCommand, failClosed: false };
const where = (env: Record<string, string> = {}): Locations => ({ home: '/home/dev', env, projectRoot: '/work/app' });

// Kilo Code CLI takes OpenCode's plugin file (opencode.config.test.ts has its every case) in its own folders.
describe("guard setup kilo: OpenCode's plugin file, in Kilo's folders", () => {
  it.for<{ name: string; env?: Record<string, string>; level: 'user' | 'project'; path: string }>([
    { name: 'user', level: 'user', path: '/home/dev/.config/kilo/plugins/guard.js' },
    {
      name: 'user, XDG_CONFIG_HOME set',
      env: { XDG_CONFIG_HOME: '/srv/xdg' },
      level: 'user',
      path: '/srv/xdg/kilo/plugins/guard.js',
    },
    // KILO_CONFIG_DIR adds a folder, it does not move the person's own; OpenCode's variable is not Kilo's
    {
      name: 'user, KILO_CONFIG_DIR set',
      env: { KILO_CONFIG_DIR: '/srv/more' },
      level: 'user',
      path: '/home/dev/.config/kilo/plugins/guard.js',
    },
    {
      name: 'user, OPENCODE_CONFIG_DIR set',
      env: { OPENCODE_CONFIG_DIR: '/srv/more' },
      level: 'user',
      path: '/home/dev/.config/kilo/plugins/guard.js',
    },
    // a project's .kilo (Kilo also reads .kilocode, its older name; .kilo wins where both say the same)
    { name: 'project', level: 'project', path: '/work/app/.kilo/plugins/guard.js' },
  ])('$name → $path', ({ env, level, path }) => {
    expect(kilo.configPath(level, where(env))).toBe(path);
  });

  it('created from nothing, the same on every setup, removed whole; the step and message commands are Kilo’s', () => {
    const text = kilo.install('', plain);
    expect(text.startsWith(PLUGIN_MARK)).toBe(true);
    expect(kilo.install(text, plain)).toBe(text);
    expect(kilo.installedCommands(text)).toEqual([hookCommand]);
    expect(kilo.installedCommand(text, 'tool.execute.before')).toBe(hookCommand);
    expect(kilo.installedCommand(text, 'chat.message')).toBe(hookCommand);
    expect(timeoutIn(text)).toBe(kilo.files.hookTimeout);
    expect(text).toContain('Kilo Code CLI');
    expect(kilo.uninstall(text)).toBe('');
  });

  it("OpenCode's plugin is not Kilo's, nor Kilo's OpenCode's: setup refuses to overwrite, uninstall leaves it", () => {
    const theirs = opencode.install('', { ...plain, hookCommand: hookCommand.replace('hook kilo', 'hook opencode') });
    expect(() => kilo.install(theirs, plain)).toThrow(ConfigError);
    expect(kilo.uninstall(theirs)).toBe(theirs);
    expect(kilo.installedCommands(theirs)).toEqual([]);
    const mine = kilo.install('', plain);
    expect(opencode.uninstall(mine)).toBe(mine);
    expect(opencode.installedCommands(mine)).toEqual([]);
  });

  it.for([
    `"${NODE}" "${SCRIPT}" hook opencode`,
    `${hookCommand} --event chat.message`,
    `"${NODE}" "${SCRIPT}" hook kilocode`,
  ])('a hook command that is not for kilo is refused: %s', (command) => {
    expect(() => kilo.install('', { ...plain, hookCommand: command })).toThrow(ConfigError);
  });
});
