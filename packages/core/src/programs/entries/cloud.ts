import type { ArgvSpec, ProgramSpec } from '../types.js';
import { SECRETS_RUNS } from './runners.js';

// Tools that change what runs or is stored elsewhere: clusters, infrastructure as code, clouds and
// hosting, and the framework commands that manage databases.

const TERRAFORM: ArgvSpec = {
  values: [
    '-var',
    '-var-file',
    '-target',
    '-replace',
    '-state',
    '-state-out',
    '-backup',
    '-lock-timeout',
    '-parallelism',
    '-chdir',
  ],
  words: true,
};
/** Database tools run from a project (`prisma migrate reset`, `rails db:drop`, `dropdb`). */
const DATABASE_TOOL: ArgvSpec = {
  values: [
    '-h',
    '--host',
    '-p',
    '--port',
    '-U',
    '--username',
    '-u',
    '--user',
    '--schema',
    '-e',
    '--environment',
    '--maintenance-db',
  ],
};

export const CLOUD: readonly ProgramSpec[] = [
  {
    names: ['helm'],
    argv: {
      values: [
        '-n',
        '--namespace',
        '--kube-context',
        '--kubeconfig',
        '-f',
        '--values',
        '--set',
        '--set-string',
        '--set-file',
        '--set-json',
        '--version',
        '--timeout',
        '-o',
        '--output',
        '--repo',
        '--description',
        '--post-renderer',
        '--username',
        '--password',
        '--history-max',
        '--max-history',
      ],
    },
  },
  { names: ['terraform', 'tofu', 'terragrunt'], argv: TERRAFORM },
  {
    names: ['pulumi'],
    argv: {
      values: [
        '-s',
        '--stack',
        '-C',
        '--cwd',
        '--config-file',
        '-c',
        '--config',
        '-t',
        '--target',
        '-m',
        '--message',
        '-p',
        '--parallel',
      ],
    },
  },
  {
    names: ['aws'],
    argv: {
      values: [
        '--region',
        '--profile',
        '--output',
        '--endpoint-url',
        '--query',
        '--color',
        '--ca-bundle',
        '--cli-read-timeout',
        '--cli-connect-timeout',
      ],
    },
  },
  {
    names: ['gh'],
    argv: {
      values: [
        '-R',
        '--repo',
        '-X',
        '--method',
        '-H',
        '--header',
        '-f',
        '-F',
        '--field',
        '--raw-field',
        '--input',
        '--jq',
        '-q',
        '-t',
        '--title',
        '-b',
        '--body',
        '--body-file',
      ],
    },
  },
  { names: ['goreleaser'], argv: { values: ['-f', '--config', '-p', '--parallelism', '--timeout'] } },
  { names: ['heroku', 'supabase'], roles: ['hosting-cli'], argv: DATABASE_TOOL },
  {
    // clouds whose commands name what they reach (a project, a region, a resource)
    names: ['gcloud', 'gsutil', 'az', 'doctl', 'hcloud', 'eksctl', 'linode-cli'],
    roles: ['hosting-cli', 'unscoped-cli'],
  },
  {
    // hosting, edge platforms, secret stores, payments, code hosts other than GitHub
    names: [
      'vercel',
      'vc',
      'fly',
      'flyctl',
      'netlify',
      'ntl',
      'firebase',
      'wrangler',
      'railway',
      'render',
      'vault',
      'stripe',
      'glab',
      'neonctl',
      'turso',
      'pscale',
    ],
    roles: ['hosting-cli'],
  },
  // a secret store that also runs a command with its secrets (`doppler run -- cmd`)
  { names: ['doppler'], roles: ['hosting-cli'], runs: SECRETS_RUNS },
  {
    names: [
      'prisma',
      'rails',
      'rake',
      'manage.py',
      'sequelize',
      'sequelize-cli',
      'typeorm',
      'flyway',
      'liquibase',
      'dropdb',
      'mysqladmin',
    ],
    argv: DATABASE_TOOL,
  },
];
