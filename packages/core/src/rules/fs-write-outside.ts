import { changesFile } from '../analysis/effects.js';
import type { Hit, Rule, RuleContext } from '../rule.js';

export const fsWriteOutside = {
  meta: {
    id: 'fs.write-outside',
    decision: 'ask',
    remember: 'path',
    concern: 'outside',
    title: 'writing outside the project',
    reason:
      'This writes outside the project, where git does not track the change and other programs or projects may depend on the file; keep the work inside the project or the temp folder, or let a person make this change.',
    owasp: ['LLM06:2025'],
    examples: {
      match: [
        'echo "- call the dentist" >> ~/notes/todo.md',
        'cp config.example.json ~/other-app/config.json',
        'sed -i "s/a/b/" /etc/hosts',
        'git worktree add ../project-review origin/main',
        { step: { kind: 'write', path: '/home/dev/notes/todo.md', content: 'x' } },
      ],
      noMatch: [
        'echo hi > notes.txt',
        'npm test > /tmp/test.log',
        'cat package.json > /dev/null',
        'mkdir -p ~/.cache/tool',
        { step: { kind: 'write', path: 'src/app.ts', content: 'x' } },
      ],
    },
  },
  check(context) {
    const hits: Hit[] = [];
    let temps: ReadonlySet<string> | undefined;
    for (const effect of context.files) {
      if ((effect.op !== 'write' && effect.op !== 'create') || !changesFile(effect)) continue;
      const { place, abs } = effect.path;
      if (place !== 'home' && place !== 'outside' && place !== 'root') continue;
      // `cp x /tmp` writes into the temp folder, though `/tmp` itself is a top-level folder
      temps ??= tempFolders(context);
      if (temps.has(abs)) continue;
      hits.push({ span: effect.span, key: abs, path: abs, detail: abs });
    }
    return hits;
  },
} as const satisfies Rule;

function tempFolders(context: RuleContext): ReadonlySet<string> {
  return new Set([context.path(context.pathContext.tmp).abs, '/tmp', '/var/tmp']);
}
