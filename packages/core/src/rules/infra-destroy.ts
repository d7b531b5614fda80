import { hasFlag, operands, optionValues } from '../analysis/args.js';
import { HTTP_CLIENTS } from '../analysis/effects.js';
import type { NetEffect } from '../analysis/effects.js';
import { redact } from '../facts/keys.js';
import type { Hit, Rule, RuleContext } from '../rule.js';
import type { Invocation } from '../shell/types.js';

/**
 * What counts (SPEC 4.2, "changing or destroying deployed systems and data elsewhere"):
 * - cluster and infrastructure-as-code tools that change what runs: `kubectl delete|apply|create|
 *   replace|patch|edit|scale|autoscale|set|drain|cordon|taint|rollout restart|undo|pause|resume`,
 *   `helm install|upgrade|rollback|uninstall`, `terraform|tofu|terragrunt apply|destroy|state rm|mv|push|
 *   workspace delete`, `pulumi up|destroy|stack rm|state delete`, `cdk|cdktf deploy|destroy`, `sam
 *   deploy|delete`, `serverless deploy|remove`; their `--dry-run` forms, `plan`, `diff`, `get`,
 *   `describe`, `logs`, `template`, `lint` go ahead.
 * - docker data that lives nowhere else: `system prune`, `volume rm|prune`, `container prune`, `rm -v`,
 *   `compose down -v`, swarm `stack rm` and `service rm`. A plain `docker rm -f` of a container goes
 *   ahead: its image and volumes stay, so it can be started again.
 * - cloud and hosting CLIs' delete verbs (`aws … delete-*|terminate-*|remove-*|deregister-*|purge-*`,
 *   `aws s3 rm|rb`, `aws s3 sync --delete`, `aws cloudformation deploy`, `gcloud|az|doctl|hcloud|eksctl …
 *   delete`, `gsutil rm|rb|rsync -d`, `gh <thing> delete`, `gh api -X DELETE`, `vercel rm`, `fly … destroy`,
 *   `heroku apps:destroy`, `netlify sites:delete`, `firebase …:delete`, `supabase … delete`). Their deploy
 *   verbs (`vercel deploy`, `fly deploy`) go ahead: the previous release stays and can be put back.
 * - `rsync --delete` to another computer.
 * - commands run on another computer through `ssh host "…"` that delete, move or overwrite files
 *   (`rm`, `mv`, `dd`, `truncate`, `tee`, `sed -i`, `>`), stop or restart services (`systemctl
 *   stop|restart|disable|mask`, `service x stop`), stop processes, reboot, or remove packages.
 *   Looking around there (`ls`, `cat`, `tail -f`, `systemctl status`, `df`) goes ahead.
 * Commands inside `kubectl exec` and `docker exec` are not opened by the reader, so they are not judged.
 */

/** What a step changes, for the reason (`kubectl delete pod web-1`), and whether the cwd picks it. */
interface Target {
  readonly detail: string;
  /** The working directory decides the target (a terraform folder, a linked project, `-f k8s/`). */
  readonly scoped: boolean;
}

type Judge = (inv: Invocation, context: RuleContext) => Target | undefined;

const KUBECTL_WITH_VALUE = new Set([
  '-n',
  '--namespace',
  '--context',
  '--cluster',
  '--kubeconfig',
  '--user',
  '-s',
  '--server',
  '--token',
  '--as',
  '--as-group',
  '-l',
  '--selector',
  '-f',
  '--filename',
  '-k',
  '--kustomize',
  '-o',
  '--output',
  '--field-selector',
  '-c',
  '--container',
  '--timeout',
  '--grace-period',
  '-p',
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
]);
const KUBECTL_CHANGES = new Set([
  'delete',
  'apply',
  'create',
  'replace',
  'patch',
  'edit',
  'scale',
  'autoscale',
  'set',
  'drain',
  'cordon',
  'taint',
]);
const ROLLOUT_CHANGES = new Set(['restart', 'undo', 'pause', 'resume']);

const HELM_WITH_VALUE = new Set([
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
]);
const HELM_CHANGES = new Set(['install', 'i', 'upgrade', 'rollback', 'uninstall', 'un', 'delete', 'del']);

const TF_WITH_VALUE = new Set([
  '-var',
  '-var-file',
  '-target',
  '-replace',
  '-state',
  '-state-out',
  '-backup',
  '-lock-timeout',
  '-parallelism',
]);
const TF_STATE_CHANGES = new Set(['rm', 'mv', 'push', 'replace-provider']);

const PULUMI_WITH_VALUE = new Set([
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
]);

const AWS_WITH_VALUE = new Set([
  '--region',
  '--profile',
  '--output',
  '--endpoint-url',
  '--query',
  '--color',
  '--ca-bundle',
  '--cli-read-timeout',
  '--cli-connect-timeout',
]);
const AWS_DESTROY = /^(delete|terminate|remove|deregister|purge)-/;

const DOCKER_WITH_VALUE = new Set(['-H', '--host', '-c', '--context', '--config', '-l', '--log-level']);

/** Verbs of cloud and hosting CLIs that delete (`gcloud … delete`, `heroku apps:destroy`, `vercel rm`). */
const DELETE_WORDS = new Set(['delete', 'destroy', 'remove', 'rm', 'rb', 'purge', 'delete-batch']);
const CLOUD_CLIS = new Set([
  'gcloud',
  'gsutil',
  'az',
  'doctl',
  'hcloud',
  'eksctl',
  'linode-cli',
  'vercel',
  'vc',
  'fly',
  'flyctl',
  'heroku',
  'netlify',
  'ntl',
  'firebase',
  'supabase',
]);
/** Cloud CLIs whose target is named in the command, not picked by the folder. */
const UNSCOPED_CLOUD = new Set(['gcloud', 'gsutil', 'az', 'doctl', 'hcloud', 'eksctl', 'linode-cli']);

/** On another computer: programs that delete, move, overwrite, stop or reboot. */
const REMOTE_CHANGERS = new Set([
  'rm',
  'rmdir',
  'unlink',
  'shred',
  'mv',
  'dd',
  'truncate',
  'tee',
  'reboot',
  'shutdown',
  'halt',
  'poweroff',
  'kill',
  'pkill',
  'killall',
  'wipefs',
]);
const SYSTEMCTL_CHANGES = new Set([
  'stop',
  'restart',
  'try-restart',
  'disable',
  'mask',
  'kill',
  'isolate',
  'reboot',
  'poweroff',
  'halt',
]);
const PACKAGE_MANAGERS = new Set(['apt', 'apt-get', 'dnf', 'yum', 'zypper', 'apk']);
const PACKAGE_REMOVALS = new Set(['remove', 'purge', 'erase', 'autoremove', 'del']);

/** Flags that do not change what is targeted, left out of the memory key. */
const KEY_NOISE = new Set([
  '-auto-approve',
  '--auto-approve',
  '-y',
  '--yes',
  '--quiet',
  '-q',
  '--wait',
  '--no-prompt',
  '--skip-preview',
]);

function isDryRun(inv: Invocation): boolean {
  return inv.args.some(
    (a) => a === '--dry-run' || a === '--dry-run=client' || a === '--dry-run=server' || a === '--dry-run=true',
  );
}

function words(inv: Invocation, withValue?: ReadonlySet<string>): string[] {
  return operands(inv, withValue).map((a) => a.value);
}

function describeAs(inv: Invocation, parts: readonly string[]): string {
  const text = [inv.name, ...parts].join(' ');
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

const kubectl: Judge = (inv) => {
  const ops = words(inv, KUBECTL_WITH_VALUE);
  const verb = ops[0] ?? '';
  const changes = KUBECTL_CHANGES.has(verb) || (verb === 'rollout' && ROLLOUT_CHANGES.has(ops[1] ?? ''));
  if (!changes || isDryRun(inv)) return undefined;
  const files = optionValues(inv, ['-f', '-k'], ['--filename', '--kustomize']).map((a) => a.value);
  return { detail: describeAs(inv, [...ops.slice(0, 3), ...files]), scoped: files.length > 0 };
};

const helm: Judge = (inv) => {
  const ops = words(inv, HELM_WITH_VALUE);
  if (!HELM_CHANGES.has(ops[0] ?? '') || isDryRun(inv)) return undefined;
  return { detail: describeAs(inv, ops.slice(0, 2)), scoped: true };
};

const terraform: Judge = (inv) => {
  let ops = words(inv, TF_WITH_VALUE);
  // terragrunt: `run-all apply`, `run --all apply`
  if (ops[0] === 'run-all' || ops[0] === 'run') ops = ops.slice(1);
  const verb = ops[0] ?? '';
  const changes =
    verb === 'apply' ||
    verb === 'destroy' ||
    (verb === 'state' && TF_STATE_CHANGES.has(ops[1] ?? '')) ||
    (verb === 'workspace' && ops[1] === 'delete');
  if (!changes) return undefined;
  const targets = optionValues(inv, [], ['-target']).map((a) => a.value);
  return {
    detail: describeAs(inv, [...ops.slice(0, verb === 'apply' || verb === 'destroy' ? 1 : 3), ...targets]),
    scoped: true,
  };
};

const pulumi: Judge = (inv) => {
  const ops = words(inv, PULUMI_WITH_VALUE);
  const verb = ops[0] ?? '';
  const changes =
    verb === 'up' ||
    verb === 'update' ||
    verb === 'destroy' ||
    (verb === 'stack' && ops[1] === 'rm') ||
    (verb === 'state' && ops[1] === 'delete');
  return changes ? { detail: describeAs(inv, ops.slice(0, 2)), scoped: true } : undefined;
};

/** Deploy tools with one verb that changes and one that deletes. */
const deployTool =
  (verbs: ReadonlySet<string>): Judge =>
  (inv) => {
    const verb = words(inv)[0] ?? '';
    return verbs.has(verb) ? { detail: describeAs(inv, [verb]), scoped: true } : undefined;
  };

const aws: Judge = (inv) => {
  const ops = words(inv, AWS_WITH_VALUE);
  const service = ops[0] ?? '';
  const op = ops[1] ?? '';
  const changes =
    AWS_DESTROY.test(op) ||
    (service === 's3' && (op === 'rm' || op === 'rb' || (op === 'sync' && inv.args.includes('--delete')))) ||
    (service === 'cloudformation' && op === 'deploy');
  return changes ? { detail: describeAs(inv, ops.slice(0, 3)), scoped: false } : undefined;
};

const cloud: Judge = (inv) => {
  const ops = words(inv).slice(0, 6);
  // `heroku run …` runs a command on a throwaway dyno; its words are that command's
  if (inv.name === 'heroku' && (ops[0] === 'run' || ops[0] === 'run:detached')) return undefined;
  const at = ops.findIndex((word) => DELETE_WORDS.has(word.slice(word.lastIndexOf(':') + 1)));
  const rsyncDelete =
    ops.includes('rsync') && (hasFlag(inv, 'd') || inv.args.includes('--delete-unmatched-destination-objects'));
  if (at < 0 && !rsyncDelete) return undefined;
  const shown = at < 0 ? ops.slice(0, ops.indexOf('rsync') + 1) : ops.slice(0, at + 2);
  return { detail: describeAs(inv, shown), scoped: !UNSCOPED_CLOUD.has(inv.name) };
};

const gh: Judge = (inv) => {
  const ops = words(
    inv,
    new Set(['-R', '--repo', '-X', '--method', '-H', '--header', '-f', '-F', '--field', '--raw-field', '--jq', '-q']),
  );
  const deletes = (ops[1] === 'delete' || ops[1] === 'delete-asset') && ops[0] !== 'cache';
  const apiDelete =
    ops[0] === 'api' && optionValues(inv, ['-X'], ['--method']).some((a) => a.value.toUpperCase() === 'DELETE');
  return deletes || apiDelete ? { detail: describeAs(inv, ops.slice(0, 3)), scoped: true } : undefined;
};

const docker: Judge = (inv) => {
  const ops = words(inv, DOCKER_WITH_VALUE);
  const volumes = hasFlag(inv, 'v', ['--volumes']);
  const [sub = '', verb = ''] = inv.name.endsWith('-compose') ? ['compose', ...ops] : ops;
  const removes = verb === 'rm' || verb === 'remove';
  const changes =
    (sub === 'system' && verb === 'prune') ||
    (sub === 'volume' && (removes || verb === 'prune')) ||
    (sub === 'container' && (verb === 'prune' || (removes && volumes))) ||
    (sub === 'rm' && volumes) ||
    (sub === 'compose' && ops.includes('down') && volumes) ||
    ((sub === 'stack' || sub === 'service') && (removes || verb === 'down'));
  if (!changes) return undefined;
  return { detail: describeAs(inv, ops.slice(0, 4)), scoped: sub === 'compose' };
};

/** For each invocation, the first place it sends data to; built once per step. */
const sendsByStep = new WeakMap<RuleContext, Map<Invocation, NetEffect>>();

function sendsOf(context: RuleContext): Map<Invocation, NetEffect> {
  let sends = sendsByStep.get(context);
  if (!sends) {
    sends = new Map();
    for (const net of context.net)
      if (net.sends && net.invocation && !sends.has(net.invocation)) sends.set(net.invocation, net);
    sendsByStep.set(context, sends);
  }
  return sends;
}

const rsync: Judge = (inv, context) => {
  if (!inv.args.some((a) => a.startsWith('--delete'))) return undefined;
  const remote = sendsOf(context).get(inv);
  return remote ? { detail: `rsync --delete to ${remote.host}`, scoped: false } : undefined;
};

const JUDGES: ReadonlyMap<string, Judge> = new Map<string, Judge>([
  ['kubectl', kubectl],
  ['oc', kubectl],
  ['helm', helm],
  ['terraform', terraform],
  ['tofu', terraform],
  ['terragrunt', terraform],
  ['pulumi', pulumi],
  ['cdk', deployTool(new Set(['deploy', 'destroy']))],
  ['cdktf', deployTool(new Set(['deploy', 'destroy']))],
  ['sam', deployTool(new Set(['deploy', 'delete']))],
  ['serverless', deployTool(new Set(['deploy', 'remove']))],
  ['sls', deployTool(new Set(['deploy', 'remove']))],
  ['aws', aws],
  ['gh', gh],
  ['docker', docker],
  ['podman', docker],
  ['docker-compose', docker],
  ['podman-compose', docker],
  ['rsync', rsync],
  ...[...HTTP_CLIENTS].map((name): [string, Judge] => [name, httpDelete]),
  ...[...CLOUD_CLIS].map((name): [string, Judge] => [name, cloud]),
]);

/**
 * An HTTP DELETE sent to another computer (`curl -X DELETE https://api…/repos/acme/app`): an API
 * deleting what the URL names. A request to this machine (a dev server) is the project's own.
 */
function httpDelete(inv: Invocation, context: RuleContext): Target | undefined {
  if (!inv.args.some((arg, i) => isDeleteMethod(inv.name, arg, inv.args[i - 1]))) return undefined;
  const reached = context.net.filter((net) => net.invocation === inv);
  if (reached.length === 0 || reached.every((net) => net.hostClass === 'loopback')) return undefined;
  return { detail: `HTTP DELETE to ${reached[0]?.host ?? 'another computer'}`, scoped: false };
}

/** `-X DELETE`, `-XDELETE`, `--request=DELETE`, `--method=DELETE`, `-Method Delete`, httpie's `http DELETE url`. */
function isDeleteMethod(name: string, arg: string, before: string | undefined): boolean {
  if (/^(?:-X|--request=|--method=)delete$/i.test(arg)) return true;
  if (arg.toLowerCase() !== 'delete') return false;
  if (before !== undefined && /^(?:-X|--request|--method|-Method)$/i.test(before)) return true;
  // httpie and xh take the method as their first operand
  return (
    (name === 'http' || name === 'https' || name === 'xh' || name === 'httpie') &&
    (before === undefined || before.startsWith('-'))
  );
}

const REMOVERS = new Set(['rm', 'rmdir', 'unlink']);

/** Every path a remover names is inside the other computer's temp folder (`/tmp/x`, not `/tmp`). */
function onlyTemp(inv: Invocation): boolean {
  const paths = inv.args.filter((arg) => !arg.startsWith('-'));
  // a name inside the folder, not the folder again (`/tmp//`, `/tmp/./`) and not a way out of it
  return (
    paths.length > 0 &&
    paths.every(
      (path) => /^\/(?:var\/)?tmp\/[^*?/]/.test(path) && !path.split('/').some((part) => part === '.' || part === '..'),
    )
  );
}

/** A command on another computer that deletes, overwrites, stops or reboots something there. */
function remoteChange(inv: Invocation): Target | undefined {
  const name = inv.name;
  const first = inv.args[0] ?? '';
  const ops = words(inv);
  const changes =
    (REMOTE_CHANGERS.has(name) && !(REMOVERS.has(name) && onlyTemp(inv))) ||
    name.startsWith('mkfs') ||
    inv.redirects.some((r) => r.write) ||
    (name === 'sed' && inv.args.some((a) => a.startsWith('-i') || a.startsWith('--in-place'))) ||
    (name === 'systemctl' && SYSTEMCTL_CHANGES.has(ops[0] ?? '')) ||
    (name === 'service' && (ops[1] === 'stop' || ops[1] === 'restart')) ||
    (PACKAGE_MANAGERS.has(name) && PACKAGE_REMOVALS.has(ops[0] ?? '')) ||
    (name === 'pacman' && /^-R/.test(first));
  return changes
    ? { detail: `${describeAs(inv, ops.slice(0, 2))} on ${inv.remoteHost ?? 'another computer'}`, scoped: false }
    : undefined;
}

/** What a yes is remembered by: where, the program and its arguments (before redaction). */
function targetText(inv: Invocation, target: Target): string {
  const parts: string[] = [];
  if (inv.remoteHost !== undefined) parts.push(`@${inv.remoteHost}`);
  if (target.scoped) parts.push(inv.cwd);
  parts.push(inv.name, ...inv.args.filter((a) => !KEY_NOISE.has(a)));
  return parts.join(' ');
}

export const infraDestroy = {
  meta: {
    id: 'infra.destroy',
    decision: 'ask',
    remember: 'target',
    title: 'changing or destroying deployed systems',
    reason:
      'This changes or deletes something that runs or is stored on another computer (a cluster, cloud resources, a server, data volumes), and what it removes may not come back from here; check the target and run a plan, diff or dry run first.',
    owasp: ['LLM06:2025'],
    examples: {
      match: [
        'kubectl delete pod web-1 -n prod',
        'terraform destroy -auto-approve',
        'helm uninstall api',
        'docker volume rm pgdata',
        'aws s3 rm s3://assets --recursive',
        'ssh prod "sudo systemctl stop nginx"',
      ],
      noMatch: [
        'kubectl get pods -n prod',
        'terraform plan',
        'kubectl apply --dry-run=client -f k8s/',
        'docker rm -f web',
        'ssh prod "tail -n 100 /var/log/nginx/error.log"',
        'echo "kubectl delete pod web-1"',
        'docker exec app rm -rf /tmp/build-cache',
      ],
    },
  },
  // `ssh` too: commands run on another computer are only reached through it
  programs: new Set([...JUDGES.keys(), 'ssh']),
  check(context) {
    const hits: Hit[] = [];
    const keys = new Set<string>();
    for (const inv of context.invocations) {
      const judge = JUDGES.get(inv.name);
      const target = judge?.(inv, context) ?? (inv.remoteHost === undefined ? undefined : remoteChange(inv));
      if (!target) continue;
      // the same target twice in one line is one question
      const text = targetText(inv, target);
      if (keys.has(text)) continue;
      keys.add(text);
      // the key is kept in the chat's state: never a key-shaped value in it
      hits.push({ span: inv.span, key: redact(text), detail: target.detail });
    }
    return hits;
  },
} as const satisfies Rule;
