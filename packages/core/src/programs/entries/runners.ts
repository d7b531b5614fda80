import type { ArgvSpec, ProgramSpec } from '../types.js';
import { SSH_COMMAND_OPTIONS } from './network.js';
import { EDITOR_ENV } from './files.js';

// Programs that run another command: prefixes in front of it (`sudo`, `env`), runners that build
// it from their operands (`xargs`, `find -exec`), runners on another computer or in a container
// (`ssh`, `docker exec`), and runners of fetched packages (`npx`, `pnpm dlx`).

const leading = (values: readonly string[] = []): ArgvSpec => ({ values, leading: true });

/** `npx` and `npm exec`: their options before the package. */
export const NPX: ArgvSpec = leading(['-p', '-c', '--package', '--call', '--node-options', '--cache', '--userconfig']);

/** `uvx` and `uv tool run`: options before the tool. */
export const UVX = [
  '-w',
  '-p',
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
];

const DOCKER_GLOBAL = [
  '-c',
  '-H',
  '-l',
  '--context',
  '--host',
  '--log-level',
  '--config',
  '--tlscacert',
  '--tlscert',
  '--tlskey',
];
const COMPOSE_GLOBAL = [
  '-f',
  '-p',
  '--file',
  '--project-name',
  '--project-directory',
  '--profile',
  '--env-file',
  '--ansi',
  '--progress',
  '--parallel',
];
const CONTAINER_EXEC = ['-e', '-u', '-w', '--env', '--env-file', '--user', '--workdir', '--detach-keys', '--index'];
/** kubectl's options that take a value, global and of its subcommands (one list for all of them). */
export const KUBECTL_VALUES = [
  '-c',
  '-n',
  '-f',
  '-s',
  '-l',
  '-k',
  '-o',
  '-p',
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
  '--as-group',
  '--selector',
  '--kustomize',
  '--output',
  '--field-selector',
  '--timeout',
  '--grace-period',
  '--patch',
  '--patch-file',
  '--type',
  '--replicas',
  '--current-replicas',
  '--field-manager',
  '--for',
  '--request-timeout',
  '--min',
  '--max',
  '--cpu-percent',
  '--to-revision',
];
/** The docker-compose-style options of `docker compose`, and its `exec`. */
const COMPOSE_SUBCOMMANDS = { exec: { argv: leading(CONTAINER_EXEC) } };
const DOCKER_SUBCOMMANDS = {
  exec: { argv: leading(CONTAINER_EXEC) },
  login: { argv: { values: ['-u', '--username', '-p', '--password'] }, secretOptions: ['-p', '--password'] },
  container: { argv: leading(), subcommands: { exec: { argv: leading(CONTAINER_EXEC) } } },
  compose: { argv: leading(COMPOSE_GLOBAL), subcommands: COMPOSE_SUBCOMMANDS },
};

export const RUNNERS: readonly ProgramSpec[] = [
  // prefixes: removed in front of the command they run, kept as facts (Invocation.prefixes)
  {
    names: ['sudo'],
    roles: ['prefix', 'other-user'],
    argv: leading([
      '-u',
      '-g',
      '-C',
      '-D',
      '-p',
      '-r',
      '-t',
      '-T',
      '-U',
      '--user',
      '--group',
      '--chdir',
      '--prompt',
      '--role',
      '--type',
      '--close-from',
      '--host',
      '--other-user',
      '--command-timeout',
    ]),
    prefix: {
      env: true,
      not: ['-e', '--edit', '-l', '--list', '-v', '--validate', '-k', '-K', '--remove-timestamp', '--reset-timestamp'],
      cwd: ['-D', '--chdir'],
    },
  },
  { names: ['doas'], roles: ['prefix', 'other-user'], argv: leading(['-u', '-C']), prefix: {} },
  {
    // `env -S 'cmd args'` splits its string into the command (with the operands after it)
    names: ['env'],
    roles: ['prefix', 'runner'],
    argv: leading(['-u', '-C', '-S', '--unset', '--chdir', '--split-string']),
    prefix: { env: true, not: ['-S', '--split-string'], cwd: ['-C', '--chdir'], dash: true },
    runs: [{ kind: 'option-text', options: ['-S', '--split-string'], rest: true }],
  },
  { names: ['command'], roles: ['prefix'], argv: leading(), prefix: { not: ['-v', '-V'] } },
  { names: ['builtin'], roles: ['prefix'], argv: leading(), prefix: {} },
  { names: ['exec'], roles: ['prefix'], argv: leading(['-a']), prefix: {} },
  { names: ['nice'], roles: ['prefix'], argv: leading(['-n', '--adjustment']), prefix: {} },
  {
    names: ['ionice'],
    roles: ['prefix'],
    argv: leading(['-c', '-n', '-p', '-P', '-u', '--class', '--classdata']),
    prefix: { not: ['-p', '--pid', '-P', '--pgid', '-u', '--uid'] },
  },
  { names: ['nohup'], roles: ['prefix'], argv: leading(), prefix: {} },
  // `sshpass -p SECRET ssh host …`: the password, then the command it types it into
  {
    names: ['sshpass'],
    roles: ['runner'],
    argv: leading(['-p', '-f', '-d', '-P']),
    runs: [{ kind: 'argv' }],
    secretOptions: ['-p'],
  },
  // what they run is read from their operands by the rules that care (guard.tamper: an agent started so)
  { names: ['prlimit'], roles: ['limiter'] },
  { names: ['time'], roles: ['prefix'], argv: leading(['-f', '-o', '--format', '--output']), prefix: {} },
  {
    names: ['timeout'],
    roles: ['prefix'],
    argv: leading(['-s', '-k', '--signal', '--kill-after']),
    prefix: { positional: 1 },
  },
  {
    names: ['stdbuf'],
    roles: ['prefix'],
    argv: leading(['-i', '-o', '-e', '--input', '--output', '--error']),
    prefix: {},
  },
  { names: ['chronic'], roles: ['prefix'], argv: leading(), prefix: {} },
  // util-linux's: a new session or namespace, a lock held, a priority or CPU set, then the command
  { names: ['setsid'], roles: ['prefix'], argv: leading(), prefix: {} },
  {
    names: ['unshare'],
    roles: ['prefix'],
    argv: leading(['-S', '-G', '--setuid', '--setgid', '-R', '--root', '-w', '--wd']),
    prefix: { cwd: ['-w', '--wd'] },
  },
  {
    // `flock FILE cmd`, `flock FILE -c 'cmd'`; `flock -u FD` runs nothing
    names: ['flock'],
    roles: ['prefix'],
    argv: { values: ['-w', '--timeout', '-E', '--conflict-exit-code', '-c', '--command'] },
    prefix: { positional: 1, not: ['-u', '--unlock', '-c', '--command'] },
    runs: [{ kind: 'option-text', options: ['-c', '--command'] }],
  },
  {
    names: ['chrt'],
    roles: ['prefix'],
    argv: leading(['-T', '-P', '-D']),
    prefix: { positional: 1, not: ['-p', '--pid'] },
  },
  { names: ['taskset'], roles: ['prefix'], argv: leading(), prefix: { positional: 1, not: ['-p', '--pid'] } },
  {
    names: ['systemd-run'],
    // runs its command, under limits it may set (`-p MemoryMax=…`)
    roles: ['prefix', 'limiter'],
    argv: leading([
      '-u',
      '--unit',
      '-p',
      '--property',
      '-E',
      '--setenv',
      '--uid',
      '--gid',
      '--slice',
      '--description',
      '--working-directory',
      '-M',
      '--machine',
      '-H',
      '--host',
    ]),
    prefix: { cwd: ['--working-directory'] },
  },
  {
    // `runuser -u USER -- cmd`, `runuser USER -c 'cmd'`
    names: ['runuser'],
    roles: ['prefix'],
    argv: leading(['-u', '--user', '-g', '--group', '-G', '--supp-group', '-c', '--command', '-s', '--shell']),
    prefix: { not: ['-c', '--command'] },
    runs: [{ kind: 'option-text', options: ['-c', '--command'] }],
  },
  { names: ['fakeroot'], roles: ['prefix'], argv: leading(['-l', '--lib', '-s', '-i', '--faked']), prefix: {} },
  { names: ['caffeinate'], roles: ['prefix'], argv: leading(['-t', '-w']), prefix: {} },

  // runners of a command built from their operands
  {
    names: ['xargs'],
    roles: ['runner'],
    runs: [{ kind: 'argv' }],
    // `-a FILE`: what it hands the command is read from FILE
    files: [{ op: 'read', options: ['-a', '--arg-file'] }],
    argv: leading([
      '-I',
      '-d',
      '-E',
      '-s',
      '-n',
      '-P',
      '-L',
      '-a',
      '--arg-file',
      '--delimiter',
      '--eof',
      '--replace',
      '--max-lines',
      '--max-args',
      '--max-procs',
      '--max-chars',
      '--process-slot-var',
    ]),
  },
  {
    names: ['parallel'],
    roles: ['runner'],
    runs: [{ kind: 'parallel' }],
    argv: leading([
      '-j',
      '-S',
      '-a',
      '-C',
      '-d',
      '-I',
      '-n',
      '-N',
      '-L',
      '-E',
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
    ]),
  },
  {
    // watch hands the joined words to `sh -c`
    names: ['watch'],
    roles: ['runner'],
    runs: [{ kind: 'watch' }],
    argv: leading(['-n', '-q', '--interval', '--equexit']),
  },
  {
    names: ['script'],
    roles: ['runner'],
    runs: [{ kind: 'script' }],
    argv: leading([
      '-c',
      '-E',
      '-I',
      '-O',
      '-B',
      '-T',
      '-m',
      '-o',
      '--command',
      '--echo',
      '--log-in',
      '--log-out',
      '--log-io',
      '--log-timing',
      '--logging-format',
      '--output-limit',
    ]),
  },
  {
    names: ['su'],
    roles: ['runner', 'other-user'],
    runs: [{ kind: 'su' }],
    argv: {
      values: [
        '-c',
        '--command',
        '-s',
        '--shell',
        '-g',
        '--group',
        '-G',
        '--supp-group',
        '-w',
        '--whitelist-environment',
      ],
    },
  },

  // runners elsewhere: on another computer, in a container, in a pod
  {
    // the words after the host run there; `-o ProxyCommand=…` runs here, to make the connection
    names: ['ssh'],
    roles: ['remote-runner', 'ssh-client'],
    runs: [
      { kind: 'ssh' },
      { kind: 'option-text', options: ['-o'], keys: SSH_COMMAND_OPTIONS },
      // the program that asks for a password (run when there is no terminal, or SSH_ASKPASS_REQUIRE says so)
      { kind: 'option-text', env: ['SSH_ASKPASS'] },
    ],
    argv: leading([
      '-B',
      '-b',
      '-c',
      '-D',
      '-E',
      '-e',
      '-F',
      '-I',
      '-i',
      '-J',
      '-L',
      '-l',
      '-m',
      '-O',
      '-o',
      '-p',
      '-P',
      '-Q',
      '-R',
      '-S',
      '-W',
      '-w',
    ]),
  },
  {
    // its options may follow the subcommand (`docker volume rm -f x`): read anywhere
    names: ['docker', 'podman', 'nerdctl'],
    roles: ['remote-runner'],
    runs: [{ kind: 'container-exec' }],
    argv: { values: DOCKER_GLOBAL },
    subcommands: DOCKER_SUBCOMMANDS,
  },
  {
    names: ['docker-compose', 'podman-compose'],
    roles: ['remote-runner'],
    runs: [{ kind: 'container-exec' }],
    argv: { values: COMPOSE_GLOBAL },
    subcommands: COMPOSE_SUBCOMMANDS,
  },
  {
    names: ['kubectl', 'oc'],
    roles: ['remote-runner'],
    // `kubectl edit` runs the editor
    runs: [{ kind: 'kubectl-exec' }, { kind: 'option-text', env: ['KUBE_EDITOR', ...EDITOR_ENV] }],
    argv: { values: KUBECTL_VALUES },
    credentials: [
      // the kubeconfig with its client keys and tokens (without --raw, redacted)
      { path: ['config', 'view'], when: ['--raw'] },
      { path: ['get', 'secret'], when: ['-o', '--output'] },
      { path: ['get', 'secrets'], when: ['-o', '--output'] },
      { path: ['create', 'token'] },
    ],
  },

  // runners of fetched packages and of a tool's environment
  {
    names: ['npx'],
    roles: ['package-runner'],
    runs: [
      {
        kind: 'package-runner',
        call: ['-c', '--call'],
        argv: NPX,
      },
    ],
  },
  {
    names: ['pnpx'],
    roles: ['package-runner'],
    runs: [{ kind: 'package-runner', flag: ['-c', '--shell-mode'], argv: leading(['--package']) }],
  },
  {
    names: ['bunx'],
    roles: ['package-runner'],
    runs: [{ kind: 'package-runner', argv: leading(['-p', '--package']) }],
  },
  {
    names: ['uvx'],
    roles: ['package-runner'],
    runs: [{ kind: 'package-runner', argv: leading(UVX) }],
  },

  // task runners and test runners that run the project's own code (read when the chat wrote it)
  { names: ['pytest', 'py.test'], projectCode: { kinds: ['args', 'pytest', 'python'] } },
  {
    names: ['vitest'],
    projectCode: {
      kinds: ['args', 'js-tests'],
      files: ['vitest.config.ts', 'vitest.config.js', 'vitest.config.mts', 'vite.config.ts', 'vite.config.js'],
      language: 'node',
    },
  },
  {
    names: ['jest'],
    projectCode: {
      kinds: ['args', 'js-tests'],
      files: ['jest.config.js', 'jest.config.ts', 'jest.config.cjs', 'jest.config.mjs'],
      language: 'node',
    },
  },
  { names: ['mocha', 'ava'], projectCode: { kinds: ['args', 'js-tests'] } },
  {
    names: ['gulp'],
    projectCode: { kinds: [], files: ['gulpfile.js', 'gulpfile.cjs', 'gulpfile.mjs', 'gulpfile.ts'], language: 'node' },
  },
  {
    names: ['grunt'],
    projectCode: { kinds: [], files: ['Gruntfile.js', 'Gruntfile.cjs', 'gruntfile.js'], language: 'node' },
  },
  { names: ['just'], projectCode: { kinds: [], files: ['justfile', 'Justfile', '.justfile'] } },
];
