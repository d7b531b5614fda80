import type { AgentId } from '../src/index.js';

/**
 * The originals a person may have in each agent's hook file, for the tables that hold setup then
 * uninstall to give every byte back (bytes-kept.test.ts here, and the CLI's through its commands).
 */

/** How an agent's hook file is laid out, as far as the originals below need it. */
export type Shape =
  /** JSON whose event map is the root's `hooks` (or the root itself: ''). */
  | {
      readonly kind: 'map';
      readonly key: 'hooks' | '';
      readonly comments: boolean;
      readonly mine: object;
      /** A root key of the person's own beside the map (`model`, where the agent allows no other). */
      readonly beside?: string;
    }
  /** JSON whose root keys are hook names, guard's own one written whole (Antigravity). */
  | { readonly kind: 'named'; readonly comments: boolean; readonly mine: object }
  /** A file that is guard's alone (a plugin, a hook script): any other text there is refused. */
  | { readonly kind: 'whole'; readonly mine: string };

const group = { matcher: 'Bash', hooks: [{ type: 'command', command: 'echo mine' }] };
const handler = { command: 'echo mine' };

/** Every agent's shape: a new agent fails the table until it is declared here. */
export const SHAPES: Readonly<Record<AgentId, Shape>> = {
  codex: { kind: 'map', key: 'hooks', comments: false, mine: group, beside: 'description' },
  cursor: { kind: 'map', key: 'hooks', comments: false, mine: handler },
  antigravity: { kind: 'named', comments: false, mine: group },
  copilot: { kind: 'map', key: 'hooks', comments: false, mine: { type: 'command', bash: 'echo mine' } },
  'claude-code': { kind: 'map', key: 'hooks', comments: false, mine: group },
  gemini: { kind: 'map', key: 'hooks', comments: true, mine: group },
  opencode: { kind: 'whole', mine: 'export const MyPlugin = async () => ({});\n' },
  qwen: { kind: 'map', key: 'hooks', comments: true, mine: group },
  windsurf: { kind: 'map', key: 'hooks', comments: false, mine: handler },
  droid: { kind: 'map', key: '', comments: true, mine: group },
  cline: { kind: 'whole', mine: '#!/bin/bash\necho \'{"cancel": false}\'\n' },
  kilo: { kind: 'whole', mine: 'export const MyPlugin = async () => ({});\n' },
  crush: { kind: 'map', key: 'hooks', comments: false, mine: handler },
  auggie: { kind: 'map', key: 'hooks', comments: true, mine: { hooks: [{ type: 'command', command: 'echo mine' }] } },
  kiro: { kind: 'map', key: 'hooks', comments: false, mine: handler },
};

const WHOLE =
  "the file is guard's alone (a person's own hook is another file beside it): any other text there is refused";
const NAMED =
  "the root's keys are hook names and guard's hook, named guard, is written and removed whole: there is no shared event map or list";
const ROOT_MAP = 'the root is the event map: an empty map is the row "{}"';

export interface Row {
  readonly name: string;
  /** The original ('' for no file). */
  readonly before?: string;
  /** Why this agent's file cannot hold such an original. */
  readonly skip?: string;
  /** The original does not parse as the agent reads it: setup refuses it. */
  readonly refused?: boolean;
}

/** `value` as the text a person writes: two-space indent, each nested line at `base`. */
const text = (value: unknown, base: string): string => JSON.stringify(value, null, 2).replaceAll('\n', `\n${base}`);

/** The reversed order of an object's keys, nested. */
function reordered(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reordered);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .reverse()
      .map(([key, inner]) => [key, reordered(inner)]),
  );
}

/** The originals, in one agent's shape; `event` is one guard registers, `other` another. */
export function rowsFor(shape: Shape, event: string, other: string): Row[] {
  if (shape.kind === 'whole') {
    const not = (name: string): Row => ({ name, skip: WHOLE });
    return [
      { name: 'absent file', before: '' },
      { name: 'whitespace only', before: ' \n' },
      not('{}'),
      not('empty hooks object'),
      not('empty event array'),
      not("a person's own hook in the same event"),
      not('comments'),
      not('CRLF line ends'),
      not('byte order mark'),
      not('no trailing newline'),
      not('tab indentation'),
      not('unusual key order'),
      not('minified'),
      not('trailing comma'),
      not('an empty object of their own'),
      not('an empty object across lines'),
      not('empty hooks object with a comment inside'),
      not('empty event array across lines'),
      { name: "a person's own file of that name", before: shape.mine, refused: true },
    ];
  }
  const events = (mine: unknown): Record<string, unknown> => ({ [event]: [mine], [other]: [mine] });
  const whole = (map: Record<string, unknown>): Record<string, unknown> => {
    if (shape.kind === 'named') return { mine: map };
    return shape.key === '' ? map : { [shape.beside ?? 'model']: 'x', hooks: map };
  };
  const own = `${text(whole(events(shape.mine)), '')}\n`;
  const flipped = `${text(reordered(whole(events(shape.mine))), '')}\n`;
  const commented = `// my settings\n${own.replace('{\n', '{\n  /* kept by hand */\n').replace(/\n}\n$/, ' // the end\n}\n')}`;
  const named = shape.kind === 'named' ? NAMED : undefined;
  const beside = shape.kind === 'map' ? (shape.beside ?? 'model') : 'model';
  const mapRow = (name: string, before: string): Row =>
    named !== undefined
      ? { name, skip: named }
      : shape.kind === 'map' && shape.key === ''
        ? { name, skip: ROOT_MAP }
        : { name, before };
  return [
    { name: 'absent file', before: '' },
    { name: 'whitespace only', before: ' \n' },
    { name: '{}', before: '{}' },
    { name: '{} and a newline', before: '{}\n' },
    mapRow('empty hooks object', `{"${beside}":"x","hooks":{}}`),
    mapRow('empty hooks object, multi-line', `{\n  "${beside}": "x",\n  "hooks": {}\n}\n`),
    named !== undefined
      ? { name: 'empty event array', skip: named }
      : { name: 'empty event array', before: `${text(whole({ [event]: [] }), '')}\n` },
    { name: 'an empty object across lines', before: '{\n}\n' },
    named !== undefined
      ? { name: 'empty hooks object with a comment inside', skip: named }
      : {
          name: 'empty hooks object with a comment inside',
          before:
            shape.kind === 'map' && shape.key === ''
              ? '{ /* later */ }\n'
              : `{\n  "${beside}": "x",\n  "hooks": { /* later */ }\n}\n`,
          refused: !shape.comments,
        },
    named !== undefined
      ? { name: 'empty event array across lines', skip: named }
      : {
          name: 'empty event array across lines',
          before: `${text(whole({ [event]: [] }), '').replace('[]', '[\n    ]')}\n`,
        },
    { name: "a person's own hook in the same event", before: own },
    { name: 'comments', before: commented, refused: !shape.comments },
    { name: 'CRLF line ends', before: own.replaceAll('\n', '\r\n') },
    { name: 'byte order mark', before: `\uFEFF${own}` },
    { name: 'no trailing newline', before: own.trimEnd() },
    { name: 'tab indentation', before: own.replace(/^( +)/gm, (spaces) => '\t'.repeat(spaces.length / 2)) },
    { name: 'unusual key order', before: flipped },
    { name: 'minified', before: JSON.stringify(whole(events(shape.mine))) },
    // refused as Gemini CLI and Qwen Code refuse it (JSON with comments, not JSON5): nothing is written
    { name: 'trailing comma', before: own.replace(/\n}\n$/, ',\n}\n'), refused: true },
    shape.kind === 'map' && shape.beside !== undefined
      ? {
          name: 'an empty object of their own',
          skip: `the agent refuses a root key other than "${shape.beside}" and "hooks"`,
        }
      : { name: 'an empty object of their own', before: '{\n  "hooksConfig": {}\n}\n' },
    { name: 'not JSON', before: '{"hooks": {', refused: true },
    { name: 'a list', before: '[]\n', refused: true },
  ];
}
