import type { ProgramSpec } from '../types.js';
import { SECRETS_RUNS } from './runners.js';

// Password managers, secret stores and credential helpers: the commands of each that print what
// they keep (CredentialPrint); the rest of their commands list, add or change entries.

/** pass's and gopass's subcommands: `pass NAME` with none of them shows the entry. */
const PASS_COMMANDS = [
  'ls',
  'list',
  'find',
  'search',
  'grep',
  'insert',
  'add',
  'generate',
  'edit',
  'rm',
  'remove',
  'delete',
  'mv',
  'move',
  'cp',
  'copy',
  'git',
  'init',
  'help',
  'version',
  'sync',
  'setup',
  'mounts',
  'recipients',
  'config',
  'audit',
  'fsck',
];

export const SECRETS: readonly ProgramSpec[] = [
  {
    names: ['pass', 'gopass'],
    // `-c`: to the clipboard, not the terminal
    credentials: [
      { path: ['show'], unless: ['-c', '--clip'] },
      { path: ['cat'] },
      { path: ['otp'], unless: ['-c', '--clip'] },
      { path: [], not: PASS_COMMANDS, unless: ['-c', '--clip'] },
    ],
  },
  {
    // 1Password; `op item get` shows concealed fields only with --reveal
    names: ['op'],
    // `op run -- cmd` runs a command with the secrets in its environment
    runs: [
      { kind: 'env-runner', path: ['run'], argv: { values: ['--env-file', '--account', '--config'], leading: true } },
    ],
    credentials: [
      { path: ['read'], unless: ['-o', '--out-file'] },
      { path: ['item', 'get'], when: ['--reveal'] },
      { path: ['inject'], unless: ['-o', '--out-file'] },
    ],
  },
  {
    names: ['bw'],
    credentials: [
      { path: ['get', 'password'] },
      { path: ['get', 'item'] },
      { path: ['get', 'totp'] },
      { path: ['get', 'notes'] },
      { path: ['list', 'items'] },
    ],
  },
  { names: ['lpass'], credentials: [{ path: ['show'] }] },
  {
    names: ['security'],
    credentials: [
      { path: ['dump-keychain'] },
      { path: ['find-generic-password'], when: ['-w', '-g'] },
      { path: ['find-internet-password'], when: ['-w', '-g'] },
    ],
  },
  { names: ['cmdkey'], credentials: [{ path: [], when: ['/l', '/list', '/L', '/LIST', '/List'] }] },
  { names: ['secret-tool'], credentials: [{ path: ['lookup'] }] },
  { names: ['keyring'], credentials: [{ path: ['get'] }] },
  { names: ['kwallet-query'], credentials: [{ path: [], when: ['-r', '--read-password'] }] },
  {
    // Docker's credential helpers print the stored login for the registry named on stdin
    names: [
      'docker-credential-desktop',
      'docker-credential-osxkeychain',
      'docker-credential-wincred',
      'docker-credential-pass',
      'docker-credential-secretservice',
      'docker-credential-ecr-login',
      'docker-credential-gcloud',
      'docker-credential-gcr',
      'docker-credential-acr-env',
    ],
    credentials: [{ path: ['get'] }],
  },
  {
    names: ['infisical'],
    runs: SECRETS_RUNS,
    credentials: [
      { path: ['secrets'], alone: true },
      { path: ['secrets', 'get'] },
      { path: ['export'], unless: ['-o', '--output'] },
    ],
  },
  { names: ['chamber'], credentials: [{ path: ['export'], unless: ['-o', '--output-file'] }, { path: ['read'] }] },
  {
    // decrypting to the terminal; `--output FILE` and `-i` write the file instead
    names: ['sops'],
    credentials: [
      { path: [], when: ['-d', '--decrypt'], unless: ['--output', '-i', '--in-place'] },
      { path: ['decrypt'], unless: ['--output', '-i', '--in-place'] },
    ],
  },
  { names: ['ansible-vault'], credentials: [{ path: ['view'] }, { path: ['decrypt'], when: ['--output'] }] },
];
