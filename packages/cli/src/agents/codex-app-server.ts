import { accessSync, constants, realpathSync, statSync } from 'node:fs';
import { basename, dirname, delimiter, join } from 'node:path';
import { adapters } from '@guard/adapters';
import { folderProblem } from '../fsx.js';
import type { Io } from '../io.js';
import { guardVersion } from '../self.js';

/**
 * Codex's own view of its hooks, through `codex app-server` (JSON-RPC, one object per line on
 * stdio): which hooks it loads, whether it trusts them, and marking guard's trusted. Codex writes
 * the trust itself into the user's config.toml (its own TOML editor keeps the comments), so guard
 * never edits that file. Not on the hook path: setup and doctor use it.
 */

// Codex's name, program and hooks menu, from its adapter: this module is Codex's own I/O, reached
// through the adapter's `trust` capability (setup, doctor).
const { displayName: NAME, trust } = adapters.codex;
const { program: PROGRAM, menu: MENU } = trust ?? { program: '', menu: '' };

/** Codex's word on one hook (app-server `HookTrustStatus`). */
export type HookTrustStatus = 'managed' | 'untrusted' | 'trusted' | 'modified';

/** One hook as `hooks/list` reports it (the fields guard reads). */
export interface ListedHook {
  /** `<file>:<event>:<group>:<handler>`, the key of its `[hooks.state]` table. */
  readonly key: string;
  readonly command: string;
  readonly sourcePath: string;
  readonly currentHash: string;
  readonly trustStatus: HookTrustStatus;
  readonly enabled: boolean;
  readonly isManaged: boolean;
}

/** Something went wrong talking to Codex; the message says what, in one sentence. */
export class AppServerError extends Error {
  override readonly name = 'AppServerError';
}

/** The longest a whole conversation with `codex app-server` may take. */
export const APP_SERVER_LIMIT_MS = 10_000;

/**
 * The first executable `name` on PATH, as a shell finds it (Windows: with PATHEXT endings);
 * undefined when there is none.
 */
export function findOnPath(
  name: string,
  env: Readonly<Record<string, string | undefined>>,
  platform: string = process.platform,
): string | undefined {
  const dirs = (env.PATH ?? '').split(platform === 'win32' ? ';' : delimiter).filter((dir) => dir !== '');
  const endings = platform === 'win32' ? ['', ...(env.PATHEXT ?? '.COM;.EXE;.BAT;.CMD').split(';')] : [''];
  for (const dir of dirs) {
    for (const ending of endings) {
      const candidate = join(dir, name + ending.toLowerCase());
      try {
        if (!statSync(candidate).isFile()) continue;
        if (platform !== 'win32') accessSync(candidate, constants.X_OK);
        return candidate;
      } catch {
        // not here, or not runnable: keep looking
      }
    }
  }
  return undefined;
}

/** A running `codex app-server`. */
export interface AppServerSession {
  /** Sends one request and waits for its answer (a JSON-RPC error rejects with AppServerError). */
  request(method: string, params: unknown): Promise<unknown>;
  /** Calls `listener` with every notification Codex sends from now on. */
  onNotification(listener: (method: string, params: unknown) => void): void;
}

/** Where and how to start `codex app-server`. */
export interface AppServerOptions {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
  /** The whole conversation ends (and Codex is killed) after this long. */
  readonly limitMs: number;
  /** Extra arguments after `app-server` (e.g. `-c key=value`). */
  readonly args?: readonly string[];
}

/**
 * Starts `codex app-server`, runs `work` against it, and always stops it: the whole process
 * group is killed by PID at the end, and after `limitMs` whatever `work` is waiting for.
 */
export async function withAppServer<T>(
  codex: string,
  options: AppServerOptions,
  work: (session: AppServerSession) => Promise<T>,
): Promise<T> {
  const { cwd, limitMs } = options;
  const problem = folderProblem(cwd);
  if (problem !== undefined) throw new AppServerError(`cannot start ${PROGRAM} app-server: ${problem}`);
  const { execa } = await import('execa');
  const posix = process.platform !== 'win32';
  const child = execa(codex, ['app-server', ...(options.args ?? [])], {
    cwd,
    env: options.env,
    extendEnv: false,
    stdin: 'pipe',
    stdout: 'pipe',
    stderr: 'ignore',
    reject: false,
    buffer: false,
    // its own group, so the launcher's native child goes with it
    detached: posix,
    cleanup: true,
  });
  const stop = (): void => {
    if (child.pid === undefined) return;
    try {
      if (posix) process.kill(-child.pid, 'SIGKILL');
      else child.kill('SIGKILL');
    } catch {
      // already gone
    }
  };
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  const failAll = (error: Error): void => {
    for (const waiter of pending.values()) waiter.reject(error);
    pending.clear();
  };
  let buffered = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    buffered += chunk;
    for (let end = buffered.indexOf('\n'); end >= 0; end = buffered.indexOf('\n')) {
      const line = buffered.slice(0, end).trim();
      buffered = buffered.slice(end + 1);
      if (line !== '') answer(line);
    }
  });
  const listeners: ((method: string, params: unknown) => void)[] = [];
  const answer = (line: string): void => {
    let message: { id?: unknown; method?: unknown; params?: unknown; result?: unknown; error?: { message?: unknown } };
    try {
      message = JSON.parse(line) as typeof message;
    } catch {
      return; // not JSON-RPC
    }
    if (typeof message.method === 'string') {
      // a request of Codex's own (it has an id) asks for something guard never starts: ignored
      if (message.id === undefined) for (const listener of listeners) listener(message.method, message.params);
      return;
    }
    if (typeof message.id !== 'number') return;
    const waiter = pending.get(message.id);
    if (waiter === undefined) return;
    pending.delete(message.id);
    if (message.error !== undefined) {
      const said = message.error.message;
      waiter.reject(new AppServerError(`${NAME} answered ${typeof said === 'string' ? said : 'an error'}`));
    } else waiter.resolve(message.result);
  };
  child.stdin?.on('error', () => undefined);
  void child.then((result) => {
    const why =
      result.exitCode === undefined
        ? (result.shortMessage?.split('\n')[0] ?? 'it could not start')
        : `exit code ${result.exitCode}`;
    failAll(new AppServerError(`${PROGRAM} app-server stopped early (${why})`));
  });
  let nextId = 1;
  const send = (message: object): void => void child.stdin?.write(`${JSON.stringify(message)}\n`);
  const session: AppServerSession = {
    request: (method, params) =>
      new Promise((resolve, reject) => {
        const id = nextId++;
        pending.set(id, { resolve, reject });
        send({ jsonrpc: '2.0', id, method, params });
      }),
    onNotification: (listener) => void listeners.push(listener),
  };
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new AppServerError(`${PROGRAM} app-server did not answer within ${limitMs / 1000} s`)),
      limitMs,
    );
  });
  try {
    const version = guardVersion();
    const conversation = (async () => {
      await session.request('initialize', { clientInfo: { name: 'guard', version } });
      send({ jsonrpc: '2.0', method: 'initialized', params: {} });
      return work(session);
    })();
    return await Promise.race([conversation, timeout]);
  } finally {
    clearTimeout(timer);
    stop();
    failAll(new AppServerError(`${PROGRAM} app-server was stopped`));
    // reaped before returning: nothing of Codex outlives the command
    await child;
  }
}

/** What `hooks/list` says for one folder. */
interface Listing {
  /** Every hook Codex loads there (user, project, plugin…). */
  readonly hooks: ListedHook[];
  /** Why Codex could not load some (a config file that does not parse, …). */
  readonly errors: string[];
}

async function listHooks(session: AppServerSession, cwd: string): Promise<Listing> {
  type Entry = { hooks?: ListedHook[]; errors?: { message?: unknown }[] };
  const result = (await session.request('hooks/list', { cwds: [cwd] })) as { data?: Entry[] } | undefined;
  const entries = result?.data ?? [];
  return {
    hooks: entries.flatMap((entry) => entry.hooks ?? []),
    errors: entries.flatMap((entry) => (entry.errors ?? []).map((error) => String(error.message))),
  };
}

// Paths as Codex reports them may have symlinks resolved (a temp folder, a linked home).
function samePath(a: string, b: string): boolean {
  const real = (path: string): string => {
    try {
      return realpathSync(path);
    } catch {
      return path;
    }
  };
  return a === b || real(a) === real(b);
}

/** guard's hooks from `file` among the listed ones. */
function guardHooks(hooks: readonly ListedHook[], file: string, commands: readonly string[]): ListedHook[] {
  return hooks.filter((hook) => commands.includes(hook.command) && samePath(hook.sourcePath, file));
}

/** Where Codex looks for `file`'s hooks: a project file only from inside that project. */
function listingCwd(file: string, io: Io): string {
  const folder = dirname(file);
  return basename(folder) === `.${PROGRAM}` ? dirname(folder) : io.cwd();
}

/** Codex's trust status of guard's hooks in `file`, straight from Codex. */
export async function listGuardHooks(
  codex: string,
  file: string,
  commands: readonly string[],
  io: Io,
  limitMs: number = APP_SERVER_LIMIT_MS,
): Promise<ListedHook[]> {
  const cwd = listingCwd(file, io);
  return withAppServer(codex, { env: io.env, cwd, limitMs }, async (session) =>
    guardHooks((await listHooks(session, cwd)).hooks, file, commands),
  );
}

/** What trusting did: guard's hooks in the file, and those Codex trusts now. */
export interface TrustResult {
  readonly total: number;
  readonly trusted: number;
  /** Hooks the person switched off in Codex: left as they are. */
  readonly disabled: number;
}

/**
 * Marks guard's hooks in `file` trusted: `hooks/list`, then `config/batchWrite` of their
 * `hooks.state` entries with the hashes Codex computed (upsert: other entries stay), then a second
 * `hooks/list` to see that Codex now trusts them. Hooks switched off in Codex stay off.
 */
export async function trustGuardHooks(
  codex: string,
  file: string,
  commands: readonly string[],
  io: Io,
  limitMs: number = APP_SERVER_LIMIT_MS,
): Promise<TrustResult> {
  const cwd = listingCwd(file, io);
  return withAppServer(codex, { env: io.env, cwd, limitMs }, async (session) => {
    const listing = await listHooks(session, cwd);
    const found = guardHooks(listing.hooks, file, commands);
    if (found.length === 0) {
      const why = listing.errors.length > 0 ? ` (${NAME} says: ${listing.errors.join('; ')})` : '';
      throw new AppServerError(`${NAME} does not load guard's hooks from ${file}${why}`);
    }
    const value = Object.fromEntries(
      found
        .filter((hook) => hook.enabled && !hook.isManaged && hook.trustStatus !== 'trusted')
        .map((hook) => [hook.key, { trusted_hash: hook.currentHash }]),
    );
    if (Object.keys(value).length > 0) {
      await session.request('config/batchWrite', {
        edits: [{ keyPath: 'hooks.state', mergeStrategy: 'upsert', value }],
        reloadUserConfig: true,
      });
    }
    const after = guardHooks((await listHooks(session, cwd)).hooks, file, commands);
    return {
      total: after.length,
      trusted: after.filter((hook) => hook.trustStatus === 'trusted').length,
      disabled: after.filter((hook) => !hook.enabled).length,
    };
  });
}

/**
 * Setup's trust step for Codex: finds `codex` on PATH and trusts guard's hooks through it, saying
 * what it did. When Codex refuses, it says why; either way setup then reads the trust back and,
 * when it is missing, names `/hooks`.
 */
export function appServerTrust(io: Io): (file: string, commands: readonly string[]) => Promise<void> {
  return async (file, commands) => {
    const codex = findOnPath(PROGRAM, io.env);
    // no Codex here: setup's next step names /hooks, which is all there is to say
    if (codex === undefined) return;
    try {
      const result = await trustGuardHooks(codex, file, commands, io);
      if (result.trusted === result.total) {
        io.out(`${NAME} (${codex}) now trusts guard's ${result.total} hooks; it recorded that in its config.toml.\n`);
      } else {
        const off = result.disabled > 0 ? ` (${result.disabled} switched off in ${NAME}: turn them on in ${MENU})` : '';
        io.out(`${NAME} (${codex}) trusts ${result.trusted} of guard's ${result.total} hooks${off}.\n`);
      }
    } catch (error) {
      if (!(error instanceof AppServerError)) throw error;
      io.out(`guard could not mark its hook trusted through \`${PROGRAM} app-server\`: ${error.message}.\n`);
    }
  };
}
