import { ConfigError } from './adapter.js';

/** A JSON value guard builds itself (never a parsed user file: those are edited as text). */
export type JsonValue = null | boolean | number | string | readonly JsonValue[] | { readonly [key: string]: JsonValue };

/** A parsed value with its half-open `[start, end)` span in the original text. */
export type JsonNode = JsonObject | JsonArray | JsonScalar;

export interface JsonObject {
  readonly kind: 'object';
  readonly start: number;
  readonly end: number;
  readonly members: readonly JsonMember[];
}

/** One `"key": value` pair; the member's own span is `[keyStart, value.end)`. */
export interface JsonMember {
  readonly key: string;
  readonly keyStart: number;
  readonly keyEnd: number;
  readonly value: JsonNode;
}

export interface JsonArray {
  readonly kind: 'array';
  readonly start: number;
  readonly end: number;
  readonly elements: readonly JsonNode[];
}

export interface JsonScalar {
  readonly kind: 'string' | 'number' | 'boolean' | 'null';
  readonly start: number;
  readonly end: number;
  readonly value: string | number | boolean | null;
}

/** How a file is laid out, so that added fragments look like the rest of it. */
export interface TextStyle {
  readonly newline: '\n' | '\r\n';
  /** One level of indentation ('  ', '    ', '\t'). */
  readonly indent: string;
  /** The whole value sits on one line (minified): added fragments stay on that line. */
  readonly compact: boolean;
}

// serde_json, which Codex and Copilot use, stops at 128 levels; a hook file is about 6 deep.
const MAX_DEPTH = 128;
const BOM = '\uFEFF';

/** 1-based line of an offset. */
export function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) line += 1;
  return line;
}

export interface ParseOptions {
  /**
   * `//` and `/* … *\/` comments count as white space (JSON with comments, as Gemini CLI reads its
   * settings). They stay in the text: edits go around them. Trailing commas are still refused.
   */
  readonly comments?: boolean;
}

/**
 * Reads strict JSON (RFC 8259: no comments, no trailing commas) into a tree of spans, in one pass;
 * with `comments`, JSON with comments. A leading BOM is skipped (and stays in the text). Throws
 * ConfigError with the 1-based line.
 */
export function parseJson(text: string, options: ParseOptions = {}): JsonNode {
  let pos = text.startsWith(BOM) ? 1 : 0;

  const fail = (message: string, at: number = pos): never => {
    throw new ConfigError(message, lineAt(text, at));
  };

  const skipSpace = (): void => {
    for (;;) {
      const c = text.charCodeAt(pos);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) pos += 1;
      else if (c === 0x2f /* / */ && (text[pos + 1] === '/' || text[pos + 1] === '*')) {
        if (options.comments !== true) fail('comments are not allowed in this file');
        if (text[pos + 1] === '/') {
          const end = text.indexOf('\n', pos);
          pos = end === -1 ? text.length : end;
        } else {
          const end = text.indexOf('*/', pos + 2);
          if (end === -1) fail('a comment is not closed', pos);
          pos = end + 2;
        }
      } else return;
    }
  };

  const describe = (at: number): string => (at >= text.length ? 'the end of the file' : `'${text[at]}'`);

  const parseString = (): JsonScalar => {
    const start = pos;
    pos += 1;
    for (;;) {
      if (pos >= text.length) fail('a string is not closed', start);
      const c = text.charCodeAt(pos);
      if (c === 0x22 /* " */) break;
      if (c === 0x0a) fail('a string is not closed before the end of the line');
      if (c < 0x20) fail('a control character must be escaped in a string');
      if (c === 0x5c /* \ */) {
        const e = text[pos + 1];
        if (e === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(pos + 2, pos + 6))) fail('\\u must be followed by four hex digits');
          pos += 6;
        } else if (e !== undefined && '"\\/bfnrt'.includes(e)) pos += 2;
        else fail(`invalid escape '\\${e ?? ''}' in a string`);
      } else pos += 1;
    }
    pos += 1;
    // The slice is valid JSON by now; JSON.parse only decodes the escapes.
    return { kind: 'string', start, end: pos, value: JSON.parse(text.slice(start, pos)) as string };
  };

  const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
  const parseNumber = (): JsonScalar => {
    const start = pos;
    NUMBER.lastIndex = pos;
    const match = NUMBER.exec(text);
    if (!match) return fail('invalid number');
    pos += match[0].length;
    if (/[0-9A-Za-z.+-]/.test(text[pos] ?? '')) fail('invalid number');
    return { kind: 'number', start, end: pos, value: Number(match[0]) };
  };

  const parseValue = (depth: number): JsonNode => {
    if (depth > MAX_DEPTH) fail(`values are nested more than ${MAX_DEPTH} levels deep`);
    skipSpace();
    const start = pos;
    const c = text[pos];
    if (c === '{') return parseObject(depth);
    if (c === '[') return parseArray(depth);
    if (c === '"') return parseString();
    if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) return parseNumber();
    for (const [word, value] of [
      ['true', true],
      ['false', false],
      ['null', null],
    ] as const) {
      if (text.startsWith(word, pos) && !/[0-9A-Za-z_]/.test(text[pos + word.length] ?? '')) {
        pos += word.length;
        return { kind: value === null ? 'null' : 'boolean', start, end: pos, value };
      }
    }
    if (c === "'") fail('strings must use double quotes');
    return fail(`expected a value, found ${describe(pos)}`);
  };

  const parseObject = (depth: number): JsonObject => {
    const start = pos;
    pos += 1;
    const members: JsonMember[] = [];
    skipSpace();
    if (text[pos] === '}') {
      pos += 1;
      return { kind: 'object', start, end: pos, members };
    }
    for (;;) {
      skipSpace();
      if (text[pos] !== '"') {
        if (text[pos] === '}' && members.length > 0) fail("trailing comma before '}'");
        if (text[pos] === "'") fail('keys must use double quotes');
        fail(`expected a quoted key, found ${describe(pos)}`);
      }
      const key = parseString();
      skipSpace();
      if (text[pos] !== ':') fail("expected ':' after a key");
      pos += 1;
      const value = parseValue(depth + 1);
      members.push({ key: key.value as string, keyStart: key.start, keyEnd: key.end, value });
      skipSpace();
      if (text[pos] === ',') pos += 1;
      else if (text[pos] === '}') {
        pos += 1;
        return { kind: 'object', start, end: pos, members };
      } else fail("expected ',' or '}' after a value");
    }
  };

  const parseArray = (depth: number): JsonArray => {
    const start = pos;
    pos += 1;
    const elements: JsonNode[] = [];
    skipSpace();
    if (text[pos] === ']') {
      pos += 1;
      return { kind: 'array', start, end: pos, elements };
    }
    for (;;) {
      skipSpace();
      if (text[pos] === ']' && elements.length > 0) fail("trailing comma before ']'");
      elements.push(parseValue(depth + 1));
      skipSpace();
      if (text[pos] === ',') pos += 1;
      else if (text[pos] === ']') {
        pos += 1;
        return { kind: 'array', start, end: pos, elements };
      } else fail("expected ',' or ']' after a value");
    }
  };

  skipSpace();
  if (pos >= text.length) fail('the file holds no JSON value');
  const root = parseValue(1);
  skipSpace();
  if (pos < text.length) fail(`unexpected ${describe(pos)} after the end of the JSON value`);
  return root;
}

/** The plain value of a node (to compare guard's entries with what it would write). */
export function toValue(node: JsonNode): JsonValue {
  switch (node.kind) {
    case 'object':
      // fromEntries defines own properties, so a "__proto__" key stays an ordinary key.
      return Object.fromEntries(node.members.map((member) => [member.key, toValue(member.value)]));
    case 'array':
      return node.elements.map(toValue);
    default:
      return node.value;
  }
}

/** Deep equality of two JSON values; object key order does not matter. */
export function sameValue(a: JsonValue, b: JsonValue): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item: JsonValue, i: number) => sameValue(item, b[i] as JsonValue));
  }
  const ra = a as { readonly [key: string]: JsonValue };
  const rb = b as { readonly [key: string]: JsonValue };
  const keys = Object.keys(ra);
  return (
    keys.length === Object.keys(rb).length &&
    keys.every((key) => Object.hasOwn(rb, key) && sameValue(ra[key] as JsonValue, rb[key] as JsonValue))
  );
}

/** The newline, indentation unit and compactness a file already uses. */
export function detectStyle(text: string): TextStyle {
  const newline = text.includes('\r\n') ? '\r\n' : '\n';
  const body = text.trim();
  let indent: string | undefined;
  // The smallest indentation of any line is one level (JSON strings cannot hold raw newlines).
  for (const match of body.matchAll(/\n([ \t]+)\S/g)) {
    const lead = match[1] as string;
    if (lead.startsWith('\t')) {
      indent = '\t';
      break;
    }
    if (indent === undefined || lead.length < indent.length) indent = lead;
  }
  return { newline, indent: indent ?? '  ', compact: !body.includes('\n') };
}

/** The whitespace at the start of the line that holds `offset`. */
function lineIndent(text: string, offset: number): string {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(lineStart, offset))?.[0] ?? '';
}

/** `value` as JSON text: on one line, or one item per line with every line after the first at `base`. */
export function serialize(value: JsonValue, style: TextStyle, base: string | undefined): string {
  if (base === undefined) return JSON.stringify(value);
  return JSON.stringify(value, null, style.indent)
    .split('\n')
    .join(style.newline + base);
}

type Container = JsonObject | JsonArray;

const items = (container: Container): readonly { readonly start: number; readonly end: number }[] =>
  container.kind === 'object'
    ? container.members.map((member) => ({ start: member.keyStart, end: member.value.end }))
    : container.elements;

/** A container is laid out one item per line when a newline follows its opening bracket. */
function isMultiLine(text: string, container: Container): boolean {
  const first = items(container)[0];
  return first !== undefined && text.slice(container.start + 1, first.start).includes('\n');
}

function insertItem(
  text: string,
  container: Container,
  key: string | undefined,
  value: JsonValue,
  style: TextStyle,
): string {
  const list = items(container);
  const last = list.at(-1);
  const lastMember = container.kind === 'object' ? container.members.at(-1) : undefined;
  // Copy the file's own `"key": value` spacing when there is a member to copy it from.
  const colon = lastMember ? text.slice(lastMember.keyEnd, lastMember.value.start) : style.compact ? ':' : ': ';
  const item = (base: string | undefined): string =>
    (key === undefined ? '' : JSON.stringify(key) + colon) + serialize(value, style, base);

  if (last === undefined) {
    if (style.compact) return text.slice(0, container.start + 1) + item(undefined) + text.slice(container.start + 1);
    const outer = lineIndent(text, container.start);
    const inner = outer + style.indent;
    // what the person wrote inside (a comment) stays, before the new item
    const open = text.slice(0, container.start + 1) + text.slice(container.start + 1, container.end - 1).trimEnd();
    return `${open}${style.newline}${inner}${item(inner)}${style.newline}${outer}${text.slice(container.end - 1)}`;
  }
  if (isMultiLine(text, container)) {
    const inner = lineIndent(text, last.start);
    return `${text.slice(0, last.end)},${style.newline}${inner}${item(inner)}${text.slice(last.end)}`;
  }
  // An inline container keeps its items on one line, spaced like the ones already there (after
  // the last comma, or else after the opening bracket).
  const previous = list.at(-2);
  const gapStart = previous ? text.indexOf(',', previous.end) + 1 : container.start + 1;
  const space = /^[ \t]*/.exec(text.slice(gapStart, last.start))?.[0] ?? '';
  return `${text.slice(0, last.end)},${space}${item(undefined)}${text.slice(last.end)}`;
}

/** Adds `"key": value` as the last member of an object, in the file's own style. */
export function appendMember(
  text: string,
  object: JsonObject,
  key: string,
  value: JsonValue,
  style: TextStyle,
): string {
  return insertItem(text, object, key, value, style);
}

/** Adds `value` as the last element of an array, in the file's own style. */
export function appendElement(text: string, array: JsonArray, value: JsonValue, style: TextStyle): string {
  return insertItem(text, array, undefined, value, style);
}

/** Replaces one value in place; it spans lines when the old one did or began its own line. */
export function replaceValue(text: string, node: JsonNode, value: JsonValue, style: TextStyle): string {
  const before = text.slice(0, node.start);
  const ownLine = /\n[ \t]*$/.test(before) || text.slice(node.start, node.end).includes('\n');
  const base = style.compact || !ownLine ? undefined : lineIndent(text, node.start);
  return before + serialize(value, style, base) + text.slice(node.end);
}

/**
 * Removes the item at `index` together with the separator that `appendMember`/`appendElement`
 * added for it: the comma and whitespace before it (or after it, for the first of several).
 * Removing the only item leaves an empty `{}` / `[]`.
 */
export function removeItem(text: string, container: Container, index: number): string {
  const list = items(container);
  const item = list[index];
  if (item === undefined) throw new RangeError(`no item ${index} in a container of ${list.length}`);
  if (list.length === 1) return text.slice(0, container.start + 1) + text.slice(container.end - 1);
  const previous = list[index - 1];
  if (previous !== undefined) return text.slice(0, previous.end) + text.slice(item.end);
  return text.slice(0, item.start) + text.slice((list[1] as { readonly start: number }).start);
}
