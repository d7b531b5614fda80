import { unknownServiceCommand } from '../analysis/service.js';
import type { Argv } from '../context/types.js';
import type { Hit, Rule } from '../rule.js';
import type { Invocation } from '../shell/types.js';

/** Subcommands that publish (or take back) a release, per program. */
const VERBS: Readonly<Record<string, ReadonlySet<string>>> = {
  npm: new Set(['publish', 'unpublish', 'deprecate', 'undeprecate']),
  pnpm: new Set(['publish']),
  bun: new Set(['publish']),
  cargo: new Set(['publish', 'yank']),
  twine: new Set(['upload']),
  poetry: new Set(['publish']),
  flit: new Set(['publish']),
  hatch: new Set(['publish']),
  pdm: new Set(['publish']),
  uv: new Set(['publish']),
  gem: new Set(['push', 'yank']),
  docker: new Set(['push']),
  podman: new Set(['push']),
  vsce: new Set(['publish']),
  ovsx: new Set(['publish']),
  deno: new Set(['publish']),
  jsr: new Set(['publish']),
  lerna: new Set(['publish']),
  changeset: new Set(['publish']),
  mvn: new Set(['deploy', 'release:perform', 'deploy:deploy-file']),
  rye: new Set(['publish']),
  amplify: new Set(['publish']),
  snapcraft: new Set(['upload', 'push', 'release']),
  helm: new Set(['push']),
};

/** Every program `publishes` knows a publishing form of. */
const PUBLISHERS: ReadonlySet<string> = new Set([
  ...Object.keys(VERBS),
  'yarn',
  'gh',
  'dotnet',
  'nuget',
  'gradle',
  'gradlew',
  'python',
  'python3',
  'semantic-release',
  'release-it',
  'np',
  'goreleaser',
  'pod',
  'mix',
  'mvnw',
]);

export const pkgPublish = {
  meta: {
    id: 'pkg.publish',
    decision: 'ask',
    remember: 'every-time',
    concern: 'sending',
    title: 'publishing a release',
    reason:
      'Publishing puts this version in front of everyone who installs it, and a published release cannot be fully taken back; run the dry run first and let a person publish.',
    owasp: ['LLM06:2025'],
    examples: {
      match: [
        'npm publish',
        'pnpm publish --access public',
        'cargo publish',
        'twine upload dist/*',
        'gh release create v1.2.0',
        'docker push acme/app:1.2',
      ],
      noMatch: [
        'npm publish --dry-run',
        'npm pack',
        'cargo publish --dry-run',
        'docker build -t acme/app .',
        'gh release list',
      ],
    },
  },
  // no `programs`: a tool guard has no entry for is judged by its words (`maturin publish`)
  check(context) {
    const hits: Hit[] = [];
    for (const inv of context.invocations) {
      if (!PUBLISHERS.has(inv.name)) {
        if (unknownServiceCommand(inv)?.act === 'publishes') hits.push({ span: inv.span });
        continue;
      }
      const argv = context.argv(inv);
      if (publishes(inv, argv) && !dryRun(argv)) hits.push({ span: inv.span });
    }
    return hits;
  },
} as const satisfies Rule;

const DRY_RUN = ['--dry-run', '--dry_run', '--dryrun', '--snapshot'];

/** `--dry-run` (and its other spellings) or `--snapshot`, before or after the subcommand. */
function dryRun(argv: Argv): boolean {
  return argv.has(...DRY_RUN) || (argv.sub?.has(...DRY_RUN) ?? false);
}

function publishes(inv: Invocation, argv: Argv): boolean {
  const name = inv.name;
  const ops = argv.operands.map((a) => a.value);
  const [first = '', second = '', third = ''] = ops;
  switch (name) {
    case 'yarn':
      // `yarn publish` (v1), `yarn npm publish` (berry), `yarn workspace x npm publish`
      return (
        first === 'publish' ||
        (first === 'npm' && second === 'publish') ||
        (first === 'workspace' && (third === 'publish' || ops[3] === 'publish'))
      );
    case 'npm':
      return VERBS.npm?.has(first) === true || (first === 'dist-tag' && (second === 'add' || second === 'rm'));
    case 'gh':
      return first === 'release' && (second === 'create' || second === 'upload');
    case 'dotnet':
      return first === 'nuget' && second === 'push';
    case 'nuget':
      return first === 'push';
    case 'docker':
    case 'podman':
      return (
        first === 'push' ||
        (first === 'image' && second === 'push') ||
        (first === 'manifest' && second === 'push') ||
        (first === 'buildx' && inv.args.includes('--push'))
      );
    case 'gradle':
    case 'gradlew':
      return ops.some(
        (task) => /^(?:publish|publishPlugins|publish\w*Repository)$/.test(task) && !/MavenLocal/.test(task),
      );
    case 'python':
    case 'python3':
      return inv.args[0] === '-m' && inv.args[1] === 'twine' && inv.args[2] === 'upload';
    case 'semantic-release':
    case 'release-it':
      return true;
    case 'np':
      // `np --preview` shows what it would publish
      return !argv.has('--preview');
    case 'goreleaser':
      return first === 'release' || first === '';
    case 'pod':
      return first === 'trunk' && second === 'push';
    case 'mix':
      return first === 'hex.publish';
    case 'mvn':
    case 'mvnw':
      return ops.some((goal) => VERBS.mvn?.has(goal) === true);
    default:
      return VERBS[name]?.has(first) === true;
  }
}
