import { existsSync, mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { withAppServer } from '../../../packages/cli/src/agents/codex-app-server.js';
import type { FakeModel } from './fake-model.js';
import type { ScratchEtc } from './namespace.js';
import { scaled } from '../../machine.js';
import { runBounded } from './process.js';
import type { RunResult } from './process.js';
import { agentFolder } from './world.js';
import type { World } from './world.js';

/** The pinned Codex's launchers' folder (its npm bin), put on PATH where setup should find a `codex`. */
export const CODEX_BIN = join(agentFolder('codex'), '.bin');
/** The pinned Codex launcher. */
export const CODEX = join(CODEX_BIN, 'codex');
/** The pinned Copilot launcher. */
export const COPILOT = join(agentFolder('copilot'), '.bin', 'copilot');

/**
 * The pinned Claude Code's native binary, from the platform package its npm package depends on
 * (the agents are installed without running their install scripts, so the package's own
 * `bin/claude.exe` stays a stub that says so). Empty when this platform's package is not installed.
 */
export const CLAUDE = claudeBinary();

/** The pinned Qwen Code's script (its npm bin, `qwen`), run by this Node. */
export const QWEN = join(agentFolder('qwen'), '@qwen-code', 'qwen-code', 'cli-entry.js');

/**
 * The pinned Cline's native binary, from its platform package (`cline`'s own `bin/cline` is a Node
 * launcher that starts it). Empty when this platform's package is not installed.
 */
export const CLINE = platformBinary(join(agentFolder('cline'), 'cline'), '@cline/cli-', 'cline');

/** The pinned Gemini CLI's script (its npm bin), run by this Node. */
export const GEMINI = join(agentFolder('gemini'), '@google', 'gemini-cli', 'bundle', 'gemini.js');

/**
 * The pinned OpenCode's native binary, from its platform package (`opencode-ai`'s own launcher is
 * a stub until its install script runs, which the agents' install leaves out). Empty when this
 * platform's package is not installed.
 */
export const OPENCODE = platformBinary(join(agentFolder('opencode'), 'opencode-ai'), 'opencode-', 'opencode');

/**
 * The pinned Factory Droid's native binary, from its platform package (the `droid` package's own
 * launcher only finds and starts it). Empty when this platform's package is not installed.
 */
export const DROID = platformBinary(join(agentFolder('droid'), 'droid'), '@factory/cli-', 'droid');

/** The pinned Auggie's script (its npm bin, `auggie`), run by this Node. */
export const AUGGIE = join(agentFolder('auggie'), '@augmentcode', 'auggie', 'augment.mjs');

/**
 * The pinned Kilo Code CLI's native binary. Its platform package is pinned itself: the launcher
 * `@kilocode/cli` pins platform packages at its own version, and the newest of those on the
 * registry is older than it. Empty when this platform's package is not installed.
 */
export const KILO = ((): string => {
  const name = `@kilocode/cli-${process.platform === 'win32' ? 'windows' : process.platform}-${process.arch}`;
  const program = join(agentFolder('kilo'), name, 'bin', process.platform === 'win32' ? 'kilo.exe' : 'kilo');
  return existsSync(program) ? program : '';
})();

function platformBinary(wrapperDir: string, prefix: string, program: string): string {
  const name = `${prefix}${process.platform === 'win32' ? 'windows' : process.platform}-${process.arch}`;
  try {
    const wrapper = createRequire(realpathSync(join(wrapperDir, 'package.json')));
    return join(
      dirname(wrapper.resolve(`${name}/package.json`)),
      'bin',
      process.platform === 'win32' ? `${program}.exe` : program,
    );
  } catch {
    return '';
  }
}

function claudeBinary(): string {
  const musl =
    process.platform === 'linux' &&
    !(process.report.getReport() as { header?: { glibcVersionRuntime?: string } }).header?.glibcVersionRuntime;
  const name = `@anthropic-ai/claude-code-${process.platform}-${process.arch}${musl ? '-musl' : ''}`;
  try {
    const wrapper = createRequire(
      realpathSync(join(agentFolder('claude-code'), '@anthropic-ai', 'claude-code', 'package.json')),
    );
    return join(
      dirname(wrapper.resolve(`${name}/package.json`)),
      process.platform === 'win32' ? 'claude.exe' : 'claude',
    );
  } catch {
    return '';
  }
}

/** The scratch /etc a run is to see, as runBounded takes it. */
function within(options: { readonly etc?: ScratchEtc }): { etc?: ScratchEtc } {
  return options.etc === undefined ? {} : { etc: options.etc };
}

// One agent run, whatever it does, ends within this (on a quiet machine; stretched on a busy one).
const AGENT_LIMIT_MS = scaled(90_000);

/**
 * The user's own Codex config: a provider that points at the fake model (its port is set per run),
 * a bundled model slug (an unknown one loses apply_patch), and full access so that a step guard
 * does not stop really runs. The comments are the user's: trusting guard's hook must keep them.
 */
export const CODEX_CONFIG = `# my Codex settings (kept by guard)
model = "gpt-5.5"
model_provider = "fake"
sandbox_mode = "danger-full-access" # so unblocked commands really run

[model_providers.fake]
name = "fake"
base_url = "http://127.0.0.1:9/v1" # replaced per run
wire_api = "responses"
request_max_retries = 0
stream_max_retries = 0
`;

/** Writes the user's Codex config into the world. */
export function writeCodexConfig(world: World, text: string = CODEX_CONFIG): string {
  const path = join(world.codexHome, 'config.toml');
  writeFileSync(path, text);
  return path;
}

/** One `codex exec` run and the session it ran in. */
export interface CodexRun extends RunResult {
  /** The thread (session) id from the JSON event stream, for `codex exec resume`. */
  readonly threadId: string | undefined;
}

export interface CodexOptions {
  /** Resume this session instead of starting one. */
  readonly resume?: string;
  /** Extra arguments before the prompt. */
  readonly args?: readonly string[];
  readonly env?: Readonly<Record<string, string>>;
  /** Run over this scratch /etc (./namespace.ts). */
  readonly etc?: ScratchEtc;
}

/** Runs `codex exec` (or `codex exec resume`) once against the fake model, stdin from /dev/null. */
export async function codexExec(
  world: World,
  model: FakeModel,
  prompt: string,
  options: CodexOptions = {},
): Promise<CodexRun> {
  const args = [
    'exec',
    ...(options.resume === undefined
      ? ['--skip-git-repo-check', '-C', world.project]
      : ['resume', '--skip-git-repo-check']),
    '--json',
    '-c',
    `model_providers.fake.base_url="${model.baseUrl}"`,
    ...(options.args ?? []),
    ...(options.resume === undefined ? [] : [options.resume]),
    prompt,
  ];
  const result = await runBounded(CODEX, args, {
    cwd: world.project,
    env: world.env(options.env),
    limitMs: AGENT_LIMIT_MS,
    ...within(options),
  });
  return { ...result, threadId: /"thread_id":"([^"]+)"/.exec(result.stdout)?.[1] };
}

/**
 * A chat with Codex the way an editor or app holds one, through `codex app-server`: one thread, one
 * turn per message, each waited for until Codex says the turn is complete. Returns each turn's
 * final status. The app-server (and every hook it started) is killed at the end.
 */
export async function codexChat(world: World, model: FakeModel, messages: readonly string[]): Promise<string[]> {
  const options = {
    env: world.env(),
    cwd: world.project,
    limitMs: AGENT_LIMIT_MS,
    args: ['-c', `model_providers.fake.base_url="${model.baseUrl}"`],
  };
  return withAppServer(CODEX, options, async (session) => {
    const waiting: ((params: unknown) => void)[] = [];
    session.onNotification((method, params) => {
      if (method === 'turn/completed') waiting.shift()?.(params);
    });
    const started = (await session.request('thread/start', {
      cwd: world.project,
      approvalPolicy: 'never',
      sandbox: 'danger-full-access',
    })) as { thread: { id: string } };
    const statuses: string[] = [];
    for (const text of messages) {
      const completed = new Promise<unknown>((resolve) => waiting.push(resolve));
      await session.request('turn/start', { threadId: started.thread.id, input: [{ type: 'text', text }] });
      const params = (await completed) as { turn?: { status?: string } };
      statuses.push(params.turn?.status ?? 'unknown');
    }
    return statuses;
  });
}

export interface PromptOptions {
  readonly args?: readonly string[];
  readonly env?: Readonly<Record<string, string>>;
  /** Run over this scratch /etc (./namespace.ts). */
  readonly etc?: ScratchEtc;
}

/**
 * The user's own Claude Code settings: a model, permissions, an environment variable, and two hooks
 * of their own (one that runs on every tool, so guard's entries sit beside it). Laid out the way a
 * person edits it; `guard uninstall` must give exactly these bytes back.
 */
export const CLAUDE_SETTINGS = `{
  "model": "sonnet",
  "permissions": {
    "allow": ["Bash(npm test)"],
    "deny": ["Read(./secrets/**)"]
  },
  "env": { "MY_TEAM": "web" },
  "hooks": {
    "PostToolUse": [
      { "matcher": "*", "hooks": [{ "type": "command", "command": "true" }] }
    ],
    "Stop": [{ "hooks": [{ "type": "command", "command": "true", "timeout": 5 }] }]
  },
  "includeCoAuthoredBy": false
}
`;

/** Writes the user's Claude Code settings into the world. */
export function writeClaudeSettings(world: World, text: string = CLAUDE_SETTINGS): string {
  return writeHomeFile(world, join('.claude', 'settings.json'), text);
}

/** Writes `text` at `relative` below the world's home, making the folders on the way. */
function writeHomeFile(world: World, relative: string, text: string): string {
  const path = join(world.home, relative);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  return path;
}

/**
 * Runs `claude -p` once against the fake Messages API: offline, an API key of no account, no
 * telemetry, error reports, updates or other traffic, and every permission skipped, so only
 * guard's hook can stop a step. As root, Claude Code refuses to skip permissions unless told it
 * runs in a sandbox (IS_SANDBOX=1), which it does here: a scratch home on a test machine.
 */
export function claudePrompt(
  world: World,
  model: FakeModel,
  prompt: string,
  options: PromptOptions = {},
): Promise<RunResult> {
  const env = world.env({
    ANTHROPIC_BASE_URL: model.origin,
    ANTHROPIC_API_KEY: 'fake-key-for-a-fake-model',
    DISABLE_TELEMETRY: '1',
    DISABLE_ERROR_REPORTING: '1',
    DISABLE_AUTOUPDATER: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    ...(process.getuid?.() === 0 ? { IS_SANDBOX: '1' } : {}),
    ...options.env,
  });
  const args = ['-p', prompt, '--output-format', 'json', '--dangerously-skip-permissions', ...(options.args ?? [])];
  return runBounded(CLAUDE, args, { cwd: world.project, env, limitMs: AGENT_LIMIT_MS, ...within(options) });
}

/**
 * The user's own Gemini CLI settings, comments included (Gemini CLI reads its settings.json as JSON
 * with comments): an API key sign-in, no usage statistics, updates or telemetry, and a hook of
 * their own. `guard uninstall` must give exactly these bytes back.
 */
export const GEMINI_SETTINGS = `// my Gemini CLI settings
{
  "security": { "auth": { "selectedType": "gemini-api-key" } },
  "privacy": { "usageStatisticsEnabled": false }, // no statistics
  "general": { "enableAutoUpdate": false, "enableAutoUpdateNotification": false },
  "telemetry": { "enabled": false },
  /* a hook of my own */
  "hooks": {
    "SessionEnd": [{ "hooks": [{ "name": "bye", "type": "command", "command": "true" }] }]
  }
}
`;

/**
 * The same settings written the way older Gemini CLI versions had them: Gemini CLI 0.61 moves the
 * two update keys to their new names on its first run, rewriting the file itself (keeping the
 * comments, not the layout).
 */
export const GEMINI_LEGACY_SETTINGS = GEMINI_SETTINGS.replace(
  '"enableAutoUpdate": false, "enableAutoUpdateNotification": false',
  '"disableAutoUpdate": true, "disableUpdateNag": true',
);

/** Writes the user's Gemini CLI settings into the world. */
export function writeGeminiSettings(world: World, text: string = GEMINI_SETTINGS): string {
  return writeHomeFile(world, join('.gemini', 'settings.json'), text);
}

/**
 * Runs `gemini -p` once against the fake Gemini API: an API key of no account, the folder trusted
 * (a headless run refuses an untrusted one), no relaunch into a second Node, and YOLO, so every
 * tool runs unless guard's hook stops it.
 */
export function geminiPrompt(
  world: World,
  model: FakeModel,
  prompt: string,
  options: PromptOptions = {},
): Promise<RunResult> {
  const env = world.env({
    GOOGLE_GEMINI_BASE_URL: model.origin,
    GEMINI_API_KEY: 'fake-key-for-a-fake-model',
    GEMINI_CLI_NO_RELAUNCH: 'true',
    GEMINI_CLI_TRUST_WORKSPACE: 'true',
    // the machine's own /etc/gemini-cli settings are not this test's
    GEMINI_CLI_SYSTEM_SETTINGS_PATH: join(world.root, 'no-system-settings.json'),
    GEMINI_CLI_SYSTEM_DEFAULTS_PATH: join(world.root, 'no-system-defaults.json'),
    ...options.env,
  });
  const args = [GEMINI, '-p', prompt, '--output-format', 'json', '--yolo', ...(options.args ?? [])];
  return runBounded(process.execPath, args, { cwd: world.project, env, limitMs: AGENT_LIMIT_MS });
}

/**
 * Runs `copilot -p` once against the fake model: offline, bring-your-own-provider mode, no GitHub
 * login, no auto-update, every tool allowed (so only guard's hook can stop a step).
 */
export function copilotPrompt(
  world: World,
  model: FakeModel,
  prompt: string,
  options: PromptOptions = {},
): Promise<RunResult> {
  const env = world.env({
    COPILOT_OFFLINE: 'true',
    COPILOT_PROVIDER_BASE_URL: model.baseUrl,
    COPILOT_MODEL: 'gpt-4.1',
    COPILOT_AUTO_UPDATE: 'false',
    ...options.env,
  });
  const args = ['-p', prompt, '--allow-all-tools', '--output-format', 'json', ...(options.args ?? [])];
  return runBounded(COPILOT, args, { cwd: world.project, env, limitMs: AGENT_LIMIT_MS, ...within(options) });
}

/**
 * The user's own OpenCode config (JSON with comments): a provider that points at the fake model
 * (its URL is put in per run), and OpenCode's own switches for a run that stays offline. guard
 * never edits it (its plugin is a file of its own): `guard uninstall` must leave these bytes.
 */
export const OPENCODE_CONFIG = `{
  // my OpenCode settings
  "$schema": "https://opencode.ai/config.json",
  "autoupdate": false,
  "share": "disabled",
  "model": "fake/fake-model",
  "provider": {
    "fake": {
      "npm": "@ai-sdk/openai-compatible",
      "name": "Fake", /* a model of no account */
      "options": { "baseURL": "@BASE_URL@", "apiKey": "fake-key" },
      "models": { "fake-model": { "name": "Fake", "tool_call": true } },
    },
  },
}
`;

/** Writes the user's OpenCode config with the fake model's URL; returns its path. */
export function writeOpencodeConfig(world: World, model: FakeModel, text: string = OPENCODE_CONFIG): string {
  return writeHomeFile(world, join('.config', 'opencode', 'opencode.jsonc'), text.replace('@BASE_URL@', model.baseUrl));
}

/**
 * Runs `opencode run` once against the fake model: no update check, no sharing, no models.dev
 * fetch, every tool allowed by OpenCode's own permissions (so only guard's plugin can stop a step).
 */
export function opencodeRun(world: World, prompt: string, options: PromptOptions = {}): Promise<RunResult> {
  const env = world.env({
    OPENCODE_DISABLE_AUTOUPDATE: '1',
    OPENCODE_DISABLE_MODELS_FETCH: '1',
    OPENCODE_DISABLE_SHARE: '1',
    OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
    ...options.env,
  });
  return runBounded(OPENCODE, ['run', ...(options.args ?? []), prompt], {
    cwd: world.project,
    env,
    limitMs: AGENT_LIMIT_MS,
  });
}

/**
 * The user's own Kilo config: OpenCode's under Kilo's schema, with the shell allowed (without it
 * `kilo run` writes `"permission": { "bash": "allow" }` into this file itself). guard never edits it.
 */
export const KILO_CONFIG = OPENCODE_CONFIG.replace('my OpenCode settings', 'my Kilo settings')
  .replace('https://opencode.ai/config.json', 'https://app.kilo.ai/config.json')
  .replace('  "provider": {', '  "permission": { "bash": "allow" }, // my own\n  "provider": {');

/** Writes the user's Kilo config with the fake model's URL; returns its path. */
export function writeKiloConfig(world: World, model: FakeModel, text: string = KILO_CONFIG): string {
  return writeHomeFile(world, join('.config', 'kilo', 'kilo.jsonc'), text.replace('@BASE_URL@', model.baseUrl));
}

/** Runs `kilo run` once against the fake model, offline (its own switches, as OpenCode's). */
export function kiloRun(world: World, prompt: string, options: PromptOptions = {}): Promise<RunResult> {
  const env = world.env({
    KILO_DISABLE_AUTOUPDATE: '1',
    KILO_DISABLE_MODELS_FETCH: '1',
    KILO_DISABLE_SHARE: '1',
    KILO_DISABLE_LSP_DOWNLOAD: '1',
    KILO_DISABLE_SESSION_INGEST: '1',
    ...options.env,
  });
  return runBounded(KILO, ['run', ...(options.args ?? []), prompt], {
    cwd: world.project,
    env,
    limitMs: AGENT_LIMIT_MS,
  });
}

/**
 * The user's own Qwen Code settings, comments included (Qwen Code reads its settings.json as JSON
 * with comments, and writes `$version` into a file that lacks it): an OpenAI-compatible provider
 * (the fake model), no usage statistics or updates, and a hook of their own. `guard uninstall` must
 * give exactly these bytes back.
 */
export const QWEN_SETTINGS = `// my Qwen Code settings
{
  "$version": 4,
  "security": { "auth": { "selectedType": "openai" } }, // my own endpoint
  "model": { "name": "gpt-4.1" },
  "privacy": { "usageStatisticsEnabled": false },
  "general": { "disableAutoUpdate": true },
  /* a hook of my own */
  "hooks": {
    "Stop": [{ "hooks": [{ "type": "command", "command": "true" }] }]
  }
}
`;

/** Writes the user's Qwen Code settings into the world. */
export function writeQwenSettings(world: World, text: string = QWEN_SETTINGS): string {
  return writeHomeFile(world, join('.qwen', 'settings.json'), text);
}

/**
 * Runs `qwen -p` once against the fake chat-completions API: an OpenAI key of no account, the
 * machine's own system settings out of the way, and YOLO, so every tool runs unless guard's hook
 * stops it.
 */
export function qwenPrompt(
  world: World,
  model: FakeModel,
  prompt: string,
  options: PromptOptions = {},
): Promise<RunResult> {
  const env = world.env({
    OPENAI_BASE_URL: model.baseUrl,
    OPENAI_API_KEY: 'fake-key-for-a-fake-model',
    OPENAI_MODEL: 'gpt-4.1',
    QWEN_CODE_SUPPRESS_YOLO_WARNING: '1',
    QWEN_CODE_SYSTEM_SETTINGS_PATH: join(world.root, 'no-system-settings.json'),
    QWEN_CODE_SYSTEM_DEFAULTS_PATH: join(world.root, 'no-system-defaults.json'),
    ...options.env,
  });
  const args = [QWEN, '-p', prompt, '--output-format', 'json', '--yolo', ...(options.args ?? [])];
  return runBounded(process.execPath, args, { cwd: world.project, env, limitMs: AGENT_LIMIT_MS });
}

/**
 * The user's own Droid hooks.json, comments included (Droid reads it as JSON with comments; the
 * events are its root keys): a hook of their own. `guard uninstall` must give exactly these bytes back.
 */
export const DROID_HOOKS = `// my Droid hooks
{
  "Stop": [{ "hooks": [{ "type": "command", "command": "true", "timeout": 5 }] }], /* a hook of my own */
  "showHookOutput": false
}
`;

/** Writes the user's own Droid hooks.json into the world. */
export function writeDroidHooks(world: World, text: string = DROID_HOOKS): string {
  return writeHomeFile(world, join('.factory', 'hooks.json'), text);
}

/**
 * Runs `droid exec --auto high` once with the fake model as `custom:fake-model`: no account, no
 * network, and high autonomy runs every command, so only guard's hook stops one.
 */
export function droidPrompt(
  world: World,
  model: FakeModel,
  prompt: string,
  options: PromptOptions & { readonly settings?: Readonly<Record<string, unknown>> } = {},
): Promise<RunResult> {
  // the fake model as a model of the person's own (BYOK), in Droid's settings.json, beside the
  // settings the run is given
  const settings = {
    ...options.settings,
    customModels: [
      {
        model: 'fake-model',
        displayName: 'Fake',
        baseUrl: model.baseUrl,
        apiKey: 'fake-key-for-a-fake-model',
        provider: 'generic-chat-completion-api',
        maxOutputTokens: 4096,
      },
    ],
  };
  writeHomeFile(world, join('.factory', 'settings.json'), `${JSON.stringify(settings, null, 2)}\n`);
  const env = world.env({ FACTORY_DROID_AUTO_UPDATE_ENABLED: 'false', ...options.env });
  const args = ['exec', '--auto', 'high', '-m', 'custom:fake-model', ...(options.args ?? []), prompt];
  return runBounded(DROID, args, { cwd: world.project, env, limitMs: AGENT_LIMIT_MS, ...within(options) });
}

/**
 * Runs `cline --json` once against the fake chat-completions API: first `cline auth` stores it as
 * an OpenAI-compatible provider (in the world's own ~/.cline), then one headless task, which
 * approves every tool by itself, so every step runs unless a hook stops it.
 */
export async function clinePrompt(
  world: World,
  model: FakeModel,
  prompt: string,
  options: PromptOptions = {},
): Promise<RunResult> {
  const run = { cwd: world.project, env: world.env(options.env), limitMs: AGENT_LIMIT_MS };
  const auth = await runBounded(
    CLINE,
    ['auth', '-p', 'openai', '-k', 'fake-key-for-a-fake-model', '-m', 'fake', '-b', model.baseUrl],
    run,
  );
  if (auth.code !== 0) return auth;
  return runBounded(CLINE, ['--json', ...(options.args ?? []), prompt], run);
}

/**
 * The user's own Auggie settings.json, comments included (Auggie reads it as JSON with comments): a
 * hook of their own. `guard uninstall` must give exactly these bytes back.
 */
export const AUGGIE_SETTINGS = `// my Auggie settings
{
  "hooks": {
    "Stop": [{ "hooks": [{ "type": "command", "command": "true", "timeout": 5000 }] }] // a hook of my own
  },
  "model": "fake-model"
}
`;

/** Writes the user's own Auggie settings.json into the world. */
export function writeAuggieSettings(world: World, text: string = AUGGIE_SETTINGS): string {
  return writeHomeFile(world, join('.augment', 'settings.json'), text);
}

/**
 * Runs `auggie --print` once against the fake Augment service: a made-up session (a token and the
 * fake's address as the tenant URL) in AUGMENT_SESSION_AUTH. Auggie runs every tool of its own by
 * itself in --print, so only guard's hook stops one.
 */
export function auggiePrompt(
  world: World,
  model: FakeModel,
  prompt: string,
  options: PromptOptions = {},
): Promise<RunResult> {
  const session = { accessToken: 'fake-token', tenantURL: `${model.origin}/`, scopes: ['email'] };
  const env = world.env({
    AUGMENT_SESSION_AUTH: JSON.stringify(session),
    AUGMENT_DISABLE_AUTO_UPDATE: '1',
    ...options.env,
  });
  const args = [AUGGIE, '--print', ...(options.args ?? []), prompt];
  return runBounded(process.execPath, args, { cwd: world.project, env, limitMs: AGENT_LIMIT_MS });
}
