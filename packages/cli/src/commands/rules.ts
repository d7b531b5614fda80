import { exampleText, memoryWords, rules, type Rule } from '@guard/core';
import type { Io } from '../io.js';
import { wrap } from '../text.js';

export interface RulesOptions {
  /** Print one JSON object instead of text. */
  readonly json: boolean;
}

/** One catalogue entry as `guard rules --json` prints it. */
export interface RuleJson {
  readonly id: string;
  readonly decision: 'block' | 'ask';
  /** What a yes is remembered by, in words (`once per path`). */
  readonly remembered: string;
  readonly title: string;
  readonly reason: string;
  readonly owasp: readonly string[];
  readonly examples: { readonly match: readonly string[]; readonly noMatch: readonly string[] };
}

/** `guard rules`: the built-in catalogue, never-list rules first. */
export function listRules(options: RulesOptions, io: Io, catalogue: readonly Rule[] = rules): void {
  const entries = catalogue.map(toJson);
  io.out(options.json ? `${JSON.stringify({ rules: entries }, null, 2)}\n` : renderRules(entries));
}

function toJson({ meta }: Rule): RuleJson {
  return {
    id: meta.id,
    decision: meta.decision,
    remembered: memoryWords(meta.remember),
    title: meta.title,
    reason: meta.reason,
    owasp: meta.owasp,
    examples: { match: meta.examples.match.map(exampleText), noMatch: meta.examples.noMatch.map(exampleText) },
  };
}

const INDENT = '    ';
const GROUPS = [
  { decision: 'block', heading: 'Never list: blocked' },
  { decision: 'ask', heading: 'Ask list: a person decides' },
] as const;

function renderRules(entries: readonly RuleJson[]): string {
  const out: string[] = [];
  for (const { decision, heading } of GROUPS) {
    const group = entries.filter((entry) => entry.decision === decision);
    if (group.length === 0) continue;
    if (out.length > 0) out.push('');
    out.push(`${heading} (${group.length})`);
    for (const entry of group) {
      out.push('', shorten(`  ${entry.id}: ${entry.title}`, 80), ...wrap(entry.reason, INDENT));
      const facts = [
        decision === 'ask' ? `asks ${entry.remembered.replace(/^asks /, '')}` : '',
        entry.owasp.length > 0 ? `OWASP ${entry.owasp.join(', ')}` : '',
      ];
      out.push(...wrap(facts.filter(Boolean).join('; '), INDENT));
      entry.examples.match
        .slice(0, 3)
        .forEach((text, i) => out.push(`${INDENT}${i === 0 ? 'e.g.' : '    '} ${shorten(text.replace(/\n/g, '⏎'))}`));
    }
  }
  out.push(
    '',
    'Ids never change; .guard.yaml names rules by them (docs/policy.md).',
    '`guard rules --json` prints every example.',
  );
  return `${out.join('\n')}\n`;
}

// a word that cannot be wrapped must still fit its line
function shorten(text: string, width = 60): string {
  return text.length > width ? `${text.slice(0, width - 1)}…` : text;
}
