import type { ArgvSpec, FileUse, OptionText, ProgramSpec } from '../types.js';

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
/**
 * The subcommands that change the working tree write files the repository decides anywhere in the
 * folder git runs in (`git -C dir checkout -- f`, `git stash pop`, `git pull`).
 */
const TREE: readonly FileUse[] = [{ op: 'write', how: 'into', here: true }];
/** The same, but not with the options that only look or change only the index. */
const treeUnless = (unless: readonly string[]): readonly FileUse[] => [
  { op: 'write', how: 'into', here: true, unless },
];
const PUSH: ArgvSpec = { values: ['-o', '--push-option', '--repo', '--receive-pack', '--exec'] };
/** `--upload-pack CMD`: the command run for the other side of a fetch (on this computer, for a local or `ext::` remote). */
const UPLOAD_PACK: readonly OptionText[] = [{ kind: 'option-text', options: ['--upload-pack', '-u'] }];
const FETCHING: ArgvSpec = {
  values: ['--upload-pack', '--depth', '--shallow-since', '--shallow-exclude', '-j', '--jobs'],
};

export const GIT: readonly ProgramSpec[] = [
  {
    names: ['git'],
    argv: {
      values: ['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--exec-path', '--config-env'],
      leading: true,
    },
    // `--work-tree DIR`: the checkout it changes is DIR
    cwd: ['-C', '--work-tree'],
    // its aliases, and the commands its settings and environment name (core.sshCommand, GIT_PAGER, …)
    // and the commands its subcommands run: `bisect run CMD`, `submodule foreach CMD` (`rebase --exec` is its subcommand's)
    runs: [
      { kind: 'git' },
      { kind: 'env-runner', path: ['bisect', 'run'] },
      { kind: 'env-runner', path: ['submodule', 'foreach'], shell: true },
    ],
    credentials: [
      { path: ['credential', 'fill'] },
      // a credential helper asked directly (`git credential-osxkeychain get`)
      { path: ['credential-*', 'get'] },
      { path: ['config'], named: true },
    ],
    secretSettings: [['config']],
    subcommands: {
      push: { argv: PUSH, remote: 'sends', runs: [{ kind: 'option-text', options: ['--receive-pack', '--exec'] }] },
      commit: { argv: COMMITTING },
      merge: { argv: COMMITTING, files: TREE },
      pull: {
        argv: { ...COMMITTING, values: [...(COMMITTING.values ?? []), '--upload-pack'] },
        remote: 'fetches',
        files: TREE,
        runs: UPLOAD_PACK,
      },
      // `--exec CMD`, `-x CMD`: run after each commit it makes
      rebase: {
        argv: {
          ...COMMITTING,
          values: [
            ...(COMMITTING.values ?? []),
            ...['-x', '--exec', '--onto', '-s', '--strategy', '-X', '--strategy-option', '-C', '--whitespace'],
          ],
        },
        files: TREE,
        runs: [{ kind: 'option-text', options: ['--exec', '-x'] }],
      },
      // `--extcmd CMD`, `-x CMD`: the command that shows each difference
      difftool: {
        argv: { values: ['-x', '--extcmd', '-t', '--tool'] },
        runs: [{ kind: 'option-text', options: ['-x', '--extcmd'] }],
      },
      am: { argv: COMMITTING, files: TREE },
      'cherry-pick': { argv: COMMITTING, files: TREE },
      revert: { argv: COMMITTING, files: TREE },
      switch: { argv: { values: ['-c', '-C', '--orphan', '--conflict'] }, files: TREE },
      reset: { files: [{ op: 'write', how: 'into', here: true, when: ['--hard', '--merge', '--keep'] }] },
      apply: {
        argv: { values: ['-p', '-C', '--directory', '--exclude', '--include'] },
        files: treeUnless(['--check', '--stat', '--numstat', '--summary', '--cached']),
      },
      rm: { argv: ADD, files: treeUnless(['--cached', '-n', '--dry-run']) },
      mv: { files: treeUnless(['-n', '--dry-run']) },
      add: { argv: ADD },
      stage: { argv: ADD },
      checkout: {
        argv: { values: ['-b', '-B', '--orphan', '-c', '-C', '--conflict', '--pathspec-from-file'] },
        files: TREE,
      },
      restore: {
        argv: { values: ['-s', '--source', '--conflict', '--pathspec-from-file'] },
        files: treeUnless(['--staged', '-S']),
      },
      clean: { argv: { values: ['-e', '--exclude'] }, files: treeUnless(['-n', '--dry-run']) },
      stash: { files: TREE },
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
      clone: { argv: CLONE, remote: 'fetches', files: [{ op: 'write', operands: 1 }], runs: UPLOAD_PACK },
      fetch: { argv: FETCHING, remote: 'fetches', runs: UPLOAD_PACK },
      'ls-remote': { argv: FETCHING, remote: 'fetches', runs: UPLOAD_PACK },
      // `--exec CMD` runs for a remote archive; `-o FILE` writes it
      archive: {
        argv: { values: ['--remote', '--exec', '-o', '--output', '--format', '--prefix'] },
        files: [{ op: 'write', options: ['-o', '--output'] }],
        runs: [{ kind: 'option-text', options: ['--exec'] }],
      },
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
      // `git diff --no-index a b` shows two files of the disk, whatever they are
      diff: { looks: true, files: [{ op: 'read', operands: 'all', when: ['--no-index'] }] },
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
