import { describe, expect, it } from 'vitest';
import type { ServerSeen } from '../../src/chat/index.js';
import {
  ANY_SERVER,
  apply,
  asChange,
  checkServers,
  keepsServer,
  newChat,
  onStart,
  printToAsk,
  serverPrint,
  viewOf,
} from '../../src/chat/index.js';

const NOW = 1_700_000_000_000;
const server = (name: string, extra: Partial<ServerSeen> = {}): ServerSeen => ({
  name,
  command: 'npx',
  args: ['-y', '@acme/docs-mcp'],
  env: { DOCS_TOKEN: 'abc' },
  ...extra,
});
const DOCS = server('docs');

describe('a server is known by what it runs', () => {
  it.each([
    { change: 'nothing', other: server('docs'), same: true },
    { change: 'the env listed in another order', other: server('docs', { env: { DOCS_TOKEN: 'abc' } }), same: true },
    { change: 'the command', other: server('docs', { command: 'node' }), same: false },
    { change: 'an argument', other: server('docs', { args: ['-y', '@acme/docs-mcp@2'] }), same: false },
    { change: 'the order of the arguments', other: server('docs', { args: ['@acme/docs-mcp', '-y'] }), same: false },
    { change: "an env variable's value", other: server('docs', { env: { DOCS_TOKEN: 'abd' } }), same: false },
    {
      change: 'an env variable added',
      other: server('docs', { env: { DOCS_TOKEN: 'abc', NODE_OPTIONS: '-r x' } }),
      same: false,
    },
    { change: 'the address', other: server('docs', { url: 'https://evil.example/mcp' }), same: false },
    { change: 'the name', other: server('docs2'), same: false },
    { change: 'declared by a project', other: server('docs', { project: '/work/site' }), same: false },
    { change: 'started in a folder', other: server('docs', { cwd: '/srv/other' }), same: false },
  ])('$change: same print $same', ({ other, same }) => {
    expect(serverPrint(other) === serverPrint(DOCS)).toBe(same);
  });

  it('a folder changes the print, and one folder and another differ', () => {
    expect(serverPrint(server('docs', { cwd: '/srv/a' }))).not.toBe(serverPrint(server('docs', { cwd: '/srv/b' })));
    expect(serverPrint(server('docs', { cwd: '/srv/a' }))).toBe(serverPrint(server('docs', { cwd: '/srv/a' })));
  });

  it('keeps no env value as text', () => {
    expect(serverPrint(server('docs', { env: { DOCS_TOKEN: 'ghp_secretvalue' } }))).not.toContain('secret');
    expect(serverPrint(DOCS)).toMatch(/^[0-9a-f]{20}$/);
  });
});

describe('which servers ask before their first use', () => {
  const known = new Set([serverPrint(DOCS), serverPrint(server('wiki'))]);
  it.each([
    { row: 'a new server', servers: [DOCS, server('tracker')], asks: ['tracker'] },
    { row: 'a changed command', servers: [server('docs', { command: 'bash' })], asks: ['docs'] },
    { row: 'changed args', servers: [server('docs', { args: ['-y', 'other'] })], asks: ['docs'] },
    { row: 'a changed env', servers: [server('docs', { env: {} })], asks: ['docs'] },
    { row: 'unchanged', servers: [DOCS, server('wiki')], asks: [] },
    { row: 'one removed (wiki gone)', servers: [DOCS], asks: [] },
    { row: 'none at all', servers: [], asks: [] },
    { row: "a project's server never seen", servers: [server('docs', { project: '/p' })], asks: ['docs'] },
  ])('$row', ({ servers, asks }) => {
    const { newServers, baseline } = checkServers(known, servers);
    expect(Object.keys(newServers)).toEqual(asks);
    expect(baseline).toEqual([]);
  });

  it("an unreadable file makes every server ask, known ones included, under the file's hash", () => {
    const { newServers } = checkServers(known, [DOCS], ['{ broken']);
    expect(Object.keys(newServers)).toEqual([ANY_SERVER]);
    expect(printToAsk(newServers, 'docs')).toBe(newServers[ANY_SERVER]);
    expect(printToAsk(newServers, 'anything')).toBe(newServers[ANY_SERVER]);
    expect(checkServers(known, [DOCS], ['{ broken!']).newServers[ANY_SERVER]).not.toBe(newServers[ANY_SERVER]);
  });

  it("the first look ever takes the person's own servers as they are, but never a project's", () => {
    const project = server('repo-tool', { project: '/p' });
    const { newServers, baseline } = checkServers(undefined, [DOCS, project]);
    expect(baseline).toEqual([serverPrint(DOCS)]);
    expect(Object.keys(newServers)).toEqual(['repo-tool']);
    // an unreadable file still asks on the first look
    expect(Object.keys(checkServers(undefined, [DOCS], ['x']).newServers)).toEqual([ANY_SERVER]);
  });

  it('a new server asks under its own print; a known name not in the list, and no list, ask nothing', () => {
    const { newServers } = checkServers(known, [server('tracker')]);
    expect(printToAsk(newServers, 'tracker')).toBe(serverPrint(server('tracker')));
    expect(printToAsk(newServers, 'docs')).toBeUndefined();
    expect(printToAsk(undefined, 'docs')).toBeUndefined();
    // a name that is an object key of every object is not a server
    expect(printToAsk(newServers, 'constructor')).toBeUndefined();
  });
});

describe('the chat keeps them from its start', () => {
  const scan = { checked: [], found: [], unchecked: [], poisonedRules: false, poisonedServers: [] };

  it('says which servers ask, and the rules see them', () => {
    const { change, notice } = onStart({ ...scan, newServers: { tracker: 'p1', docs: 'p2' } }, NOW);
    expect(notice).toBe(
      'At the start of this chat it found that MCP servers tracker, docs are new or changed since guard last let one of their tools run, so the first use of each asks.',
    );
    const chat = apply(newChat('claude-code', 'c', NOW), change);
    expect(chat.newServers).toEqual({ tracker: 'p1', docs: 'p2' });
    expect(viewOf(chat).serverToAsk?.('docs')).toBe('p2');
    expect(viewOf(chat).serverToAsk?.('wiki')).toBeUndefined();
    expect(asChange(JSON.parse(JSON.stringify(change)))).toEqual(change);
  });

  it('one server, and an unreadable file, each in a sentence of their own', () => {
    expect(onStart({ ...scan, newServers: { tracker: 'p1' } }, NOW).notice).toBe(
      'At the start of this chat it found that MCP server tracker is new or changed since guard last let one of its tools run, so its first use asks.',
    );
    expect(onStart({ ...scan, newServers: { [ANY_SERVER]: 'h' } }, NOW).notice).toBe(
      'At the start of this chat it found that a file of MCP servers could not be read, so every MCP server asks before its first use.',
    );
  });

  it('nothing new: no notice, nothing kept, and no server asks', () => {
    const { change, notice } = onStart({ ...scan, newServers: {} }, NOW);
    expect(notice).toBeUndefined();
    expect(change.newServers).toBeUndefined();
    expect(viewOf(apply(newChat('gemini', 'c', NOW), change)).serverToAsk).toBeUndefined();
  });

  it('a later scan in the same chat adds to them; a change file with a bad entry is not a change', () => {
    let chat = apply(newChat('gemini', 'c', NOW), onStart({ ...scan, newServers: { a: '1' } }, NOW).change);
    chat = apply(chat, onStart({ ...scan, newServers: { b: '2' } }, NOW).change);
    expect(chat.newServers).toEqual({ a: '1', b: '2' });
    expect(asChange({ newServers: { a: 1 } })).toBeUndefined();
    expect(asChange({ newServers: ['a'] })).toBeUndefined();
  });
});

describe('an MCP step that goes ahead keeps its server as known only after a yes', () => {
  const allow = { decision: 'allow' } as const;
  it.each([
    { how: 'rules', decision: 'allow', keeps: true },
    { how: 'memory', decision: 'allow', keeps: true },
    { how: 'project', decision: 'allow', keeps: true },
    // passed on to the agent's later event, which asks: nobody has said yes yet
    { how: 'deferred', decision: 'allow', keeps: false },
    // the mode let the ask go ahead without asking anybody
    { how: 'mode', decision: 'allow', keeps: false },
    { how: 'rules', decision: 'ask', keeps: false },
    { how: 'rules', decision: 'block', keeps: false },
    { how: 'away', decision: 'ask', keeps: false },
  ] as const)('$decision by $how: kept $keeps', ({ how, decision, keeps }) => {
    expect(keepsServer({ how, verdict: { ...allow, decision, findings: [], agentMessage: '', userMessage: '' } })).toBe(
      keeps,
    );
  });
});
