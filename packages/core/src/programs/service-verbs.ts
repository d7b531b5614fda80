/**
 * What a command of a service's tool does, read from its words when guard has no entry for the
 * tool (or none for that command): the verbs such tools use to destroy, publish or deploy
 * (`delete`, `terminate`, `schedule-deletion`, `DeleteInstance`, `publish`, `deploy`), the things
 * services hold (`bucket`, `cluster`, `database`), the options that say where a service is
 * (`--region`, `--profile`, `zone=…`) and the words that mark production (`--prod`). Known
 * programs keep their own entries; this is the vocabulary the analysis falls back on.
 */

/** What a service command does to what it names. */
export type ServiceAct = 'destroys' | 'publishes' | 'deploys';

/** A verb that takes away what it names, on any service. */
const DESTROYS = new Set([
  'delete',
  'del',
  'destroy',
  'remove',
  'rm',
  'rb',
  'purge',
  'drop',
  'terminate',
  'wipe',
  'erase',
  'deprovision',
  'decommission',
  'nuke',
  'deletion',
  'teardown',
]);
/**
 * Verbs that empty or switch off what they name: they destroy on a service (`cache flush
 * --region …`), and are everyday words of local tools (`nx reset`, `turbo prune`), so they count
 * only where the command shows it reaches a service.
 */
const EMPTIES = new Set(['reset', 'prune', 'flush', 'disable', 'revoke', 'truncate']);
const PUBLISHES = new Set(['publish', 'release']);
const DEPLOYS = new Set(['deploy', 'up', 'promote', 'rollout', 'ship']);

/**
 * Things a service holds, whose name in a command's path says the command reaches the service
 * (`atlas clusters delete`, `aliyun ecs DeleteInstance`). Words local tools use for their own
 * things (`env`, `cache`, `plugin`, `toolchain`, `image`, `container`) are not among them.
 */
const RESOURCES = new Set([
  'account',
  'app',
  'application',
  'backup',
  'blob',
  'bucket',
  'certificate',
  'cluster',
  'database',
  'dataset',
  'db',
  'deployment',
  'disk',
  'dns',
  'domain',
  'droplet',
  'environment',
  'firewall',
  'function',
  'index',
  'instance',
  'job',
  'kafka',
  'key',
  'kubernetes',
  'kv',
  'lambda',
  'loadbalancer',
  'message',
  'namespace',
  'network',
  'nodepool',
  'org',
  'organization',
  'policy',
  'pool',
  'project',
  'queue',
  'record',
  'redis',
  'registry',
  'release',
  'repo',
  'repository',
  'resource',
  'role',
  'secret',
  'server',
  'service',
  'site',
  'snapshot',
  'space',
  'stack',
  'storage',
  'stream',
  'subnet',
  'subscription',
  'table',
  'team',
  'tenant',
  'topic',
  'tunnel',
  'user',
  'vm',
  'volume',
  'vpc',
  'webhook',
  'workspace',
  'zone',
]);
/** Options (and scw's `key=value` words) that say which account, place or endpoint of a service a command reaches. */
const SERVICE_OPTIONS = new Set([
  'region',
  'zone',
  'location',
  'project',
  'project-id',
  'projectid',
  'profile',
  'endpoint',
  'endpoint-url',
  'context',
  'kube-context',
  'org',
  'org-id',
  'organization',
  'account',
  'account-id',
  'subscription',
  'tenant',
  'compartment-id',
  'cluster',
  'store',
  'space',
  'api-key',
  'api-token',
]);
/** A word that names a service's thing by itself: a URL (not this machine's), an ARN, an OCID, a UUID. */
const REMOTE_WORD =
  /^(?:[a-z][a-z0-9+.-]*:\/\/(?!(?:localhost|127\.\d+\.\d+\.\d+|\[::1\])(?:[:/]|$))\S|arn:|ocid1\.|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$)/i;
/** A subcommand word: letters and digits, joined by `-`, `_`, `:` or `.` (`service-instance-delete`, `api:core:remove`). */
const COMMAND_WORD = /^[A-Za-z][A-Za-z0-9]*(?:[-_:.][A-Za-z0-9]+)*$/;
/** At most this many subcommand words are read before the verb (`oci db autonomous-database delete`). */
const MAX_PATH = 6;

/** The parts of a word (`service-instance-delete`, `DeleteInstance`, `api:core:remove` → their words, lower case). */
export function wordParts(word: string): string[] {
  return word
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[-_:. ]+/)
    .filter((part) => part !== '');
}

/** `databases` → `database`, `indices` → `index`, `policies` → `policy`. */
function singular(part: string): string {
  if (part === 'indices' || part === 'indexes') return 'index';
  if (part.endsWith('ies')) return `${part.slice(0, -3)}y`;
  return part.endsWith('s') && !part.endsWith('ss') ? part.slice(0, -1) : part;
}

/** Whether a word names something a service holds (`clusters`, `autonomous-database`, `DeleteInstance`). */
function namesResource(word: string): boolean {
  return wordParts(word).some((part) => RESOURCES.has(part) || RESOURCES.has(singular(part)));
}

/**
 * What a subcommand word does, as a verb: the word itself (`delete`), the first or last of its
 * parts for a verb that destroys (`delete-bucket`, `service-instance-delete`, `DeleteInstance`,
 * `deletetable`), the last part for the others (`full-release`, not `release-notes`). `strong`:
 * the verb destroys whatever it is said of; the rest need a sign that a service is reached.
 */
export function verbOf(word: string): { readonly act: ServiceAct; readonly strong: boolean } | undefined {
  const parts = wordParts(word);
  const first = parts[0] ?? '';
  const last = parts[parts.length - 1] ?? '';
  if (DESTROYS.has(first) || DESTROYS.has(last)) return { act: 'destroys', strong: true };
  // `deletetable`, `destroyall`: the verb and its object written as one word
  if (parts.length === 1 && /^(?:delete|destroy|terminate)[a-z]{3,}$/.test(first) && !/^delete[ds]$/.test(first))
    return { act: 'destroys', strong: true };
  if (EMPTIES.has(last)) return { act: 'destroys', strong: false };
  if (PUBLISHES.has(last)) return { act: 'publishes', strong: false };
  if (DEPLOYS.has(last)) return { act: 'deploys', strong: false };
  return undefined;
}

/** `--prod`, `--production`, a value or operand such as `production`, `acme-prod`, `prod-env`. */
export function marksProduction(word: string): boolean {
  const option = /^--?([A-Za-z-]+)(?:=(.*))?$/.exec(word);
  if (option !== null) {
    const name = (option[1] ?? '').toLowerCase();
    if (name === 'prod' || name === 'production') return option[2] === undefined || option[2] === 'true';
    return option[2] !== undefined && marksProduction(option[2]);
  }
  return wordParts(word).some((part) => part === 'prod' || part === 'production');
}

/** Whether a word says which service, account or place a command reaches (`--region=x`, `zone=fr-par-1`, a URL). */
function namesService(word: string): boolean {
  if (REMOTE_WORD.test(word)) return true;
  const m = /^(?:--?)?([A-Za-z][A-Za-z-]*)(?==|$)/.exec(word);
  if (m === null || (!word.startsWith('-') && !word.includes('='))) return false;
  return SERVICE_OPTIONS.has((m[1] ?? '').toLowerCase());
}

/** What a service command does, found by `serviceCommand`. */
export interface ServiceCommand {
  readonly act: ServiceAct;
  /** The words up to the verb and the one after it (`databases delete prod-db`), for the reason. */
  readonly shown: readonly string[];
}

/**
 * What a service tool's words do (`databases delete prod-db`, `--profile prod buckets purge x`,
 * `deploy --env production`), read by the vocabulary alone: a verb among its subcommand words (or a
 * destroying option, `-purge`, `--force-delete`), and a sign it reaches a service: a thing a
 * service holds named in its path, an option naming the service's account or place, or a URL or
 * cloud id. A deploy counts only toward production, a publish unless it is a dry run.
 */
export function serviceCommand(args: readonly string[]): ServiceCommand | undefined {
  const path: string[] = [];
  let verb: { act: ServiceAct; strong: boolean; at: number } | undefined;
  let afterOption = false;
  for (const word of args) {
    if (path.length >= MAX_PATH || (verb !== undefined && path.length > verb.at + 1)) break;
    if (word.startsWith('-')) {
      // a destroying option (`nomad job stop -purge`, `--force-delete`, not `--no-delete`) once a path is there
      const found = word.includes('=') || word.startsWith('--no-') ? undefined : verbOf(word.replace(/^-+/, ''));
      if (verb === undefined && found?.strong === true && path.length > 0)
        verb = { act: 'destroys', strong: true, at: path.length - 1 };
      afterOption = !word.includes('=');
      continue;
    }
    const shaped = COMMAND_WORD.test(word);
    // an option's value may be anything (`--endpoint https://…`); any other word ends the path
    if (!shaped && !afterOption) break;
    // a word after an option may be its value (`--sort release`): part of the path, never its verb
    const value = afterOption;
    afterOption = false;
    if (!shaped) continue;
    path.push(word);
    const found = verb === undefined && !value ? verbOf(word) : undefined;
    if (found !== undefined) verb = { ...found, at: path.length - 1 };
  }
  if (verb === undefined) return undefined;
  const shown = path.slice(0, verb.at + 2);
  const dryRun = args.some((a) => /^--?dry-?run(?:=true)?$/i.test(a) || a === '--preview');
  switch (verb.act) {
    case 'publishes':
      return dryRun ? undefined : { act: 'publishes', shown };
    case 'deploys':
      return !dryRun && args.some(marksProduction) ? { act: 'deploys', shown } : undefined;
    default: {
      const reaches = shown.some(namesResource) || args.some(namesService);
      return reaches ? { act: 'destroys', shown } : undefined;
    }
  }
}
