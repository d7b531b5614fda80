import {
  concernWords,
  exampleText,
  memoryWords,
  modeAnswers,
  MODE_DECISIONS,
  rules,
  yesWords,
  type Concern,
  type Mode,
  type Rule,
  type RuleMeta,
} from '@guard/core';
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
  io.out(
    options.json
      ? `${JSON.stringify({ rules: entries, concerns: concernsJson(catalogue) }, null, 2)}\n`
      : renderRules(entries, new Map(catalogue.map((rule) => [rule.meta.id, modesLine(rule.meta)]))),
  );
}

/** One concern class as `guard rules --json` lists it: its ask rules, and what each mode does with them. */
export interface ConcernJson {
  readonly id: Concern | null;
  readonly words: string;
  readonly rules: readonly string[];
  /** What each mode does with the class's rules (`asks in every mode` rules say so in `asksInEveryMode`). */
  readonly modes: Readonly<Record<Mode, 'ask' | 'allow'>>;
  /** Rules of the class that ask in every mode, and why (the chat's raised bar, or a worst case). */
  readonly asksInEveryMode: Readonly<Record<string, string>>;
  /** How long a yes to a rule of the class lasts, by rule id. */
  readonly yes: Readonly<Record<string, string>>;
}

/** The ask rules by concern class (SPEC §12), in the catalogue's order. */
function concernsJson(catalogue: readonly Rule[]): ConcernJson[] {
  const asks = catalogue.filter((rule) => rule.meta.decision === 'ask');
  const order: readonly (Concern | null)[] = ['outside', 'sending', 'secrets', 'destructive', 'rules-or-machine', null];
  const present = new Set(asks.map((rule) => rule.meta.concern ?? null));
  const classes = order.filter((id) => present.has(id));
  return classes.map((id) => {
    const members = asks.filter((rule) => (rule.meta.concern ?? null) === id);
    const answer = (mode: Mode): 'ask' | 'allow' =>
      MODE_DECISIONS[mode]({ concern: id ?? undefined, asksInEveryMode: undefined, unresolved: false });
    return {
      id,
      words: members[0] === undefined ? '' : concernWords(members[0].meta),
      rules: members.map((rule) => rule.meta.id),
      modes: { standard: answer('standard'), extended: answer('extended'), full: answer('full') },
      asksInEveryMode: Object.fromEntries(
        members.flatMap((rule) =>
          rule.meta.asksInEveryMode === undefined ? [] : [[rule.meta.id, rule.meta.asksInEveryMode]],
        ),
      ),
      yes: Object.fromEntries(members.map((rule) => [rule.meta.id, yesWords(rule.meta)])),
    };
  });
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

function renderRules(entries: readonly RuleJson[], modes: ReadonlyMap<string, string>): string {
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
      if (decision === 'ask') out.push(...wrap(modes.get(entry.id) ?? '', INDENT));
      entry.examples.match
        .slice(0, 3)
        .forEach((text, i) => out.push(`${INDENT}${i === 0 ? 'e.g.' : '    '} ${shorten(text.replace(/\n/g, '⏎'))}`));
    }
  }
  out.push(
    '',
    'The never list blocks in every mode; `guard mode` shows and sets the mode.',
    'Ids never change; .guard.yaml names rules by them (docs/policy.md).',
    '`guard rules --json` prints every example.',
  );
  return `${out.join('\n')}\n`;
}

/** `sending or publishing: standard asks, extended asks, full goes ahead; a yes lasts …` */
function modesLine(meta: RuleMeta): string {
  const said = (answer: string): string => (answer === 'allow' ? 'goes ahead' : `${answer}s`);
  const { standard, extended, full } = modeAnswers(meta);
  return `${concernWords(meta)}: standard ${said(standard)}, extended ${said(extended)}, full ${said(full)}; a yes lasts ${yesWords(meta)}`;
}

// a word that cannot be wrapped must still fit its line
function shorten(text: string, width = 60): string {
  return text.length > width ? `${text.slice(0, width - 1)}…` : text;
}
