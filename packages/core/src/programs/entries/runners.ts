import type { ArgvSpec, ProgramSpec, Runs } from '../types.js';
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

const SCREEN = ['-S', '-c', '-e', '-h', '-p', '-t', '-T', '-X', '-Logfile'];
/** tmux's commands that start a pane or a window with a command, and send-keys, which types one into it. */
const TMUX_COMMANDS = [
  'new-session',
  'new',
  'new-window',
  'neww',
  'split-window',
  'splitw',
  'respawn-pane',
  'respawnp',
  'respawn-window',
  'respawnw',
  'send-keys',
  'send',
];
const TMUX_VALUES = ['-c', '-e', '-F', '-n', '-s', '-t', '-x', '-y', '-l', '-f', '-N'];
const WATCHEXEC = [
  '-w',
  '--watch',
  '-W',
  '--watch-non-recursive',
  '-e',
  '--exts',
  '-f',
  '--filter',
  '-i',
  '--ignore',
  '--ignore-file',
  '--filter-file',
  '-d',
  '--debounce',
  '--delay-run',
  '-s',
  '--signal',
  '--stop-signal',
  '--stop-timeout',
  '-E',
  '--env',
  '--shell',
  '--project-origin',
  '--workdir',
  '--on-busy-update',
  '--poll',
  '--color',
  '--emit-events-to',
];
/** cargo-watch's options that take a value (`-x` a cargo command, `-s` a shell line). */
export const CARGO_WATCH = [
  '-x',
  '--exec',
  '-s',
  '--shell',
  '-w',
  '--watch',
  '-i',
  '--ignore',
  '-d',
  '--delay',
  '-C',
  '--workdir',
];
const HYPERFINE: ArgvSpec = {
  values: [
    '-w',
    '--warmup',
    '-m',
    '--min-runs',
    '-M',
    '--max-runs',
    '-r',
    '--runs',
    '-s',
    '--setup',
    '-p',
    '--prepare',
    '-c',
    '--cleanup',
    '--conclude',
    '-S',
    '--shell',
    '-n',
    '--command-name',
    '-u',
    '--time-unit',
    '--style',
    '--sort',
    '--output',
    '--export-json',
    '--export-csv',
    '--export-markdown',
    '--export-asciidoc',
    '--export-orgmode',
  ],
  pairs: ['-L', '--parameter-list'],
};
const MISE_EXEC = ['-c', '--command', '-C', '--cd', '-j', '--jobs'];
/** nix's options that take a value (`--arg NAME VALUE` and the like take two). */
const NIX: ArgvSpec = {
  values: ['-f', '--file', '-I', '--include', '--expr', '--profile', '-A', '--attr'],
  pairs: ['--arg', '--argstr', '--option', '--override-input'],
};
/** nix-shell's: its `--run` and `--command` take the line it runs. */
const NIX_SHELL: ArgvSpec = { ...NIX, values: [...(NIX.values ?? []), '--run', '--command'] };
const SECRETS_RUN = leading([
  '-p',
  '--project',
  '-c',
  '--config',
  '-t',
  '--token',
  '--env',
  '--path',
  '--projectId',
  '--domain',
  '--tags',
  '--command',
]);
/** `doppler run -- cmd`, `infisical run --env=prod -- cmd`, `… run --command 'cmd'`: a command with the secrets. */
export const SECRETS_RUNS: readonly Runs[] = [
  { kind: 'env-runner', path: ['run'], argv: SECRETS_RUN },
  { kind: 'option-text', path: ['run'], argv: SECRETS_RUN, options: ['--command'] },
];

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

  // wrappers that run a command under a tracer, a fake display, a sandbox or a new session
  { names: ['cross-env'], roles: ['prefix'], argv: leading(), prefix: { env: true } },
  {
    names: ['xvfb-run'],
    roles: ['prefix'],
    argv: leading(['-n', '--server-num', '-s', '--server-args', '-f', '--auth-file', '-e', '--error-file', '-p']),
    prefix: {},
  },
  { names: ['unbuffer', 'valgrind', 'firejail'], roles: ['prefix'], argv: leading(), prefix: {} },
  { names: ['dbus-run-session'], roles: ['prefix'], argv: leading(['--config-file', '--dbus-daemon']), prefix: {} },
  {
    // `strace -p PID` watches a running process: it runs nothing
    names: ['strace', 'ltrace'],
    roles: ['prefix'],
    argv: leading(['-o', '-e', '-s', '-u', '-E', '-S', '-P', '-I', '-b', '-O', '-X', '-a', '-n', '-l', '-x', '-p']),
    prefix: { not: ['-p', '--attach'] },
  },
  { names: ['sg'], runs: [{ kind: 'option-text', options: ['-c'] }], argv: { values: ['-c'] } },
  { names: ['screen'], roles: ['runner'], runs: [{ kind: 'argv' }], argv: leading(SCREEN) },
  {
    // `tmux new -d 'cmd'`, `tmux send-keys -t s 'cmd' Enter`: a shell in the new pane runs what it is given
    names: ['tmux'],
    roles: ['runner'],
    argv: leading(['-L', '-S', '-f', '-T']),
    runs: TMUX_COMMANDS.map((sub) => ({
      kind: 'env-runner' as const,
      path: [sub],
      argv: leading(TMUX_VALUES),
      shell: true,
    })),
  },
  // `expect -c 'spawn cmd args; expect eof'`: what it spawns runs
  {
    names: ['expect'],
    runs: [{ kind: 'option-text', options: ['-c'], keys: ['spawn'] }],
    argv: { values: ['-c', '-f'] },
  },
  // `at now <<< 'cmd'`, `echo cmd | batch`: the commands on its stdin run later
  {
    names: ['at', 'batch'],
    roles: ['runner'],
    runs: [{ kind: 'env-runner', stdin: true }],
    argv: { values: ['-f', '-q', '-t', '-u'] },
  },
  {
    // `watchexec -e ts -- cmd args`: the words are joined into a line its shell runs on every change
    names: ['watchexec'],
    roles: ['runner'],
    runs: [{ kind: 'env-runner', shell: true }],
    argv: leading(WATCHEXEC),
  },
  { names: ['entr'], roles: ['runner'], runs: [{ kind: 'argv' }], argv: leading() },
  {
    names: ['nodemon'],
    runs: [{ kind: 'option-text', options: ['-x', '--exec'] }],
    argv: { values: ['-x', '--exec', '-w', '--watch', '-e', '--ext', '-i', '--ignore', '-d', '--delay', '--signal'] },
  },
  {
    names: ['cargo-watch'],
    runs: [{ kind: 'option-text', options: ['-s', '--shell'] }],
    argv: { values: CARGO_WATCH },
  },
  {
    // `hyperfine 'cmd a' 'cmd b'`: each operand, and its setup, prepare and cleanup lines, run in a shell
    names: ['hyperfine'],
    runs: [
      { kind: 'env-runner', each: true, argv: HYPERFINE },
      { kind: 'option-text', options: ['-s', '--setup', '-p', '--prepare', '-c', '--cleanup', '--conclude'] },
    ],
    argv: HYPERFINE,
  },

  // tools that run a command in an environment they set up (tools, variables, secrets, a shell)
  {
    names: ['mise', 'rtx'],
    runs: ['exec', 'x'].flatMap((sub) => [
      { kind: 'env-runner' as const, path: [sub], dashdash: true },
      { kind: 'option-text' as const, path: [sub], argv: leading(MISE_EXEC), options: ['-c', '--command'] },
    ]),
  },
  {
    names: ['devbox'],
    runs: [{ kind: 'env-runner', path: ['run'], argv: leading(['-c', '--config', '-e', '--env', '--env-file']) }],
  },
  {
    // `nix develop -c cmd args`, `nix shell nixpkgs#jq --command jq …`
    names: ['nix'],
    argv: NIX,
    runs: ['develop', 'shell'].map((sub) => ({
      kind: 'env-runner' as const,
      path: [sub],
      argv: NIX,
      after: ['-c', '--command'],
    })),
  },
  { names: ['nix-shell'], runs: [{ kind: 'option-text', options: ['--run', '--command'] }], argv: NIX_SHELL },
  {
    // dotenv-cli's `dotenv -e .env -- cmd`, python-dotenv's `dotenv -f .env run cmd`
    names: ['dotenv', 'dotenv-cli'],
    runs: [
      { kind: 'env-runner', path: ['run'], argv: leading(['-f', '--file', '-e', '--export']) },
      { kind: 'env-runner', argv: leading(['-e', '-v', '-p']) },
    ],
    argv: leading(['-e', '-v', '-p', '-f', '--file']),
  },
  { names: ['direnv'], runs: [{ kind: 'env-runner', path: ['exec'], skip: 1 }] },
  { names: ['asdf', 'pyenv', 'rbenv', 'nodenv', 'goenv', 'jenv'], runs: [{ kind: 'env-runner', path: ['exec'] }] },
  // secret managers that put secrets in a command's environment (op, doppler, infisical) run it too: entries/secrets.ts
  {
    names: ['aws-vault'],
    runs: [
      {
        kind: 'env-runner',
        path: ['exec'],
        skip: 1,
        argv: leading(['-d', '--duration', '-t', '--mfa-token', '-r', '--region', '--prompt', '--backend']),
      },
    ],
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
