import { outputShown } from '../analysis/flow.js';
import { printedSecretNames, printsCodeValue } from '../analysis/printing.js';
import { printedSecretVariables } from '../facts/code.js';
import type { Hit, Rule, RuleContext } from '../rule.js';

/**
 * SPEC 4.2: inline code (`python -c`, `node -e`, a heredoc to `python -`) or a script on disk
 * about to print a variable named like a key, token or password. A shell `echo $KEY` typed
 * directly is env.print's.
 */
export const scriptPrintsKey = {
  meta: {
    id: 'script.prints-key',
    decision: 'ask',
    remember: 'every-time',
    concern: 'secrets',
    title: 'code about to print a key, token or password',
    reason:
      'This code prints the value of a variable named like a key, token or password, which would put the secret into the chat and the logs; print only whether it is set, or its length, instead.',
    owasp: ['LLM02:2025', 'ASI03'],
    examples: {
      match: [
        'python -c "import os; print(os.environ[\'OPENAI_API_KEY\'])"',
        'node -e "console.log(process.env.GITHUB_TOKEN)"',
        {
          step: 'python check.py',
          probe: {
            files: { '/home/dev/project/check.py': "import os\nkey = os.getenv('STRIPE_SECRET_KEY')\nprint(key)\n" },
          },
        },
      ],
      noMatch: [
        'python -c "import os; print(len(os.environ[\'OPENAI_API_KEY\']))"',
        'node -e "console.log(process.env.NODE_ENV)"',
        {
          step: 'python check.py',
          probe: {
            files: {
              '/home/dev/project/check.py':
                "import os\nprint('key set' if os.getenv('STRIPE_SECRET_KEY') else 'missing')\n",
            },
          },
        },
      ],
    },
  },
  check(context) {
    const hits: Hit[] = [];
    for (const inv of context.invocations) {
      if (!inv.code) continue;
      const names = printedSecretVariables(inv.code.language, inv.code.text, printsCodeValue(inv)).map((v) => v.name);
      if (names.length > 0) hits.push({ span: inv.code.span, detail: unique(names).join(', ') });
    }
    for (const script of context.scripts()) {
      const names = namesPrinted(script.context);
      if (names.length === 0) continue;
      const name = script.path.slice(script.path.lastIndexOf('/') + 1);
      hits.push({ span: script.effect.span, detail: `${unique(names).join(', ')} in ${name}`, path: script.path });
    }
    return hits;
  },
} as const satisfies Rule;

/** Secret-named variables a script prints, in code or through a shell `echo`. */
function namesPrinted(script: RuleContext): string[] {
  const names: string[] = [];
  for (const inv of script.invocations) {
    if (inv.code) names.push(...printedSecretVariables(inv.code.language, inv.code.text).map((v) => v.name));
    const echoed = printedSecretNames(inv, script);
    if (echoed.length > 0 && outputShown(script, inv)) names.push(...echoed.map((v) => v.name));
  }
  return names;
}

function unique(names: readonly string[]): string[] {
  return [...new Set(names)];
}
