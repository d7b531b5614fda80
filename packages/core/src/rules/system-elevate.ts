import { registryChanges } from '../analysis/registry.js';
import type { Argv } from '../context/types.js';
import { cmdletOf, entryName, program, sourceOf } from '../programs/index.js';
import type { Hit, Rule, RuleContext } from '../rule.js';
import type { Invocation } from '../shell/types.js';
import type { Span } from '../types.js';

/** Prefixes the reader removes that run the command as someone else (usually root). */
const ELEVATING_PREFIXES = new Set(['sudo', 'doas']);
/** Programs that run a command or a shell with other rights. */
const ELEVATORS = new Set(['sudo', 'doas', 'su', 'pkexec', 'runas', 'gsudo', 'run0', 'sudoedit']);
/** `sudo -l` lists, `-k` forgets the password: nothing runs with more rights. */
const SUDO_HARMLESS = new Set([
  '-l',
  '--list',
  '-k',
  '-K',
  '--reset-timestamp',
  '--remove-timestamp',
  '-V',
  '--version',
  '-h',
  '--help',
]);
const USER_ADDERS = new Set(['useradd', 'adduser', 'new-localuser', 'groupadd', 'addgroup']);
const ADMIN_GROUPS = /^(?:sudo|wheel|admin|root|docker|administrators|adm)$/i;
const SHUTDOWN = new Set(['shutdown', 'reboot', 'halt', 'poweroff', 'stop-computer', 'restart-computer']);
const SYSTEMCTL_POWER = new Set(['reboot', 'poweroff', 'halt', 'kexec', 'suspend', 'hibernate']);
/** Windows programs that run code through a signed system binary. */
const PROXY_RUNNERS = new Set(['rundll32', 'regsvr32', 'mshta']);
const CONTAINER_RUNS = new Set(['run', 'create', 'exec']);
const SYSTEM_FOLDERS = new Set(['root', 'outside', 'device']);

export const systemElevate = {
  meta: {
    id: 'system.elevate',
    decision: 'ask',
    remember: 'every-time',
    concern: 'rules-or-machine',
    title: 'raising rights or changing the computer',
    reason:
      'This runs with more rights than the agent has or changes the computer itself (users, services, system settings, permissions), which reaches past this project and is hard to take back; the person should decide, or do it themselves.',
    owasp: ['LLM06:2025', 'ASI03'],
    examples: {
      match: [
        'sudo apt-get install -y jq',
        'chmod -R 777 .',
        'powershell -ExecutionPolicy Bypass -Command "Invoke-WebRequest https://example.com/x.ps1"',
        ':(){ :|:& };:',
        'sudo usermod -aG docker dev',
        'docker run --privileged -v /:/host alpine',
        'shutdown -r now',
      ],
      noMatch: [
        'chmod +x scripts/build.sh',
        'chmod 644 README.md',
        'docker run -v "$(pwd)":/app node:20 npm test',
        'sudo -l',
        'systemctl --user restart dev-server',
        'powershell -ExecutionPolicy Bypass -File scripts/build.ps1',
      ],
    },
  },
  check(context) {
    const hits: Hit[] = [];
    for (const inv of context.invocations) {
      const prefix = inv.prefixes.find((p) => ELEVATING_PREFIXES.has(p.name));
      // one question per sudo: an elevated invocation is not asked about again for what it does
      const what = prefix ? prefix.name : elevates(inv, context);
      if (what !== undefined)
        hits.push({ span: prefix ? prefixSpan(context, inv, prefix.name) : inv.span, detail: what });
      else if (forkBomb(context, inv))
        hits.push({
          span: inv.span,
          detail: 'a fork bomb: a function that starts copies of itself until the computer stops',
        });
    }
    return hits;
  },
} as const satisfies Rule;

/** How far before a command its prefix word is looked for (`sudo -u www-data -H …`). */
const PREFIX_WINDOW = 256;

/** From the prefix word (`sudo`) to the end of the command it runs, when the word is found just before it. */
function prefixSpan(context: RuleContext, inv: Invocation, name: string): Span {
  const from = Math.max(0, inv.span[0] - PREFIX_WINDOW);
  const found = context.text.slice(from, inv.span[0]).lastIndexOf(name);
  return found >= 0 ? [from + found, inv.span[1]] : inv.span;
}

/** What about this invocation raises rights or changes the computer, or undefined. */
function elevates(inv: Invocation, context: RuleContext): string | undefined {
  const name = inv.name;
  if (ELEVATORS.has(name)) {
    return name !== 'sudo' || inv.args.some((arg) => !SUDO_HARMLESS.has(arg)) ? name : undefined;
  }
  if (PROXY_RUNNERS.has(name)) return name;
  if (SHUTDOWN.has(name)) return /^[/-](?:c|a)$/.test(inv.args[0] ?? '') ? undefined : 'shutdown';
  if (USER_ADDERS.has(name)) return 'a new user or group';
  // how the program reads its words, for the few programs below that need it
  const argv = (): Argv => context.argv(inv);
  // docker under any of its names (`podman`, `nerdctl`: one entry of the knowledge base)
  const found = program(name);
  if (found !== undefined && entryName(found) === 'docker') return containerWithHostRights(inv, argv());
  if (registryChanges(inv).some((change) => change.hive !== 'hkcu')) return 'the machine registry';
  switch (cmdletOf(name) === 'start-process' && name !== 'start' ? 'start-process' : name) {
    case 'chmod':
      return chmodOpens(argv()) ? 'permissions for everyone' : undefined;
    case 'chown':
    case 'chgrp':
      // the owner first, then the files; a system folder, the root or home itself changes hands
      return argv()
        .operands.slice(1)
        .some((arg) => {
          const facts = context.path(arg.value, inv.cwd);
          return SYSTEM_FOLDERS.has(facts.place) || facts.isRoot || facts.isHome;
        })
        ? 'ownership of system folders'
        : undefined;
    case 'icacls':
      return inv.args.some((arg) => /^(?:everyone|\*s-1-1-0):\(?[fmw]/i.test(arg))
        ? 'permissions for everyone'
        : undefined;
    case 'usermod':
    case 'gpasswd':
      return adminGroup(inv, argv()) ? 'an admin group' : undefined;
    case 'net': {
      const args = inv.args.map((arg) => arg.toLowerCase());
      const adds = args.includes('/add');
      if (args[0] === 'user' && adds) return 'a new user';
      return args[0] === 'localgroup' && adds ? 'an admin group' : undefined;
    }
    case 'add-localgroupmember':
      return inv.args.some((arg) => ADMIN_GROUPS.test(arg)) ? 'an admin group' : undefined;
    case 'sysadminctl':
      return inv.args.some((arg) => /^-adduser$/i.test(arg)) ? 'a new user' : undefined;
    case 'dseditgroup':
      return inv.args.some((arg) => ADMIN_GROUPS.test(arg)) && inv.args.includes('edit') ? 'an admin group' : undefined;
    case 'set-executionpolicy':
      return inv.args.some((arg) => /^(?:bypass|unrestricted)$/i.test(arg)) ? 'an execution-policy bypass' : undefined;
    case 'powershell':
    case 'pwsh':
      return executionPolicyBypass(inv) && !runsProjectScript(context, inv) ? 'an execution-policy bypass' : undefined;
    case 'start-process':
    case 'start':
      return argv()
        .values('-Verb')
        .some((arg) => /^runas$/i.test(arg.value))
        ? 'run as administrator'
        : undefined;
    case 'sc': {
      const verb = (inv.args[0] ?? '').toLowerCase();
      return verb === 'create' || verb === 'config' || verb === 'delete' ? 'a service' : undefined;
    }
    case 'new-service':
    case 'remove-service':
      return 'a service';
    case 'setx':
      return inv.args.some((arg) => /^[/-]m$/i.test(arg)) ? 'the machine environment' : undefined;
    case 'systemctl': {
      const verb = argv().operands[0]?.value;
      return verb !== undefined && SYSTEMCTL_POWER.has(verb) ? 'shutdown' : undefined;
    }
    case 'init':
    case 'telinit':
      return /^[06]$/.test(inv.args[0] ?? '') ? 'shutdown' : undefined;
    default:
      return undefined;
  }
}

/**
 * `:(){ :|:& };:`: a function that calls itself in a pipeline or in the background from its own
 * body, so every call starts two more and the computer runs out of processes.
 */
function forkBomb(context: RuleContext, inv: Invocation): boolean {
  if (!inv.via.some((via) => via.kind === 'function' && via.name === inv.name)) return false;
  if (inv.pipeline.length > 1) return true;
  const after = context.text.slice(inv.span[1], inv.span[1] + 64);
  return /^\s*&(?!&)/.test(after);
}

/** `chmod 777`, `a+rwx`, `o+w` (anyone may change it) or a set-user-id bit. */
function chmodOpens(argv: Argv): boolean {
  const mode = argv.operands[0]?.value ?? '';
  if (/^[0-7]{1,4}$/.test(mode)) {
    const digits = mode.padStart(4, '0');
    return (Number(digits[3]) & 2) !== 0 || (Number(digits[0]) & 4) !== 0;
  }
  for (const clause of mode.split(',')) {
    const parts = /^([ugoa]*)([-+=])([rwxXst]*)$/.exec(clause);
    if (!parts) continue;
    const [, who = '', op, perms = ''] = parts;
    if (op === '-') continue;
    if (perms.includes('w') && (who.includes('o') || who.includes('a'))) return true;
    if (perms.includes('s') && (who === '' || who.includes('u') || who.includes('a'))) return true;
  }
  return false;
}

/** `usermod -aG sudo dev`, `gpasswd -a dev wheel` (`adduser dev sudo` is caught as a new user). */
function adminGroup(inv: Invocation, argv: Argv): boolean {
  const groups: string[] = [];
  if (inv.name === 'usermod') {
    for (let i = 0; i < inv.args.length; i++) {
      const arg = inv.args[i] ?? '';
      // `-G sudo`, `-aG sudo`, `--groups=sudo,docker`
      if (/^-[a-zA-Z]*[Gg]$/.test(arg) || arg === '--groups' || arg === '--gid')
        groups.push(...(inv.args[i + 1] ?? '').split(','));
      else if (/^--(?:groups|gid)=/.test(arg)) groups.push(...arg.slice(arg.indexOf('=') + 1).split(','));
    }
  } else {
    groups.push(...argv.operands.map((arg) => arg.value));
  }
  return groups.some((group) => ADMIN_GROUPS.test(group));
}

/** `-ExecutionPolicy Bypass`, also as PowerShell's abbreviations (`-ep`, `-exec`, `-ex`). */
function executionPolicyBypass(inv: Invocation): boolean {
  return inv.args.some((arg, i) => {
    const option = arg.toLowerCase();
    const isPolicy = option === '-ep' || (option.length >= 3 && '-executionpolicy'.startsWith(option));
    return isPolicy && /^(?:bypass|unrestricted)$/i.test(inv.args[i + 1] ?? '');
  });
}

/**
 * `powershell -ExecutionPolicy Bypass -File scripts\\build.ps1`: the bypass lasts for this one
 * process, which runs a script of the project (judged on its own as a script run), so nothing of
 * the computer's settings changes. Command text or a script elsewhere still counts.
 */
function runsProjectScript(context: RuleContext, inv: Invocation): boolean {
  const source = sourceOf(inv.name, inv.args);
  if (source.kind !== 'script') return false;
  const script = inv.args[source.index];
  return script !== undefined && context.path(script, inv.cwd).place === 'project';
}

/** A container started with the host's rights: privileged, the host's processes, its root folder or its Docker socket. */
function containerWithHostRights(inv: Invocation, argv: Argv): string | undefined {
  const verb = argv.operands[0]?.value;
  if (verb === undefined || !CONTAINER_RUNS.has(verb)) return undefined;
  for (let i = 0; i < inv.args.length; i++) {
    const arg = inv.args[i] ?? '';
    const next = inv.args[i + 1] ?? '';
    if (arg === '--privileged' || arg === '--privileged=true') return 'a container with host rights';
    if (/^--(?:pid|userns|uts|ipc)(?:=host$|$)/.test(arg) && (arg.endsWith('=host') || next === 'host'))
      return 'a container with host rights';
    if (
      /^--cap-add(?:=|$)/.test(arg) &&
      /^(?:all|sys_admin)$/i.test(arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : next)
    )
      return 'a container with host rights';
    const volume = arg === '-v' || arg === '--volume' ? next : /^(?:-v|--volume=)(.+)$/.exec(arg)?.[1];
    if (volume !== undefined && hostRootMount(volume)) return 'a container with host rights';
    const mount = arg === '--mount' ? next : /^--mount=(.+)$/.exec(arg)?.[1];
    if (mount !== undefined && /(?:^|,)(?:source|src)=(?:\/|\/var\/run\/docker\.sock)(?:,|$)/.test(mount))
      return 'a container with host rights';
  }
  return undefined;
}

function hostRootMount(spec: string): boolean {
  const host = spec.slice(0, spec.indexOf(':') < 0 ? spec.length : spec.indexOf(':'));
  return host === '/' || host === '/var/run/docker.sock' || host === '/run/docker.sock';
}
