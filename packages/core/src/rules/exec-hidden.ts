import { hasFlag, operands } from '../analysis/args.js';
import { expressionEnd, outputRunAsCode } from '../analysis/flow.js';
import { decodesText, runsDecodedCode } from '../facts/code.js';
import type { Hit, Rule } from '../rule.js';
import type { Invocation } from '../shell/types.js';

const BASE_DECODERS = new Set(['base64', 'base32', 'basenc', 'gbase64', 'b64']);
const UNPACKERS = new Set([
  'gunzip',
  'zcat',
  'gzcat',
  'bunzip2',
  'bzcat',
  'unxz',
  'xzcat',
  'unzstd',
  'zstdcat',
  'uudecode',
  'rev',
]);
const PACKERS = new Set(['gzip', 'bzip2', 'xz', 'zstd', 'lz4']);
const INTERPRETERS = /^(?:python[\d.]*|pypy[\d.]*|py|node|nodejs|bun|deno|ruby|perl|php)$/;
/** `\x72`, `\162`, `\0162`, `\u0072`: characters written as numbers. */
const NUMERIC_ESCAPE = /\\(?:x[0-9A-Fa-f]{1,2}|0?[0-7]{3}|u[0-9A-Fa-f]{4})/;
/** `[Convert]::FromBase64String(…)` and friends inside a PowerShell expression. */
const POWERSHELL_OPTION = /^(?:--?|\/)([A-Za-z]+)(?::.*)?$/;
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
      if ((inv.name === 'powershell' || inv.name === 'pwsh') && hasEncodedCommand(inv)) {
        hits.push({ span: inv.span });
        continue;
      }
      if (inv.code && runsDecodedCode(inv.code.text)) {
        hits.push({ span: inv.code.span });
        continue;
      }
      if ((inv.name === 'iex' || inv.name === 'invoke-expression') && runsDecodedPowerShell(context.text, inv)) {
        hits.push({ span: inv.span });
        continue;
      }
      if (isDecoder(inv)) {
        const feed = outputRunAsCode(context, inv);
        if (feed)
          hits.push({ span: [Math.min(inv.span[0], feed.runner.span[0]), Math.max(inv.span[1], feed.runner.span[1])] });
      }
    }
    return hits;
  },
} as const satisfies Rule;

/**
 * `-EncodedCommand` or any abbreviation PowerShell accepts (`-e`, `-ec`, `-enc`, `-encoded`,
 * `/enc`), among PowerShell's own options (what follows `-File`/`-Command` belongs to the script).
 */
function hasEncodedCommand(inv: Invocation): boolean {
  for (const arg of inv.args) {
    const option = POWERSHELL_OPTION.exec(arg)?.[1]?.toLowerCase();
    if (option === undefined) continue;
    if (option === 'ec' || 'encodedcommand'.startsWith(option)) return true;
    if (option === 'file' || option === 'f' || option === 'command' || option === 'c') return false;
  }
  return false;
}

function runsDecodedPowerShell(text: string, inv: Invocation): boolean {
  const code = inv.args.length > 0 ? inv.args.join(' ') : text.slice(inv.span[1], expressionEnd(text, inv.span[1]));
  return POWERSHELL_DECODE.test(code);
}

/** A program whose output is text that was encoded, packed or escaped in the command. */
function isDecoder(inv: Invocation): boolean {
  const name = inv.name;
  if (BASE_DECODERS.has(name)) return hasFlag(inv, 'd', ['--decode']) || hasFlag(inv, 'D');
  if (UNPACKERS.has(name)) return true;
  if (PACKERS.has(name)) return hasFlag(inv, 'd', ['--decompress', '--uncompress']);
  if (name === 'xxd') return hasFlag(inv, 'r', ['-revert']);
  if (name === 'openssl') return (inv.args.includes('base64') || inv.args.includes('enc')) && inv.args.includes('-d');
  if (name === 'printf') return inv.args.some((a) => NUMERIC_ESCAPE.test(a));
  if (name === 'echo') return hasFlag(inv, 'e') && inv.args.some((a) => NUMERIC_ESCAPE.test(a));
  if (name === 'tr') {
    // rot13: `tr 'A-Za-z' 'N-ZA-Mn-za-m'`
    const sets = operands(inv);
    return sets.length === 2 && /^[nN]-/.test(sets[1]?.value ?? '');
  }
  if (INTERPRETERS.test(name) && inv.code) return decodesText(inv.code.text);
  return false;
}
