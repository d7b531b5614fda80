import { opinionLine, opinionStatus } from '../agents/inspect.js';
import { ExitCode, GuardError } from '../errors.js';
import type { Io } from '../io.js';
import { appendLog } from '../state/decision-log.js';
import { forgetRequests } from '../state/opinion.js';
import { refuseBelowFloor } from '../state/switches.js';
import type { SecondOpinionConfig } from '../state/settings.js';
import {
  guardHomeFrom,
  isEnvName,
  OPINION_KEYS,
  OPINION_TIMEOUT,
  opinionEndpoint,
  opinionModelProblem,
  opinionTimeoutProblem,
  readSettings,
  SettingsError,
  settingsPath,
  updateSettings,
} from '../state/settings.js';

export interface SecondOpinionOptions {
  readonly url?: string;
  readonly model?: string;
  readonly keyEnv?: string;
  readonly timeoutMs?: number;
  /** `status --json`. */
  readonly json?: boolean;
}

/**
 * `guard second-opinion on --url URL --model NAME [--key-env VAR] [--timeout-ms N]` and
 * `guard second-opinion off` (SPEC §11): the optional local model that may raise a step the rules
 * let through to an ask. Kept in settings.yaml (comments and other keys kept); the key itself is
 * never written anywhere, only the name of the variable it is read from. Turning it off forgets
 * every chat's request that was kept for it.
 */
export async function secondOpinion(
  state: 'on' | 'off' | 'status',
  options: SecondOpinionOptions,
  io: Io,
): Promise<void> {
  const guardHome = guardHomeFrom(io.env, io.home());
  if (state === 'status') {
    const { json, ...rest } = options;
    if (Object.values(rest).some((value) => value !== undefined))
      throw new GuardError(
        '`guard second-opinion status` only shows how it stands; it takes no settings.',
        'Run `guard second-opinion status [--json]`, or `guard second-opinion on --url … --model …` to change it.',
        ExitCode.Usage,
      );
    let settings;
    try {
      settings = await readSettings(guardHome);
    } catch (error) {
      throw settingsProblem(error, guardHome);
    }
    const standing = opinionStatus(settings, guardHome, io);
    io.out(json === true ? `${JSON.stringify(standing, null, 2)}\n` : `second opinion: ${opinionLine(standing)}\n`);
    return;
  }
  if (state === 'off') {
    const given = Object.entries(options).filter(([name, value]) => value !== undefined && name !== 'json');
    if (given.length > 0)
      throw new GuardError(
        '`guard second-opinion off` takes no options.',
        'Run `guard second-opinion off`.',
        ExitCode.Usage,
      );
    await refuseBelowFloor({ secondOpinion: false }, io);
    const before = await current(guardHome);
    if (before.on) await save(guardHome, { [OPINION_KEYS.on]: false }, { secondOpinion: false }, io);
    const forgotten = forgetRequests(guardHome);
    io.out(
      `${before.on ? 'The second opinion is now off' : 'The second opinion was already off'}: the rules decide alone, and nothing is sent to a model.${forgotten > 0 ? ` Forgot the request kept for ${forgotten} chat${forgotten === 1 ? '' : 's'}.` : ''}\n`,
    );
    return;
  }
  const config = configFrom(options);
  await refuseBelowFloor({ secondOpinion: true }, io);
  const changes: Record<string, string | number | boolean | undefined> = {
    [OPINION_KEYS.on]: true,
    [OPINION_KEYS.url]: config.url,
    [OPINION_KEYS.model]: config.model,
    [OPINION_KEYS.keyEnv]: config.keyEnv,
    [OPINION_KEYS.timeoutMs]: config.timeoutMs,
  };
  await save(
    guardHome,
    changes,
    { secondOpinion: true, secondOpinionModel: config.model, secondOpinionUrl: config.url },
    io,
  );
  const key =
    config.keyEnv === undefined
      ? 'no key'
      : `the key from $${config.keyEnv}${io.env[config.keyEnv] ? '' : ` (not set in this shell: set it where your agents run)`}`;
  io.out(
    [
      `The second opinion is now on: guard asks ${config.model} at ${config.endpoint} (${key}) about shell commands, file writes and changing MCP calls the rules let through, within ${config.timeoutMs} ms each.`,
      'It only ever raises a step to an ask, when it judges the step both irreversible and outside what the person asked for; if it is slow or fails, the rules decide alone.',
      'Run `guard doctor` to check one round trip, and `guard second-opinion off` to stop it.',
    ].join('\n') + '\n',
  );
}

/** The settings `on` was given, checked; a usage error names what is wrong. */
function configFrom(options: SecondOpinionOptions): Omit<SecondOpinionConfig, 'bars'> {
  const usage = (message: string): GuardError =>
    new GuardError(
      message,
      'Run `guard second-opinion on --url <base-url> --model <name> [--key-env VAR] [--timeout-ms N]`, e.g. `guard second-opinion on --url http://127.0.0.1:11434/v1 --model qwen2.5:1.5b`.',
      ExitCode.Usage,
    );
  if (options.url === undefined || options.model === undefined)
    throw usage('`guard second-opinion on` needs the server (--url) and the model (--model).');
  const endpoint = opinionEndpoint(options.url);
  if ('problem' in endpoint) throw usage(`--url: ${endpoint.problem}.`);
  const modelProblem = opinionModelProblem(options.model);
  if (modelProblem !== undefined) throw usage(`--model: ${modelProblem}.`);
  if (options.keyEnv !== undefined && !isEnvName(options.keyEnv))
    throw usage(
      `--key-env takes the name of the environment variable that holds the key (like OPENAI_API_KEY), not "${options.keyEnv.length > 12 ? `${options.keyEnv.slice(0, 4)}…` : options.keyEnv}"; the key itself is never stored.`,
    );
  const timeoutMs = options.timeoutMs ?? OPINION_TIMEOUT.default;
  const timeoutProblem = opinionTimeoutProblem(timeoutMs);
  if (timeoutProblem !== undefined) throw usage(`--timeout-ms: ${timeoutProblem}.`);
  return {
    url: options.url,
    endpoint: endpoint.endpoint,
    model: options.model,
    ...(options.keyEnv === undefined ? {} : { keyEnv: options.keyEnv }),
    timeoutMs,
  };
}

async function current(guardHome: string): Promise<{ readonly on: boolean }> {
  try {
    return { on: (await readSettings(guardHome)).secondOpinion.on };
  } catch (error) {
    throw settingsProblem(error, guardHome);
  }
}

async function save(
  guardHome: string,
  changes: Readonly<Record<string, string | number | boolean | undefined>>,
  logged: Readonly<Record<string, string | boolean>>,
  io: Io,
): Promise<void> {
  try {
    await updateSettings(guardHome, changes);
  } catch (error) {
    throw settingsProblem(error, guardHome);
  }
  try {
    appendLog(guardHome, { time: new Date().toISOString(), how: 'switch', changed: logged });
  } catch (error) {
    io.err(
      `guard: the change was saved, but could not be logged (${error instanceof Error ? error.message : String(error)}).\n`,
    );
  }
}

function settingsProblem(error: unknown, guardHome: string): unknown {
  if (!(error instanceof SettingsError)) return error;
  return new GuardError(
    `${error.message.replace(/\.$/, '')} (${settingsPath(guardHome)}); nothing was changed.`,
    'Fix or delete settings.yaml, then run the command again.',
  );
}
