import type { ArgvSpec, ProgramSpec } from '../types.js';
import { EDITOR_ENV, PAGER_ENV } from './files.js';
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
  {
    names: ['terraform', 'tofu', 'terragrunt'],
    argv: TERRAFORM,
    // outputs and state in the clear: `-raw` and `-json` print the outputs marked sensitive too
    credentials: [
      { path: ['output'], when: ['-raw', '-json'] },
      { path: ['show'], when: ['-json'] },
      { path: ['state', 'pull'] },
    ],
  },
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
    credentials: [
      { path: ['stack', 'output'], when: ['--show-secrets'] },
      { path: ['config'], when: ['--show-secrets'] },
    ],
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
    secretSettings: [['configure', 'set']],
    credentials: [
      { path: ['configure', 'get'], named: true },
      { path: ['configure', 'export-credentials'] },
      { path: ['secretsmanager', 'get-secret-value'] },
      { path: ['secretsmanager', 'batch-get-secret-value'] },
      { path: ['ssm', 'get-parameter*'], when: ['--with-decryption'] },
      { path: ['ecr', 'get-login-password'] },
      { path: ['ecr-public', 'get-login-password'] },
      { path: ['ecr', 'get-authorization-token'] },
      { path: ['codeartifact', 'get-authorization-token'] },
      // temporary keys, and a new access key with its secret
      { path: ['sts', 'get-session-token'] },
      { path: ['sts', 'assume-role*'] },
      { path: ['sts', 'get-federation-token'] },
      { path: ['sso', 'get-role-credentials'] },
      { path: ['iam', 'create-access-key'] },
    ],
    runs: [{ kind: 'option-text', env: ['AWS_PAGER'] }],
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
    credentials: [{ path: ['auth', 'token'] }, { path: ['auth', 'status'], when: ['-t', '--show-token'] }],
    // its editor and pager
    runs: [{ kind: 'option-text', env: ['GH_EDITOR', 'GH_PAGER', 'GIT_EDITOR', ...EDITOR_ENV, ...PAGER_ENV] }],
  },
  { names: ['goreleaser'], argv: { values: ['-f', '--config', '-p', '--parallelism', '--timeout'] } },
  {
    names: ['heroku'],
    roles: ['hosting-cli'],
    argv: DATABASE_TOOL,
    // the app's config vars hold its database URL and API keys
    credentials: [
      { path: ['auth:token'] },
      { path: ['config'] },
      { path: ['config:get'] },
      { path: ['pg:credentials:url'] },
    ],
  },
  { names: ['supabase'], roles: ['hosting-cli'], argv: DATABASE_TOOL },
  {
    names: ['gcloud'],
    roles: ['hosting-cli', 'unscoped-cli'],
    credentials: [
      { path: ['auth', 'print-access-token'] },
      { path: ['auth', 'print-identity-token'] },
      { path: ['auth', 'application-default', 'print-access-token'] },
      { path: ['secrets', 'versions', 'access'] },
    ],
  },
  {
    names: ['az'],
    roles: ['hosting-cli', 'unscoped-cli'],
    credentials: [
      { path: ['account', 'get-access-token'] },
      { path: ['keyvault', 'secret', 'show'] },
      { path: ['storage', 'account', 'keys', 'list'] },
      { path: ['acr', 'credential', 'show'] },
      // a new service principal, printed with its password
      { path: ['ad', 'sp', 'create-for-rbac'] },
    ],
  },
  { names: ['doctl'], roles: ['hosting-cli', 'unscoped-cli'], credentials: [{ path: ['auth', 'token'] }] },
  {
    // clouds whose commands name what they reach (a project, a region, a resource)
    names: [
      'gsutil',
      'bq',
      'cbt',
      'hcloud',
      'eksctl',
      'linode-cli',
      'scw',
      'oci',
      'ibmcloud',
      'exo',
      'vultr-cli',
      'civo',
      'openstack',
      'aliyun',
      'tccli',
      'upctl',
      'b2',
      's3cmd',
      'rclone',
      'atlas',
      'confluent',
      'databricks',
      'aiven',
      'koyeb',
      'northflank',
      'upstash',
    ],
    roles: ['hosting-cli', 'unscoped-cli'],
  },
  {
    // hosting, edge platforms, secret stores, payments, code hosts other than GitHub
    names: [
      'vercel',
      'vc',
      'fly',
      'flyctl',

      'firebase',
      'wrangler',

      'render',
      'glab',
      'neonctl',
      'turso',
      'pscale',
      // Cloud Foundry, Elastic Beanstalk and Amplify act on the app the folder is linked to
      'cf',
      'eb',
      'amplify',
      'argocd',
      'auth0',
      'twilio',
      'sentry-cli',
      'algolia',
      'shopify',
      'cloudflared',
      'gam',
      'm365',
    ],
    roles: ['hosting-cli'],
  },
  {
    names: ['vault'],
    roles: ['hosting-cli'],
    credentials: [
      { path: ['kv', 'get'] },
      { path: ['read'] },
      { path: ['token', 'create'] },
      { path: ['print', 'token'] },
    ],
  },
  {
    // a secret store that also runs a command with its secrets (`doppler run -- cmd`)
    names: ['doppler'],
    roles: ['hosting-cli'],
    runs: SECRETS_RUNS,
    credentials: [
      { path: ['secrets'], alone: true, unless: ['--only-names'] },
      { path: ['secrets', 'get'], unless: ['--only-names'] },
      { path: ['secrets', 'download'], unless: ['--only-names'] },
    ],
  },
  {
    names: ['stripe'],
    roles: ['hosting-cli'],
    // `stripe config --list` shows the keys it was logged in with
    credentials: [{ path: ['config'], when: ['--list'] }],
  },
  {
    names: ['railway'],
    roles: ['hosting-cli'],
    credentials: [{ path: ['variables'], unless: ['--set', '-s'] }],
  },
  { names: ['netlify', 'ntl'], roles: ['hosting-cli'], credentials: [{ path: ['env:get'] }] },
  // clusters and machines made on this computer, for development: deleting one loses nothing elsewhere
  { names: ['kind', 'k3d', 'minikube'] },
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
