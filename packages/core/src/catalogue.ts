import type { Mode } from './modes.js';
import { MODE_DECISIONS, MODES } from './modes.js';
import type { Concern, Example, Rule, RuleMeta } from './rule.js';

const MEMORY_WORDS: Readonly<Record<string, string>> = {
  never: 'never (a block is never remembered)',
  'every-time': 'asks every time',
  destination: 'once per destination (remote and branch)',
  package: 'once per package',
  path: 'once per path',
  target: 'once per target',
  host: 'once per site',
  server: 'once per MCP server',
  'file-hash': 'once per version of the file',
  chat: 'once per chat',
  'until-next-message': "until the person's next message",
};

/** How a rule's memory scope reads in the catalogue. */
export function memoryWords(scope: string): string {
  return MEMORY_WORDS[scope] ?? scope;
}

const CONCERN_WORDS: Readonly<Record<Concern, string>> = {
  outside: 'outside the project',
  sending: 'sending or publishing',
  secrets: 'secrets',
  destructive: 'destructive',
  'rules-or-machine': 'changing the rules or the machine',
};

/** An ask rule's concern class in words ('' for a block rule; a rule guard cannot place asks in every mode). */
export function concernWords(meta: RuleMeta): string {
  if (meta.decision !== 'ask') return '';
  return meta.concern === undefined ? 'none (asks in every mode)' : CONCERN_WORDS[meta.concern];
}

/** What each mode does with the rule's findings (an unresolved target asks in every mode). */
export function modeAnswers(meta: RuleMeta): Readonly<Record<Mode, 'block' | 'ask' | 'allow'>> {
  const answer = (mode: Mode): 'block' | 'ask' | 'allow' =>
    meta.decision === 'block'
      ? 'block'
      : MODE_DECISIONS[mode]({ concern: meta.concern, asksInEveryMode: meta.asksInEveryMode, unresolved: false });
  return { standard: answer('standard'), extended: answer('extended'), full: answer('full') };
}

/** What the modes do with a rule, in words: "blocked in every mode", "asks in standard; goes ahead in extended, full". */
export function modeWords(meta: RuleMeta): string {
  if (meta.decision === 'block') return 'blocked in every mode';
  const answers = modeAnswers(meta);
  const asks = MODES.filter((mode) => answers[mode] === 'ask');
  const why =
    meta.asksInEveryMode === 'raised-bar'
      ? " (the chat's raised bar)"
      : meta.asksInEveryMode === 'worst-case'
        ? ' (judged as its worst case)'
        : '';
  if (asks.length === MODES.length) return `asks in every mode${why}`;
  return `asks in ${asks.join(', ')}; goes ahead in ${MODES.filter((mode) => answers[mode] === 'allow').join(', ')}`;
}

/** How long a person's yes to the rule lasts, in words (SPEC §12). */
export function yesWords(meta: RuleMeta): string {
  if (meta.decision === 'block') return 'no yes (blocked in every mode)';
  const scope = meta.remember;
  if (scope === 'every-time' || scope === 'until-next-message' || scope === 'never') return 'this step only';
  if (meta.concern === 'destructive') return 'this step only (destructive: never for the chat or the project)';
  return `this step, this chat or this project (${memoryWords(scope).replace(/^once /, '')})`;
}

/** A rule example as one line of text. */
export function exampleText(row: string | Example): string {
  const example = typeof row === 'string' ? { step: row } : row;
  const step = example.step;
  const text = typeof step === 'string' ? step : `${step.kind} ${JSON.stringify({ ...step, kind: undefined })}`;
  return example.note ? `${text} (${example.note})` : text;
}

function cell(text: string): string {
  return `\`${text.replace(/`/g, "'").replace(/\|/g, '\\|').replace(/\n/g, '⏎')}\``;
}

/** `docs/rules.md`, generated from the rule modules (a test fails when the file is stale). */
export function renderCatalogue(rules: readonly Rule[]): string {
  const lines: string[] = [
    '# guard rule catalogue',
    '',
    '<!-- Generated from packages/core/src/rules by packages/core/test/rules.docs.test.ts. Do not edit by hand: run `npx vitest run -u packages/core/test/rules.docs.test.ts`. -->',
    '',
    'Each rule has a stable id (allowlists, logs and other tools use it), a decision, what a yes is',
    'remembered by, the sentence the agent and the person see, and examples that the test suite runs.',
    'Each ask rule also has a concern class, which decides what each mode (`guard mode`) does with it:',
    '`standard` asks about every class, `extended` lets *outside the project* go ahead, and `full` lets',
    "every class go ahead except what the chat's raised bar asks and what guard judges as its worst",
    'case. The never list blocks in every mode.',
    '',
    '| id | decision | concern | modes | a yes lasts | what |',
    '|---|---|---|---|---|---|',
    ...rules.map(
      (rule) =>
        `| [\`${rule.meta.id}\`](#${rule.meta.id.replace(/\./g, '')}) | ${rule.meta.decision} | ${concernWords(rule.meta) || '—'} | ${modeWords(rule.meta)} | ${yesWords(rule.meta)} | ${rule.meta.title} |`,
    ),
    '',
  ];
  for (const rule of rules) {
    const { meta } = rule;
    lines.push(
      `## ${meta.id}`,
      '',
      `${meta.decision === 'ask' ? `**ask** (${concernWords(meta)}); ${modeWords(meta)}; a yes lasts ${yesWords(meta)}` : `**block**, ${modeWords(meta)}`}.${meta.owasp.length ? ` OWASP: ${meta.owasp.join(', ')}.` : ''}`,
      '',
      `> ${meta.reason}`,
      '',
    );
    lines.push('| must match | must not match |', '|---|---|');
    const rows = Math.max(meta.examples.match.length, meta.examples.noMatch.length);
    for (let i = 0; i < rows; i++) {
      const yes = meta.examples.match[i];
      const no = meta.examples.noMatch[i];
      lines.push(
        `| ${yes === undefined ? '' : cell(exampleText(yes))} | ${no === undefined ? '' : cell(exampleText(no))} |`,
      );
    }
    lines.push('');
  }
  return lines.join('\n');
}
