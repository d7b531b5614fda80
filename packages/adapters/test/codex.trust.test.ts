import { describe, expect, it } from 'vitest';
import { codexHookHash, codexTrust, guardCodexHooks, trust } from '../src/codex/trust.js';
import { adapters } from '../src/index.js';

const HOOKS = '/home/dev/.codex/hooks.json';
const COMMAND = '"/usr/bin/node" "/opt/guard/dist/bin.js" hook codex';
const installed = (before = ''): string => adapters.codex.install(before, { hookCommand: COMMAND, failClosed: false });
const isGuard = (text: string) => {
  const ours = new Set(adapters.codex.installedCommands(text));
  return (command: string): boolean => ours.has(command);
};

describe('codexHookHash', () => {
  it("matches the hash Codex itself wrote for a known hook (the reference's test vector)", () => {
    expect(codexHookHash('PreToolUse', 'Bash', { type: 'command', command: 'guard hook codex' })).toBe(
      'sha256:506480706808dceaae1cbb0e542b1ab20ff0c5806956192ae928684eb3d54a1d',
    );
  });

  const base = { type: 'command', command: 'x', timeout: 30 };
  it.for([
    {
      name: 'no timeout is the 600 s default',
      a: ['PreToolUse', '*', { type: 'command', command: 'x' }],
      b: ['PreToolUse', '*', { ...base, timeout: 600 }],
      same: true,
    },
    {
      name: 'another timeout is another hook',
      a: ['PreToolUse', '*', base],
      b: ['PreToolUse', '*', { ...base, timeout: 31 }],
      same: false,
    },
    {
      name: 'UserPromptSubmit ignores the matcher',
      a: ['UserPromptSubmit', 'x', base],
      b: ['UserPromptSubmit', undefined, base],
      same: true,
    },
    {
      name: 'PreToolUse keeps an empty matcher',
      a: ['PreToolUse', '', base],
      b: ['PreToolUse', undefined, base],
      same: false,
    },
    {
      name: 'commandWindows and unknown keys are not hashed',
      a: ['PreToolUse', '*', { ...base, commandWindows: 'y', extra: 1 }],
      b: ['PreToolUse', '*', base],
      same: true,
    },
    {
      name: 'a statusMessage is hashed',
      a: ['PreToolUse', '*', { ...base, statusMessage: 'checking' }],
      b: ['PreToolUse', '*', base],
      same: false,
    },
    {
      name: 'the default context limit is not hashed',
      a: ['PostToolUse', '*', { ...base, additionalContextLimit: 2500 }],
      b: ['PostToolUse', '*', base],
      same: true,
    },
    {
      name: 'another context limit is',
      a: ['PostToolUse', '*', { ...base, additionalContextLimit: 1000 }],
      b: ['PostToolUse', '*', base],
      same: false,
    },
    {
      name: 'async is hashed',
      a: ['PreToolUse', '*', { ...base, async: true }],
      b: ['PreToolUse', '*', base],
      same: false,
    },
  ] as const)('$name', ({ a, b, same }) => {
    const [eventA, matcherA, handlerA] = a;
    const [eventB, matcherB, handlerB] = b;
    expect(codexHookHash(eventA, matcherA, handlerA) === codexHookHash(eventB, matcherB, handlerB)).toBe(same);
  });
});

describe('guardCodexHooks', () => {
  it("keys guard's handlers by file, event label and position, after the person's own groups", () => {
    const mine =
      '{\n  "hooks": {\n    "PreToolUse": [ { "matcher": "Bash", "hooks": [ { "type": "command", "command": "./mine.sh" } ] } ]\n  }\n}\n';
    const text = installed(mine);
    expect(guardCodexHooks(HOOKS, text, isGuard(text)).map((hook) => hook.key)).toEqual([
      `${HOOKS}:pre_tool_use:1:0`,
      `${HOOKS}:post_tool_use:0:0`,
      `${HOOKS}:session_start:0:0`,
      `${HOOKS}:user_prompt_submit:0:0`,
    ]);
  });
});

describe('codexTrust', () => {
  const text = installed();
  const hooks = guardCodexHooks(HOOKS, text, isGuard(text));
  const table = (entries: readonly (readonly [string, string])[]): string =>
    entries.map(([key, body]) => `[hooks.state."${key}"]\n${body}\n`).join('\n');
  const all = (body: (hash: string) => string): string =>
    table(hooks.map((hook) => [hook.key, body(hook.hash)] as const));

  it.for([
    {
      name: 'no config.toml',
      config: '',
      state: 'untrusted',
      detail: "4 of guard's 4 hooks are not trusted yet, so Codex skips them",
    },
    {
      name: 'every hook trusted',
      config: `# mine\nmodel = "o3"\n\n${all((hash) => `trusted_hash = "${hash}"`)}`,
      state: 'trusted',
      detail: "Codex trusts all 4 of guard's hooks",
    },
    {
      name: 'one hook left out',
      config: table(hooks.slice(1).map((hook) => [hook.key, `trusted_hash = "${hook.hash}"`] as const)),
      state: 'untrusted',
      detail: "1 of guard's 4 hooks are not trusted yet, so Codex skips them",
    },
    {
      name: 'trusted for an older definition',
      config: all(() => 'trusted_hash = "sha256:00"'),
      state: 'modified',
      detail: "4 of guard's 4 hooks changed since they were trusted, so Codex skips them until trusted again",
    },
    {
      name: 'switched off by the person',
      config: all((hash) => `trusted_hash = "${hash}"\nenabled = false`),
      state: 'disabled',
      detail: "4 of guard's 4 hooks are switched off in Codex",
    },
    {
      name: 'trust for the same hooks in another file',
      config: all((hash) => `trusted_hash = "${hash}"`).replaceAll(HOOKS, '/home/other/.codex/hooks.json'),
      state: 'untrusted',
      detail: "4 of guard's 4 hooks are not trusted yet, so Codex skips them",
    },
    {
      name: 'a config.toml that does not parse',
      config: '[hooks\n',
      state: 'unknown',
      detail: expect.stringMatching(/^Codex's config.toml does not parse \(line 1\): (?!Invalid TOML)/),
    },
    {
      name: 'a config.toml with a bad key further down, named by its line',
      config: 'model = "x"\n[features]\nb c = 2\n',
      state: 'unknown',
      detail: "Codex's config.toml does not parse (line 3): illegal character in key",
    },
  ])('$name → $state', ({ config, state, detail }) => {
    expect(codexTrust(HOOKS, text, config, isGuard(text))).toEqual({ state, detail });
  });

  it('a hooks.json that is not JSON is unknown', () => {
    expect(codexTrust(HOOKS, '{', '', () => true)).toEqual({ state: 'unknown', detail: `${HOOKS} is not valid JSON` });
  });

  it.for([
    { env: {}, want: '/home/dev/.codex/config.toml' },
    { env: { CODEX_HOME: '' }, want: '/home/dev/.codex/config.toml' },
    { env: { CODEX_HOME: '/srv/codex' }, want: '/srv/codex/config.toml' },
  ])('the trust records are in config.toml under CODEX_HOME ($env)', ({ env, want }) => {
    expect(trust.recordsPath({ home: '/home/dev', env, projectRoot: '/home/dev/project' })).toBe(want);
  });
});
