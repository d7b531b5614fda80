import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ANY_SERVER } from '@guard/core';
import { keepServers, knownServers, serversPath } from '../../src/state/servers.js';
import { scanChatStart } from '../../src/world/start-scan.js';

/**
 * mcp.changes at chat start for Claude Code and Gemini CLI (SPEC §6): every server their files
 * declare is fingerprinted, and one that is new or changed since guard last let its tools run asks
 * before its first use. The servers here are never reached (their program does not exist), so only
 * the fingerprints are under test.
 */

interface World {
  readonly home: string;
  readonly project: string;
  readonly guardHome: string;
}

function world(): World {
  const dir = mkdtempSync(join(tmpdir(), 'guard-prints-'));
  const w = { home: join(dir, 'home'), project: join(dir, 'project'), guardHome: join(dir, 'guard') };
  mkdirSync(w.home, { recursive: true });
  mkdirSync(w.project, { recursive: true });
  return w;
}

type Servers = Record<string, { command?: string; args?: string[]; env?: Record<string, string>; url?: string }>;

/** Where each agent keeps the person's own servers and the project's, and how to write them. */
const AGENT_FILES = {
  'claude-code': {
    user: (w: World) => join(w.home, '.claude.json'),
    userText: (servers: Servers) => JSON.stringify({ numStartups: 4, mcpServers: servers }),
    project: (w: World) => join(w.project, '.mcp.json'),
    projectText: (servers: Servers) => JSON.stringify({ mcpServers: servers }),
  },
  gemini: {
    user: (w: World) => join(w.home, '.gemini', 'settings.json'),
    userText: (servers: Servers) =>
      `// mine\n${JSON.stringify({ ui: { theme: 'x' }, mcpServers: servers }, null, 2)}\n`,
    project: (w: World) => join(w.project, '.gemini', 'settings.json'),
    projectText: (servers: Servers) => JSON.stringify({ mcpServers: servers }),
  },
} as const;
type Agent = keyof typeof AGENT_FILES;
const AGENTS_UNDER_TEST = Object.keys(AGENT_FILES) as Agent[];

const NOWHERE = '/nonexistent/guard-test/bin/mcp';
const DOCS = { command: NOWHERE, args: ['--docs'], env: { DOCS_MODE: 'read' } };
const WIKI = { command: NOWHERE, args: ['--wiki'] };

function write(path: string, text: string): void {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
}

async function scan(agent: Agent, w: World): Promise<Readonly<Record<string, string>>> {
  const result = await scanChatStart({
    agent,
    projectRoot: w.project,
    home: w.home,
    env: {},
    timeoutMs: 2000,
    guardHome: w.guardHome,
  });
  return result.newServers ?? {};
}

/** A world whose first look saw DOCS and WIKI in the person's own file. */
async function seen(agent: Agent): Promise<World> {
  const w = world();
  write(AGENT_FILES[agent].user(w), AGENT_FILES[agent].userText({ docs: DOCS, wiki: WIKI }));
  expect(await scan(agent, w)).toEqual({});
  return w;
}

describe.each(AGENTS_UNDER_TEST)('%s: MCP servers fingerprinted at chat start', (agent) => {
  const files = AGENT_FILES[agent];

  it.each<{ row: string; servers: Servers; asks: string[] }>([
    { row: 'unchanged', servers: { docs: DOCS, wiki: WIKI }, asks: [] },
    { row: 'a new server', servers: { docs: DOCS, wiki: WIKI, tracker: { command: NOWHERE } }, asks: ['tracker'] },
    { row: 'a changed command', servers: { docs: { ...DOCS, command: '/bin/sh' }, wiki: WIKI }, asks: ['docs'] },
    {
      row: 'changed arguments',
      servers: { docs: { ...DOCS, args: ['--docs', '--write'] }, wiki: WIKI },
      asks: ['docs'],
    },
    {
      row: 'a changed environment',
      servers: { docs: { ...DOCS, env: { DOCS_MODE: 'write' } }, wiki: WIKI },
      asks: ['docs'],
    },
    {
      row: 'a command turned into an address',
      servers: { docs: { url: 'https://docs.example/mcp' }, wiki: WIKI },
      asks: ['docs'],
    },
    { row: 'one removed', servers: { wiki: WIKI }, asks: [] },
    { row: 'all removed', servers: {}, asks: [] },
  ])('$row', async ({ servers, asks }) => {
    const w = await seen(agent);
    write(files.user(w), files.userText(servers));
    expect(Object.keys(await scan(agent, w))).toEqual(asks);
  });

  it('a config that cannot be read: every server asks, known ones too (never looser)', async () => {
    const w = await seen(agent);
    write(files.user(w), '{"mcpServers": {"docs": ');
    expect(Object.keys(await scan(agent, w))).toEqual([ANY_SERVER]);
  });

  it("the project's own server asks even on guard's first look, and is known only for that project", async () => {
    const w = world();
    write(files.project(w), files.projectText({ 'repo-tool': { command: NOWHERE, args: ['tools/mcp.js'] } }));
    const asked = await scan(agent, w);
    expect(Object.keys(asked)).toEqual(['repo-tool']);
    // the person let it run: known from then on, in this project
    keepServers(w.guardHome, agent, [asked['repo-tool'] ?? '']);
    expect(await scan(agent, w)).toEqual({});
    const other = { ...world(), guardHome: w.guardHome };
    write(files.project(other), files.projectText({ 'repo-tool': { command: NOWHERE, args: ['tools/mcp.js'] } }));
    expect(Object.keys(await scan(agent, other))).toEqual(['repo-tool']);
  });

  it('a new server the person let run is known in the next chat; a later change asks again', async () => {
    const w = await seen(agent);
    write(files.user(w), files.userText({ docs: DOCS, wiki: WIKI, tracker: { command: NOWHERE } }));
    const asked = await scan(agent, w);
    keepServers(w.guardHome, agent, [asked['tracker'] ?? '']);
    expect(await scan(agent, w)).toEqual({});
    write(files.user(w), files.userText({ docs: DOCS, wiki: WIKI, tracker: { command: NOWHERE, args: ['-v'] } }));
    expect(Object.keys(await scan(agent, w))).toEqual(['tracker']);
  });

  it("guard's first look with no server at all is kept: a server added later asks", async () => {
    const w = world();
    expect(await scan(agent, w)).toEqual({});
    expect(knownServers(w.guardHome, agent)).toEqual(new Set());
    write(files.user(w), files.userText({ docs: DOCS }));
    expect(Object.keys(await scan(agent, w))).toEqual(['docs']);
  });

  it("a prints file that cannot be read knows no server: every one asks, and other agents' first look is not trusted either", async () => {
    const w = await seen(agent);
    writeFileSync(serversPath(w.guardHome), '{ torn');
    expect(Object.keys(await scan(agent, w)).sort()).toEqual(['docs', 'wiki']);
    const other: Agent = agent === 'gemini' ? 'claude-code' : 'gemini';
    write(AGENT_FILES[other].user(w), AGENT_FILES[other].userText({ docs: DOCS }));
    expect(Object.keys(await scan(other, w))).toEqual(['docs']);
  });

  it('keeps hashes only: no command, argument or environment value in the prints file', async () => {
    const w = world();
    write(files.user(w), files.userText({ docs: { command: NOWHERE, env: { TOKEN: 'ghp_notreallyakeyvalue0000' } } }));
    await scan(agent, w);
    const text = readFileSync(serversPath(w.guardHome), 'utf8');
    expect(text).not.toContain('ghp_');
    expect(text).not.toContain('nonexistent');
  });
});

describe("Claude Code's servers: the person's, this project's local ones, and the project's .mcp.json", () => {
  it('a local server of this project changed in ~/.claude.json asks; one of another project does not', async () => {
    const w = world();
    const claudeJson = (mine: Servers, theirs: Servers): string =>
      JSON.stringify({
        mcpServers: {},
        projects: { [w.project]: { mcpServers: mine }, '/elsewhere': { mcpServers: theirs } },
      });
    write(join(w.home, '.claude.json'), claudeJson({ db: DOCS }, { other: WIKI }));
    expect(await scan('claude-code', w)).toEqual({});
    write(join(w.home, '.claude.json'), claudeJson({ db: DOCS }, { other: { ...WIKI, args: ['--changed'] } }));
    expect(await scan('claude-code', w)).toEqual({});
    write(join(w.home, '.claude.json'), claudeJson({ db: { ...DOCS, args: ['--drop'] } }, { other: WIKI }));
    expect(Object.keys(await scan('claude-code', w))).toEqual(['db']);
  });
});
