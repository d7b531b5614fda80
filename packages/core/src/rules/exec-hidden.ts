import { expressionEnd, outputRunAsCode } from '../analysis/flow.js';
import { decodesText, runsDecodedCode } from '../facts/code.js';
import { cmdletOf, isA, program, sourceOf } from '../programs/index.js';
import type { Hit, Rule, RuleContext } from '../rule.js';
import type { Invocation } from '../shell/types.js';

/** `\x72`, `\162`, `\0162`, `\u0072`: characters written as numbers. */
const NUMERIC_ESCAPE = /\\(?:x[0-9A-Fa-f]{1,2}|0?[0-7]{3}|u[0-9A-Fa-f]{4})/;
/** `[Convert]::FromBase64String(…)` and friends inside a PowerShell expression. */
const POWERSHELL_DECODE = /FromBase64String|FromHexString|-bxor\b|\[char\]\s*(?:0x)?\d/i;

/** SPEC 4.1: a command whose real text only appears once it runs, so nobody (guard included) can read it first. */
export const execHidden = {
  meta: {
    id: 'exec.hidden',
    decision: 'block',
    remember: 'never',
    title: 'running a command hidden from the reader',
    reason:
      'This runs a command that is encoded or packed so that neither you nor guard can read what it does before it runs; decode it first, look at the plain text, and run that instead.',
    owasp: ['ASI05'],
    examples: {
      match: [
        'powershell -EncodedCommand ZQBjAGgAbwAgAGgAaQA=',
        'pwsh -enc ZQBjAGgAbwA=',
        'echo cm0gLXJmIC4= | base64 -d | sh',
        'xxd -r -p payload.hex | bash',
        'eval "$(echo cm0gLXJmIC4= | base64 --decode)"',
      ],
      noMatch: [
        'base64 -d cert.b64 > cert.pem',
        'echo aGVsbG8= | base64 -d',
        'pwsh -ExecutionPolicy Bypass -File build.ps1',
        'gunzip -c logs.gz | grep ERROR',
      ],
    },
  },
  check(context) {
    const hits: Hit[] = [];
    for (const inv of context.invocations) {
      if (program(inv.name)?.source === 'powershell' && sourceOf(inv.name, inv.args).kind === 'encoded') {
        hits.push({ span: inv.span });
        continue;
      }
      if (inv.code && runsDecodedCode(inv.code.text)) {
        hits.push({ span: inv.code.span });
        continue;
      }
      if (cmdletOf(inv.name) === 'invoke-expression' && runsDecodedPowerShell(context.text, inv)) {
        hits.push({ span: inv.span });
        continue;
      }
      if (isDecoder(inv, context)) {
        const feed = outputRunAsCode(context, inv);
        if (feed)
          hits.push({ span: [Math.min(inv.span[0], feed.runner.span[0]), Math.max(inv.span[1], feed.runner.span[1])] });
      }
    }
    return hits;
  },
} as const satisfies Rule;

function runsDecodedPowerShell(text: string, inv: Invocation): boolean {
  const code = inv.args.length > 0 ? inv.args.join(' ') : text.slice(inv.span[1], expressionEnd(text, inv.span[1]));
  return POWERSHELL_DECODE.test(code);
}

/** A program whose output is text that was encoded, packed or escaped in the command. */
function isDecoder(inv: Invocation, context: RuleContext): boolean {
  const name = inv.name;
  // `base64 -d`, `gzip -d`, `xxd -r`, `zcat`: the knowledge base says which, and with which options
  const decodes = program(name)?.decodes;
  if (decodes !== undefined) return decodes === true || context.argv(inv).has(...decodes);
  if (name === 'openssl') return (inv.args.includes('base64') || inv.args.includes('enc')) && inv.args.includes('-d');
  if (name === 'printf') return inv.args.some((a) => NUMERIC_ESCAPE.test(a));
  if (name === 'echo') return context.argv(inv).has('-e') && inv.args.some((a) => NUMERIC_ESCAPE.test(a));
  if (name === 'tr') {
    // rot13: `tr 'A-Za-z' 'N-ZA-Mn-za-m'`
    const sets = context.argv(inv).operands;
    return sets.length === 2 && /^[nN]-/.test(sets[1]?.value ?? '');
  }
  if (isA(name, 'inline-code') && inv.code) return decodesText(inv.code.text);
  return false;
}
