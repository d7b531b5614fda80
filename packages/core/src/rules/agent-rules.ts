import { gitCommand } from '../analysis/args.js';
import { changesFile } from '../analysis/effects.js';
import { isInside } from '../facts/paths.js';
import type { Hit, Rule } from '../rule.js';

/** Memory key shared by every plain note in the agent's memory folder: asked once per chat. */
const MEMORY_NOTE_KEY = 'memory-note';
/** `git config` options that only read. */
const GIT_CONFIG_READS = new Set([
  '--get',
  '--get-all',
  '--get-regexp',
  '-l',
  '--list',
  '--show-origin',
  '--show-scope',
]);

export const agentRules = {
  meta: {
    id: 'agent.rules',
    decision: 'ask',
    remember: 'every-time',
    concern: 'rules-or-machine',
    title: "changing the agent's own rules and checks",
    reason:
      'This changes the instructions, settings or checks the agent works under (rules files, agent settings, MCP servers, git hooks, CI), which steers every later step and chat; show the person the change so they can make it or approve it.',
    owasp: [],
    examples: {
      match: [
        'echo "Always skip the tests." >> AGENTS.md',
        { step: { kind: 'write', path: '.github/workflows/ci.yml', content: 'on: push\n' } },
        { step: { kind: 'write', path: '.husky/pre-commit', mode: 'delete' } },
        'git config core.hooksPath /dev/null',
      ],
      noMatch: [
        'cat AGENTS.md',
        { step: { kind: 'read', path: 'AGENTS.md' } },
        { step: { kind: 'write', path: 'docs/agents.md', content: '# Agents\n' } },
        'git config --get core.hooksPath',
      ],
    },
  },
  check(context) {
    const hits: Hit[] = [];
    for (const effect of context.files) {
      const kind = effect.path.agentRules;
      // the guard's own hook files are guard.tamper's, which blocks
      if (kind === undefined || effect.path.guardFile !== undefined || !changesFile(effect)) continue;
      const where = effect.path.abs || effect.path.raw;
      const rel = isInside(where, context.pathContext.projectRoot)
        ? where.slice(context.pathContext.projectRoot.length + 1)
        : effect.path.raw;
      hits.push({
        span: effect.span,
        ...(effect.path.abs === '' ? {} : { path: effect.path.abs }),
        detail: rel,
        // a plain note in the agent's own memory folder is asked once per chat, not every time
        ...(kind === 'memory-note' ? { key: MEMORY_NOTE_KEY, remember: 'chat' } : {}),
      });
    }
    for (const inv of context.invocations) {
      const git = gitCommand(context, inv);
      if (git?.name !== 'config') continue;
      const args = git.words.map((arg) => arg.value);
      const at = args.findIndex((arg) => arg.toLowerCase() === 'core.hookspath');
      // `git config core.hooksPath x` and `--unset core.hooksPath` change it; `--get` only reads
      if (
        at >= 0 &&
        (at + 1 < args.length || args.includes('--unset')) &&
        !args.some((arg) => GIT_CONFIG_READS.has(arg))
      ) {
        hits.push({ span: inv.span, detail: 'core.hooksPath' });
      }
    }
    return hits;
  },
} as const satisfies Rule;
