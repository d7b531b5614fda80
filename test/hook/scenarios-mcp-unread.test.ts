import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, it, vi } from 'vitest';
import type { TestContext } from 'vitest';
import type { AgentId } from '../../packages/adapters/src/index.js';
import { requireBuild } from './bin.js';
import type { World } from './chats.js';
import {
  CHATS,
  chatStateOf,
  logOf,
  makeWorld,
  MCP_SERVER,
  processesMentioning,
  removeWorld,
  writeText,
} from './chats.js';
import { HOOK_ENTRY, noted, noting, startChecker } from './resident.js';
import { scaled } from '../machine.js';

// every hook call is a Node process, and a server guard cannot read costs it a scan's time limit
vi.setConfig({ testTimeout: scaled(120_000), hookTimeout: scaled(60_000) });

/**
 * SPEC §7, "silence means checked", for MCP servers: a local server whose tools the chat-start scan
 * could not read (out of time, not started, answering something else) is scanned again at a call
 * of one of its tools, within the call's deadline; read clean then, it goes ahead (and is not asked
 * about again in the chat); still unread, the call asks, or blocks under fail-closed. A remote server
 * is never contacted: its calls go ahead, their arguments judged. Through the built hook, for an
 * agent with a chat start (Codex) and one whose first step runs the scan (Windsurf). The slow
 * server is held by a gate file rather than a sleep, so the machine's load does not decide a row.
 */

const worlds: World[] = [];
beforeAll(requireBuild);
afterAll(() => worlds.forEach(removeWorld));

const UNREAD = 'guard could not read the tool descriptions of MCP server';

/** The agent's MCP file (Codex's TOML, Windsurf's JSON): the stand-in servers, and a remote one. */
function configure(agent: AgentId, world: World): void {
  const server = (mode: string) => ({ command: 'sh', args: [MCP_SERVER, mode, world.root] });
  const servers = {
    tickets: server('clean'),
    slow: server('gated'),
    mute: server('silent'),
    junk: server('garbage'),
    broken: { command: join(world.root, 'no-such-server'), args: [world.root] },
    api: { url: 'https://mcp.example.com/mcp' },
  };
  if (agent === 'codex') {
    const toml = Object.entries(servers).map(([name, entry]) =>
      'url' in entry
        ? `[mcp_servers.${name}]\nurl = ${JSON.stringify(entry.url)}\n`
        : `[mcp_servers.${name}]\ncommand = ${JSON.stringify(entry.command)}\nargs = ${JSON.stringify(entry.args)}\n`,
    );
    writeText(join(world.home, '.codex', 'config.toml'), toml.join('\n'));
    return;
  }
  if (agent !== 'windsurf') throw new Error(`no MCP file written for ${agent}`);
  writeText(
    join(world.home, '.codeium', 'windsurf', 'mcp_config.json'),
    `${JSON.stringify({ mcpServers: servers }, null, 2)}\n`,
  );
}

async function scenario(
  { agent, failClosed, resident, start }: { agent: AgentId; failClosed: boolean; resident: boolean; start: boolean },
  { expect }: TestContext,
): Promise<void> {
  const made = makeWorld(`mcp-unread-${agent}`, 'guard', resident ? HOOK_ENTRY : undefined);
  worlds.push(made);
  if (failClosed) writeText(join(made.guardHome, 'settings.yaml'), 'failClosed: true\n');
  // through the resident checker: its calls scan in the checker, within the call's deadline
  const notes = join(made.root, 'answered');
  if (resident) await startChecker(made.guardHome, made.env);
  const world = resident ? { ...made, env: noting(made.env, notes) } : made;
  configure(agent, world);
  // an interactive session, where a person reads the chat (Codex tells it by its command line)
  const chat = CHATS[agent](world, `mcp-unread-${agent}-chat`, [agent]);
  const stops = failClosed ? 'block' : 'ask';

  // without the start (guard set up in the middle of the chat, or a start that ran out of time and
  // kept nothing), the chat's first MCP step scans, as on an agent that has none
  if (chat.start && start) expect((await chat.start()).code).toBe(0);
  // a server read clean at the start goes ahead, as before
  const clean = await chat.mcp('tickets', 'lookup_ticket', { id: 'T-12' });
  expect(chat.seen(clean), clean.stdout).toBe('allow');
  const unread = chatStateOf(chat).uncheckedServers ?? {};
  expect(Object.keys(unread).sort()).toEqual(['broken', 'junk', 'mute', 'slow']);
  expect(unread['broken']).toBe('could not be started');

  // never read: tried again, still unread, so asked (blocked under fail-closed), saying why
  for (const [server, why] of [
    ['mute', 'did not answer within the time limit'],
    ['broken', 'could not be started'],
    ['junk', 'exited before answering'],
    ['slow', 'did not answer within the time limit'],
  ] as const) {
    const answer = await chat.mcp(server, 'lookup_ticket', { id: 'T-1' });
    expect(chat.seen(answer), `${server}: ${answer.stdout}${answer.stderr}`).toBe(stops);
    expect(chat.text(answer)).toContain(`${UNREAD} ${server} to check them for injection (${why})`);
  }

  // the slow server is ready now: the next call's scan reads it, and the call goes ahead
  writeFileSync(join(world.root, 'gate'), '');
  const ready = await chat.mcp('slow', 'lookup_ticket', { id: 'T-2' });
  expect(chat.seen(ready), ready.stdout + ready.stderr).toBe('allow');
  expect(chatStateOf(chat).uncheckedServers).not.toHaveProperty('slow');
  // read once, not scanned again in this chat: with the gate shut it would not answer a scan
  rmSync(join(world.root, 'gate'));
  const again = await chat.mcp('slow', 'lookup_ticket', { id: 'T-3' });
  expect(chat.seen(again), again.stdout + again.stderr).toBe('allow');

  // a remote server is not contacted: its call goes ahead, its arguments judged as what they are
  const remote = await chat.mcp('api', 'lookup_ticket', { id: 'T-4' });
  expect(chat.seen(remote), remote.stdout + remote.stderr).toBe('allow');
  const wipe = await chat.mcp('api', 'run', { command: 'rm -rf ~' });
  expect(chat.seen(wipe), wipe.stdout + wipe.stderr).toBe('block');
  expect(chat.text(wipe)).toContain('fs.wipe');
  // a server no file of the agent declares (guard cannot tell what runs it): judged by its tool and
  // arguments alone, as before; a read-like tool goes ahead
  const undeclared = await chat.mcp('elsewhere', 'lookup_ticket', { id: 'T-5' });
  expect(chat.seen(undeclared), undeclared.stdout + undeclared.stderr).toBe('allow');

  // every call was answered by the rules inside guard's deadline, and no server outlived its hook
  const log = logOf(world);
  expect(log.filter((entry) => entry.how !== 'rules' && entry.how !== 'event')).toEqual([]);
  expect(log.filter((entry) => entry.error !== undefined)).toEqual([]);
  expect(processesMentioning(world.root).filter((line) => !line.includes('hook-server'))).toEqual([]);
  if (resident) expect(new Set(noted(notes))).toEqual(new Set(['resident']));
}

describe('a tool of a local MCP server guard could not read asks until a scan reads it', () => {
  it.for([
    { agent: 'codex', failClosed: false, resident: false, start: true },
    { agent: 'codex', failClosed: true, resident: false, start: true },
    { agent: 'codex', failClosed: false, resident: true, start: true },
    { agent: 'codex', failClosed: false, resident: false, start: false },
    { agent: 'windsurf', failClosed: false, resident: false, start: false },
  ] as const)('$agent, fail-closed $failClosed, resident checker $resident, chat start seen $start', scenario);
});
