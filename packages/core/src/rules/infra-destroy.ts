import { changesFile, invocationFiles } from '../analysis/effects.js';
import { unknownServiceCommand } from '../analysis/service.js';
import type { Arg, Argv } from '../context/types.js';
import { redact } from '../facts/keys.js';
import { cloudChange, entryName, isA, marksProduction, namesWith, program, verbOf } from '../programs/index.js';
import type { Hit, Rule, RuleContext } from '../rule.js';
import type { Invocation } from '../shell/types.js';

/**
 * What counts (SPEC 4.2, "changing or destroying deployed systems and data elsewhere"):
 * - cluster and infrastructure-as-code tools that change what runs: `kubectl delete|apply|create|
 *   replace|patch|edit|scale|autoscale|set|drain|cordon|taint|rollout restart|undo|pause|resume`,
 *   `helm install|upgrade|rollback|uninstall`, `terraform|tofu|terragrunt apply|destroy|state rm|mv|push|
 *   workspace delete|force-unlock`, `pulumi up|destroy|stack rm|state delete`, `cdk|cdktf deploy|destroy`, `sam
 *   deploy|delete`, `serverless deploy|remove`; their `--dry-run` forms, `plan`, `diff`, `get`,
 *   `describe`, `logs`, `template`, `lint` go ahead.
 * - docker data that lives nowhere else: `system prune`, `volume rm|prune`, `container prune`, `rm -v`,
 *   `compose down -v`, swarm `stack rm` and `service rm`, and `docker rm -f $(docker ps -aq)` (every
 *   container here, other projects' too). A plain `docker rm -f` of a named container goes ahead: its
 *   image and volumes stay, so it can be started again.
 * - cloud and hosting CLIs' delete verbs (`aws … delete-*|terminate-*|remove-*|deregister-*|purge-*`,
 *   `aws s3 rm|rb`, `aws s3 sync --delete`, `aws cloudformation deploy`, `gcloud|az|doctl|hcloud|eksctl …
 *   delete`, `gsutil rm|rb|rsync -d`, `gh <thing> delete`, `gh api -X DELETE`, `vercel rm`, `fly … destroy`,
 *   `heroku apps:destroy`, `netlify sites:delete`, `firebase …:delete`, `supabase … delete`, `wrangler
 *   delete|d1 delete|r2 bucket delete`, `glab … delete`, `doppler … delete`, `stripe … delete`,
 *   `vault secrets disable|kv destroy|kv metadata delete`, `railway down`: every `hosting-cli`). Their deploy
 *   verbs (`vercel deploy`, `fly deploy`) go ahead: the previous release stays and can be put back; a
 *   deploy to production (`vercel --prod`, `fly deploy --app prod`) asks, as every user gets it at once.
 * - a service tool guard has no entry for, by its words (../programs/service-verbs.ts): a verb that
 *   destroys (`scw … terminate`, `acmectl --region x clusters destroy`) with a sign it reaches a
 *   service, or a deploy to production. Local tools' own verbs (`pm2 delete api`, `nx reset`) go ahead.
 * - cloud modules' PowerShell cmdlets that destroy, stop or publish (`Remove-AzResourceGroup`,
 *   `Remove-S3Bucket`, `Stop-EC2Instance`: `cloudChange()` in the knowledge base); their `Get-` go ahead.
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

type Judge = (inv: Invocation, argv: Argv, context: RuleContext) => Target | undefined;

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

const HELM_CHANGES = new Set(['install', 'i', 'upgrade', 'rollback', 'uninstall', 'un', 'delete', 'del']);

const TF_STATE_CHANGES = new Set(['rm', 'mv', 'push', 'replace-provider']);

const AWS_DESTROY = /^(delete|terminate|remove|deregister|purge)-/;

/**
 * Verbs that delete for one CLI only: `vault secrets disable` drops a secrets engine with every
 * secret in it, `railway down` takes the running deployment away.
 */
const DELETE_VERBS_OF: Readonly<Record<string, ReadonlySet<string>>> = {
  vault: new Set(['disable']),
  railway: new Set(['down']),
};

/** On another computer: programs that stop it or its processes, or wipe its disks (what changes files, its effects say). */
const REMOTE_STOPPERS = new Set(['reboot', 'shutdown', 'halt', 'poweroff', 'kill', 'pkill', 'killall', 'wipefs']);
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

/** The operands, as the program reads its words (its options in the program knowledge base). */
function words(argv: Argv): string[] {
  return argv.operands.map((a) => a.value);
}

/**
 * The words of the command from its verb on, as written (noise flags left out): a cloud CLI names
 * its target by options (`--service s`, `-n vm1`, `--instance-ids=i-1 i-2`) that guard's reading of
 * its words does not know, so they are shown as they stand rather than read as operands.
 */
function fromVerb(inv: Invocation, path: readonly Arg[], verb: Arg): string[] {
  const rest = inv.args.slice(verb.index + 1).filter((word) => !KEY_NOISE.has(word));
  return [...path.map((a) => a.value), verb.value, ...rest.slice(0, 4)];
}

function describeAs(inv: Invocation, parts: readonly string[]): string {
  const text = [inv.name, ...parts].join(' ');
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

const kubectl: Judge = (inv, argv) => {
  const ops = words(argv);
  const verb = ops[0] ?? '';
  const changes = KUBECTL_CHANGES.has(verb) || (verb === 'rollout' && ROLLOUT_CHANGES.has(ops[1] ?? ''));
  if (!changes || isDryRun(inv)) return undefined;
  const files = argv.values('-f', '-k', '--filename', '--kustomize').map((a) => a.value);
  // `-f k8s/` shown as the option it is, not as a resource named k8s/
  const every = [
    ...(argv.has('--all') ? ['--all'] : []),
    ...(argv.has('-A', '--all-namespaces') ? ['--all-namespaces'] : []),
  ];
  return {
    detail: describeAs(inv, [...ops.slice(0, 3), ...every, ...files.flatMap((file) => ['-f', file])]),
    scoped: files.length > 0,
  };
};

const helm: Judge = (inv, argv) => {
  const ops = words(argv);
  if (!HELM_CHANGES.has(ops[0] ?? '') || isDryRun(inv)) return undefined;
  return { detail: describeAs(inv, ops.slice(0, 2)), scoped: true };
};

const terraform: Judge = (inv, argv) => {
  let ops = words(argv);
  // terragrunt: `run-all apply`, `run --all apply`
  if (ops[0] === 'run-all' || ops[0] === 'run') ops = ops.slice(1);
  const verb = ops[0] ?? '';
  const changes =
    verb === 'apply' ||
    verb === 'destroy' ||
    (verb === 'state' && TF_STATE_CHANGES.has(ops[1] ?? '')) ||
    (verb === 'workspace' && ops[1] === 'delete') ||
    // taking another run's lock away lets two runs write the same state
    verb === 'force-unlock';
  if (!changes) return undefined;
  const targets = argv.values('-target').map((a) => a.value);
  return {
    detail: describeAs(inv, [...ops.slice(0, verb === 'apply' || verb === 'destroy' ? 1 : 3), ...targets]),
    scoped: true,
  };
};

const pulumi: Judge = (inv, argv) => {
  const ops = words(argv);
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
  (inv, argv) => {
    const verb = words(argv)[0] ?? '';
    return verbs.has(verb) ? { detail: describeAs(inv, [verb]), scoped: true } : undefined;
  };

const aws: Judge = (inv, argv) => {
  const [first, second] = argv.operands;
  const service = first?.value ?? '';
  const op = second?.value ?? '';
  const changes =
    AWS_DESTROY.test(op) ||
    (service === 's3' && (op === 'rm' || op === 'rb' || (op === 'sync' && inv.args.includes('--delete')))) ||
    (service === 'cloudformation' && op === 'deploy');
  return changes && first && second
    ? { detail: describeAs(inv, fromVerb(inv, [first], second)), scoped: false }
    : undefined;
};

const cloud: Judge = (inv, argv) => {
  const operands = argv.operands.slice(0, 6);
  const ops = operands.map((a) => a.value);
  // `heroku run …` runs a command on a throwaway dyno; its words are that command's
  if (inv.name === 'heroku' && (ops[0] === 'run' || ops[0] === 'run:detached')) return undefined;
  const own = DELETE_VERBS_OF[inv.name];
  // the service verbs that destroy, in any of their spellings (`delete`, `apps:destroy`, `bucket-delete`, `DeleteInstance`)
  const at = ops.findIndex((word) => {
    const verb = verbOf(word);
    return (verb?.act === 'destroys' && verb.strong) || own?.has(word.slice(word.lastIndexOf(':') + 1)) === true;
  });
  const rsyncDelete = ops.includes('rsync') && argv.has('-d', '--delete-unmatched-destination-objects');
  if (at < 0 && !rsyncDelete) return deploysToProduction(inv, ops);
  const verb = operands[at];
  const shown =
    verb === undefined ? ops.slice(0, ops.indexOf('rsync') + 1) : fromVerb(inv, operands.slice(0, at), verb);
  // a cloud CLI whose target is named in the command is not scoped by the folder
  return { detail: describeAs(inv, shown), scoped: !isA(inv.name, 'unscoped-cli') };
};

/**
 * A hosting CLI's deploy to production (`vercel --prod`, `netlify deploy --prod`, `fly deploy --app
 * prod`, `firebase deploy --project acme-prod`): what every user of the site gets at once. A deploy
 * elsewhere (a preview, staging) goes ahead: production stays as it was.
 */
function deploysToProduction(inv: Invocation, ops: readonly string[]): Target | undefined {
  const first = ops[0];
  // `vercel --prod`, `vercel ./dist --prod`: the bare command deploys
  const at =
    first === undefined || /[/\\]|^\.$/.test(first)
      ? 0
      : ops.slice(0, 3).findIndex((w) => verbOf(w)?.act === 'deploys');
  if (at < 0 || isDryRun(inv) || !inv.args.some(marksProduction)) return undefined;
  return { detail: describeAs(inv, [...ops.slice(0, at + 1), 'to production']), scoped: true };
}

/** A command of a service tool guard has no entry for that destroys, or deploys to production (analysis/service.ts). */
const unknownService: Judge = (inv) => {
  const found = unknownServiceCommand(inv);
  if (found === undefined || found.act === 'publishes') return undefined;
  const shown = found.act === 'deploys' ? [...found.shown, 'to production'] : found.shown;
  return { detail: describeAs(inv, shown), scoped: false };
};

const gh: Judge = (inv, argv) => {
  const ops = words(argv);
  const deletes = (ops[1] === 'delete' || ops[1] === 'delete-asset') && ops[0] !== 'cache';
  const apiDelete = ops[0] === 'api' && argv.values('-X', '--method').some((a) => a.value.toUpperCase() === 'DELETE');
  return deletes || apiDelete ? { detail: describeAs(inv, ops.slice(0, 3)), scoped: true } : undefined;
};

const docker: Judge = (inv, argv) => {
  const ops = words(argv);
  const volumes = argv.has('-v', '--volumes') || (argv.sub?.has('-v', '--volumes') ?? false);
  const [sub = '', verb = ''] = inv.name.endsWith('-compose') ? ['compose', ...ops] : ops;
  const removes = verb === 'rm' || verb === 'remove';
  const changes =
    (sub === 'system' && verb === 'prune') ||
    (sub === 'volume' && (removes || verb === 'prune')) ||
    (sub === 'container' && (verb === 'prune' || (removes && volumes))) ||
    (sub === 'rm' && volumes) ||
    (sub === 'compose' && ops.includes('down') && volumes) ||
    ((sub === 'stack' || sub === 'service') && (removes || verb === 'down'));
  // `docker rm -f $(docker ps -aq)`: every container on this machine, other projects' too
  const every = (sub === 'rm' || (sub === 'container' && removes)) && ops.some(listsContainers);
  if (!changes && !every) return undefined;
  return { detail: describeAs(inv, ops.slice(0, 4)), scoped: sub === 'compose' };
};

/** A `$(docker ps …)` or `` `podman ps …` `` operand: the ids of containers it lists. */
function listsContainers(word: string): boolean {
  const run = /^(?:\$\(|`)\s*(?:sudo\s+)?(\S+)\s+(?:container\s+)?(?:ps|ls)\b/.exec(word);
  const found = run?.[1] === undefined ? undefined : program(run[1]);
  // docker under any of its names (`podman`, `nerdctl`: one entry of the knowledge base)
  return found !== undefined && entryName(found) === 'docker';
}

const rsync: Judge = (inv, _argv, context) => {
  if (!inv.args.some((a) => a.startsWith('--delete'))) return undefined;
  const remote = context.netOf(inv).find((net) => net.sends);
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
  ...[...namesWith('http-client')].map((name): [string, Judge] => [name, httpDelete]),
  ...[...namesWith('hosting-cli')].map((name): [string, Judge] => [name, cloud]),
]);

/**
 * An HTTP DELETE sent to another computer (`curl -X DELETE https://api…/repos/acme/app`): an API
 * deleting what the URL names. A request to this machine (a dev server) is the project's own.
 */
function httpDelete(inv: Invocation, _argv: Argv, context: RuleContext): Target | undefined {
  if (!inv.args.some((arg, i) => isDeleteMethod(inv.name, arg, inv.args[i - 1]))) return undefined;
  const reached = context.netOf(inv);
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

/** A path inside the other computer's temp folder (`/tmp/x`, not `/tmp`). */
function inTemp(path: string): boolean {
  // a name inside the folder, not the folder again (`/tmp//`, `/tmp/./`) and not a way out of it
  return /^\/(?:var\/)?tmp\/[^*?/]/.test(path) && !path.split('/').some((part) => part === '.' || part === '..');
}

/**
 * Whether a command on another computer changes files there: anything but deleting in its temp
 * folder (overwriting there, as `shred` does, still counts).
 */
function changesRemoteFiles(inv: Invocation, context: RuleContext): boolean {
  const shreds = isA(inv.name, 'shredder');
  const files = invocationFiles(
    inv,
    (run) => context.argv(run),
    (raw, cwd) => context.path(raw, cwd),
  );
  return files.some((effect) => changesFile(effect) && !(effect.op === 'delete' && !shreds && inTemp(effect.path.raw)));
}

/** A cloud module's cmdlet that destroys, stops or publishes (`Remove-AzVM -Name web1`). */
const cloudCmdlet: Judge = (inv) => ({ detail: [inv.program, ...inv.args.slice(0, 4)].join(' '), scoped: false });

/** A command on another computer that deletes, overwrites, stops or reboots something there. */
function remoteChange(inv: Invocation, argv: Argv, context: RuleContext): Target | undefined {
  const name = inv.name;
  const first = inv.args[0] ?? '';
  const ops = words(argv);
  const changes =
    REMOTE_STOPPERS.has(name) ||
    name.startsWith('mkfs') ||
    changesRemoteFiles(inv, context) ||
    (name === 'systemctl' && SYSTEMCTL_CHANGES.has(ops[0] ?? '')) ||
    (name === 'service' && (ops[1] === 'stop' || ops[1] === 'restart')) ||
    (program(name)?.ecosystem === 'system' && PACKAGE_REMOVALS.has(ops[0] ?? '')) ||
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
    concern: 'destructive',
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
        'Remove-AzResourceGroup -Name prod-rg -Force',
      ],
      noMatch: [
        'kubectl get pods -n prod',
        'terraform plan',
        'kubectl apply --dry-run=client -f k8s/',
        'docker rm -f web',
        'ssh prod "tail -n 100 /var/log/nginx/error.log"',
        'echo "kubectl delete pod web-1"',
        'docker exec app rm -rf /tmp/build-cache',
        'Get-AzResourceGroup -Name prod-rg',
      ],
    },
  },
  // no `programs`: a service tool guard has no entry for is judged by its words, and the cloud
  // modules' cmdlets by their verb and noun (cloudChange)
  check(context) {
    const hits: Hit[] = [];
    const keys = new Set<string>();
    for (const inv of context.invocations) {
      const judge =
        JUDGES.get(inv.name) ??
        (cloudChange(inv.name) ? cloudCmdlet : program(inv.name) === undefined ? unknownService : undefined);
      const argv = judge !== undefined || inv.remoteHost !== undefined ? context.argv(inv) : undefined;
      const target =
        argv === undefined
          ? undefined
          : (judge?.(inv, argv, context) ??
            (inv.remoteHost === undefined ? undefined : remoteChange(inv, argv, context)));
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
