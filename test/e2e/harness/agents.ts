import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { withAppServer } from '../../../packages/cli/src/agents/codex-app-server.js';
import type { FakeModel } from './fake-model.js';
import { runBounded } from './process.js';
import type { RunResult } from './process.js';
import { AGENT_BIN } from './world.js';
import type { World } from './world.js';

/** The pinned Codex launcher. */
export const CODEX = join(AGENT_BIN, 'codex');
/** The pinned Copilot launcher. */
export const COPILOT = join(AGENT_BIN, 'copilot');

// One agent run, whatever it does, ends within this.
const AGENT_LIMIT_MS = 90_000;

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

export interface CopilotOptions {
  readonly args?: readonly string[];
  readonly env?: Readonly<Record<string, string>>;
}

/**
 * Runs `copilot -p` once against the fake model: offline, bring-your-own-provider mode, no GitHub
 * login, no auto-update, every tool allowed (so only guard's hook can stop a step).
 */
export function copilotPrompt(
  world: World,
  model: FakeModel,
  prompt: string,
  options: CopilotOptions = {},
): Promise<RunResult> {
  const env = world.env({
    COPILOT_OFFLINE: 'true',
    COPILOT_PROVIDER_BASE_URL: model.baseUrl,
    COPILOT_MODEL: 'gpt-4.1',
    COPILOT_AUTO_UPDATE: 'false',
    ...options.env,
  });
  const args = ['-p', prompt, '--allow-all-tools', '--output-format', 'json', ...(options.args ?? [])];
  return runBounded(COPILOT, args, { cwd: world.project, env, limitMs: AGENT_LIMIT_MS });
}
