import { describe, expect, it } from 'vitest';
import { ConfigError } from '../src/adapter.js';
import {
  appendElement,
  appendMember,
  detectStyle,
  lineAt,
  parseJson,
  removeItem,
  replaceValue,
  sameValue,
  toValue,
} from '../src/json-text.js';
import type { JsonArray, JsonNode, JsonObject, JsonValue } from '../src/json-text.js';
import { withoutComments } from '../src/scan.js';

const errorOf = (text: string): { line: number | undefined; message: string } => {
  try {
    parseJson(text);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return { line: (error as ConfigError).line, message: (error as ConfigError).message };
  }
  throw new Error(`parsed: ${text}`);
};

describe('parseJson: strict JSON is read', () => {
  it.for([
    '{}',
    '[]',
    '0',
    '-0.5e+10',
    '1E-5',
    'true',
    'null',
    '"\\u00e9\\n\\"\\/"',
    '{"a": [1, 2, {"b": null}], "c": false}',
    ' \r\n\t{ "a" : 1 } \n',
    // comment-like text inside strings is data
    '{"url": "https://example.test/a//b", "note": "/* not a comment */"}',
    // an escaped quote, then a comma inside a string
    '{"k": "a\\",b", "n": -12}',
    '{"__proto__": {"x": 1}}',
  ])('%s', (text) => {
    expect(toValue(parseJson(text))).toEqual(JSON.parse(text));
  });

  it('a BOM at the start is skipped', () => {
    expect(toValue(parseJson('\uFEFF{"a":1}'))).toEqual({ a: 1 });
  });

  it('spans point at the keys and values in the original text', () => {
    const text = '{\n  "hooks": {\n    "Stop": [ {"x": 1}, 2 ]\n  }\n}';
    const root = parseJson(text) as JsonObject;
    const hooks = root.members[0]!;
    expect(text.slice(hooks.keyStart, hooks.keyEnd)).toBe('"hooks"');
    const stop = (hooks.value as JsonObject).members[0]!;
    const list = stop.value as JsonArray;
    expect(list.elements.map((element) => text.slice(element.start, element.end))).toEqual(['{"x": 1}', '2']);
    expect(text.slice(root.start, root.end)).toBe(text);
  });
});

describe('parseJson with comments (JSON with comments, as Gemini CLI reads its settings)', () => {
  it.for([
    { name: 'line comments', text: '// head\n{\n  "a": 1 // x\n}\n// tail' },
    { name: 'block comments anywhere between tokens', text: '/* a */{/* b */"a"/* c */:/* d */1/* e */}/* f */' },
    { name: 'comment-like text in a string is text', text: '{"a": "x // y /* z */"}' },
    { name: 'a line comment at the very end, no newline', text: '{"a": 1} // end' },
  ])('$name', ({ text }) => {
    const node = parseJson(text, { comments: true });
    expect(node.kind).toBe('object');
    expect(toValue(node)).toEqual(JSON.parse(text.includes('"x // y') ? text : withoutComments(text)));
  });

  it.for([
    { name: 'a block comment left open', text: '{\n"a": 1 /* x\n}', line: 2, message: /comment is not closed/ },
    { name: 'a trailing comma is still refused', text: '{\n"a": 1, // x\n}', line: 3, message: /trailing comma/ },
    { name: 'a lone slash', text: '{"a": 1 / 2}', line: 1, message: /expected ',' or '}'/ },
  ])('$name is refused', ({ text, line, message }) => {
    expect(() => parseJson(text, { comments: true })).toThrow(ConfigError);
    try {
      parseJson(text, { comments: true });
    } catch (error) {
      expect((error as ConfigError).line).toBe(line);
      expect((error as ConfigError).message).toMatch(message);
    }
  });
});

describe('parseJson: anything else is refused with its line', () => {
  it.for([
    { name: 'empty', text: '', line: 1, message: /no JSON value/ },
    { name: 'only a BOM and spaces', text: '\uFEFF  \n', line: 2, message: /no JSON value/ },
    { name: 'line comment', text: '{\n  "a": 1 // x\n}', line: 2, message: /comments are not allowed/ },
    { name: 'block comment before the value', text: '/* x */ {}', line: 1, message: /comments are not allowed/ },
    { name: 'trailing comma in an object', text: '{\n"a": 1,\n}', line: 3, message: /trailing comma before '}'/ },
    { name: 'trailing comma in a list', text: '[1,\n2,\n]', line: 3, message: /trailing comma before '\]'/ },
    {
      name: 'missing comma between members',
      text: '{"a": 1\n"b": 2}',
      line: 2,
      message: /expected ',' or '}' after a value/,
    },
    { name: 'missing comma between elements', text: '[1 2]', line: 1, message: /expected ',' or '\]' after a value/ },
    { name: 'missing colon', text: '{"a" 1}', line: 1, message: /expected ':' after a key/ },
    { name: 'unquoted key', text: '{\n a: 1}', line: 2, message: /expected a quoted key, found 'a'/ },
    { name: 'single-quoted string', text: "['a']", line: 1, message: /double quotes/ },
    { name: 'unclosed string at the end', text: '{"a": "b', line: 1, message: /not closed/ },
    { name: 'raw newline in a string', text: '["a\nb"]', line: 1, message: /not closed before the end of the line/ },
    { name: 'raw tab in a string', text: '["a\tb"]', line: 1, message: /control character/ },
    { name: 'bad escape', text: '["\\x41"]', line: 1, message: /invalid escape/ },
    { name: 'short \\u escape', text: '["\\u12"]', line: 1, message: /four hex digits/ },
    { name: 'leading zero', text: '[01]', line: 1, message: /invalid number/ },
    { name: 'dot without digits', text: '[1.]', line: 1, message: /invalid number/ },
    { name: 'plus sign', text: '[+1]', line: 1, message: /expected a value, found '\+'/ },
    { name: 'NaN', text: '[NaN]', line: 1, message: /expected a value/ },
    { name: 'a word that starts like true', text: '[truth]', line: 1, message: /expected a value/ },
    { name: 'unclosed object', text: '{\n"a": {}\n', line: 3, message: /expected ',' or '}'/ },
    { name: 'second value', text: '{}\n{}', line: 2, message: /after the end of the JSON value/ },
    { name: 'CRLF lines count', text: '{\r\n\r\n  "a": 1,\r\n}', line: 4, message: /trailing comma/ },
  ])('$name', ({ text, line, message }) => {
    const error = errorOf(text);
    expect(error.line).toBe(line);
    expect(error.message).toMatch(message);
  });
});

describe('parseJson: bounded', () => {
  it.for([
    { depth: 128, ok: true },
    { depth: 129, ok: false },
    // far past the bound: refused, not a stack overflow
    { depth: 200_000, ok: false },
  ])('nesting $depth deep', ({ depth, ok }) => {
    const text = '['.repeat(depth) + ']'.repeat(depth);
    if (ok) expect(parseJson(text).kind).toBe('array');
    else expect(errorOf(text).message).toMatch(/nested more than 128 levels/);
  });

  // A quadratic reader would not finish these within the test timeout.
  it('reads a 4 MB file of 100,000 members', () => {
    const members = Array.from(
      { length: 100_000 },
      (_, i) => `"key${i}": {"command": "${'x'.repeat(20)}", "n": [${i}, true, null]}`,
    );
    const text = `{\n${members.join(',\n')}\n}`;
    expect((parseJson(text) as JsonObject).members).toHaveLength(100_000);
  });

  it('reports the line of an error at the end of 200,000 lines', () => {
    const text = `[\n${'1,\n'.repeat(200_000)}]`;
    expect(errorOf(text)).toEqual({ line: 200_002, message: "trailing comma before ']'" });
  });

  it('reads a 5 MB string with escapes', () => {
    const text = JSON.stringify(['\\"é\n'.repeat(1_000_000)]);
    expect(toValue(parseJson(text))).toEqual(JSON.parse(text));
  });
});

describe('lineAt', () => {
  it.for([
    { offset: 0, line: 1 },
    { offset: 2, line: 1 },
    { offset: 3, line: 2 },
    { offset: 6, line: 3 },
  ])('offset $offset is on line $line', ({ offset, line }) => {
    expect(lineAt('ab\ncd\nef', offset)).toBe(line);
  });
});

describe('sameValue', () => {
  it.for<{ name: string; a: JsonValue; b: JsonValue; same: boolean }>([
    { name: 'key order does not matter', a: { a: 1, b: [1, { c: 2 }] }, b: { b: [1, { c: 2 }], a: 1 }, same: true },
    { name: 'list order does', a: [1, 2], b: [2, 1], same: false },
    { name: 'an extra key', a: { a: 1 }, b: { a: 1, b: 2 }, same: false },
    { name: 'a missing key against undefined-looking null', a: { a: null }, b: { b: null }, same: false },
    { name: 'a number against its string', a: { timeout: 30 }, b: { timeout: '30' }, same: false },
    { name: 'a list against an object with index keys', a: [1], b: { 0: 1 }, same: false },
    { name: 'null against an empty object', a: null, b: {}, same: false },
  ])('$name', ({ a, b, same }) => {
    expect(sameValue(a, b)).toBe(same);
    expect(sameValue(b, a)).toBe(same);
  });
});

describe('detectStyle', () => {
  it.for([
    {
      name: 'two spaces',
      text: '{\n  "a": {\n    "b": 1\n  }\n}\n',
      style: { newline: '\n', indent: '  ', compact: false },
    },
    { name: 'four spaces', text: '{\n    "a": 1\n}', style: { newline: '\n', indent: '    ', compact: false } },
    { name: 'tabs', text: '{\n\t"a": {\n\t\t"b": 1\n\t}\n}\n', style: { newline: '\n', indent: '\t', compact: false } },
    { name: 'CRLF', text: '{\r\n   "a": 1\r\n}\r\n', style: { newline: '\r\n', indent: '   ', compact: false } },
    {
      name: 'minified with a trailing newline',
      text: '{"a":1}\n',
      style: { newline: '\n', indent: '  ', compact: true },
    },
    {
      name: 'multi-line with no indentation',
      text: '{\n"a": 1\n}',
      style: { newline: '\n', indent: '  ', compact: false },
    },
    { name: 'BOM', text: '\uFEFF{\n    "a": 1\n}', style: { newline: '\n', indent: '    ', compact: false } },
  ])('$name', ({ text, style }) => {
    expect(detectStyle(text)).toEqual(style);
  });
});

// Each row adds one item to the first container whose path is given, then removes it again.
interface EditRow {
  readonly name: string;
  readonly before: string;
  /** Keys/indices from the root to the container. */
  readonly path: readonly (string | number)[];
  readonly key?: string;
  readonly value: JsonValue;
  readonly after: string;
  /** What removing the added item gives back, when not `before` (documented). */
  readonly removed?: string;
}

const containerAt = (text: string, path: readonly (string | number)[]): JsonObject | JsonArray => {
  let node: JsonNode = parseJson(text);
  for (const step of path) {
    node =
      node.kind === 'object'
        ? node.members.find((member) => member.key === step)!.value
        : (node as JsonArray).elements[step as number]!;
  }
  expect(node.kind === 'object' || node.kind === 'array').toBe(true);
  return node as JsonObject | JsonArray;
};

describe('appendMember / appendElement, then removeItem', () => {
  it.for<EditRow>([
    {
      name: 'member at the end of a multi-line object',
      before: '{\n  "a": 1\n}\n',
      path: [],
      key: 'g',
      value: { x: [1] },
      after: '{\n  "a": 1,\n  "g": {\n    "x": [\n      1\n    ]\n  }\n}\n',
    },
    {
      name: 'member into an empty object in a pretty file',
      before: '{\n  "a": {}\n}',
      path: ['a'],
      key: 'g',
      value: 1,
      after: '{\n  "a": {\n    "g": 1\n  }\n}',
    },
    {
      name: 'spaces inside an empty object are not kept (documented)',
      before: '{\n  "a": { }\n}',
      path: ['a'],
      key: 'g',
      value: 1,
      after: '{\n  "a": {\n    "g": 1\n  }\n}',
      removed: '{\n  "a": {}\n}',
    },
    {
      name: 'member into a minified object',
      before: '{"a":{"b":1}}',
      path: ['a'],
      key: 'g',
      value: { x: 1 },
      after: '{"a":{"b":1,"g":{"x":1}}}',
    },
    {
      name: 'member into an empty minified object',
      before: '{"a":{}}',
      path: ['a'],
      key: 'g',
      value: [true],
      after: '{"a":{"g":[true]}}',
    },
    {
      name: 'member into an inline object of a pretty file copies its spacing',
      before: '{\n  "a": { "b" : 1 }\n}',
      path: ['a'],
      key: 'g',
      value: { x: 1 },
      after: '{\n  "a": { "b" : 1, "g" : {"x":1} }\n}',
    },
    {
      name: 'element at the end of a multi-line list with tabs and CRLF',
      before: '{\r\n\t"a": [\r\n\t\t1\r\n\t]\r\n}',
      path: ['a'],
      value: { x: 1 },
      after: '{\r\n\t"a": [\r\n\t\t1,\r\n\t\t{\r\n\t\t\t"x": 1\r\n\t\t}\r\n\t]\r\n}',
    },
    {
      name: 'element into an empty list four spaces deep',
      before: '{\n    "a": {\n        "b": []\n    }\n}',
      path: ['a', 'b'],
      value: 'x',
      after: '{\n    "a": {\n        "b": [\n            "x"\n        ]\n    }\n}',
    },
    {
      name: 'element into an inline list',
      before: '{\n  "a": [1, 2]\n}',
      path: ['a'],
      value: [3],
      after: '{\n  "a": [1, 2, [3]]\n}',
    },
    {
      name: 'member after a BOM',
      before: '\uFEFF{\n  "a": 1\n}',
      path: [],
      key: 'g',
      value: null,
      after: '\uFEFF{\n  "a": 1,\n  "g": null\n}',
    },
  ])('$name', (row) => {
    const style = detectStyle(row.before);
    const container = containerAt(row.before, row.path);
    const after =
      row.key === undefined
        ? appendElement(row.before, container as JsonArray, row.value, style)
        : appendMember(row.before, container as JsonObject, row.key, row.value, style);
    expect(after).toBe(row.after);
    const grown = containerAt(after, row.path);
    const last = (grown.kind === 'object' ? grown.members.length : grown.elements.length) - 1;
    expect(removeItem(after, grown, last)).toBe(row.removed ?? row.before);
  });
});

describe('removeItem', () => {
  it.for([
    { name: 'the first of several takes the separator after it', text: '[1, 2, 3]', index: 0, after: '[2, 3]' },
    { name: 'a middle one takes the separator before it', text: '[1, 2, 3]', index: 1, after: '[1, 3]' },
    { name: 'the last one takes the separator before it', text: '[\n  1,\n  2\n]', index: 1, after: '[\n  1\n]' },
    { name: 'the only one leaves an empty list', text: '[\n  1\n]', index: 0, after: '[]' },
    { name: 'a member with its key', text: '{"a": 1, "b": {"c": 2}}', index: 1, after: '{"a": 1}' },
  ])('$name', ({ text, index, after }) => {
    expect(removeItem(text, parseJson(text) as JsonArray, index)).toBe(after);
  });

  it('an index that is not there is a RangeError', () => {
    expect(() => removeItem('[]', parseJson('[]') as JsonArray, 0)).toThrow(RangeError);
  });
});

describe('replaceValue', () => {
  it.for([
    {
      name: 'a multi-line value stays multi-line at its indentation',
      text: '{\n  "a": {\n    "x": 1\n  },\n  "b": 2\n}',
      path: ['a'],
      value: { x: 2, y: [1] },
      after: '{\n  "a": {\n    "x": 2,\n    "y": [\n      1\n    ]\n  },\n  "b": 2\n}',
    },
    {
      name: 'an inline value stays on its line',
      text: '{\n  "a": [{"x": 1}, 2]\n}',
      path: ['a', 0],
      value: { x: 2 },
      after: '{\n  "a": [{"x":2}, 2]\n}',
    },
    { name: 'a scalar', text: '{"t": 600}', path: ['t'], value: 30, after: '{"t": 30}' },
  ] as const)('$name', ({ text, path, value, after }) => {
    let node: JsonNode = parseJson(text);
    for (const step of path)
      node =
        node.kind === 'object'
          ? node.members.find((m) => m.key === step)!.value
          : (node as JsonArray).elements[step as number]!;
    expect(replaceValue(text, node, value, detectStyle(text))).toBe(after);
  });
});
