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
const CLONE: ArgvSpec = {
  values: [
    '-b',
    '--branch',
    '-o',
    '--origin',
    '-c',
    '--config',
    '-u',
    '--upload-pack',
    '-j',
    '--jobs',
    '--depth',
    '--shallow-since',
    '--shallow-exclude',
    '--reference',
    '--reference-if-able',
    '--separate-git-dir',
    '--template',
    '--filter',
    '--server-option',
    '--bundle-uri',
    '--revision',
  ],
};
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
      push: { argv: PUSH, remote: 'sends' },
      commit: { argv: COMMITTING },
      merge: { argv: COMMITTING },
      pull: { argv: COMMITTING, remote: 'fetches' },
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
      // `git worktree add [-b NAME] PATH [COMMIT]`: a checkout is written at PATH
      worktree: {
        subcommands: { add: { argv: { values: ['-b', '-B', '--reason'] }, files: [{ op: 'write', operands: 0 }] } },
      },
      // `git clone URL DIR`: the checkout is written at DIR
      clone: { argv: CLONE, remote: 'fetches', files: [{ op: 'write', operands: 1 }] },
      fetch: { remote: 'fetches' },
      'ls-remote': { remote: 'fetches' },
      submodule: { remote: 'fetches' },
      // `git show HEAD:.env`, `git cat-file -p main:config/.env`: a file's text as a commit (or the
      // index) holds it; `cat-file -t/-s/-e` tell only its type, size or presence
      show: { looks: true, files: [{ op: 'read', operands: 'all', within: 'object' }] },
      'cat-file': {
        looks: true,
        files: [{ op: 'read', operands: 'all', within: 'object', unless: ['-t', '-s', '-e'] }],
      },
      // they only show what the repository holds
      status: { looks: true },
      log: { looks: true },
      diff: { looks: true },
      'rev-parse': { looks: true },
      'ls-files': { looks: true },
      'ls-tree': { looks: true },
      blame: { looks: true },
      grep: { looks: true },
      describe: { looks: true },
      shortlog: { looks: true },
    },
  },
];
