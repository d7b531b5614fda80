import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readlinkSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { adapters, AGENT_IDS } from '@guard/adapters';
import type { AgentId } from '@guard/adapters';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { rowsFor, SHAPES } from '../../../adapters/test/originals.js';
import { makeAgentHome, mtimeOf } from './agent-home.js';
import type { AgentHome } from './agent-home.js';

/**
 * "Never lose a user's byte", through the commands a person runs: `guard setup X` then `guard
 * uninstall X` at the user's level, with a scratch home, for every agent whose hook file is JSON.
 * The originals are the adapters' table's (originals.ts); here also a file of no bytes, a file
 * the person changed after setup (the text edit, told the original by the backup), a link and a
 * 0600 file.
 */

let box: AgentHome;
beforeEach(() => {
  box = makeAgentHome();
});
afterEach(() => box.cleanup());

const userFile = (agent: AgentId): string =>
  adapters[agent].configPath('user', { home: box.home, env: box.env, projectRoot: box.project });

const JSON_AGENTS = AGENT_IDS.filter((id) => SHAPES[id].kind !== 'whole');

interface Case {
  readonly agent: AgentId;
  readonly name: string;
  /** undefined: no file. */
  readonly before: string | undefined;
}

// the adapters' table holds each layout (tabs, key order, …) to the bytes; here the rows whose
// file, backup and record the commands handle differently
const ROWS = new Set([
  'absent file',
  'whitespace only',
  '{}',
  'empty hooks object',
  'empty event array',
  'empty hooks object with a comment inside',
  "a person's own hook in the same event",
  'CRLF line ends',
  'byte order mark',
  'no trailing newline',
]);

const cases: Case[] = JSON_AGENTS.flatMap((agent) => {
  const [event = '', other = event] = adapters[agent].capabilities.events;
  const rows = rowsFor(SHAPES[agent], event, other).filter(
    (row) => ROWS.has(row.name) && row.skip === undefined && row.refused !== true,
  );
  return [
    ...rows.map((row) => ({ agent, name: row.name, before: row.before === '' ? undefined : row.before })),
    { agent, name: 'a file of no bytes', before: '' },
  ];
});

/** The file's bytes, or undefined when there is none. */
const bytesOf = (file: string): string | undefined => (existsSync(file) ? readFileSync(file, 'utf8') : undefined);

async function setUp(agent: AgentId): Promise<void> {
  const result = await box.guard('setup', agent);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
}

async function uninstall(agent: AgentId): Promise<void> {
  const result = await box.guard('uninstall', agent);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
}

function place(file: string, text: string | undefined): void {
  if (text === undefined) return;
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
}

describe('guard setup X then guard uninstall X gives the file back byte for byte (user level)', () => {
  it("the JSON family is every agent but those whose file is guard's alone", () => {
    expect(JSON_AGENTS.length).toBeGreaterThanOrEqual(12);
    expect(cases.length).toBeGreaterThan(JSON_AGENTS.length * 8);
  });

  it.for(cases)('$agent: $name', async ({ agent, before }) => {
    const file = userFile(agent);
    place(file, before);
    await setUp(agent);
    const after = bytesOf(file);
    expect(after).not.toBe(before);
    await setUp(agent);
    expect(bytesOf(file), 'setup twice is setup once').toBe(after);
    await uninstall(agent);
    expect(bytesOf(file)).toBe(before);
    expect(existsSync(`${file}.guard-backup`)).toBe(false);
  });

  it.for(cases)('$agent: $name, changed by the person after setup', async ({ agent, before }) => {
    const file = userFile(agent);
    place(file, before);
    await setUp(agent);
    // a change guard never makes (a blank line at the end): the file is no longer as setup left it
    writeFileSync(file, `${bytesOf(file) ?? ''}\n`);
    await uninstall(agent);
    // a file that held guard's alone goes back to what it was (none, or its white space: the line
    // added after guard's went with it); any other keeps the change
    const blank = before === undefined || before.trim() === '';
    expect(bytesOf(file)).toBe(blank ? before : `${before}\n`);
  });
});

describe('guard setup X refuses a file that does not parse, writing nothing', () => {
  const refusals = JSON_AGENTS.flatMap((agent) => {
    const [event = ''] = adapters[agent].capabilities.events;
    return rowsFor(SHAPES[agent], event, event)
      .filter((row) => row.refused === true)
      .map((row) => ({ agent, name: row.name, before: row.before ?? '' }));
  });

  it.for(refusals)('$agent: $name', async ({ agent, before }) => {
    const file = userFile(agent);
    place(file, before);
    const mtime = mtimeOf(file);
    const result = await box.guard('setup', agent);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/guard wrote nothing/);
    expect(bytesOf(file)).toBe(before);
    expect(mtimeOf(file)).toBe(mtime);
    expect(existsSync(`${file}.guard-backup`)).toBe(false);
    expect(existsSync(join(box.guardHome, 'installs.json'))).toBe(false);
  });
});

describe('a link stays a link to the same file, and a 0600 file stays 0600, through setup and uninstall', () => {
  const rows = JSON_AGENTS.flatMap((agent) =>
    (['untouched', 'changed after setup'] as const).map((how) => ({ agent, how })),
  );

  it.for(rows)('$agent: $how', async ({ agent, how }) => {
    const file = userFile(agent);
    const [event = ''] = adapters[agent].capabilities.events;
    const before = rowsFor(SHAPES[agent], event, event).find(
      (row) => row.name === "a person's own hook in the same event",
    )?.before as string;
    // the settings kept in a dotfiles folder, linked from where the agent reads them
    const target = join(box.root, 'dotfiles', 'settings.json');
    place(target, before);
    chmodSync(target, 0o600);
    mkdirSync(dirname(file), { recursive: true });
    symlinkSync(target, file);

    await setUp(agent);
    expect(lstatSync(file).isSymbolicLink()).toBe(true);
    expect(readlinkSync(file)).toBe(target);
    expect(statSync(target).mode & 0o777).toBe(0o600);
    expect(bytesOf(target)).not.toBe(before);
    if (how === 'changed after setup') writeFileSync(target, `${bytesOf(target) ?? ''}\n`);

    await uninstall(agent);
    expect(lstatSync(file).isSymbolicLink()).toBe(true);
    expect(readlinkSync(file)).toBe(target);
    expect(statSync(target).mode & 0o777).toBe(0o600);
    expect(bytesOf(target)).toBe(how === 'untouched' ? before : `${before}\n`);
  });
});
