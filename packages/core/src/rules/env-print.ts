import { outputShown } from '../analysis/flow.js';
import { dumpsEnvironment, printedSecretNames, printsCodeValue } from '../analysis/printing.js';
import { printsWholeEnvironment } from '../facts/code.js';
import type { Hit, Rule } from '../rule.js';

/** `/proc/self/environ`, `/proc/1234/environ`: a process's environment as a file. */
const PROC_ENVIRON = /^\/proc\/[^/]+\/environ$/;

/** SPEC 4.1: printing the environment, or a variable named like a key, lands its values in the chat. */
export const envPrint = {
  meta: {
    id: 'env.print',
    decision: 'block',
    remember: 'never',
    title: 'printing the environment or a secret-looking variable',
    reason:
      'Printing the environment or a variable named like a key puts its value into the chat and the logs, where it cannot be taken back; check a single harmless variable by name, or test whether a secret is set without showing it (for example `[ -n "$API_KEY" ] && echo set`).',
    owasp: ['LLM02:2025'],
    examples: {
      match: [
        'printenv',
        'env',
        'export -p',
        'Get-ChildItem env:',
        'python -c "import os; print(os.environ)"',
        'echo $OPENAI_API_KEY',
      ],
      noMatch: [
        'env NODE_ENV=test npm test',
        'echo $HOME',
        'printenv NODE_ENV',
        'set -euo pipefail',
        'echo ${#OPENAI_API_KEY}',
        "echo '$OPENAI_API_KEY'",
      ],
    },
  },
  check(context) {
    const hits: Hit[] = [];
    for (const inv of context.invocations) {
      if (inv.code) {
        const whole = printsWholeEnvironment(inv.code.language, inv.code.text, printsCodeValue(inv));
        if (whole) hits.push({ span: inv.code.span });
      }
      if (dumpsEnvironment(inv, context) && outputShown(context, inv)) {
        hits.push({ span: inv.span });
        continue;
      }
      const names = printedSecretNames(inv, context);
      if (names.length > 0 && outputShown(context, inv)) {
        for (const printed of names) hits.push({ span: printed.span, detail: printed.name });
      }
    }
    for (const file of context.files) {
      if (file.op === 'read' && PROC_ENVIRON.test(file.path.abs)) hits.push({ span: file.span, path: file.path.abs });
    }
    return hits;
  },
} as const satisfies Rule;
