import { describe, expect, it } from 'vitest';
import type { HooksOff, Locations } from '../src/index.js';
import { adapters, AGENT_IDS, variablesOff } from '../src/index.js';

// What the agents' own settings do to guard's hooks (read by `guard status` and `guard doctor`):
// text in, findings out, one row per way a setting keeps guard's hooks from running and its near misses.

const where = (env: Record<string, string> = {}): Locations => ({ home: '/home/dev', env, projectRoot: '/work/app' });

/** Runs an agent's check over `texts` (path → text; a path not given is a file that does not exist). */
function check(
  agent: 'claude-code' | 'gemini' | 'copilot' | 'qwen' | 'droid' | 'codex',
  texts: Record<string, string>,
  env: Record<string, string> = {},
) {
  const switches = adapters[agent].hookSwitches;
  if (switches === undefined) throw new Error(`${agent} has no hook switches`);
  const files = switches.files(where(env)).map((path) => ({ path, text: texts[path] }));
  return switches.check(files, where(env));
}

const scopes = (found: readonly HooksOff[]): string[] => found.map((off) => off.scope);

describe('which agents have settings that switch hooks off', () => {
  it('Codex (its hooks feature), Copilot CLI, Claude Code, Gemini CLI, Qwen Code, Factory Droid and Kiro CLI (its agents) do; the others do not', () => {
    expect(AGENT_IDS.filter((id) => adapters[id].hookSwitches !== undefined)).toEqual([
      'codex',
      'copilot',
      'claude-code',
      'gemini',
      'qwen',
      'droid',
      'kiro',
    ]);
  });
  it('OpenCode, Kilo, Qwen Code and Claude Code have variables that do (in their declarations)', () => {
    const named = (id: (typeof AGENT_IDS)[number]): boolean =>
      adapters[id].files.program?.hooksOff.some((item) => 'variable' in item && item.system !== true) === true;
    expect(AGENT_IDS.filter(named)).toEqual(['claude-code', 'opencode', 'qwen', 'kilo']);
  });
  it("Gemini CLI and Qwen Code have variables that move the system settings, and a system install's hooks with them", () => {
    const named = (id: (typeof AGENT_IDS)[number]): boolean =>
      adapters[id].files.program?.hooksOff.some((item) => 'variable' in item && item.system === true) === true;
    expect(AGENT_IDS.filter(named)).toEqual(['gemini', 'qwen']);
  });
});

describe("Copilot CLI: disableAllHooks, also in a cloned repository's settings", () => {
  const USER = '/home/dev/.copilot/settings.json';
  const REPO = '/work/app/.github/copilot/settings.json';
  const LOCAL = '/work/app/.github/copilot/settings.local.json';

  it('reads the user and the repository settings, COPILOT_HOME honoured', () => {
    expect(adapters.copilot.hookSwitches?.files(where())).toEqual([USER, REPO, LOCAL]);
    expect(adapters.copilot.hookSwitches?.files(where({ COPILOT_HOME: '/srv/cp' }))[0]).toBe('/srv/cp/settings.json');
  });

  it.for<{ name: string; texts: Record<string, string>; found: RegExp[] }>([
    {
      name: "a repository's settings",
      texts: { [REPO]: '{"disableAllHooks": true}' },
      found: [/^\/work\/app\/\.github/],
    },
    {
      name: 'the local ones, with a comment',
      texts: { [LOCAL]: '// mine\n{ "disableAllHooks": true }\n' },
      found: [/settings\.local\.json sets "disableAllHooks": true, .*policy hook/],
    },
    { name: "the user's", texts: { [USER]: '{"disableAllHooks": true}' }, found: [/^\/home\/dev\/\.copilot/] },
    // near misses
    { name: 'false', texts: { [REPO]: '{"disableAllHooks": false}' }, found: [] },
    { name: 'nested elsewhere', texts: { [REPO]: '{"hooks": {"disableAllHooks": true}}' }, found: [] },
    { name: 'a file that does not parse', texts: { [REPO]: '{"disableAllHooks": true' }, found: [] },
  ])('$name', ({ texts, found }) => {
    const off = check('copilot', texts);
    expect(off.map((entry) => entry.message)).toEqual(found.map((pattern): unknown => expect.stringMatching(pattern)));
    expect(scopes(off).every((scope) => scope === 'everywhere')).toBe(true);
  });
});

describe('variables that switch hooks off, set in the environment (OpenCode, Qwen Code, Claude Code)', () => {
  it.for<{ agent: (typeof AGENT_IDS)[number]; env: Record<string, string>; system?: true; found: string[] }>([
    { agent: 'opencode', env: {}, found: [] },
    { agent: 'opencode', env: { OPENCODE_PURE: '1' }, found: ['everywhere'] },
    { agent: 'opencode', env: { OPENCODE_PURE: 'TRUE' }, found: ['everywhere'] },
    // any value but an off one counts (the agents read 1, true, yes or on; guard errs towards saying so)
    { agent: 'opencode', env: { OPENCODE_PURE: 'yes' }, found: ['everywhere'] },
    { agent: 'opencode', env: { OPENCODE_DISABLE_PROJECT_CONFIG: 'true' }, found: ['here'] },
    {
      agent: 'opencode',
      env: { OPENCODE_PURE: '1', OPENCODE_DISABLE_PROJECT_CONFIG: '1' },
      found: ['everywhere', 'here'],
    },
    { agent: 'kilo', env: { KILO_PURE: '1' }, found: ['everywhere'] },
    { agent: 'kilo', env: { KILO_DISABLE_PROJECT_CONFIG: 'true' }, found: ['here'] },
    { agent: 'qwen', env: { QWEN_CODE_SAFE_MODE: 'true' }, found: ['everywhere'] },
    { agent: 'qwen', env: { QWEN_CODE_SIMPLE: '1' }, found: ['everywhere'] },
    { agent: 'claude-code', env: { CLAUDE_CODE_SIMPLE: '1' }, found: ['everywhere'] },
    // the system settings moved: only a system install's hooks are left out
    { agent: 'gemini', env: { GEMINI_CLI_SYSTEM_SETTINGS_PATH: '/srv/s.json' }, system: true, found: ['here'] },
    { agent: 'qwen', env: { QWEN_CODE_SYSTEM_SETTINGS_PATH: '/srv/s.json' }, system: true, found: ['here'] },
    { agent: 'gemini', env: { GEMINI_CLI_SYSTEM_SETTINGS_PATH: '/srv/s.json' }, found: [] },
    // near misses: off values, another name, another agent's variable
    { agent: 'opencode', env: { OPENCODE_PURE: '0' }, found: [] },
    { agent: 'opencode', env: { OPENCODE_PURE: '' }, found: [] },
    { agent: 'opencode', env: { OPENCODE_PURE: ' false ' }, found: [] },
    { agent: 'opencode', env: { OPENCODE_PURES: '1' }, found: [] },
    { agent: 'opencode', env: { OPENCODE_DISABLE_PROJECT_CONFIG: 'off' }, found: [] },
    { agent: 'kilo', env: { OPENCODE_PURE: '1' }, found: [] },
    { agent: 'kilo', env: { KILO_PURE: '0' }, found: [] },
    // Kilo's own default plugins only: guard's plugin still loads (test/e2e/kilo.test.ts)
    { agent: 'kilo', env: { KILO_DISABLE_DEFAULT_PLUGINS: '1' }, found: [] },
    { agent: 'opencode', env: { KILO_PURE: '1' }, found: [] },
    { agent: 'qwen', env: { QWEN_CODE_SAFE_MODE: 'no' }, found: [] },
    { agent: 'qwen', env: { OPENCODE_PURE: '1' }, found: [] },
    { agent: 'gemini', env: { GEMINI_CLI_SYSTEM_SETTINGS_PATH: '' }, system: true, found: [] },
    { agent: 'gemini', env: { GEMINI_CLI_SYSTEM_DEFAULTS_PATH: '/srv/s.json' }, found: [] },
    { agent: 'gemini', env: { QWEN_CODE_SYSTEM_SETTINGS_PATH: '/srv/s.json' }, found: [] },
    { agent: 'codex', env: { OPENCODE_PURE: '1', QWEN_CODE_SIMPLE: '1' }, found: [] },
  ])('$agent $env (system: $system) → $found', ({ agent, env, system, found }) => {
    const adapter = adapters[agent];
    const off = variablesOff(adapter.files, adapter.displayName, env, system === true);
    expect(off.map((item) => item.scope)).toEqual(found);
    for (const item of off) expect(item.message).toMatch(/^[A-Z_]+ is set in this environment, so /);
  });
});

describe('Claude Code: disableAllHooks and allowManagedHooksOnly', () => {
  const USER = '/home/dev/.claude/settings.json';
  const PROJECT = '/work/app/.claude/settings.json';
  const LOCAL = '/work/app/.claude/settings.local.json';
  const MANAGED = '/etc/claude-code/managed-settings.json';

  it('reads the user, project, local and managed settings, CLAUDE_CONFIG_DIR honoured', () => {
    expect(adapters['claude-code'].hookSwitches?.files(where())).toEqual([USER, PROJECT, LOCAL, MANAGED]);
    expect(adapters['claude-code'].hookSwitches?.files(where({ CLAUDE_CONFIG_DIR: '/srv/c' }))[0]).toBe(
      '/srv/c/settings.json',
    );
  });

  it.for<{ name: string; texts: Record<string, string>; found: RegExp[] }>([
    {
      name: 'user settings',
      texts: { [USER]: '{"disableAllHooks": true}' },
      found: [/settings\.json sets "disableAllHooks": true/],
    },
    {
      name: 'project-local settings',
      texts: { [LOCAL]: '{\n  "disableAllHooks": true\n}\n' },
      found: [/settings\.local\.json sets/],
    },
    {
      name: 'managed settings: only managed hooks',
      texts: { [MANAGED]: '{"allowManagedHooksOnly": true}' },
      found: [/runs only the hooks of its managed settings/],
    },
    {
      name: 'both, in two files',
      texts: { [USER]: '{"disableAllHooks": true}', [PROJECT]: '{"disableAllHooks": true}' },
      found: [/^\/home\/dev\/\.claude/, /^\/work\/app\/\.claude/],
    },
    // near misses
    { name: 'false', texts: { [USER]: '{"disableAllHooks": false}' }, found: [] },
    { name: 'the string "true"', texts: { [USER]: '{"disableAllHooks": "true"}' }, found: [] },
    { name: 'nested elsewhere', texts: { [USER]: '{"env": {"disableAllHooks": true}}' }, found: [] },
    // Claude Code ignores a file that does not parse: it switches nothing off either
    { name: 'a file Claude Code cannot read', texts: { [USER]: '{"disableAllHooks": true, // x\n}' }, found: [] },
    { name: 'no files at all', texts: {}, found: [] },
  ])('$name', ({ texts, found }) => {
    const off = check('claude-code', texts);
    expect(off.map((entry) => entry.message)).toEqual(found.map((pattern): unknown => expect.stringMatching(pattern)));
    expect(scopes(off).every((scope) => scope === 'everywhere')).toBe(true);
  });
});

describe('Gemini CLI: hooksConfig and folder trust', () => {
  const DEFAULTS = '/etc/gemini-cli/system-defaults.json';
  const USER = '/home/dev/.gemini/settings.json';
  const PROJECT = '/work/app/.gemini/settings.json';
  const SYSTEM = '/etc/gemini-cli/settings.json';
  const TRUSTED = '/home/dev/.gemini/trustedFolders.json';
  const trusted = { [TRUSTED]: '{"/work/app": "TRUST_FOLDER"}' };

  it("reads Gemini CLI's settings in its own order, then its trusted folders; the variables that move them honoured", () => {
    expect(adapters.gemini.hookSwitches?.files(where())).toEqual([DEFAULTS, USER, PROJECT, SYSTEM, TRUSTED]);
    expect(
      adapters.gemini.hookSwitches?.files(
        where({
          GEMINI_CLI_HOME: '/srv/g',
          GEMINI_CLI_SYSTEM_SETTINGS_PATH: '/srv/sys.json',
          GEMINI_CLI_SYSTEM_DEFAULTS_PATH: '/srv/def.json',
          GEMINI_CLI_TRUSTED_FOLDERS_PATH: '/srv/trust.json',
        }),
      ),
    ).toEqual(['/srv/def.json', '/srv/g/.gemini/settings.json', PROJECT, '/srv/sys.json', '/srv/trust.json']);
  });

  it.for<{ name: string; texts: Record<string, string>; env?: Record<string, string>; found: [string, RegExp][] }>([
    {
      name: 'hooks off in the user settings',
      texts: { ...trusted, [USER]: '{"hooksConfig": {"enabled": false}}' },
      found: [['everywhere', /\.gemini\/settings\.json sets "hooksConfig": \{"enabled": false\}/]],
    },
    {
      name: 'hooks off, with comments around',
      texts: { ...trusted, [USER]: '// mine\n{ "hooksConfig": { /* no */ "enabled": false } }' },
      found: [['everywhere', /runs no hooks at all/]],
    },
    {
      name: 'off for the user, on again in the project (the project wins)',
      texts: {
        ...trusted,
        [USER]: '{"hooksConfig": {"enabled": false}}',
        [PROJECT]: '{"hooksConfig": {"enabled": true}}',
      },
      found: [],
    },
    {
      name: 'on for the user, off in the system settings (the system wins)',
      texts: {
        ...trusted,
        [USER]: '{"hooksConfig": {"enabled": true}}',
        [SYSTEM]: '{"hooksConfig": {"enabled": false}}',
      },
      found: [['everywhere', /^\/etc\/gemini-cli\/settings\.json sets/]],
    },
    {
      // what guard setup gemini --system writes: the system settings are merged last
      name: "off for the user, on in the system settings guard's setup --system wrote (the system wins)",
      texts: {
        ...trusted,
        [USER]: '{"hooksConfig": {"enabled": false}}',
        [SYSTEM]: '{"hooks": {}, "hooksConfig": {"enabled": true}}',
      },
      found: [
        [
          'overruled',
          /^\/home\/dev\/\.gemini\/settings\.json sets .*, but \/etc\/gemini-cli\/settings\.json, which wins over it, sets "hooksConfig": \{"enabled": true\}: guard's hooks run/,
        ],
      ],
    },
    {
      // hooksConfig.disabled is the union of every file's: the system settings cannot take a name out
      name: 'guard listed by the user, hooks on in the system settings: still off',
      texts: {
        ...trusted,
        [USER]: '{"hooksConfig": {"disabled": ["guard"]}}',
        [SYSTEM]: '{"hooksConfig": {"enabled": true}}',
      },
      found: [['everywhere', /^\/home\/dev\/\.gemini\/settings\.json lists "guard"/]],
    },
    {
      name: 'guard switched off by name',
      texts: { ...trusted, [PROJECT]: '{"hooksConfig": {"disabled": ["lint", "guard"]}}' },
      found: [['everywhere', /lists "guard" in "hooksConfig.disabled"/]],
    },
    {
      name: 'another hook switched off by name',
      texts: { ...trusted, [USER]: '{"hooksConfig": {"disabled": ["guard-rails"]}}' },
      found: [],
    },
    {
      name: 'hooks on (the default)',
      texts: { ...trusted, [USER]: '{"hooksConfig": {"notifications": true}}' },
      found: [],
    },
    // folder trust: an untrusted folder runs no hooks, user hooks included
    { name: 'no trusted folders at all', texts: {}, found: [['here', /does not trust \/work\/app \(yet\)/]] },
    { name: 'the parent folder trusted', texts: { [TRUSTED]: '{"/work": "TRUST_FOLDER"}' }, found: [] },
    {
      name: "a folder's parent trusted through TRUST_PARENT",
      texts: { [TRUSTED]: '{"/work/app/x": "TRUST_PARENT"}' },
      found: [],
    },
    {
      name: 'trusted above, not trusted here (the longer rule wins)',
      texts: { [TRUSTED]: '{"/work": "TRUST_FOLDER", "/work/app": "DO_NOT_TRUST"}' },
      found: [['here', /does not trust \/work\/app, so/]],
    },
    {
      name: 'a sibling with the same start is not this folder',
      texts: { [TRUSTED]: '{"/work/ap": "TRUST_FOLDER"}' },
      found: [['here', /does not trust/]],
    },
    { name: 'trusted through the environment', texts: {}, env: { GEMINI_CLI_TRUST_WORKSPACE: 'true' }, found: [] },
    {
      name: 'untrusted through the environment, whatever the file says',
      texts: trusted,
      env: { GEMINI_CLI_TRUST_WORKSPACE: 'false' },
      found: [['here', /GEMINI_CLI_TRUST_WORKSPACE/]],
    },
    {
      name: 'folder trust switched off',
      texts: { [USER]: '{"security": {"folderTrust": {"enabled": false}}}' },
      found: [],
    },
  ])('$name', ({ texts, env, found }) => {
    const off = check('gemini', texts, env);
    expect(off.map((entry) => [entry.scope, entry.message])).toEqual(
      found.map(([scope, pattern]): unknown[] => [scope, expect.stringMatching(pattern)]),
    );
  });
});

describe('Qwen Code: disableAllHooks, merged like its other settings (the last file that sets it wins)', () => {
  const DEFAULTS = '/etc/qwen-code/system-defaults.json';
  const USER = '/home/dev/.qwen/settings.json';
  const PROJECT = '/work/app/.qwen/settings.json';
  const SYSTEM = '/etc/qwen-code/settings.json';

  it("reads Qwen Code's settings in its own order; the variables that move them honoured", () => {
    expect(adapters.qwen.hookSwitches?.files(where())).toEqual([DEFAULTS, USER, PROJECT, SYSTEM]);
    expect(
      adapters.qwen.hookSwitches?.files(
        where({
          QWEN_HOME: '/srv/q',
          QWEN_CODE_SYSTEM_SETTINGS_PATH: '/srv/sys.json',
          QWEN_CODE_SYSTEM_DEFAULTS_PATH: '/srv/def.json',
        }),
      ),
    ).toEqual(['/srv/def.json', '/srv/q/settings.json', PROJECT, '/srv/sys.json']);
  });

  it.for<{ name: string; texts: Record<string, string>; found: RegExp[]; scope?: 'overruled' }>([
    {
      name: 'user settings',
      texts: { [USER]: '{"disableAllHooks": true}' },
      found: [/^\/home\/dev\/\.qwen\/settings\.json sets "disableAllHooks": true, so Qwen Code runs no hooks/],
    },
    {
      // a repository's own settings switch off the user's hooks, guard's included
      name: "a project's settings, with comments",
      texts: { [PROJECT]: '// team\n{ "disableAllHooks": /* yes */ true }' },
      found: [/^\/work\/app\/\.qwen\/settings\.json sets/],
    },
    {
      name: 'off for the user, on again in the project (the project wins)',
      texts: { [USER]: '{"disableAllHooks": true}', [PROJECT]: '{"disableAllHooks": false}' },
      found: [],
    },
    {
      name: 'on in the project, off in the system settings (the system wins)',
      texts: { [PROJECT]: '{"disableAllHooks": false}', [SYSTEM]: '{"disableAllHooks": true}' },
      found: [/^\/etc\/qwen-code\/settings\.json sets/],
    },
    {
      // what guard setup qwen --system writes: the system settings are merged last
      name: "off for the user and the project, on in the system settings guard's setup --system wrote",
      texts: {
        [USER]: '{"disableAllHooks": true}',
        [PROJECT]: '{"disableAllHooks": true}',
        [SYSTEM]: '{"hooks": {}, "disableAllHooks": false}',
      },
      found: [
        /^\/home\/dev\/\.qwen\/settings\.json sets .*, but \/etc\/qwen-code/,
        /^\/work\/app\/\.qwen\/settings\.json sets .*, but/,
      ],
      scope: 'overruled',
    },
    // near misses
    { name: 'false', texts: { [USER]: '{"disableAllHooks": false}' }, found: [] },
    {
      name: 'off for the user, the system settings silent',
      texts: { [USER]: '{"disableAllHooks": true}', [SYSTEM]: '{"hooks": {}}' },
      found: [/^\/home\/dev\/\.qwen\/settings\.json sets/],
    },
    { name: 'the string "true"', texts: { [USER]: '{"disableAllHooks": "true"}' }, found: [] },
    { name: 'nested elsewhere', texts: { [USER]: '{"hooks": {"disableAllHooks": true}}' }, found: [] },
    { name: 'a file Qwen Code cannot read', texts: { [USER]: '{"disableAllHooks": true,,}' }, found: [] },
    { name: 'no files at all', texts: {}, found: [] },
  ])('$name', ({ texts, found, scope }) => {
    const off = check('qwen', texts);
    expect(off.map((entry) => entry.message)).toEqual(found.map((pattern): unknown => expect.stringMatching(pattern)));
    expect(scopes(off).every((one) => one === (scope ?? 'everywhere'))).toBe(true);
  });
});

describe('Factory Droid: hooksDisabled in a hooks.json or in `hooks` of a settings file, at any level', () => {
  const USER = '/home/dev/.factory';
  const PROJECT = '/work/app/.factory';

  it("reads the settings.json and hooks.json of both levels, the organisation's and the machine's; FACTORY_HOME_OVERRIDE stands in for the home folder", () => {
    const names = ['settings.json', 'hooks.json'];
    expect(adapters.droid.hookSwitches?.files(where())).toEqual([
      ...names.map((name) => `${USER}/${name}`),
      ...names.map((name) => `${PROJECT}/${name}`),
      `${USER}/org-managed-settings.json`,
      '/etc/factory/settings.json',
      `${USER}/hooks/hooks.json`,
      `${PROJECT}/hooks/hooks.json`,
    ]);
    expect(adapters.droid.hookSwitches?.files(where({ FACTORY_HOME_OVERRIDE: '/srv/fh' }))[0]).toBe(
      '/srv/fh/.factory/settings.json',
    );
  });

  const COMMAND = '/n /s hook droid';
  const GUARD_HOOKS = adapters.droid.install('', { hookCommand: COMMAND, failClosed: false });
  const GUARD_SETTINGS = adapters.droid
    .install('', { hookCommand: COMMAND, failClosed: false, system: true })
    .replace(/,\s*"hooksDisabled": false/, '');
  const PINNED = { '/etc/factory/settings.json': '// org\n{"hooks": {"PreToolUse": [], "hooksDisabled": false}}' };
  it.for<{ name: string; texts: Record<string, string>; found: RegExp[]; scope?: HooksOff['scope'] }>([
    {
      name: "the user's hooks.json",
      texts: { [`${USER}/hooks.json`]: '{"hooksDisabled": true}' },
      found: [/^\/home\/dev\/\.factory\/hooks\.json sets "hooksDisabled": true, so Factory Droid runs no hooks/],
    },
    {
      // seen on 0.215.0: a project's file switches off the user's hooks, guard's included
      name: "a project's hooks.json, with comments",
      texts: { [`${PROJECT}/hooks.json`]: '// team\n{ "PreToolUse": [], "hooksDisabled": /* yes */ true }' },
      found: [/^\/work\/app\/\.factory\/hooks\.json sets "hooksDisabled": true/],
    },
    {
      name: "a project's settings.json",
      texts: { [`${PROJECT}/settings.json`]: '{"hooks": {"hooksDisabled": true}}' },
      found: [/^\/work\/app\/\.factory\/settings\.json sets "hooks": \{"hooksDisabled": true\}/],
    },
    {
      name: "the machine's settings",
      texts: { '/etc/factory/settings.json': '{"hooks": {"hooksDisabled": true}}' },
      found: [/^\/etc\/factory\/settings\.json sets/],
    },
    {
      // a project's false keeps the hooks on in its own folder only: the user's true still counts
      name: "the user's true under a project's false",
      texts: {
        [`${USER}/hooks.json`]: '{"hooksDisabled": true}',
        [`${PROJECT}/settings.json`]: '{"hooks": {"hooksDisabled": false}}',
      },
      found: [/^\/home\/dev\/\.factory\/hooks\.json sets "hooksDisabled": true, so/],
    },
    {
      name: "the organisation's file a variable names",
      texts: { '/srv/org.json': '{"hooks": {"hooksDisabled": true}}' },
      found: [/^\/srv\/org\.json sets "hooks": \{"hooksDisabled": true\}/],
    },
    // seen on 0.215.0: the machine's false wins over the user's and the project's true
    {
      name: "the user's and the project's true under the machine's false",
      texts: {
        ...PINNED,
        [`${USER}/hooks.json`]: '{"hooksDisabled": true}',
        [`${PROJECT}/settings.json`]: '{"hooks": {"hooksDisabled": true}}',
      },
      found: [
        /^\/home\/dev\/\.factory\/hooks\.json sets "hooksDisabled": true, but \/etc\/factory\/settings\.json, which wins over it, sets "hooks": \{"hooksDisabled": false\}: guard's hooks run all the same\.$/,
        /^\/work\/app\/\.factory\/settings\.json sets "hooks": \{"hooksDisabled": true\}, but/,
      ],
      scope: 'overruled',
    },
    // near misses
    { name: "the machine's false alone", texts: PINNED, found: [] },
    {
      name: "the machine's false as a string",
      texts: {
        '/etc/factory/settings.json': '{"hooks": {"hooksDisabled": "false"}}',
        [`${USER}/hooks.json`]: '{"hooksDisabled": true}',
      },
      found: [/^\/home\/dev\/\.factory\/hooks\.json sets "hooksDisabled": true, so/],
    },
    { name: 'false', texts: { [`${USER}/hooks.json`]: '{"hooksDisabled": false}' }, found: [] },
    // seen on 0.215.0: neither turned the machine's hooks off
    {
      name: 'at the root of a settings.json',
      texts: { [`${USER}/settings.json`]: '{"hooksDisabled": true}' },
      found: [],
    },
    {
      name: 'in a settings.local.json',
      texts: { [`${USER}/settings.local.json`]: '{"hooks": {"hooksDisabled": true}}' },
      found: [],
    },
    { name: 'the string "true"', texts: { [`${USER}/hooks.json`]: '{"hooksDisabled": "true"}' }, found: [] },
    { name: "Claude Code's name for it", texts: { [`${USER}/hooks.json`]: '{"disableAllHooks": true}' }, found: [] },
    {
      name: 'nested under another key',
      texts: { [`${USER}/settings.json`]: '{"ui": {"hooksDisabled": true}}' },
      found: [],
    },
    { name: 'a file Droid cannot read', texts: { [`${USER}/hooks.json`]: '{"hooksDisabled": true,,}' }, found: [] },
    { name: 'no files at all', texts: {}, found: [] },
    // guard's groups put by hand where the same folder's hooks.json shadows them (seen on 0.215.0)
    {
      name: "guard's PreToolUse in the user's settings.json, hooks.json listing PreToolUse",
      texts: { [`${USER}/settings.json`]: GUARD_SETTINGS, [`${USER}/hooks.json`]: '{ "PreToolUse": [] }' },
      found: [
        /^\/home\/dev\/\.factory\/settings\.json holds guard's hook for PreToolUse, but \/home\/dev\/\.factory\/hooks\.json lists that event too, and Factory Droid runs its list instead; run `guard setup droid`/,
      ],
    },
    {
      name: "guard's groups in the project's settings.json, hooks.json listing two of their events",
      texts: {
        [`${PROJECT}/settings.json`]: GUARD_SETTINGS,
        [`${PROJECT}/hooks.json`]: '{ "PreToolUse": [], "SessionStart": [] }',
      },
      found: [
        /^\/work\/app\/\.factory\/settings\.json holds guard's hook for PreToolUse, SessionStart, .*those events too.*`guard setup droid --project`/,
      ],
      scope: 'here',
    },
    {
      name: "guard's hooks in an older hooks/hooks.json beside an empty hooks.json",
      texts: { [`${USER}/hooks/hooks.json`]: GUARD_HOOKS, [`${USER}/hooks.json`]: '' },
      found: [
        /^\/home\/dev\/\.factory\/hooks\/hooks\.json holds guard's hook, but Factory Droid reads no hooks\/hooks\.json beside/,
      ],
    },
    // near misses: the lists guard's stand in are the ones Droid runs
    {
      name: "guard's in settings.json, no hooks.json",
      texts: { [`${USER}/settings.json`]: GUARD_SETTINGS },
      found: [],
    },
    {
      name: "guard's in settings.json, hooks.json with a Stop list alone",
      texts: { [`${USER}/settings.json`]: GUARD_SETTINGS, [`${USER}/hooks.json`]: '{ "Stop": [] }' },
      found: [],
    },
    {
      name: "guard's in settings.json, an empty hooks.json (it does not parse)",
      texts: { [`${USER}/settings.json`]: GUARD_SETTINGS, [`${USER}/hooks.json`]: '' },
      found: [],
    },
    {
      name: "guard's in both",
      texts: { [`${USER}/settings.json`]: GUARD_SETTINGS, [`${USER}/hooks.json`]: GUARD_HOOKS },
      found: [],
    },
    {
      name: "guard's in an older hooks/hooks.json, no hooks.json",
      texts: { [`${USER}/hooks/hooks.json`]: GUARD_HOOKS },
      found: [],
    },
  ])('$name', ({ texts, found, scope }) => {
    const off = check('droid', texts, { FACTORY_ORG_MANAGED_SETTINGS_LOCAL_PATH: '/srv/org.json' });
    expect(off.map((entry) => entry.message)).toEqual(found.map((pattern): unknown => expect.stringMatching(pattern)));
    expect(scopes(off).every((one) => one === (scope ?? 'everywhere'))).toBe(true);
  });
});

describe("Codex: the hooks feature switched off, unless the system's requirements pin it on", () => {
  const USER = '/home/dev/.codex/config.toml';
  const PROJECT = '/work/app/.codex/config.toml';
  const REQUIRED = '/etc/codex/requirements.toml';
  const OFF = '[features]\nhooks = false\n';

  it('reads the user config ($CODEX_HOME honoured), the project config and the requirements', () => {
    expect(adapters.codex.hookSwitches?.files(where())).toEqual([USER, PROJECT, REQUIRED]);
    expect(adapters.codex.hookSwitches?.files(where({ CODEX_HOME: '/srv/cx' }))[0]).toBe('/srv/cx/config.toml');
  });

  it.for<{ name: string; texts: Record<string, string>; found: [string, RegExp][] }>([
    {
      name: "the user's",
      texts: { [USER]: OFF },
      found: [['everywhere', /config\.toml sets \[features\] hooks = false, so Codex runs no hooks at all/]],
    },
    {
      name: 'the old name, dotted',
      texts: { [USER]: 'features.codex_hooks = false\n' },
      found: [['everywhere', /runs no hooks at all/]],
    },
    {
      name: "the user's, inline",
      texts: { [USER]: 'features = { hooks = false }\n' },
      found: [['everywhere', /runs no hooks at all/]],
    },
    { name: "a project's", texts: { [PROJECT]: OFF }, found: [['here', /no hooks in this project once it trusts it/]] },
    {
      name: "the user's and a project's, pinned on",
      texts: { [USER]: OFF, [PROJECT]: OFF, [REQUIRED]: '# IT\n[features]\nhooks = true\n' },
      found: [
        [
          'overruled',
          /config\.toml sets \[features\] hooks = false, but \/etc\/codex\/requirements\.toml, which wins over it/,
        ],
        ['overruled', /\.codex\/config\.toml sets/],
      ],
    },
    {
      name: 'the requirements, pinned off',
      texts: { [REQUIRED]: OFF },
      found: [['everywhere', /runs no hooks for any user/]],
    },
    // near misses
    { name: 'on', texts: { [USER]: '[features]\nhooks = true\n', [PROJECT]: '[features]\nhooks = true\n' }, found: [] },
    { name: 'another feature off', texts: { [USER]: '[features]\nweb_search = false\n' }, found: [] },
    { name: 'hooks = false in another table', texts: { [USER]: '[tui]\nhooks = false\n' }, found: [] },
    { name: 'a file that is not TOML', texts: { [USER]: '[features\nhooks = false\n' }, found: [] },
    { name: 'pinned on, nothing switched off', texts: { [REQUIRED]: '[features]\nhooks = true\n' }, found: [] },
  ])('$name', ({ texts, found }) => {
    const said = check('codex', texts);
    expect(said.map((off) => off.scope)).toEqual(found.map(([scope]) => scope));
    said.forEach((off, index) => expect(off.message).toMatch(found[index]?.[1] ?? /^$/));
  });
});
