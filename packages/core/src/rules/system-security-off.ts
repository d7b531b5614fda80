import { changesFile } from '../analysis/effects.js';
import { registryChanges } from '../analysis/registry.js';
import { isInside } from '../facts/paths.js';
import type { Hit, Rule, RuleContext } from '../rule.js';
import type { Invocation } from '../shell/types.js';

/** Services that are a firewall, a mandatory access control, an audit log or an anti-virus. */
const SECURITY_SERVICES = new Set([
  'firewalld',
  'ufw',
  'iptables',
  'ip6tables',
  'nftables',
  'apparmor',
  'auditd',
  'fail2ban',
  'falcon-sensor',
  'clamav-daemon',
  'clamd',
  'windefend',
  'mpssvc',
  'wscsvc',
  'sense',
  'securityhealthservice',
]);
const STOP_VERBS = new Set(['stop', 'disable', 'mask', 'kill']);
const APPARMOR_OFF = new Set(['aa-teardown', 'aa-disable', 'aa-complain']);
const FALSE = /^(?:\$?false|0)$/i;
/** Every program switchesOff knows, so that other commands cost one look-up. */
const PROGRAMS = new Set([
  'set-mppreference',
  'add-mppreference',
  'netsh',
  'set-netfirewallprofile',
  'ufw',
  'socketfilterfw',
  'iptables',
  'ip6tables',
  'nft',
  'systemctl',
  'service',
  'sc',
  'stop-service',
  'spsv',
  'set-service',
  'uninstall-windowsfeature',
  'remove-windowsfeature',
  'setenforce',
  'spctl',
  'csrutil',
  'sysctl',
  ...APPARMOR_OFF,
]);

export const systemSecurityOff = {
  meta: {
    id: 'system.security-off',
    decision: 'block',
    remember: 'never',
    title: 'switching off a security tool',
    reason:
      "This switches off one of the computer's defences (anti-virus, firewall, SELinux, AppArmor, Gatekeeper), leaving it open to everything that runs next; find a way that works with the defence on, or ask the person to change it themselves.",
    owasp: ['LLM06:2025'],
    examples: {
      match: [
        'Set-MpPreference -DisableRealtimeMonitoring $true',
        'netsh advfirewall set allprofiles state off',
        'sudo ufw disable',
        'sudo setenforce 0',
        'sudo spctl --master-disable',
        'sudo systemctl stop firewalld',
      ],
      noMatch: [
        'sudo ufw status',
        'sudo setenforce 1',
        'systemctl status firewalld',
        'Set-MpPreference -DisableRealtimeMonitoring $false',
        'csrutil status',
      ],
    },
  },
  check(context) {
    const hits: Hit[] = [];
    for (const inv of context.invocations) {
      const what = switchesOff(inv, context);
      if (what !== undefined) hits.push({ span: inv.span, detail: what });
      for (const change of registryChanges(inv)) {
        if (change.key.includes('windowsdefender') && /^disable/i.test(change.value ?? ''))
          hits.push({ span: change.span, detail: 'Defender' });
      }
    }
    for (const effect of context.files) {
      if (changesFile(effect) && isInside(effect.path.abs, '/etc/selinux'))
        hits.push({ span: effect.span, path: effect.path.abs, detail: 'SELinux' });
    }
    return hits;
  },
} as const satisfies Rule;

/** The defence a command switches off, or undefined. */
function switchesOff(inv: Invocation, context: RuleContext): string | undefined {
  if (!PROGRAMS.has(inv.name)) return undefined;
  const args = inv.args.map((arg) => arg.toLowerCase());
  const ops = context.argv(inv).operands.map((arg) => arg.value.toLowerCase());
  switch (inv.name) {
    case 'set-mppreference':
    case 'add-mppreference':
      return defenderOff(inv.args) ? 'Defender' : undefined;
    case 'netsh': {
      const state = args.indexOf('state');
      const opmode = args.indexOf('opmode');
      if (args.includes('advfirewall') && state >= 0 && args[state + 1] === 'off') return 'the firewall';
      if (args.includes('firewall') && opmode >= 0 && /^(?:disable|off)$/.test(args[opmode + 1] ?? ''))
        return 'the firewall';
      return undefined;
    }
    case 'set-netfirewallprofile':
      return args.some(
        (arg, i) => (arg === '-enabled' && FALSE.test(args[i + 1] ?? '')) || /^-enabled:\$?false$/.test(arg),
      )
        ? 'the firewall'
        : undefined;
    case 'ufw':
      return ops[0] === 'disable' || ops[0] === 'reset' ? 'the firewall' : undefined;
    case 'socketfilterfw':
      return args.some((arg, i) => arg === '--setglobalstate' && args[i + 1] === 'off') ? 'the firewall' : undefined;
    case 'iptables':
    case 'ip6tables':
      // flushing every rule, or letting everything in by default (`-f`/`-p` are other options)
      return inv.args.some(
        (arg, i) =>
          arg === '-F' || arg === '--flush' || ((arg === '-P' || arg === '--policy') && args[i + 2] === 'accept'),
      )
        ? 'the firewall'
        : undefined;
    case 'nft':
      return ops[0] === 'flush' && ops[1] === 'ruleset' ? 'the firewall' : undefined;
    case 'systemctl': {
      const verb = ops.findIndex((op) => STOP_VERBS.has(op));
      return verb >= 0 && ops.slice(verb + 1).some(isSecurityService) ? 'a security service' : undefined;
    }
    case 'service':
      return isSecurityService(ops[0] ?? '') && ops[1] === 'stop' ? 'a security service' : undefined;
    case 'sc':
      return (ops[0] === 'stop' || ops[0] === 'delete' || (ops[0] === 'config' && ops.includes('disabled'))) &&
        isSecurityService(ops[1] ?? '')
        ? 'a security service'
        : undefined;
    case 'stop-service':
    case 'spsv':
    case 'set-service':
      return args.some(isSecurityService) &&
        (inv.name !== 'set-service' || args.includes('disabled') || args.includes('stopped'))
        ? 'a security service'
        : undefined;
    case 'uninstall-windowsfeature':
    case 'remove-windowsfeature':
      return args.some((arg) => arg.startsWith('windows-defender')) ? 'Defender' : undefined;
    case 'setenforce':
      return ops[0] === '0' || ops[0] === 'permissive' ? 'SELinux' : undefined;
    case 'spctl':
      return args.includes('--master-disable') || args.includes('--global-disable') ? 'Gatekeeper' : undefined;
    case 'csrutil':
      return ops.includes('disable') ? 'System Integrity Protection' : undefined;
    case 'sysctl':
      return args.some((arg) => /^kernel\.randomize_va_space=0$/.test(arg)) ? 'address space randomisation' : undefined;
    default:
      return APPARMOR_OFF.has(inv.name) ? 'AppArmor' : undefined;
  }
}

function isSecurityService(unit: string): boolean {
  return SECURITY_SERVICES.has(unit.toLowerCase().replace(/\.service$/, ''));
}

/** `-Disable…` switches set to anything but false, and new scan exclusions. */
function defenderOff(args: readonly string[]): boolean {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? '';
    if (/^-exclusion/i.test(arg)) return true;
    const disable = /^-disable\w*(?::(.*))?$/i.exec(arg);
    if (!disable) continue;
    const value = disable[1] ?? args[i + 1] ?? '$true';
    if (!FALSE.test(value)) return true;
  }
  return false;
}
