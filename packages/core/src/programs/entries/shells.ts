import type { ProgramSpec, Runs } from '../types.js';

// Shells and the programs that run shell text. A shell is a script runner too: `bash x.sh` runs
// x.sh. How each takes its commands is `source` (see ../sources.ts); the syntax is `dialect`.

/** POSIX shells' options that take a value; `-c` is a flag (the command is the first operand). */
const POSIX_SHELL = {
  values: ['-o', '+o', '-O', '+O', '--rcfile', '--init-file', '--command'],
  plus: true,
  leading: true,
} as const;

/** PowerShell's own parameters that take a value (as written, or abbreviated as PowerShell allows). */
const POWERSHELL_PARAMETERS = [
  '-ExecutionPolicy',
  '-ep',
  '-ex',
  '-exec',
  '-WindowStyle',
  '-w',
  '-WorkingDirectory',
  '-wd',
  '-ConfigurationName',
  '-config',
  '-OutputFormat',
  '-o',
  '-of',
  '-InputFormat',
  '-if',
  '-inp',
  '-PSConsoleFile',
  '-SettingsFile',
  '-CustomPipeName',
  '-Version',
  '-v',
  '-EncodedArguments',
  '-ea',
];

/**
 * What a shell runs of its environment as it starts and as it goes: the file BASH_ENV or ENV
 * names (read as the command it amounts to, since its value is expanded first: `$(cmd)` runs),
 * PROMPT_COMMAND before each prompt, and the commands substituted in its prompts and trace prefix.
 */
const SHELL_START: readonly Runs[] = [
  { kind: 'option-text', env: ['BASH_ENV', 'ENV', 'PROMPT_COMMAND'] },
  { kind: 'option-text', env: ['PS0', 'PS1', 'PS2', 'PS4'], substitutions: true },
];

export const SHELLS: readonly ProgramSpec[] = [
  {
    names: ['sh', 'bash', 'dash', 'zsh', 'ksh', 'mksh', 'ash', 'rbash', 'fish'],
    roles: ['shell', 'script-runner'],
    source: 'shell',
    dialect: 'posix',
    script: 'shell',
    argv: POSIX_SHELL,
    runs: SHELL_START,
  },
  {
    // `pwsh x.ps1` runs a script; `pwsh -Command text` and `pwsh -File x.ps1` as spelt out
    names: ['pwsh'],
    roles: ['shell', 'script-runner'],
    source: 'powershell',
    dialect: 'powershell',
    script: 'powershell',
    argv: { values: POWERSHELL_PARAMETERS, words: true, slash: true, leading: true },
  },
  {
    // Windows PowerShell also takes its command text without -Command
    names: ['powershell'],
    roles: ['shell', 'script-runner'],
    source: 'powershell',
    dialect: 'powershell',
    script: 'powershell',
    argv: { values: POWERSHELL_PARAMETERS, words: true, slash: true, leading: true },
  },
  {
    names: ['cmd'],
    roles: ['shell', 'cmd-command'],
    source: 'cmd',
    dialect: 'cmd',
    argv: { slash: true, leading: true },
  },
  { names: ['eval'], roles: ['evaluator'], source: 'eval', dialect: 'posix' },
  // `trap 'cmd' EXIT`: the shell runs cmd when the signal comes, or as it exits
  { names: ['trap'], runs: [{ kind: 'option-text', operand: 0, same: true }] },
  { names: ['source', '.'], roles: ['script-runner'], source: 'source', script: 'shell' },
  {
    // `busybox sh …`, `busybox rm …`: the applet and its words are a command
    names: ['busybox'],
    roles: ['runner'],
    script: 'shell',
    runs: [{ kind: 'argv', stdio: true }],
    argv: { leading: true },
  },
];
