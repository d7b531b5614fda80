import { packageInstall } from '../analysis/packages.js';
import type { Hit, Rule } from '../rule.js';

export const pkgInstall = {
  meta: {
    id: 'pkg.install',
    decision: 'ask',
    remember: 'package',
    concern: 'outside',
    title: 'installing packages',
    reason:
      "Installing packages downloads code that may run install scripts on this machine with your rights; check each name and where it comes from, and install from the project's lockfile where you can.",
    owasp: ['LLM03:2025', 'ASI04'],
    examples: {
      match: [
        'npm install',
        'pnpm add zod',
        'pip install -r requirements.txt',
        'uv sync',
        'cargo add serde',
        'go get github.com/spf13/cobra@v1.8.0',
      ],
      noMatch: ['npm test', 'npm run build', 'npx tsc --noEmit', 'pip list', 'cargo build --release'],
    },
  },
  check(context) {
    const hits: Hit[] = [];
    for (const inv of context.invocations) {
      const install = packageInstall(inv, context);
      if (!install) continue;
      // the project's own lists: asked once per folder, whichever manager reads them
      if (install.project)
        hits.push({
          span: inv.span,
          key: `project:${inv.cwd}`,
          detail: `the project's own packages, by ${install.manager}`,
        });
      for (const pkg of install.packages) {
        hits.push({ span: pkg.span, key: `${install.ecosystem}:${pkg.name}`, detail: pkg.name });
      }
    }
    return hits;
  },
} as const satisfies Rule;
