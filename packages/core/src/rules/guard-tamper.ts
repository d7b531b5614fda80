import { changesFile } from '../analysis/effects.js';
import type { Argv, FileEffect } from '../context/types.js';
import { isA, sourceOf } from '../programs/index.js';
import type { Hit, Rule, RuleContext } from '../rule.js';
import { GUARD_PACKAGE } from '../product.js';
import type { Invocation } from '../shell/types.js';

/** guard subcommands that turn it off, take it out, point its hook elsewhere or forge its answers. */
const TAMPERING = new Set(['off', 'uninstall', 'setup', 'hook']);
/**
 * The guard's own entry script, run by path: in a checkout (`node …/packages/cli/dist/bin.js off`)
 * or in the installed package (`node …/node_modules/agent-step-guard/dist/bin.js off`).
 */
const GUARD_SCRIPT = new RegExp(
  String.raw`(?:^|[\\/])(?:@guard[\\/]cli|packages[\\/]cli|${GUARD_PACKAGE})[\\/](?:dist|src)[\\/][\w.-]+\.[cm]?[jt]s$`,
);
const PACKAGE_MANAGERS = new Set(['npm', 'pnpm', 'yarn', 'bun']);
const REMOVE_VERBS = new Set(['uninstall', 'un', 'remove', 'rm', 'r', 'unlink']);
/** The guard package as npm names it (`agent-step-guard`, `agent-step-guard@0.1.0`, the workspace's `@guard/cli`). */
const GUARD_PACKAGE_ARG = new RegExp(String.raw`^(?:guard|@guard/[\w.-]+|${GUARD_PACKAGE})(?:@[\w.^~<>=*-]*)?$`);
/** npx and friends run a package by its name (`npx agent-step-guard off`). */
const GUARD_PROGRAM = new RegExp(String.raw`^(?:@guard/cli|${GUARD_PACKAGE})(?:@|$)`);
/** A setting that makes an agent skip every hook (Copilot and Claude-style settings files). */
const DISABLE_ALL_HOOKS = /disableAllHooks["']?\s*[:=]\s*["']?(?:true|1)\b/;
/** Codex settings on its command line that turn hooks off (`-c features.hooks=false`). */
const CODEX_HOOKS_OFF = /(?:^|\.)(?:codex_)?hooks\s*=\s*false\b/;
const ENABLED_FALSE = /\benabled\s*=\s*false\b/;
const READ_ONLY_TOOL =
  /^(?:read|get|list|search|find|view|show|describe|query|fetch|stat|cat|head|tail|glob|grep|ls)(?:$|[_\-A-Z])/;

export const guardTamper = {
  meta: {
    id: 'guard.tamper',
    decision: 'block',
    remember: 'never',
    title: 'changing the guard',
    reason:
      'This would change, switch off or remove the guard that checks the agent (its settings, state, log, project policy or the hook entries that call it), after which nothing stops the next risky step; only the person changes the guard, by running it themselves.',
    owasp: ['LLM06:2025', 'ASI10'],
    examples: {
      match: [
        'guard off',
        'guard fail-closed off',
        'rm -rf ~/.local/state/guard',
        'npm rm -g agent-step-guard',
        { step: { kind: 'write', path: '/home/dev/.codex/hooks.json', content: '{}' } },
      ],
      noMatch: [
        'guard status',
        'guard explain -- rm -rf dist',
        'cat ~/.local/state/guard/log.jsonl',
        { step: { kind: 'read', path: '.guard.yaml' } },
      ],
    },
  },
  check(context) {
    const hits: Hit[] = [];
    for (const effect of context.files) {
      if (
        effect.path.guardFile !== undefined &&
        (effect.op === 'write' || effect.op === 'create' || effect.op === 'delete' || mcpWrites(context, effect))
      ) {
        hits.push({
          span: effect.span,
          ...(effect.path.abs === '' ? {} : { path: effect.path.abs }),
          detail: effect.path.raw,
        });
      } else if (
        effect.content !== undefined &&
        changesFile(effect) &&
        isJson(effect) &&
        DISABLE_ALL_HOOKS.test(effect.content)
      ) {
        hits.push({ span: effect.span, path: effect.path.abs, detail: 'disableAllHooks' });
      }
    }
    const writes = context.files.some(changesFile);
    for (const inv of context.invocations) {
      const what = tampers(inv, context, writes);
      if (what !== undefined) hits.push({ span: inv.span, detail: what });
    }
    return hits;
  },
} as const satisfies Rule;

/** What an invocation does to the guard, or undefined. */
function tampers(inv: Invocation, context: RuleContext, stepWrites: boolean): string | undefined {
  const args = guardArgs(inv);
  if (args !== undefined) {
    const words = args.filter((arg) => !arg.startsWith('-'));
    const [sub, value] = words;
    if (sub !== undefined && TAMPERING.has(sub)) return `guard ${sub}`;
    return sub === 'fail-closed' && value === 'off' ? 'guard fail-closed off' : undefined;
  }
  if (PACKAGE_MANAGERS.has(inv.name)) {
    const ops = context.argv(inv).operands;
    const verb = ops[0]?.value === 'global' ? 1 : 0;
    if (
      REMOVE_VERBS.has(ops[verb]?.value ?? '') &&
      ops.slice(verb + 1).some((arg) => GUARD_PACKAGE_ARG.test(arg.value))
    )
      return 'the guard package';
    return undefined;
  }
  if (inv.name === 'codex') return codexHooksOff(inv, context.argv(inv));
  // `echo '{"disableAllHooks": true}' > settings.json`, `jq '.disableAllHooks = true' …`
  if (stepWrites && inv.name !== 'git' && inv.args.some((arg) => DISABLE_ALL_HOOKS.test(arg))) return 'disableAllHooks';
  return undefined;
}

/** The arguments given to the guard CLI, however it is started; undefined when this is not it. */
function guardArgs(inv: Invocation): readonly string[] | undefined {
  if (inv.name === 'guard' || GUARD_PROGRAM.test(inv.program)) return inv.args;
  if (isA(inv.name, 'script-runner')) {
    const source = sourceOf(inv.name, inv.args);
    return source.kind === 'script' && GUARD_SCRIPT.test(inv.args[source.index] ?? '')
      ? inv.args.slice(source.index + 1)
      : undefined;
  }
  if (PACKAGE_MANAGERS.has(inv.name)) {
    // a package script named guard: `pnpm guard off`, `npm run guard -- off`
    const at = inv.args[0] === 'guard' ? 1 : inv.args[0] === 'run' && inv.args[1] === 'guard' ? 2 : -1;
    return at < 0 ? undefined : inv.args.slice(at).filter((arg) => arg !== '--');
  }
  return undefined;
}

/** Codex started with its hooks off or unreviewed hooks trusted for the run. */
function codexHooksOff(inv: Invocation, argv: Argv): string | undefined {
  if (inv.args.includes('--dangerously-bypass-hook-trust')) return '--dangerously-bypass-hook-trust';
  const settings = argv.values('-c', '--config').map((arg) => arg.value);
  // `-c features.hooks=false`, or one hook switched off in `hooks.state`
  if (
    settings.some(
      (value) => CODEX_HOOKS_OFF.test(value) || (value.includes('hooks.state') && ENABLED_FALSE.test(value)),
    )
  )
    return 'Codex hooks off';
  if (argv.values('--disable').some((arg) => arg.value === 'hooks' || arg.value === 'codex_hooks'))
    return 'Codex hooks off';
  const ops = argv.operands.map((arg) => arg.value);
  return ops[0] === 'features' && ops[1] === 'disable' && (ops[2] === 'hooks' || ops[2] === 'codex_hooks')
    ? 'Codex hooks off'
    : undefined;
}

function isJson(effect: FileEffect): boolean {
  return /\.jsonc?$/i.test(effect.path.abs || effect.path.raw) || effect.path.agentRules === 'settings';
}

/** An MCP tool given a guard file that does not say (by annotation or name) that it only reads. */
function mcpWrites(context: RuleContext, effect: FileEffect): boolean {
  const step = context.step;
  if (step.kind !== 'mcp' || effect.op !== 'read') return false;
  return step.annotations?.readOnlyHint !== true && !READ_ONLY_TOOL.test(step.tool);
}
