import { describe, expect, it } from 'vitest';
import { readCommand } from '@guard/core';
import type { Invocation } from '@guard/core';
import { formatVia, OPTIONS } from './read-table.js';

// Programs that run a command: the knowledge base's runners say where the command starts (`poetry
// run`, `nix develop -c`, `git submodule foreach`, …); a program guard does not know whose words
// start a program it knows may run them, and they are read as a command marked `guessed`.

/** The command found: its program and words as the rules see them, how it was reached, and whether it was guessed. */
interface Found {
  readonly line: string;
  /** `program args…` of the command run. */
  readonly runs: string;
  /** formatVia of the way to it. */
  readonly via: string;
  /** Reached through a program guard does not know. */
  readonly guessed?: boolean;
}

function commandOf(line: string, runs: string): Invocation | undefined {
  const read = readCommand(line, OPTIONS);
  return read.invocations.find((inv) => [inv.program, ...inv.args].join(' ') === runs);
}

const guessed = (inv: Invocation): boolean => inv.via.some((v) => v.guessed === true);

/** The row's command is read, reached the way it says, guessed or not. */
const finds =
  (isGuessed: boolean) =>
  ({ line, runs, via }: Found): void => {
    const inv = commandOf(line, runs);
    expect(inv, runs).toBeDefined();
    expect(formatVia((inv as Invocation).via)).toBe(via);
    expect(guessed(inv as Invocation)).toBe(isGuessed);
  };

/** No command of that name is read from the row's line. */
function readsNo({ line, absent }: { line: string; absent: string }): void {
  const read = readCommand(line, OPTIONS);
  expect(read.invocations.map((inv) => inv.name)).not.toContain(absent);
}

describe('a runner in the knowledge base: the command starts where its entry says', () => {
  it.for<Found>([
    { line: 'poetry run pytest -- -x', runs: 'pytest -- -x', via: 'poetry' },
    { line: 'poetry run -- rm -rf build', runs: 'rm -rf build', via: 'poetry' },
    { line: 'hatch -e test run git push -f', runs: 'git push -f', via: 'hatch' },
    { line: 'pdm run git push -f', runs: 'git push -f', via: 'pdm' },
    { line: 'rye run git push -f', runs: 'git push -f', via: 'rye' },
    { line: 'conda run -n base git push -f', runs: 'git push -f', via: 'conda' },
    { line: 'micromamba run --name dev git push -f', runs: 'git push -f', via: 'micromamba' },
    { line: 'uv run --with rich -- git push -f', runs: 'git push -f', via: 'uv' },
    { line: 'mise exec node@20 python@3.12 -- git push -f', runs: 'git push -f', via: 'mise' },
    { line: 'mise x -- git push -f', runs: 'git push -f', via: 'mise' },
    { line: "mise exec --command 'git push -f'", runs: 'git push -f', via: 'mise -c' },
    { line: 'devbox run -c . -- git push -f', runs: 'git push -f', via: 'devbox' },
    { line: 'nix develop .#ci --command git push -f', runs: 'git push -f', via: 'nix' },
    { line: 'nix shell nixpkgs#git -c git push -f', runs: 'git push -f', via: 'nix' },
    { line: "nix-shell -p git --run 'git push -f'", runs: 'git push -f', via: 'nix-shell -c' },
    { line: 'dotenv -e .env.test -- git push -f', runs: 'git push -f', via: 'dotenv' },
    { line: 'dotenv -f .env run git push -f', runs: 'git push -f', via: 'dotenv' },
    { line: 'npx dotenv-cli -- git push -f', runs: 'git push -f', via: 'npx > dotenv-cli' },
    { line: 'cross-env NODE_ENV=production git push -f', runs: 'git push -f', via: 'cross-env' },
    { line: 'direnv exec ./app git push -f', runs: 'git push -f', via: 'direnv' },
    { line: 'asdf exec git push -f', runs: 'git push -f', via: 'asdf' },
    { line: 'op run --env-file=.env.tpl -- git push -f', runs: 'git push -f', via: 'op' },
    { line: 'doppler run -- git push -f', runs: 'git push -f', via: 'doppler' },
    { line: "infisical run --command 'git push -f'", runs: 'git push -f', via: 'infisical -c' },
    { line: 'aws-vault exec prod -- git push -f', runs: 'git push -f', via: 'aws-vault' },
    { line: 'watchexec -e ts -- git push -f', runs: 'git push -f', via: 'watchexec -c' },
    { line: 'ls *.go | entr -r git push -f', runs: 'git push -f', via: 'entr' },
    { line: "nodemon --exec 'git push -f'", runs: 'git push -f', via: 'nodemon -c' },
    { line: "cargo watch -x check -s 'git push -f'", runs: 'git push -f', via: 'cargo -c' },
    { line: "hyperfine --warmup 3 'npm test' 'git push -f'", runs: 'git push -f', via: 'hyperfine -c' },
    { line: "tmux new-session -d -s x 'git push -f'", runs: 'git push -f', via: 'tmux -c' },
    { line: "tmux send-keys -t dev 'git push -f' Enter", runs: 'git push -f Enter', via: 'tmux -c' },
    { line: 'screen -dmS x git push -f', runs: 'git push -f', via: 'screen' },
    { line: "expect -c 'spawn git push -f; expect eof'", runs: 'git push -f', via: 'expect -c' },
    { line: "at now + 1 minute <<< 'git push -f'", runs: 'git push -f', via: 'at <<' },
    { line: 'strace -f -o /tmp/t git push -f', runs: 'git push -f', via: 'strace' },
    { line: 'xvfb-run -a git push -f', runs: 'git push -f', via: 'xvfb-run' },
    { line: "sg docker -c 'git push -f'", runs: 'git push -f', via: 'sg -c' },
    { line: 'git bisect run git push -f', runs: 'git push -f', via: 'git' },
    { line: "git submodule foreach --recursive 'git push -f'", runs: 'git push -f', via: 'git -c' },
    { line: "git rebase -i --exec='git push -f' origin/main", runs: 'git push -f', via: 'git -c' },
    { line: "git rebase main -x 'git push -f'", runs: 'git push -f', via: 'git -c' },
    { line: 'npm x -- git push -f', runs: 'git push -f', via: 'npm' },
    { line: 'npm exec -- git push -f', runs: 'git push -f', via: 'npm' },
  ])('$line', finds(false));
});

describe('a runner in the knowledge base: near misses run nothing, or not that', () => {
  it.for<{ line: string; absent: string }>([
    // a script of the tool's own, not a program
    { line: 'devbox run build', absent: 'git' },
    // the options of `mise exec` end at `--`; its tools are not the command
    { line: 'mise exec node@20', absent: 'node@20' },
    // without -c, nix develop only opens a shell
    { line: 'nix develop .#ci', absent: '.#ci' },
    { line: 'git rebase -i origin/main', absent: 'origin/main' },
    // cherry-pick's -x is a flag, not rebase's --exec
    { line: 'git cherry-pick -x abc123', absent: 'abc123' },
    { line: 'git submodule update --init', absent: 'update' },
    { line: 'git bisect start', absent: 'start' },
    { line: 'strace -p 4242', absent: '4242' },
    { line: 'tmux ls', absent: 'ls' },
    { line: 'doppler secrets download --no-file', absent: 'download' },
    { line: 'hyperfine --export-json out.json --runs 5 "npm test"', absent: 'out.json' },
  ])('$line', readsNo);
});

describe('a program guard does not know: the command its words start is read, marked guessed', () => {
  it.for<Found>([
    { line: 'mytool git push --force', runs: 'git push --force', via: 'mytool', guessed: true },
    { line: './scripts/with-env.sh git push -f', runs: 'git push -f', via: 'with-env.sh', guessed: true },
    { line: 'frobnicate --verbose -- rm -rf build', runs: 'rm -rf build', via: 'frobnicate', guessed: true },
    { line: 'runwith prod git push -f', runs: 'git push -f', via: 'runwith', guessed: true },
    // `exec` is a program guard knows (the shell's), so the command is found through it
    { line: 'acme exec api -- rm -rf build', runs: 'rm -rf build', via: 'acme > exec > api', guessed: true },
    { line: 'withenv A=1 B=2 C=3 git push -f', runs: 'git push -f', via: 'withenv', guessed: true },
    { line: 'mytool /usr/bin/git push -f', runs: '/usr/bin/git push -f', via: 'mytool', guessed: true },
    // an option's value that is a program's name, and the command after it
    { line: 'mytool -C dir git push -f', runs: 'git push -f', via: 'mytool', guessed: true },
    // what it runs is read further as usual
    { line: "mytool bash -c 'git push -f'", runs: 'git push -f', via: 'mytool > bash -c', guessed: true },
    { line: 'mytool sudo git push -f', runs: 'git push -f', via: 'mytool > sudo', guessed: true },
    { line: 'unknownwrapper guard off', runs: 'guard off', via: 'unknownwrapper', guessed: true },
    // cmake -E rm really deletes: cmake has no entry, and its words start rm
    { line: 'cmake -E rm -rf build', runs: 'rm -rf build', via: 'cmake', guessed: true },
    // a runner's command that guard does not know, in turn
    { line: 'poetry run mytool git push -f', runs: 'git push -f', via: 'poetry > mytool', guessed: true },
  ])('$line', finds(true));
});

describe('a program guard does not know: near misses read no command', () => {
  it.for<{ line: string; absent: string }>([
    // a plain word that is no program
    { line: 'mycli deploy', absent: 'deploy' },
    // more than two words of its own before it
    { line: 'mycli one two three git push -f', absent: 'git' },
    // a word with blanks is data (a message, a query), and ends the search
    { line: 'mycli "fix the build" git push -f', absent: 'git' },
    { line: "mycli 'git push -f'", absent: 'git' },
    // a relative path is a file, not a program (`src/test`)
    { line: 'mycli src/test -f x', absent: 'test' },
    // after `--` only the next word may start a command
    { line: 'mycli -- deploy git push -f', absent: 'git' },
    // known programs are read by their entries, which say they run nothing here
    { line: 'echo git push --force', absent: 'git' },
    { line: 'grep rm Makefile', absent: 'rm' },
    { line: 'tldr git push', absent: 'git' },
    { line: 'guard explain -- rm -rf dist', absent: 'rm' },
    // a function defined in the line runs its body, not its words
    { line: 'f() { echo "$1"; }; f rm -rf build', absent: 'rm' },
    // an unresolved word is no program
    { line: 'mycli "$TOOL" push -f', absent: 'push' },
  ])('$line', readsNo);

  it('reads no guess in a line PowerShell runs', () => {
    const read = readCommand('Measure-Command { git push --force }', OPTIONS);
    expect(read.invocations.filter(guessed)).toEqual([]);
  });
});
