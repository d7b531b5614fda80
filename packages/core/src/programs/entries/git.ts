import type { ArgvSpec, ProgramSpec } from '../types.js';

// git: global options before the subcommand (`git -C dir -c k=v push`), then the subcommand's
// own. Several `-C` add up (see the reader's folder tracking, `cwd`).

/** What `git commit` and the other subcommands that run hooks take (`-m msg`, `-S[KEYID]`). */
const COMMITTING: ArgvSpec = {
  values: [
    '-m',
    '-F',
    '-c',
    '-C',
    '-t',
    '--message',
    '--file',
    '--author',
    '--date',
    '--template',
    '--reuse-message',
    '--reedit-message',
    '--fixup',
    '--squash',
    '--trailer',
    '--cleanup',
    '--pathspec-from-file',
    '--repo',
    '--push-option',
    '--receive-pack',
    '--exec',
    '--strategy',
    '--strategy-option',
    '--onto',
  ],
  optional: ['-S', '-u', '--gpg-sign', '--untracked-files'],
};
const ADD: ArgvSpec = { values: ['--chmod', '--pathspec-from-file'] };
const PUSH: ArgvSpec = { values: ['-o', '--push-option', '--repo', '--receive-pack', '--exec'] };

export const GIT: readonly ProgramSpec[] = [
  {
    names: ['git'],
    argv: {
      values: ['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--exec-path', '--config-env'],
      leading: true,
    },
    cwd: ['-C'],
    // its aliases, and the commands its settings and environment name (core.sshCommand, GIT_PAGER, …)
    runs: [{ kind: 'git' }],
    subcommands: {
      push: { argv: PUSH },
      commit: { argv: COMMITTING },
      merge: { argv: COMMITTING },
      pull: { argv: COMMITTING },
      rebase: { argv: COMMITTING },
      am: { argv: COMMITTING },
      add: { argv: ADD },
      stage: { argv: ADD },
      checkout: { argv: { values: ['-b', '-B', '--orphan', '-c', '-C', '--conflict', '--pathspec-from-file'] } },
      restore: { argv: { values: ['-s', '--source', '--conflict', '--pathspec-from-file'] } },
      clean: { argv: { values: ['-e', '--exclude'] } },
      stash: {},
      branch: {
        argv: {
          values: [
            '-u',
            '--set-upstream-to',
            '--contains',
            '--no-contains',
            '--merged',
            '--no-merged',
            '--points-at',
            '--sort',
            '--format',
          ],
        },
      },
      worktree: { subcommands: { add: { argv: { values: ['-b', '-B', '--reason'] } } } },
    },
  },
];
