import { ConfigError } from './adapter.js';
import type { AgentAnswers, InstallOptions, UninstallOptions } from './adapter.js';
import { fallbackReply, plainCommand, withFallback } from './fallback.js';
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
} from './json-text.js';
import type { JsonArray, JsonNode, JsonObject, JsonValue } from './json-text.js';

/** How one agent's hook file is laid out, as far as guard's entries are concerned. */
export interface HookFileSchema {
  /** The agent, and how it is answered (for the answer guard's command gives when guard's files are gone). */
  readonly agent: AgentAnswers;
  /**
   * Root key of the object that maps event names to lists: `hooks`, or guard's own hook name; ''
   * when the root is that map itself (Factory Droid's hooks.json).
   */
  readonly eventMapKey: string;
  /** The event map is guard's alone (Antigravity's hook named "guard"): it is written and removed whole. */
  readonly ownsMap: boolean;
  /** Events guard registers, in the order it writes them. */
  readonly events: readonly string[];
  /** Whether the event is written into the command (`--event NAME`): the payload does not name it. */
  readonly eventArgument: boolean;
  /** `group`: list items are `{matcher?, hooks: [handler]}`; `handler`: list items are handlers. */
  readonly layout: 'group' | 'handler';
  /** Handler keys that hold a shell command. */
  readonly commandKeys: readonly string[];
  /** Root members written before the event map when guard creates the file. */
  readonly header: Readonly<Record<string, JsonValue>>;
  /**
   * guard's list item for one event: `command` is what a POSIX shell runs (with its own answer for
   * when guard's files are gone, where setup writes one), `plain` the bare command (for PowerShell).
   */
  entry(event: string, command: string, options: InstallOptions, plain: string): JsonValue;
  /** Refuses a root the agent would reject (throws ConfigError). */
  checkRoot?(root: JsonObject, text: string): void;
  /** The agent reads the file as JSON with comments (Gemini CLI's settings): they are kept, not refused. */
  readonly comments?: boolean;
}

/** A `checkRoot` for files whose `version`, when present, must be 1 (Cursor, Copilot). */
export function versionOne(agentName: string): (root: JsonObject, text: string) => void {
  return (root, text) => {
    const version = root.members.find((member) => member.key === 'version')?.value;
    if (version !== undefined && (version.kind !== 'number' || version.value !== 1)) {
      const message = `${agentName} ignores a hook file whose "version" is not 1; guard will not edit it`;
      throw new ConfigError(message, lineAt(text, version.start));
    }
  };
}

// `hook <agent>`, maybe `--event NAME`, at the end of a command (an agent id is a lowercase word)
const GUARD_TAIL = /(?:^|\s)hook\s+([a-z][a-z0-9-]*)(?:\s+--event\s+(\S+))?\s*$/;

/**
 * The agent a hook command of guard's is for: its words end with `hook <agent>`, optionally followed
 * by `--event NAME`, whatever node and script paths come before; or it is such a command with its
 * own answer for when guard's files are gone (fallback.ts). Undefined for any other command.
 */
export function guardCommandAgent(command: string): string | undefined {
  return GUARD_TAIL.exec(plainCommand(command))?.[1];
}

/** Whether a hook command is guard's for this agent (guardCommandAgent). */
export function isGuardCommand(command: string, agent: string): boolean {
  return guardCommandAgent(command) === agent;
}

/** The command guard writes for one event, and the plain command inside it. */
function commandFor(
  schema: HookFileSchema,
  event: string,
  options: InstallOptions,
): { readonly command: string; readonly plain: string } {
  const plain = schema.eventArgument ? `${options.hookCommand} --event ${event}` : options.hookCommand;
  if (options.fallback === undefined) return { command: plain, plain };
  const reply = fallbackReply(schema.agent, event, options.failClosed, options.system === true);
  return { command: withFallback(plain, options.fallback, reply), plain };
}

type Unit = { readonly container: JsonObject | JsonArray; readonly index: number };

/** One guard handler found in the file, with the chain of items that hold it (outermost first). */
interface Found {
  readonly command: string;
  readonly chain: readonly Unit[];
}

const count = (container: JsonObject | JsonArray): number =>
  container.kind === 'object' ? container.members.length : container.elements.length;

/** The member named `key`; refuses a key that appears twice (agents disagree on which one wins). */
function memberOf(
  object: JsonObject,
  key: string,
  text: string,
): { readonly index: number; readonly value: JsonNode } | undefined {
  const index = object.members.findIndex((member) => member.key === key);
  if (index === -1) return undefined;
  const again = object.members.findLastIndex((member) => member.key === key);
  const member = object.members[again] as JsonObject['members'][number];
  if (again !== index) throw new ConfigError(`the key "${key}" appears more than once`, lineAt(text, member.keyStart));
  return { index, value: member.value };
}

function guardCommandOf(schema: HookFileSchema, handler: JsonNode): string | undefined {
  if (handler.kind !== 'object') return undefined;
  for (const member of handler.members) {
    if (schema.commandKeys.includes(member.key) && member.value.kind === 'string') {
      const command = member.value.value as string;
      if (isGuardCommand(command, schema.agent.id)) return command;
    }
  }
  return undefined;
}

/** The handlers of one list item: the item itself, or a group's `hooks` list. */
function handlersOf(schema: HookFileSchema, item: JsonNode): JsonArray | undefined {
  if (schema.layout === 'handler' || item.kind !== 'object') return undefined;
  const hooks = item.members.find((member) => member.key === 'hooks')?.value;
  return hooks?.kind === 'array' ? hooks : undefined;
}

/** Every guard handler of one event list, with its chain below the event list. */
function guardHandlersIn(schema: HookFileSchema, list: JsonArray): Found[] {
  const found: Found[] = [];
  list.elements.forEach((item, index) => {
    const handlers = handlersOf(schema, item);
    if (handlers) {
      handlers.elements.forEach((handler, inner) => {
        const command = guardCommandOf(schema, handler);
        if (command === undefined) return;
        found.push({
          command,
          chain: [
            { container: list, index },
            { container: handlers, index: inner },
          ],
        });
      });
    } else {
      const command = schema.layout === 'handler' ? guardCommandOf(schema, item) : undefined;
      if (command !== undefined) found.push({ command, chain: [{ container: list, index }] });
    }
  });
  return found;
}

interface Located {
  readonly root: JsonObject;
  /** The map's member in the root; -1 when the root is the map. */
  readonly mapIndex: number;
  readonly map: JsonObject;
}

/** The event map, or undefined when the file has none (or has a shape guard never wrote). */
function locate(schema: HookFileSchema, doc: JsonNode, text: string): Located | undefined {
  if (doc.kind !== 'object') return undefined;
  if (schema.eventMapKey === '') return { root: doc, mapIndex: -1, map: doc };
  const found = memberOf(doc, schema.eventMapKey, text);
  if (found?.value.kind !== 'object') return undefined;
  return { root: doc, mapIndex: found.index, map: found.value };
}

/** The event a guard handler found in the map is listed under. */
function eventOf(where: Located, found: Found): string {
  const unit = found.chain[where.mapIndex < 0 ? 0 : 1] as Unit;
  return where.map.members[unit.index]?.key ?? '';
}

function allGuardHandlers(schema: HookFileSchema, where: Located): Found[] {
  const found: Found[] = [];
  where.map.members.forEach((member, index) => {
    if (member.value.kind !== 'array') return;
    for (const hit of guardHandlersIn(schema, member.value)) {
      const outer: Unit[] = [
        ...(where.mapIndex < 0 ? [] : [{ container: where.root, index: where.mapIndex }]),
        { container: where.map, index },
      ];
      found.push({ command: hit.command, chain: [...outer, ...hit.chain] });
    }
  });
  return found;
}

/**
 * What the file held before guard's first setup, as far as uninstall needs it: the file, the event
 * map, the events that had a list. These stay even where guard's entries leave them empty.
 */
interface Kept {
  /** The original text when it was only whitespace (or none, ''): what a file left empty goes back to. */
  readonly blank?: string;
  readonly map: boolean;
  readonly events: ReadonlySet<string>;
}

/** What `original` held (undefined when it is not known, or is no file guard could have set up). */
function keptIn(schema: HookFileSchema, original: string | undefined): Kept | undefined {
  if (original === undefined) return undefined;
  if (isBlank(original)) return { blank: original, map: false, events: new Set() };
  let where: Located | undefined;
  try {
    where = locate(schema, parseJson(original, schema), original);
  } catch {
    return undefined;
  }
  const lists = where?.map.members.filter((member) => member.value.kind === 'array') ?? [];
  return { map: where !== undefined, events: new Set(lists.map((member) => member.key)) };
}

/**
 * Removes a handler, and each item that holds it when it was that item's last content: a group
 * whose handler list empties, an event whose list empties, the event map when it empties; but
 * never a list, a map or a file that was there before guard's setup (`kept`, when known). When
 * the root is then left with nothing but the schema's header keys, the file is guard's alone: ''.
 */
function removeFound(schema: HookFileSchema, text: string, found: Found, where: Located, kept?: Kept): string {
  const mapLevel = where.mapIndex < 0 ? 0 : 1;
  const stays = (level: number): boolean =>
    kept !== undefined &&
    ((level === mapLevel && kept.map) || (level === mapLevel + 1 && kept.events.has(eventOf(where, found))));
  let level = found.chain.length - 1;
  while (level > 0 && count((found.chain[level] as Unit).container) === 1 && !stays(level)) level -= 1;
  const unit = found.chain[level] as Unit;
  if (level === 0 && (kept === undefined || kept.blank !== undefined)) {
    const root = unit.container as JsonObject;
    const rest = root.members.filter((_, index) => index !== unit.index);
    if (rest.every((member) => Object.hasOwn(schema.header, member.key))) return '';
  }
  return removeItem(text, unit.container, unit.index);
}

function parseRoot(schema: HookFileSchema, text: string): JsonObject {
  const doc = parseJson(text, schema);
  if (doc.kind !== 'object') {
    const what = doc.kind === 'array' ? 'a list' : `a ${doc.kind}`;
    throw new ConfigError(`the file must hold one JSON object ({ … }), not ${what}`, lineAt(text, doc.start));
  }
  schema.checkRoot?.(doc, text);
  return doc;
}

const isBlank = (text: string): boolean => text.trim() === '';

/**
 * What uninstall leaves of a file that held guard's alone: the white space that was there before
 * setup (which setup wrote over), or no file ('').
 */
export function blankOriginal(options: Pick<UninstallOptions, 'original'> | undefined): string {
  const original = options?.original;
  return original !== undefined && isBlank(original) ? original : '';
}

/** guard's entry for one event. */
function entryFor(schema: HookFileSchema, event: string, options: InstallOptions): JsonValue {
  const { command, plain } = commandFor(schema, event, options);
  return schema.entry(event, command, options, plain);
}

/** The event map guard writes when there is none: one entry per event. */
function eventMapFor(schema: HookFileSchema, options: InstallOptions): Record<string, JsonValue> {
  return Object.fromEntries(schema.events.map((event) => [event, [entryFor(schema, event, options)]]));
}

/** The whole file guard writes where there was none: 2-space indent, trailing newline. */
function freshFile(schema: HookFileSchema, options: InstallOptions): string {
  const map = eventMapFor(schema, options);
  const root =
    schema.eventMapKey === '' ? { ...schema.header, ...map } : { ...schema.header, [schema.eventMapKey]: map };
  return `${JSON.stringify(root, null, 2)}\n`;
}

// Each step re-reads the text it edited; a file never needs more steps than this.
const MAX_STEPS = 10_000;

/** One edit towards the installed state, or undefined when the text is already there. */
function nextInstallStep(schema: HookFileSchema, text: string, options: InstallOptions): string | undefined {
  const root = parseRoot(schema, text);
  const style = detectStyle(text);
  const mapMember = schema.eventMapKey === '' ? { index: -1, value: root } : memberOf(root, schema.eventMapKey, text);
  const expected = (event: string): JsonValue => entryFor(schema, event, options);
  const expectedMap = eventMapFor(schema, options);

  if (mapMember === undefined) return appendMember(text, root, schema.eventMapKey, expectedMap, style);
  const map = mapMember.value;
  if (map.kind !== 'object') {
    const message = `"${schema.eventMapKey}" must be an object that maps event names to lists`;
    throw new ConfigError(message, lineAt(text, map.start));
  }
  const where: Located = { root, mapIndex: mapMember.index, map };
  const found = allGuardHandlers(schema, where);
  if (schema.ownsMap && map.members.length > 0 && found.length === 0) {
    throw new ConfigError(
      `a hook named "${schema.eventMapKey}" already exists in this file and it does not run guard; ` +
        'rename it so guard can add its own',
      lineAt(text, map.start),
    );
  }
  // Whatever else is in guard's own hook (`"enabled": false`, other events) goes: setup makes it run.
  if (schema.ownsMap) {
    return sameValue(toValue(map), expectedMap) ? undefined : replaceValue(text, map, expectedMap, style);
  }

  // Check every list guard will touch before editing any of them.
  const lists = schema.events.map((event) => {
    const member = memberOf(map, event, text);
    if (member !== undefined && member.value.kind !== 'array') {
      const message = `"${schema.eventMapKey === '' ? event : `${schema.eventMapKey}.${event}`}" must be a list ([ … ])`;
      throw new ConfigError(message, lineAt(text, member.value.start));
    }
    return { event, list: member?.value as JsonArray | undefined };
  });

  for (const { event, list } of lists) {
    if (list === undefined) return appendMember(text, map, event, [expected(event)], style);
    const hits = guardHandlersIn(schema, list);
    // A guard handler inside someone else's group is taken out; guard keeps a group of its own.
    const stray = hits.find((hit) => hit.chain.length === 2 && count((hit.chain[1] as Unit).container) > 1);
    if (stray) {
      const unit = stray.chain[1] as Unit;
      return removeItem(text, unit.container, unit.index);
    }
    const [first, second] = hits;
    if (first === undefined) return appendElement(text, list, expected(event), style);
    const firstIndex = (first.chain[0] as Unit).index;
    if (second !== undefined) return removeItem(text, list, (second.chain[0] as Unit).index);
    const item = list.elements[firstIndex] as JsonNode;
    if (!sameValue(toValue(item), expected(event))) return replaceValue(text, item, expected(event), style);
  }

  // guard entries under events guard no longer registers (an older setup) go away.
  const leftover = found.find((hit) => !schema.events.includes(eventOf(where, hit)));
  return leftover ? removeFound(schema, text, leftover, where) : undefined;
}

/**
 * The config text with guard's entries added at the end of each event's list, or updated where
 * they are already there; every other byte is kept. '' or whitespace → a whole new file.
 */
export function installHooks(schema: HookFileSchema, text: string, options: InstallOptions): string {
  const tail = GUARD_TAIL.exec(options.hookCommand);
  if (tail?.[1] !== schema.agent.id || tail[2] !== undefined) {
    throw new ConfigError(`the hook command must end with "hook ${schema.agent.id}": ${options.hookCommand}`);
  }
  if (isBlank(text)) return freshFile(schema, options);
  let current = text;
  for (let step = 0; step < MAX_STEPS; step += 1) {
    const next = nextInstallStep(schema, current, options);
    if (next === undefined) return current;
    current = next;
  }
  throw new ConfigError('the file has too many guard entries to tidy up');
}

/**
 * The text with the root, the event map and the lists that guard's entries had filled and that are
 * empty again laid out inside as the original had them (`{\n}`, `[ /* later *\/ ]`): removing
 * guard's last entry leaves a bare `{}` / `[]`. An inside the person has written since stays theirs.
 */
function withInsidesOf(schema: HookFileSchema, original: string, text: string): string {
  const read = (source: string): { readonly doc: JsonNode; readonly where: Located | undefined } => {
    const doc = parseJson(source, schema);
    return { doc, where: locate(schema, doc, source) };
  };
  let now, then;
  try {
    [now, then] = [read(text), read(original)];
  } catch {
    return text;
  }
  const empty = (node: JsonNode | undefined): node is JsonObject | JsonArray =>
    (node?.kind === 'object' || node?.kind === 'array') && count(node) === 0;
  const pairs: { readonly is: JsonObject | JsonArray; readonly was: JsonObject | JsonArray }[] = [];
  const both = (is: JsonNode | undefined, was: JsonNode | undefined): void => {
    if (empty(is) && empty(was) && is.kind === was.kind) pairs.push({ is, was });
  };
  both(now.doc, then.doc);
  if (now.where?.map !== now.doc) both(now.where?.map, then.where?.map);
  for (const member of then.where?.map.members ?? [])
    both(now.where?.map.members.find((one) => one.key === member.key)?.value, member.value);
  // from the end of the text back, so the spans before stay where they are
  let out = text;
  for (const { is, was } of pairs.sort((a, b) => b.is.start - a.is.start)) {
    if (out.slice(is.start + 1, is.end - 1).trim() !== '') continue;
    out = out.slice(0, is.start + 1) + original.slice(was.start + 1, was.end - 1) + out.slice(is.end - 1);
  }
  return out;
}

/**
 * The config text with only guard's entries (and the lists they alone filled) removed. Given the
 * text from before guard's setup (`original`), what that held stays, empty or not, and a file
 * left with nothing goes back to it.
 */
export function uninstallHooks(schema: HookFileSchema, text: string, original?: string): string {
  if (isBlank(text)) return text;
  const kept = keptIn(schema, original);
  let current = text;
  for (let step = 0; step < MAX_STEPS; step += 1) {
    const doc = parseJson(current, schema);
    const where = locate(schema, doc, current);
    const found = where && allGuardHandlers(schema, where)[0];
    if (!found) return original === undefined || current === text ? current : withInsidesOf(schema, original, current);
    // guard's own hook goes as a whole, with whatever else was put inside it.
    const target = schema.ownsMap ? { command: found.command, chain: found.chain.slice(0, 1) } : found;
    current = removeFound(schema, current, target, where, kept);
    if (current === '') return kept?.blank ?? '';
  }
  throw new ConfigError('the file has too many guard entries to remove');
}

/** guard's command on `event` in a config text (its first); undefined when there is none or the text does not parse. */
export function guardCommandOn(schema: HookFileSchema, text: string, event: string): string | undefined {
  try {
    const where = isBlank(text) ? undefined : locate(schema, parseJson(text, schema), text);
    if (where === undefined) return undefined;
    const on = (found: Found): boolean => eventOf(where, found) === event;
    return allGuardHandlers(schema, where).find(on)?.command;
  } catch {
    return undefined;
  }
}

/** The guard commands in a config text, in file order without repeats; [] when it does not parse. */
export function guardCommands(schema: HookFileSchema, text: string): readonly string[] {
  try {
    const where = isBlank(text) ? undefined : locate(schema, parseJson(text, schema), text);
    return where ? [...new Set(allGuardHandlers(schema, where).map((found) => found.command))] : [];
  } catch {
    return [];
  }
}
