import type { Example, Rule } from './rule.js';

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
    '',
    '| id | decision | remembered | what |',
    '|---|---|---|---|',
    ...rules.map(
      (rule) =>
        `| [\`${rule.meta.id}\`](#${rule.meta.id.replace(/\./g, '')}) | ${rule.meta.decision} | ${memoryWords(rule.meta.remember)} | ${rule.meta.title} |`,
    ),
    '',
  ];
  for (const rule of rules) {
    const { meta } = rule;
    lines.push(
      `## ${meta.id}`,
      '',
      `**${meta.decision}**, ${memoryWords(meta.remember)}.${meta.owasp.length ? ` OWASP: ${meta.owasp.join(', ')}.` : ''}`,
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
