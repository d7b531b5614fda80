import type { Dialect } from './context.js';
import type { Word } from './expand.js';
import { joinMapped, sliceMapped } from './mapped.js';
import type { Mapped } from './mapped.js';
import { findOption, skipOptions } from './options.js';
import type { OptionSpec } from './options.js';
import type { Via } from './types.js';

/** A command that another command runs: as text for a shell, as an argv, or from its stdin. */
export type Nested =
  | {
      readonly kind: 'text';
      readonly via: Via;
      readonly text: Mapped;
      readonly dialect: Dialect;
      readonly remoteHost?: string;
    }
  | {
      readonly kind: 'argv';
      readonly via: Via;
      readonly from: number;
      readonly to: number;
      readonly isPackage?: boolean;
      readonly remoteHost?: string;
    }
  | { readonly kind: 'stdin'; readonly via: Via; readonly dialect: Dialect; readonly remoteHost?: string };

type Finder = (args: readonly Word[], texts: readonly string[], name: string) => Nested[];

const SHELLS = ['bash', 'sh', 'zsh', 'dash', 'ksh', 'mksh', 'ash', 'fish', 'rbash'];

/** The commands `name` runs (inner shells, `eval`, `ssh`, runners); empty for an ordinary program. */
export function nestedCommands(name: string, args: readonly Word[]): Nested[] {
  // own keys only: a program called `constructor` is not a finder
  const finder = Object.hasOwn(FINDERS, name) ? FINDERS[name] : undefined;
  return finder
    ? finder(
        args,
        args.map((w) => w.text),
        name,
      )
    : [];
}

/** True for the POSIX-like shells that read commands from `-c`, a file or stdin. */
export function isShell(name: string): boolean {
  return SHELLS.includes(name);
}

const text = (
  via: Via,
  args: readonly Word[],
  from: number,
  dialect: Dialect = 'posix',
  remoteHost?: string,
): Nested[] =>
  from < args.length
    ? [
        {
          kind: 'text',
          via,
          text: joinMapped(args.slice(from).map((w) => w.map)),
          dialect,
          ...(remoteHost === undefined ? {} : { remoteHost }),
        },
      ]
    : [];
const attached = (via: Via, word: Word | undefined, offset: number, dialect: Dialect = 'posix'): Nested[] =>
  word ? [{ kind: 'text', via, text: sliceMapped(word.map, offset, word.text.length), dialect }] : [];
const argv = (via: Via, from: number, to: number, isPackage = false): Nested[] =>
  from < to ? [{ kind: 'argv', via, from, to, ...(isPackage ? { isPackage } : {}) }] : [];

/** `bash [options] -c 'text'`, `bash script`, or `bash` reading commands from stdin. */
const shell: Finder = (args, texts, name) => {
  const via: Via = { kind: 'shell-c', name };
  let command = false;
  let stdin = false;
  let i = 0;
  for (; i < texts.length; i++) {
    const t = texts[i] ?? '';
    if (t === '--' || t === '-') {
      i++;
      break;
    }
    if (t === '--command') return attached(via, args[i + 1], 0);
    if (t.startsWith('--command=')) return attached(via, args[i], 10);
    if (t.startsWith('--')) {
      if (t === '--rcfile' || t === '--init-file') i++;
      continue;
    }
    if (!/^[-+][A-Za-z]+$/.test(t)) break;
    if (t.startsWith('-') && t.includes('c')) command = true;
    if (t.startsWith('-') && t.includes('s')) stdin = true;
    if (/[oO]$/.test(t)) i++;
  }
  if (command) return attached(via, args[i], 0);
  if (i < texts.length && !stdin) return [];
  return [{ kind: 'stdin', via: { kind: 'heredoc', name }, dialect: 'posix' }];
};

const POWERSHELL_VALUES = new Set([
  'executionpolicy',
  'ep',
  'ex',
  'exec',
  'windowstyle',
  'w',
  'workingdirectory',
  'wd',
  'configurationname',
  'config',
  'outputformat',
  'o',
  'of',
  'inputformat',
  'if',
  'inp',
  'psconsolefile',
  'settingsfile',
  'custompipename',
  'version',
  'v',
  'encodedarguments',
  'ea',
]);

/** `pwsh|powershell [-NoProfile …] -Command text…` (Windows PowerShell also takes the text without -Command). */
const powershell: Finder = (args, texts, name) => {
  const via: Via = { kind: 'shell-c', name };
  for (let i = 0; i < texts.length; i++) {
    const t = texts[i] ?? '';
    if (!t.startsWith('-') && !t.startsWith('/')) return name === 'powershell' ? text(via, args, i, 'powershell') : [];
    const option = t.slice(1).toLowerCase();
    if (option === 'c' || (option.length >= 3 && 'command'.startsWith(option))) {
      if (texts[i + 1] === '-') return [{ kind: 'stdin', via: { kind: 'heredoc', name }, dialect: 'powershell' }];
      return text(via, args, i + 1, 'powershell');
    }
    // -File runs a script; -EncodedCommand hides its text (rules judge that option itself)
    if (option === 'f' || option === 'file' || (option.startsWith('e') && !POWERSHELL_VALUES.has(option))) return [];
    if (POWERSHELL_VALUES.has(option)) i++;
  }
  return [];
};

/** `cmd /c text…` or `cmd /k text…`, after switches like `/s /q /d`. */
const cmd: Finder = (args, texts) => {
  for (let i = 0; i < texts.length; i++) {
    const t = texts[i] ?? '';
    if (/^\/[ck]$/i.test(t)) return text({ kind: 'shell-c', name: 'cmd' }, args, i + 1, 'cmd');
    if (!t.startsWith('/')) return [];
  }
  return [];
};

/** `ssh [options] host command…`: the command runs on that host; without one, stdin does. */
const ssh: Finder = (args, texts) => {
  const i = skipOptions(texts, 0, { short: 'BbcDEeFIiJLlmOopQRSWw' });
  const host = texts[i];
  if (host === undefined) return [];
  const remoteHost = host
    .replace(/^ssh:\/\//, '')
    .replace(/^.*@/, '')
    .replace(/:\d+$/, '');
  const via: Via = { kind: 'remote', name: 'ssh' };
  if (i + 1 >= texts.length) return [{ kind: 'stdin', via, dialect: 'posix', remoteHost }];
  return text(via, args, i + 1, 'posix', remoteHost);
};

/** `su [-] [user] -c text`. */
const su: Finder = (args, texts) => {
  const via: Via = { kind: 'shell-c', name: 'su' };
  for (let i = 0; i < texts.length; i++) {
    const t = texts[i] ?? '';
    if (t === '--command') return attached(via, args[i + 1], 0);
    if (t.startsWith('--command=')) return attached(via, args[i], 10);
    if (['-s', '--shell', '-g', '--group', '-G', '--supp-group', '-w', '--whitelist-environment'].includes(t)) i++;
    else if (/^-[A-Za-z]*c$/.test(t)) return attached(via, args[i + 1], 0);
  }
  return [];
};

/** `script -c text [file]`, or the BSD form `script [-q] file command…`. */
const script: Finder = (args, texts) => {
  const via: Via = { kind: 'shell-c', name: 'script' };
  const command = findOption(texts, ['-c', '--command']);
  if (command) return attached(via, args[command.index], command.offset);
  const spec: OptionSpec = {
    short: 'EIOBTmo',
    long: ['--echo', '--log-in', '--log-out', '--log-io', '--log-timing', '--logging-format', '--output-limit'],
  };
  const file = skipOptions(texts, 0, spec);
  return argv(via, file + 1, texts.length);
};

/** `watch [-n N] command…`: watch hands the joined words to `sh -c`. */
const watch: Finder = (args, texts) =>
  text(
    { kind: 'shell-c', name: 'watch' },
    args,
    skipOptions(texts, 0, { short: 'nq', long: ['--interval', '--equexit'] }),
  );

const XARGS: OptionSpec = {
  short: 'IdEsnPLa',
  long: [
    '--arg-file',
    '--delimiter',
    '--eof',
    '--replace',
    '--max-lines',
    '--max-args',
    '--max-procs',
    '--max-chars',
    '--process-slot-var',
  ],
};
const PARALLEL: OptionSpec = {
  short: 'jSaCdInNLE',
  long: [
    '--jobs',
    '--sshlogin',
    '--sshloginfile',
    '--slf',
    '--arg-file',
    '--colsep',
    '--delimiter',
    '--delay',
    '--timeout',
    '--results',
    '--res',
    '--joblog',
    '--halt',
    '--memfree',
    '--load',
    '--max-args',
    '--max-replace-args',
    '--tagstring',
    '--workdir',
    '--wd',
    '--eof',
    '--env',
    '--basefile',
    '--bf',
    '--return',
    '--retries',
    '--tmpdir',
    '--tempdir',
    '--max-lines',
    '--block',
    '--rpl',
  ],
};
const ARG_SEPARATORS = new Set([':::', '::::', ':::+', '::::+']);

/** `parallel [options] command… ::: args` composes a shell line; with no command, each argument is one. */
const parallel: Finder = (args, texts) => {
  const via: Via = { kind: 'runner', name: 'parallel' };
  const from = skipOptions(texts, 0, PARALLEL);
  let to = from;
  while (to < texts.length && !ARG_SEPARATORS.has(texts[to] ?? '')) to++;
  if (to > from) return text(via, args.slice(0, to), from);
  return args.slice(to + 1).flatMap((word) => (ARG_SEPARATORS.has(word.text) ? [] : attached(via, word, 0)));
};

/** Every `-exec`/`-execdir`/`-ok`/`-okdir` command of a `find`, up to its `;` or `{} +`. */
const find: Finder = (_args, texts) => {
  const via: Via = { kind: 'runner', name: 'find' };
  const found: Nested[] = [];
  for (let i = 0; i < texts.length; i++) {
    if (!['-exec', '-execdir', '-ok', '-okdir'].includes(texts[i] ?? '')) continue;
    let end = i + 1;
    while (end < texts.length && texts[end] !== ';' && !(texts[end] === '+' && texts[end - 1] === '{}')) end++;
    found.push(...argv(via, i + 1, end));
    i = end;
  }
  return found;
};

const DOCKER_GLOBAL: OptionSpec = {
  short: 'cHl',
  long: ['--context', '--host', '--log-level', '--config', '--tlscacert', '--tlscert', '--tlskey'],
};
const COMPOSE_GLOBAL: OptionSpec = {
  short: 'fp',
  long: [
    '--file',
    '--project-name',
    '--project-directory',
    '--profile',
    '--env-file',
    '--ansi',
    '--progress',
    '--parallel',
  ],
};
const CONTAINER_EXEC: OptionSpec = {
  short: 'euw',
  long: ['--env', '--env-file', '--user', '--workdir', '--detach-keys', '--index'],
};
const KUBECTL_OPTIONS: OptionSpec = {
  short: 'cnfs',
  long: [
    '--container',
    '--namespace',
    '--context',
    '--cluster',
    '--user',
    '--kubeconfig',
    '--filename',
    '--pod-running-timeout',
    '--server',
    '--token',
    '--as',
  ],
};

/**
 * `docker exec [options] CONTAINER command…` (also `docker container exec`, `docker compose exec
 * SERVICE …`, podman): the command runs inside the container, so it is read as run elsewhere.
 */
const containerExec: Finder = (_args, texts, name) => {
  let at = skipOptions(texts, 0, name.endsWith('-compose') ? COMPOSE_GLOBAL : DOCKER_GLOBAL);
  if (texts[at] === 'container') at++;
  else if (texts[at] === 'compose') at = skipOptions(texts, at + 1, COMPOSE_GLOBAL);
  if (texts[at] !== 'exec') return [];
  const target = skipOptions(texts, at + 1, CONTAINER_EXEC);
  const container = texts[target];
  if (container === undefined) return [];
  return remoteArgv({ kind: 'remote', name }, target + 1, texts.length, `container ${container}`);
};

/** `kubectl exec [options] POD [options] -- command…`: the command runs in the pod. */
const kubectlExec: Finder = (_args, texts, name) => {
  const at = skipOptions(texts, 0, KUBECTL_OPTIONS);
  if (texts[at] !== 'exec') return [];
  const target = skipOptions(texts, at + 1, KUBECTL_OPTIONS);
  const pod = texts[target];
  if (pod === undefined || texts[target - 1] === '--') return [];
  return remoteArgv(
    { kind: 'remote', name },
    skipOptions(texts, target + 1, KUBECTL_OPTIONS),
    texts.length,
    `pod ${pod.replace(/^pods?\//, '')}`,
  );
};

const remoteArgv = (via: Via, from: number, to: number, remoteHost: string): Nested[] =>
  from < to ? [{ kind: 'argv', via, from, to, remoteHost }] : [];

interface ShellOptions {
  /** Options whose value is a shell line (`npx -c 'cmd'`). */
  readonly call?: readonly string[];
  /** Flags after which the remaining words form a shell line (`pnpm dlx -c 'cmd' args`). */
  readonly flag?: readonly string[];
}

/** A runner that fetches a package and runs it (`npx`, `bunx`, `uvx`, `pipx run`, …). */
const packageRunner =
  (spec: OptionSpec, shellOptions: ShellOptions = {}, subcommand: readonly string[] = []): Finder =>
  (args, texts, name) => {
    let from = 0;
    for (const expected of subcommand) {
      from = skipOptions(texts, from, { short: 'C', long: ['--dir', '--cwd', '--prefix', '--filter', '--directory'] });
      if (texts[from] !== expected) return [];
      from++;
    }
    const via: Via = { kind: 'runner', name };
    const end = skipOptions(texts, from, spec);
    const call = shellOptions.call ? findOption(texts, shellOptions.call, from, end) : undefined;
    if (call) return attached(via, args[call.index], call.offset);
    const options = texts.slice(from, end);
    if (shellOptions.flag?.some((o) => options.includes(o))) return text(via, args, end);
    return argv(via, end, texts.length, true);
  };

/** A tool that runs a command in its environment (`poetry run`, `bundle exec`, `yarn exec`, …). */
const envRunner =
  (subcommand: string, spec: OptionSpec = {}): Finder =>
  (_args, texts, name) => {
    const at = skipOptions(texts, 0, { short: 'C', long: ['--cwd', '--directory', '--dir', '--prefix'] });
    if (texts[at] !== subcommand) return [];
    return argv({ kind: 'runner', name }, skipOptions(texts, at + 1, spec), texts.length);
  };

const NPX: OptionSpec = { short: 'pc', long: ['--package', '--call', '--node-options', '--cache', '--userconfig'] };
const UVX: OptionSpec = {
  short: 'wp',
  long: [
    '--from',
    '--with',
    '--with-editable',
    '--with-requirements',
    '--python',
    '--index',
    '--index-url',
    '--extra-index-url',
    '--constraints',
    '--overrides',
  ],
};
const UV_RUN: OptionSpec = {
  short: 'wp',
  long: [
    '--with',
    '--with-editable',
    '--with-requirements',
    '--python',
    '--project',
    '--directory',
    '--package',
    '--extra',
    '--group',
    '--only-group',
    '--env-file',
    '--index',
  ],
};

/** Programs that run other programs, keyed by normalised name. */
const FINDERS: Readonly<Record<string, Finder>> = {
  ...Object.fromEntries(SHELLS.map((s) => [s, shell])),
  eval: (args) => text({ kind: 'eval', name: 'eval' }, args, 0),
  pwsh: powershell,
  powershell,
  cmd,
  ssh,
  su,
  script,
  watch,
  xargs: (_args, texts) => argv({ kind: 'runner', name: 'xargs' }, skipOptions(texts, 0, XARGS), texts.length),
  parallel,
  find,
  npx: packageRunner(NPX, { call: ['-c', '--call'] }),
  pnpx: packageRunner({ long: ['--package'] }, { flag: ['-c', '--shell-mode'] }),
  bunx: packageRunner({ short: 'p', long: ['--package'] }),
  uvx: packageRunner(UVX),
  pnpm: (args, texts, name) => [
    ...packageRunner({ long: ['--package', '--allow-build', '--reporter'] }, { flag: ['-c', '--shell-mode'] }, ['dlx'])(
      args,
      texts,
      name,
    ),
    ...packageRunner(
      { short: 'F', long: ['--filter', '--resume-from', '--reporter'] },
      { flag: ['-c', '--shell-mode'] },
      ['exec'],
    )(args, texts, name),
  ],
  npm: packageRunner(NPX, { call: ['-c', '--call'] }, ['exec']),
  yarn: (args, texts, name) => [
    ...packageRunner({ short: 'p', long: ['--package'] }, {}, ['dlx'])(args, texts, name),
    ...envRunner('exec')(args, texts, name),
  ],
  bun: packageRunner({ short: 'p', long: ['--package'] }, {}, ['x']),
  uv: (args, texts, name) => [
    ...packageRunner(UVX, {}, ['tool', 'run'])(args, texts, name),
    ...envRunner('run', UV_RUN)(args, texts, name),
  ],
  pipx: packageRunner({ long: ['--spec', '--python', '--pip-args', '--index-url'] }, {}, ['run']),
  poetry: envRunner('run'),
  pipenv: envRunner('run'),
  bundle: envRunner('exec', { long: ['--gemfile'] }),
  docker: containerExec,
  podman: containerExec,
  'docker-compose': containerExec,
  'podman-compose': containerExec,
  kubectl: kubectlExec,
  oc: kubectlExec,
  busybox: (_args, texts) =>
    texts[0]?.startsWith('-') ? [] : argv({ kind: 'runner', name: 'busybox' }, 0, texts.length),
};
