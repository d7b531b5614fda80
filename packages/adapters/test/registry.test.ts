import { describe, expect, it } from 'vitest';
import type { AgentId, Locations, McpServer } from '../src/index.js';
import { adapters, AGENT_IDS, agentId, AGENTS, McpConfigError } from '../src/index.js';
import { jsonServers } from '../src/scan.js';

const HOME = '/home/dev';
const where = (env: Record<string, string> = {}): Locations => ({ home: HOME, env, projectRoot: '/work/app' });

describe('the registry: one list of agents', () => {
  it('AGENTS, AGENT_IDS and adapters name the same agents, in the same order, each under its own id', () => {
    expect(AGENT_IDS).toEqual([
      'codex',
      'cursor',
      'antigravity',
      'copilot',
      'claude-code',
      'gemini',
      'opencode',
      'qwen',
      'windsurf',
      'droid',
      'cline',
      'kilo',
      'crush',
      'auggie',
      'kiro',
    ]);
    // the ids stand apart from the registry (ids.ts, what the CLI starts with): the same, in its order
    expect(Object.keys(AGENTS)).toEqual(AGENT_IDS);
    expect(Object.keys(adapters)).toEqual(AGENT_IDS);
    for (const id of AGENT_IDS) {
      expect(AGENTS[id].id).toBe(id);
      expect(adapters[id].id).toBe(id);
    }
  });

  it.for(AGENT_IDS)('%s: the whole adapter is the agent the hook loads, plus what setup needs', (id) => {
    const agent = AGENTS[id];
    const adapter = adapters[id];
    for (const key of Object.keys(agent) as (keyof typeof agent)[]) expect(adapter[key], key).toBe(agent[key]);
    expect(typeof adapter.install).toBe('function');
    expect(typeof adapter.doctor.readReply).toBe('function');
  });

  it.for(AGENT_IDS)('%s: the main step event is one guard registers, and doctor sends a step event', (id) => {
    const adapter = adapters[id];
    expect(adapter.capabilities.events).toContain(adapter.stepEvents[0]);
    expect(adapter.stepEvents).toContain(adapter.doctor.shellCall('true', '/tmp').event);
  });

  it.for([
    { name: 'codex', want: 'codex' },
    { name: 'copilot', want: 'copilot' },
    { name: 'Codex', want: undefined },
    { name: 'claude-code', want: 'claude-code' },
    { name: 'gemini', want: 'gemini' },
    { name: 'opencode', want: 'opencode' },
    { name: 'open-code', want: undefined },
    { name: 'kilo', want: 'kilo' },
    { name: 'kilocode', want: undefined },
    { name: 'kilo-code', want: undefined },
    { name: 'qwen', want: 'qwen' },
    { name: 'qwen-code', want: undefined },
    { name: 'droid', want: 'droid' },
    { name: 'factory', want: undefined },
    { name: 'cline', want: 'cline' },
    { name: 'auggie', want: 'auggie' },
    { name: 'augment', want: undefined },
    { name: 'Auggie', want: undefined },
    { name: 'Cline', want: undefined },
    { name: 'cline-cli', want: undefined },
    { name: 'crush', want: 'crush' },
    { name: 'Crush', want: undefined },
    { name: 'charm-crush', want: undefined },
    { name: 'kiro', want: 'kiro' },
    { name: 'kiro-cli', want: undefined },
    { name: 'Kiro', want: undefined },
    { name: 'claude', want: undefined },
    { name: 'claudeCode', want: undefined },
    { name: 'toString', want: undefined },
    { name: '', want: undefined },
  ])('agentId($name) → $want', ({ name, want }) => {
    expect(agentId(name)).toBe(want);
  });

  it.for<{ id: AgentId; needsTrust: boolean; after: RegExp; trust: boolean }>([
    { id: 'codex', needsTrust: true, after: /^start a new Codex session/, trust: true },
    { id: 'cursor', needsTrust: true, after: /^start a new Cursor session/, trust: false },
    { id: 'antigravity', needsTrust: false, after: /^quit Antigravity completely/, trust: false },
    { id: 'copilot', needsTrust: true, after: /^start a new GitHub Copilot session/, trust: false },
    { id: 'claude-code', needsTrust: true, after: /^start a new Claude Code session/, trust: false },
    { id: 'gemini', needsTrust: true, after: /^start a new Gemini CLI session/, trust: false },
    { id: 'opencode', needsTrust: false, after: /^start a new OpenCode session/, trust: false },
    { id: 'qwen', needsTrust: true, after: /^start a new Qwen Code session/, trust: false },
    { id: 'windsurf', needsTrust: false, after: /^reload the Windsurf window/, trust: false },
    { id: 'droid', needsTrust: false, after: /^start a new Droid session/, trust: false },
    { id: 'cline', needsTrust: false, after: /^start a new Cline task/, trust: false },
    { id: 'kilo', needsTrust: false, after: /^start a new Kilo Code CLI session/, trust: false },
    { id: 'crush', needsTrust: false, after: /^start Crush again/, trust: false },
    { id: 'auggie', needsTrust: false, after: /^start a new Auggie session/, trust: false },
    { id: 'kiro', needsTrust: false, after: /^start a new Kiro chat/, trust: false },
  ])('$id: project trust $needsTrust, records of trust $trust', ({ id, needsTrust, after, trust }) => {
    expect(adapters[id].projectNeedsTrust).toBe(needsTrust);
    expect(adapters[id].afterUninstall).toMatch(after);
    expect(adapters[id].trust !== undefined).toBe(trust);
  });
});

// the folders of agents, commands and skills OpenCode reads in each of its config folders
const SUBFOLDERS = ['agent', 'agents', 'command', 'commands', 'skill', 'skills'];
/** What OpenCode's chat-start scan reads with no variable set. */
const OPENCODE_DEFAULT = {
  files: [`${HOME}/.config/opencode/AGENTS.md`],
  folders: [
    ...SUBFOLDERS.map((sub) => `${HOME}/.config/opencode/${sub}`),
    ...SUBFOLDERS.map((sub) => `/work/app/.opencode/${sub}`),
  ],
  mcp: [
    `${HOME}/.config/opencode/opencode.json`,
    `${HOME}/.config/opencode/opencode.jsonc`,
    '/work/app/opencode.json',
    '/work/app/opencode.jsonc',
    '/work/app/.opencode/opencode.json',
    '/work/app/.opencode/opencode.jsonc',
  ],
};

/** What Crush's chat-start scan reads, with its config folder at `dir` and the XDG config folder at `config`. */
function crushReads(dir: string, config: string): { files: string[]; folders: string[]; mcp: string[] } {
  const context = ['CRUSH.md', 'CRUSH.local.md', 'crush.md', 'crush.local.md', 'Crush.md', 'Crush.local.md'];
  return {
    files: [`${dir}/CRUSH.md`, `${config}/AGENTS.md`, ...context.map((name) => `/work/app/${name}`)],
    folders: [`${dir}/skills`, `${config}/agents/skills`, '/work/app/.crush/skills'],
    mcp: [`${dir}/crush.json`, '/work/app/crush.json', '/work/app/.crush.json'],
  };
}

/** The rules, workflows and skills Cline reads, with its folder at `dir`. */
function clineReads(dir: string): { files: string[]; folders: string[] } {
  return {
    files: [`${HOME}/.agents/AGENTS.md`, '/work/app/.clinerules'],
    folders: [
      ...['rules', 'workflows', 'skills'].map((sub) => `${dir}/${sub}`),
      `${HOME}/Cline/Rules`,
      `${HOME}/Documents/Cline/Rules`,
      `${HOME}/Documents/Cline/Workflows`,
      '/work/app/.clinerules',
      '/work/app/.clinerules/workflows',
      '/work/app/.clinerules/skills',
      '/work/app/.cline/rules',
      '/work/app/.cline/workflows',
      '/work/app/.cline/skills',
    ],
  };
}

describe('what the chat-start scan reads, per agent', () => {
  it.for<{ id: AgentId; env?: Record<string, string>; files: string[]; folders: string[]; mcp: string[] }>([
    {
      id: 'codex',
      files: [`${HOME}/.codex/AGENTS.md`, `${HOME}/.codex/AGENTS.override.md`],
      folders: [`${HOME}/.codex/skills`, `${HOME}/.agents/skills`, `${HOME}/.codex/memories`],
      mcp: [`${HOME}/.codex/config.toml`],
    },
    {
      id: 'codex',
      env: { CODEX_HOME: '/srv/codex', COPILOT_HOME: '/srv/copilot' },
      files: ['/srv/codex/AGENTS.md', '/srv/codex/AGENTS.override.md'],
      folders: ['/srv/codex/skills', `${HOME}/.agents/skills`, '/srv/codex/memories'],
      mcp: ['/srv/codex/config.toml'],
    },
    {
      // an empty variable counts as unset
      id: 'codex',
      env: { CODEX_HOME: '' },
      files: [`${HOME}/.codex/AGENTS.md`, `${HOME}/.codex/AGENTS.override.md`],
      folders: [`${HOME}/.codex/skills`, `${HOME}/.agents/skills`, `${HOME}/.codex/memories`],
      mcp: [`${HOME}/.codex/config.toml`],
    },
    {
      id: 'cursor',
      env: { CODEX_HOME: '/srv/codex' },
      files: [],
      folders: [`${HOME}/.cursor/rules`],
      mcp: [`${HOME}/.cursor/mcp.json`],
    },
    {
      id: 'antigravity',
      files: [`${HOME}/.gemini/GEMINI.md`],
      folders: [`${HOME}/.gemini/antigravity/knowledge`],
      mcp: [`${HOME}/.gemini/antigravity/mcp_config.json`],
    },
    {
      id: 'copilot',
      files: [`${HOME}/.copilot/copilot-instructions.md`],
      folders: [`${HOME}/.copilot/instructions`, `${HOME}/.copilot/skills`],
      mcp: [`${HOME}/.copilot/mcp-config.json`],
    },
    {
      id: 'copilot',
      env: { COPILOT_HOME: '/srv/copilot', CODEX_HOME: '/srv/codex' },
      files: ['/srv/copilot/copilot-instructions.md'],
      folders: ['/srv/copilot/instructions', '/srv/copilot/skills'],
      mcp: ['/srv/copilot/mcp-config.json'],
    },
    {
      id: 'claude-code',
      files: [`${HOME}/.claude/CLAUDE.md`],
      folders: [
        `${HOME}/.claude/rules`,
        `${HOME}/.claude/skills`,
        `${HOME}/.claude/agents`,
        `${HOME}/.claude/commands`,
        // Claude Code's own notes on this project (/work/app)
        `${HOME}/.claude/projects/-work-app/memory`,
      ],
      mcp: [`${HOME}/.claude.json`, '/work/app/.mcp.json'],
    },
    {
      id: 'claude-code',
      env: { CLAUDE_CONFIG_DIR: '/srv/claude' },
      files: ['/srv/claude/CLAUDE.md'],
      folders: [
        '/srv/claude/rules',
        '/srv/claude/skills',
        '/srv/claude/agents',
        '/srv/claude/commands',
        '/srv/claude/projects/-work-app/memory',
      ],
      mcp: ['/srv/claude/.claude.json', '/work/app/.mcp.json'],
    },
    {
      id: 'gemini',
      files: [`${HOME}/.gemini/GEMINI.md`],
      folders: [`${HOME}/.gemini/skills`, `${HOME}/.gemini/agents`, `${HOME}/.agents/skills`],
      mcp: [`${HOME}/.gemini/settings.json`, '/work/app/.gemini/settings.json'],
    },
    {
      id: 'gemini',
      env: { GEMINI_CLI_HOME: '/srv/gem' },
      files: ['/srv/gem/.gemini/GEMINI.md'],
      folders: ['/srv/gem/.gemini/skills', '/srv/gem/.gemini/agents', '/srv/gem/.agents/skills'],
      mcp: ['/srv/gem/.gemini/settings.json', '/work/app/.gemini/settings.json'],
    },
    {
      id: 'opencode',
      ...OPENCODE_DEFAULT,
    },
    {
      // XDG_CONFIG_HOME moves its folder; OPENCODE_CONFIG_DIR adds one (an empty one counts as unset)
      id: 'opencode',
      env: { XDG_CONFIG_HOME: '/srv/xdg', OPENCODE_CONFIG_DIR: '/srv/more' },
      files: ['/srv/xdg/opencode/AGENTS.md'],
      folders: [
        ...SUBFOLDERS.map((sub) => `/srv/xdg/opencode/${sub}`),
        ...SUBFOLDERS.map((sub) => `/srv/more/${sub}`),
        ...SUBFOLDERS.map((sub) => `/work/app/.opencode/${sub}`),
      ],
      mcp: [
        '/srv/xdg/opencode/opencode.json',
        '/srv/xdg/opencode/opencode.jsonc',
        '/srv/more/opencode.json',
        '/srv/more/opencode.jsonc',
        '/work/app/opencode.json',
        '/work/app/opencode.jsonc',
        '/work/app/.opencode/opencode.json',
        '/work/app/.opencode/opencode.jsonc',
      ],
    },
    {
      id: 'opencode',
      env: { OPENCODE_CONFIG_DIR: '' },
      ...OPENCODE_DEFAULT,
    },
    {
      // Kilo: its XDG folder, its older home folders, KILO_CONFIG_DIR, a project's .kilo and .kilocode;
      // kilo.json(c) and OpenCode's names for config files (OPENCODE_CONFIG_DIR is not Kilo's)
      id: 'kilo',
      env: { KILO_CONFIG_DIR: '/srv/more', OPENCODE_CONFIG_DIR: '/srv/not-kilo' },
      files: [`${HOME}/.config/kilo/AGENTS.md`],
      folders: [
        `${HOME}/.config/kilo`,
        `${HOME}/.kilo`,
        `${HOME}/.kilocode`,
        '/srv/more',
        '/work/app/.kilo',
        '/work/app/.kilocode',
      ].flatMap((dir) => SUBFOLDERS.map((sub) => `${dir}/${sub}`)),
      mcp: [
        `${HOME}/.config/kilo`,
        `${HOME}/.kilo`,
        `${HOME}/.kilocode`,
        '/srv/more',
        '/work/app',
        '/work/app/.kilo',
        '/work/app/.kilocode',
      ].flatMap((dir) =>
        ['kilo.json', 'kilo.jsonc', 'opencode.json', 'opencode.jsonc'].map((name) => `${dir}/${name}`),
      ),
    },
    {
      id: 'qwen',
      files: [`${HOME}/.qwen/QWEN.md`, `${HOME}/.qwen/output-language.md`],
      folders: [`${HOME}/.qwen/skills`, `${HOME}/.qwen/agents`, `${HOME}/.qwen/commands`],
      mcp: [`${HOME}/.qwen/settings.json`, '/work/app/.qwen/settings.json'],
    },
    {
      id: 'qwen',
      env: { QWEN_HOME: '/srv/qwen', GEMINI_CLI_HOME: '/srv/gem' },
      files: ['/srv/qwen/QWEN.md', '/srv/qwen/output-language.md'],
      folders: ['/srv/qwen/skills', '/srv/qwen/agents', '/srv/qwen/commands'],
      mcp: ['/srv/qwen/settings.json', '/work/app/.qwen/settings.json'],
    },
    {
      id: 'windsurf',
      files: [`${HOME}/.codeium/windsurf/memories/global_rules.md`],
      folders: [`${HOME}/.codeium/windsurf/memories`],
      mcp: [`${HOME}/.codeium/windsurf/mcp_config.json`],
    },
    {
      id: 'droid',
      files: [`${HOME}/.factory/AGENTS.md`],
      folders: [`${HOME}/.factory/skills`, `${HOME}/.factory/droids`, `${HOME}/.factory/commands`],
      mcp: [`${HOME}/.factory/mcp.json`, '/work/app/.factory/mcp.json'],
    },
    {
      // the variable stands in for the home folder: the .factory folder is in it
      id: 'droid',
      env: { FACTORY_HOME_OVERRIDE: '/srv/fh' },
      files: ['/srv/fh/.factory/AGENTS.md'],
      folders: ['/srv/fh/.factory/skills', '/srv/fh/.factory/droids', '/srv/fh/.factory/commands'],
      mcp: ['/srv/fh/.factory/mcp.json', '/work/app/.factory/mcp.json'],
    },
    {
      id: 'droid',
      env: { FACTORY_HOME_OVERRIDE: '' },
      files: [`${HOME}/.factory/AGENTS.md`],
      folders: [`${HOME}/.factory/skills`, `${HOME}/.factory/droids`, `${HOME}/.factory/commands`],
      mcp: [`${HOME}/.factory/mcp.json`, '/work/app/.factory/mcp.json'],
    },
    {
      // ~/.augment whatever --augment-cache-dir says; the project's settings hold its own servers
      id: 'auggie',
      files: [`${HOME}/.augment/user-guidelines.md`],
      folders: ['rules', 'skills', 'commands', 'agents'].map((name) => `${HOME}/.augment/${name}`),
      mcp: [`${HOME}/.augment/settings.json`, '/work/app/.augment/settings.json'],
    },
    {
      // the user's steering files; its MCP settings and guard's agent file (which may hold servers)
      id: 'kiro',
      files: [],
      folders: [`${HOME}/.kiro/steering`],
      mcp: [
        `${HOME}/.kiro/settings/mcp.json`,
        `${HOME}/.kiro/agents/guard.json`,
        '/work/app/.kiro/settings/mcp.json',
        '/work/app/.kiro/agents/guard.json',
      ],
    },
    { id: 'cline', ...clineReads(`${HOME}/.cline`), mcp: [`${HOME}/.cline/data/settings/cline_mcp_settings.json`] },
    {
      // CLINE_DIR moves its folder (and the data folder under it); CLINE_MCP_SETTINGS_PATH its MCP file
      id: 'cline',
      env: { CLINE_DIR: '/srv/cline' },
      ...clineReads('/srv/cline'),
      mcp: ['/srv/cline/data/settings/cline_mcp_settings.json'],
    },
    {
      id: 'cline',
      env: { CLINE_DATA_DIR: '/srv/data', CLINE_MCP_SETTINGS_PATH: '' },
      ...clineReads(`${HOME}/.cline`),
      mcp: ['/srv/data/settings/cline_mcp_settings.json'],
    },
    { id: 'crush', ...crushReads(`${HOME}/.config/crush`, `${HOME}/.config`) },
    {
      // XDG_CONFIG_HOME moves both; CRUSH_GLOBAL_CONFIG its own folder alone
      id: 'crush',
      env: { XDG_CONFIG_HOME: '/srv/xdg', CRUSH_GLOBAL_CONFIG: '/srv/crush' },
      ...crushReads('/srv/crush', '/srv/xdg'),
    },
    {
      // near miss: an empty variable is unset; the data folder holds no rules
      id: 'crush',
      env: { CRUSH_GLOBAL_CONFIG: '', CRUSH_GLOBAL_DATA: '/srv/data' },
      ...crushReads(`${HOME}/.config/crush`, `${HOME}/.config`),
    },
  ])('$id with $env', ({ id, env, files, folders, mcp }) => {
    const { chatStart } = AGENTS[id];
    expect(chatStart.rules(where(env))).toEqual({ files, folders });
    expect(chatStart.mcp(where(env)).map((config) => config.path)).toEqual(mcp);
    // only a project's own files are marked as the project's
    expect(
      chatStart
        .mcp(where(env))
        .filter((config) => config.project === true)
        .map((config) => config.path),
    ).toEqual(mcp.filter((path) => path.startsWith('/work/app/')));
  });

  it.each(AGENT_IDS)('%s: extensions only where the agent has them', (id) => {
    const folder = AGENTS[id].chatStart.extensions?.(where())?.folder;
    const expected: Partial<Record<AgentId, string>> = {
      gemini: `${HOME}/.gemini/extensions`,
      qwen: `${HOME}/.qwen/extensions`,
    };
    expect(folder).toBe(expected[id]);
  });
});

describe("Gemini CLI's extensions (gemini-extension.json, as its extension reference shows it)", () => {
  const spec = AGENTS.gemini.chatStart.extensions?.(where({ GEMINI_CLI_HOME: '/srv/gem' }));
  const dir = '/srv/gem/.gemini/extensions/my-extension';
  // the manifest of Gemini CLI 0.61's docs/extensions/reference.md, as written there
  const documented = JSON.stringify({
    name: 'my-extension',
    version: '1.0.0',
    description: 'My awesome extension',
    mcpServers: {
      'my-server': { command: 'node', args: ['${extensionPath}/my-server.js'], cwd: '${extensionPath}' },
    },
    contextFileName: 'GEMINI.md',
    excludeTools: ['run_shell_command'],
    migratedTo: 'https://github.com/new-owner/new-extension-repo',
    plan: { directory: '.gemini/plans' },
  });

  it("lives in the extensions folder of Gemini CLI's home, one manifest per folder", () => {
    expect(spec?.folder).toBe('/srv/gem/.gemini/extensions');
    expect(spec?.manifest).toBe('gemini-extension.json');
  });

  it.for<{ name: string; text: string; files: string[]; servers: McpServer[] }>([
    {
      name: 'the documented manifest: its server with ${extensionPath} put in, its context file and skills',
      text: documented,
      files: [`${dir}/GEMINI.md`],
      servers: [{ name: 'my-server', command: 'node', args: [`${dir}/my-server.js`], env: {}, cwd: dir }],
    },
    {
      name: 'several context files, ${workspacePath} and ${/} in a server',
      text: JSON.stringify({
        name: 'x',
        contextFileName: ['CONTEXT.md', 'docs/more.md', 7],
        mcpServers: {
          w: {
            command: '${extensionPath}${/}bin${/}w',
            args: ['--root', '${workspacePath}'],
            env: { P: '${extensionPath}' },
          },
        },
      }),
      files: [`${dir}/CONTEXT.md`, `${dir}/docs/more.md`],
      servers: [{ name: 'w', command: `${dir}/bin/w`, args: ['--root', '/work/app'], env: { P: dir } }],
    },
    {
      name: 'no context file named: GEMINI.md; no servers',
      text: '{"name":"plain","version":"1.0.0"}',
      files: [`${dir}/GEMINI.md`],
      servers: [],
    },
    {
      name: 'a remote server by httpUrl',
      text: '{"name":"r","mcpServers":{"r":{"httpUrl":"https://r.test/mcp"}}}',
      files: [`${dir}/GEMINI.md`],
      servers: [{ name: 'r', args: [], env: {}, url: 'https://r.test/mcp' }],
    },
  ])('$name', ({ text, files, servers }) => {
    const parts = spec?.read(text, dir, where());
    expect(parts?.rules).toEqual({ files, folders: [`${dir}/skills`] });
    expect(parts?.servers).toEqual(servers);
  });

  it.for(['{', '[]', 'null', '"x"'])(
    'a manifest that cannot be read (%s) throws, and the default files are still read',
    (text) => {
      expect(() => spec?.read(text, dir, where())).toThrow(McpConfigError);
      expect(spec?.fallback(dir)).toEqual({ files: [`${dir}/GEMINI.md`], folders: [`${dir}/skills`] });
    },
  );
});

describe('reading MCP servers out of a config (text in, servers out)', () => {
  const json = jsonServers();
  it.for<{ name: string; text: string; servers: McpServer[] }>([
    {
      name: 'a local server with arguments and environment',
      text: '{"mcpServers":{"files":{"command":"npx","args":["-y","srv",3],"env":{"A":"1","B":2}}}}',
      servers: [{ name: 'files', command: 'npx', args: ['-y', 'srv'], env: { A: '1' } }],
    },
    {
      name: 'remote servers, by url or serverUrl',
      text: '{"mcpServers":{"a":{"url":"https://a.test/mcp"},"b":{"serverUrl":"https://b.test/mcp"}}}',
      servers: [
        { name: 'a', args: [], env: {}, url: 'https://a.test/mcp' },
        { name: 'b', args: [], env: {}, url: 'https://b.test/mcp' },
      ],
    },
    {
      name: 'switched off either way',
      text: '{"mcpServers":{"a":{"command":"x","disabled":true},"b":{"command":"y","enabled":false},"c":{"command":"z","enabled":true}}}',
      servers: [
        { name: 'a', command: 'x', args: [], env: {}, skip: 'disabled in the agent' },
        { name: 'b', command: 'y', args: [], env: {}, skip: 'disabled in the agent' },
        { name: 'c', command: 'z', args: [], env: {} },
      ],
    },
    { name: 'no servers key', text: '{"other":{}}', servers: [] },
    { name: 'servers that are not a table', text: '{"mcpServers":"x"}', servers: [] },
    {
      name: 'a server that is not an object',
      text: '{"mcpServers":{"a":7}}',
      servers: [{ name: 'a', args: [], env: {} }],
    },
  ])('JSON: $name', async ({ text, servers }) => {
    expect(await json(text)).toEqual(servers);
  });

  it.for(['{', 'null', '{"mcpServers": }'])('JSON that cannot be read: %s', async (text) => {
    await expect(json(text)).rejects.toThrow(new McpConfigError('not valid JSON, its servers were not checked'));
  });

  const toml = AGENTS.codex.chatStart.mcp(where())[0]?.servers;
  it.for<{ name: string; text: string; servers: McpServer[] }>([
    {
      name: 'servers as tables',
      text: '# mine\nmodel = "o3"\n\n[mcp_servers.files]\ncommand = "npx"\nargs = ["-y", "srv"]\n\n[mcp_servers.remote]\nurl = "https://r.test/mcp"\n',
      servers: [
        { name: 'files', command: 'npx', args: ['-y', 'srv'], env: {} },
        { name: 'remote', args: [], env: {}, url: 'https://r.test/mcp' },
      ],
    },
    // a config without the key is not parsed at all, so even a broken one has no servers
    { name: 'no mcp_servers, not parsed', text: '[broken\nmodel = "o3"\n', servers: [] },
    { name: 'nothing', text: '', servers: [] },
  ])('Codex TOML: $name', async ({ text, servers }) => {
    expect(await toml?.(text)).toEqual(servers);
  });

  const claudeJson = AGENTS['claude-code'].chatStart.mcp(where())[0]?.servers;
  it.for<{ name: string; text: string; servers: McpServer[] }>([
    {
      name: "the user's servers and this project's local ones, not another project's",
      text: JSON.stringify({
        numStartups: 3,
        mcpServers: { files: { type: 'stdio', command: 'npx', args: ['-y', 'srv'] } },
        projects: {
          '/work/app': { mcpServers: { db: { command: '/home/dev/bin/db-mcp', env: { DB: 'dev' } } } },
          '/work/other': { mcpServers: { other: { command: 'x' } } },
        },
      }),
      servers: [
        { name: 'files', command: 'npx', args: ['-y', 'srv'], env: {} },
        { name: 'db', command: '/home/dev/bin/db-mcp', args: [], env: { DB: 'dev' } },
      ],
    },
    { name: 'no server named anywhere: not parsed', text: '{"numStartups": 3, broken', servers: [] },
    { name: 'no projects', text: '{"mcpServers":{}}', servers: [] },
  ])('Claude Code .claude.json: $name', async ({ text, servers }) => {
    expect(await claudeJson?.(text)).toEqual(servers);
  });

  const mcpJson = AGENTS['claude-code'].chatStart.mcp(where()).find((config) => config.project === true);
  it("Claude Code's project .mcp.json: its servers, read as the project's", async () => {
    expect(mcpJson?.path).toBe('/work/app/.mcp.json');
    const text = '{"mcpServers":{"repo-tool":{"command":"node","args":["tools/mcp.js"],"env":{"MODE":"dev"}}}}';
    expect(await mcpJson?.servers(text)).toEqual([
      { name: 'repo-tool', command: 'node', args: ['tools/mcp.js'], env: { MODE: 'dev' } },
    ]);
    await expect(mcpJson?.servers('{"mcpServers":')).rejects.toThrow(McpConfigError);
  });

  it('Claude Code .claude.json that cannot be read', async () => {
    await expect(claudeJson?.('{"mcpServers": {')).rejects.toThrow(McpConfigError);
  });

  const geminiSettings = AGENTS.gemini.chatStart.mcp(where())[0]?.servers;
  it('Gemini CLI settings.json: comments are no reason to skip its servers', async () => {
    const text = '// mine\n{\n  "mcpServers": { /* daily */ "t": { "command": "/bin/t", "args": ["a // b"] } }\n}\n';
    expect(await geminiSettings?.(text)).toEqual([{ name: 't', command: '/bin/t', args: ['a // b'], env: {} }]);
    await expect(geminiSettings?.('{"mcpServers": {,}}')).rejects.toThrow(McpConfigError);
  });

  it('Codex TOML that cannot be read', async () => {
    await expect(toml?.('[mcp_servers.a\ncommand = "x"\n')).rejects.toThrow(
      new McpConfigError('not valid TOML, its MCP servers were not checked'),
    );
  });
});

describe("Codex's trust records, through the adapter's trust capability", () => {
  const trust = adapters.codex.trust;
  const HOOKS = '/home/dev/.codex/hooks.json';
  const text = adapters.codex.install('', { hookCommand: '"/n" "/s" hook codex', failClosed: false });

  it('finds the records file from CODEX_HOME or the home folder', () => {
    expect(trust?.recordsPath(where())).toBe(`${HOME}/.codex/config.toml`);
    expect(trust?.recordsPath(where({ CODEX_HOME: '/srv/codex' }))).toBe('/srv/codex/config.toml');
    expect(trust?.recordsPath(where({ CODEX_HOME: '' }))).toBe(`${HOME}/.codex/config.toml`);
  });

  it("keys guard's hooks, reads their trust, and takes it out again", () => {
    const keys = trust?.keys(HOOKS, text) ?? [];
    expect(keys).toHaveLength(4);
    expect(trust?.state(HOOKS, text, '')).toMatchObject({ state: 'untrusted' });
    const records = `model = "o3"\n\n[hooks.state]\n\n${keys.map((key) => `[hooks.state."${key}"]\ntrusted_hash = "sha256:00"\n`).join('\n')}`;
    expect(trust?.state(HOOKS, text, records)).toMatchObject({ state: 'modified' });
    expect(trust?.withoutRecords(records, keys)).toBe('model = "o3"\n');
    expect(() => trust?.keys(HOOKS, '{')).toThrow();
  });

  it.for([
    { a: 'a = 1\nb = 2\n', b: 'b = 2\n\n# moved\na = 1\n', same: true },
    { a: 'a = 1\n', b: 'a = 2\n', same: false },
    { a: 'a = 1\n', b: '[a\n', same: false },
  ])('sameRecords($a, $b) → $same', ({ a, b, same }) => {
    expect(trust?.sameRecords(a, b)).toBe(same);
  });
});

describe("Qwen Code's extensions (qwen-extension.json, read like Gemini CLI's, QWEN.md by default)", () => {
  const spec = AGENTS.qwen.chatStart.extensions?.(where({ QWEN_HOME: '/srv/qwen' }));
  const dir = '/srv/qwen/extensions/mine';

  it("lives in the extensions folder of Qwen Code's home, one manifest per folder", () => {
    expect(spec?.folder).toBe('/srv/qwen/extensions');
    expect(spec?.manifest).toBe('qwen-extension.json');
    expect(spec?.fallback(dir)).toEqual({ files: [`${dir}/QWEN.md`], folders: [`${dir}/skills`] });
  });

  it.for<{ name: string; text: string; files: string[]; servers: McpServer[] }>([
    {
      name: 'no context file named: QWEN.md (not GEMINI.md)',
      text: '{"name":"plain","version":"1.0.0"}',
      files: [`${dir}/QWEN.md`],
      servers: [],
    },
    {
      name: 'a named context file and a server with ${extensionPath} put in',
      text: JSON.stringify({
        name: 'x',
        contextFileName: 'GEMINI.md',
        mcpServers: { s: { command: '${extensionPath}/s', args: [] } },
      }),
      files: [`${dir}/GEMINI.md`],
      servers: [{ name: 's', command: `${dir}/s`, args: [], env: {} }],
    },
  ])('$name', ({ text, files, servers }) => {
    const parts = spec?.read(text, dir, where());
    expect(parts?.rules).toEqual({ files, folders: [`${dir}/skills`] });
    expect(parts?.servers).toEqual(servers);
  });

  it('a manifest that does not parse is an McpConfigError', () => {
    expect(() => spec?.read('{"name": ', dir, where())).toThrow(McpConfigError);
  });
});
