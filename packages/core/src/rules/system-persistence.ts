import { changesFile } from '../analysis/effects.js';
import { registryChanges } from '../analysis/registry.js';
import type { Hit, Rule, RuleContext } from '../rule.js';
import type { Invocation } from '../shell/types.js';

/** crontab options that only look (`-l`) or take the crontab away (`-r`): nothing new starts. */
const CRONTAB_LOOKS = new Set(['-l', '-r', '-i', '-V', '--help', '--version']);
const AT_LOOKS = new Set(['-l', '-r', '-d', '-c', '-V', '--help']);
const LAUNCHCTL_STARTS = new Set(['load', 'bootstrap', 'submit', 'enable']);
const SYSTEMCTL_ENABLES = new Set(['enable', 'reenable', 'preset', 'add-wants', 'add-requires']);
const TASK_REGISTERS = new Set(['register-scheduledtask', 'set-scheduledtask', 'register-scheduledjob']);
// Registry keys (flattened, see RegistryChange.key) whose values run at log-on.
const RUN_KEY = /currentversion(?:policiesexplorer)?run(?:once(?:ex)?|services(?:once)?)?$/;
const WINLOGON_KEY = /currentversionwinlogon$/;

export const systemPersistence = {
  meta: {
    id: 'system.persistence',
    decision: 'block',
    remember: 'never',
    title: 'making something start by itself',
    reason:
      'This makes a program start by itself later (at log-on, on a timer or as a service), where nobody watches it run and it outlives this chat; show the person the entry so they can add it themselves.',
    owasp: ['ASI10'],
    examples: {
      match: [
        'crontab -e',
        '(crontab -l; echo "0 * * * * ~/sync.sh") | crontab -',
        'systemctl --user enable --now backup.timer',
        'schtasks /create /sc onlogon /tn updater /tr C:\\tools\\u.exe',
        'echo "export PATH=$PATH:~/bin" >> ~/.bashrc',
        { step: { kind: 'write', path: '/home/dev/.zshrc', content: 'alias ll="ls -l"\n' } },
      ],
      noMatch: [
        'crontab -l',
        'cat ~/.bashrc',
        'source ~/.zshrc',
        'systemctl status backup.timer',
        {
          step: { kind: 'write', path: 'dotfiles/.bashrc', content: 'alias ll="ls -l"\n' },
          note: 'a dotfiles repo inside the project',
        },
      ],
    },
  },
  check(context) {
    const hits: Hit[] = [];
    for (const inv of context.invocations) {
      if (startsItself(inv, context)) hits.push({ span: inv.span });
      for (const change of registryChanges(inv)) {
        if (
          RUN_KEY.test(change.key) ||
          (WINLOGON_KEY.test(change.key) && /^(?:userinit|shell)$/i.test(change.value ?? ''))
        ) {
          hits.push({ span: change.span, detail: 'a Run registry key' });
        }
      }
    }
    for (const effect of context.files) {
      // the source of a move goes away; only what lands in a start-up file counts
      if (!effect.path.persistence || !changesFile(effect) || effect.op === 'delete' || effect.how === 'move') continue;
      hits.push({
        span: effect.span,
        ...(effect.path.abs === '' ? {} : { path: effect.path.abs }),
        detail: effect.path.raw,
      });
    }
    return hits;
  },
} as const satisfies Rule;

/** Commands whose job is to register something that starts by itself. */
function startsItself(inv: Invocation, context: RuleContext): boolean {
  const first = (inv.args[0] ?? '').toLowerCase();
  switch (inv.name) {
    case 'crontab':
      // `crontab file`, `crontab -` and `crontab -e` install a table; `crontab -l` only prints it
      return inv.args.length > 0 && !inv.args.some((arg) => CRONTAB_LOOKS.has(arg) || /^-[a-z]*[lr]/.test(arg));
    case 'at':
    case 'batch':
      return inv.args.length > 0 && !inv.args.some((arg) => AT_LOOKS.has(arg));
    case 'schtasks':
      return inv.args.some((arg) => /^[/-](?:create|change)$/i.test(arg));
    case 'systemctl': {
      const verb = context.argv(inv).operands[0]?.value;
      return verb !== undefined && SYSTEMCTL_ENABLES.has(verb);
    }
    case 'launchctl':
      return LAUNCHCTL_STARTS.has(first);
    case 'update-rc.d':
      return inv.args.some((arg) => arg === 'defaults' || arg === 'enable');
    case 'chkconfig':
      return inv.args.some((arg) => arg === 'on' || arg === '--add');
    case 'rc-update':
      return first === 'add';
    case 'sc':
      // a service set to start with Windows
      return (
        (first === 'create' || first === 'config') &&
        inv.args.some(
          (arg, i) => /^start=\s*auto$/i.test(arg) || (/^start=$/i.test(arg) && /^auto$/i.test(inv.args[i + 1] ?? '')),
        )
      );
    case 'new-service':
    case 'set-service':
      return inv.args.some((arg, i) => /^-startuptype$/i.test(arg) && /^automatic/i.test(inv.args[i + 1] ?? ''));
    default:
      return TASK_REGISTERS.has(inv.name);
  }
}
