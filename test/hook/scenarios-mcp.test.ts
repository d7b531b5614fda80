import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, it, vi } from 'vitest';
import type { TestContext } from 'vitest';
import type { AgentId } from '../../packages/adapters/src/index.js';
import { fixture } from '../../packages/cli/test/hook-cases.js';
import { requireBuild } from './bin.js';
import type { Chat, World } from './chats.js';
import {
  CHATS,
  chatFilesText,
  hook,
  chatStateOf,
  logOf,
  makeWorld,
  MCP_SERVER,
  processesMentioning,
  removeWorld,
  writeText,
} from './chats.js';
import { scaled } from '../machine.js';

// every hook call is a Node process: on a busy 2-core machine a whole chat takes a while
vi.setConfig({ testTimeout: scaled(60_000), hookTimeout: scaled(60_000) });

/**
 * The chat-start scan (SPEC §5) through the hook process, with real stdio MCP servers configured
 * where each agent keeps them: one whose tool description carries an injection, a clean one, and
 * one that never answers. guard's own deadline is kept, so a scan that overran it would show as a
 * deadline failure in the log.
 */

const worlds: World[] = [];
beforeAll(requireBuild);
afterAll(() => worlds.forEach(removeWorld));

type Servers = Readonly<Record<string, { command: string; args: string[] }>>;

/** Writes the agent's user-level MCP config, the way a person would have set it up. */
function configure(agent: AgentId, world: World, servers: Servers): void {
  if (agent === 'codex') {
    const toml = Object.entries(servers)
      .map(
        ([name, server]) =>
          `[mcp_servers.${name}]\ncommand = ${JSON.stringify(server.command)}\nargs = ${JSON.stringify(server.args)}\n`,
      )
      .join('\n');
    writeText(join(world.home, '.codex', 'config.toml'), `model = "gpt-5.5"\n\n${toml}`);
    return;
  }
  if (agent === 'gemini') {
    // Gemini CLI keeps them in its settings.json, which may hold comments
    const json = JSON.stringify({ mcpServers: servers }, null, 2);
    writeText(join(world.home, '.gemini', 'settings.json'), `// my servers\n${json.replace('{', '{ /* daily */')}\n`);
    return;
  }
  if (agent === 'qwen') {
    // Qwen Code keeps them in its settings.json, which may hold comments
    const json = JSON.stringify({ $version: 4, mcpServers: servers }, null, 2);
    writeText(join(world.home, '.qwen', 'settings.json'), `// my servers\n${json}\n`);
    return;
  }
  if (agent === 'claude-code') {
    // Claude Code: the user's own servers, and this project's local ones, in ~/.claude.json
    const [first, ...rest] = Object.entries(servers);
    const json = {
      numStartups: 4,
      mcpServers: Object.fromEntries(rest),
      projects: { [world.project]: { allowedTools: [], mcpServers: Object.fromEntries(first ? [first] : []) } },
    };
    writeText(join(world.home, '.claude.json'), `${JSON.stringify(json, null, 2)}\n`);
    return;
  }
  if (agent === 'crush') {
    // Crush: `mcp` in its crush.json, each server with its type
    const mcp = Object.fromEntries(
      Object.entries(servers).map(([name, server]) => [name, { type: 'stdio', ...server }]),
    );
    writeText(join(world.home, '.config', 'crush', 'crush.json'), `${JSON.stringify({ mcp }, null, 2)}\n`);
    return;
  }
  if (agent === 'opencode' || agent === 'kilo') {
    // OpenCode and Kilo: `mcp` in its config (JSON with comments), each local server one argv list
    const mcp = Object.fromEntries(
      Object.entries(servers).map(([name, server]) => [
        name,
        { type: 'local', command: [server.command, ...server.args], enabled: true },
      ]),
    );
    writeText(join(world.home, '.config', agent, `${agent}.jsonc`), `// mine\n${JSON.stringify({ mcp }, null, 2)}\n`);
    return;
  }
  const file = {
    cursor: '.cursor/mcp.json',
    copilot: '.copilot/mcp-config.json',
    antigravity: '.gemini/antigravity/mcp_config.json',
    windsurf: '.codeium/windsurf/mcp_config.json',
    droid: '.factory/mcp.json',
    cline: '.cline/data/settings/cline_mcp_settings.json',
    // `mcpServers` in its settings.json (not run here: its payload does not name an MCP tool's server)
    auggie: '.augment/settings.json',
    kiro: '.kiro/settings/mcp.json',
  }[agent];
  if (file === undefined) throw new Error(`no MCP config written for ${agent}`);
  writeText(join(world.home, file), `${JSON.stringify({ mcpServers: servers }, null, 2)}\n`);
}

const NAME =
  "%s: the poisoned server's tools are blocked, the clean one's are not, the silent one is named as not checked";

// Where the agent has a start event the scan runs there (5 s for the servers, 7 s for the whole
// call); Antigravity, OpenCode, Cline, Windsurf and Crush have none, so the first step runs it inside the step's own deadline (1 s of it).
// One chat at a time: five chats starting fifteen servers at once on a busy 2-core machine overran
// the 7 s and left the chat start unanswered.
describe('MCP servers are scanned when a chat starts', () => {
  it.for(['codex', 'cursor', 'copilot', 'claude-code', 'gemini', 'qwen', 'droid', 'kiro'] as const)(NAME, scenario);
});
describe('MCP servers are scanned on the first step where there is no chat start', () => {
  it.for(['antigravity', 'opencode', 'kilo', 'cline', 'windsurf', 'crush'] as const)(NAME, scenario);
});

async function scenario(agent: AgentId, { expect }: TestContext): Promise<void> {
  const world = makeWorld(`mcp-${agent}`, 'guard');
  worlds.push(world);
  // the world's folder in each server's arguments marks its processes, to see none is left running
  const server = (mode: string) => ({ command: 'sh', args: [MCP_SERVER, mode, world.root] });
  configure(agent, world, { formatter: server('poisoned'), tickets: server('clean'), mute: server('silent') });
  const chat: Chat = CHATS[agent](world, `mcp-${agent}-chat`);

  if (chat.start) {
    const started = await chat.start();
    expect(started.code).toBe(0);
    expect(chat.text(started)).toMatch(/^guard is on: .* the tools of MCP server formatter are blocked/);
  }
  const poisoned = await chat.mcp('formatter', 'format_date', { date: '2026-05-01' });
  expect(chat.seen(poisoned), poisoned.stdout).toBe('block');
  expect(chat.text(poisoned)).toContain('mcp.poisoned-server');
  const clean = await chat.mcp('tickets', 'lookup_ticket', { id: 'T-12' });
  expect(chat.seen(clean), clean.stdout).toBe('allow');

  const state = chatStateOf(chat);
  expect(state.poisonedServers).toEqual(['formatter']);
  // the silent one is still unread; the others were read, at the start or (a first step's scan has
  // 1 s of its deadline, which a busy machine may miss) again when their tool was called
  expect(state.uncheckedServers).toEqual({ mute: 'did not answer within the time limit' });
  expect(state.scan?.checked).not.toContain('MCP server mute');
  expect(state.scan?.unchecked).toContain('MCP server mute: did not answer within the time limit');
  if (chat.start) {
    expect(state.scan?.checked).toEqual(expect.arrayContaining(['MCP server formatter', 'MCP server tickets']));
    expect(state.scan?.unchecked).toEqual(['MCP server mute: did not answer within the time limit']);
    expect(state.scan?.found).toEqual([expect.stringMatching(/^MCP server formatter: /)]);
  }
  // only the sign names are kept, never the description's words
  expect(JSON.stringify(state)).not.toMatch(/SSH key|previous instructions/);
  expect(chatFilesText(world)).not.toMatch(/SSH key|previous instructions/);

  // every call was answered normally, inside guard's deadline (no 'deadline' or 'failure' line)
  const log = logOf(world);
  expect(log.map((entry) => entry.how)).toEqual(chat.start ? ['event', 'rules', 'rules'] : ['rules', 'rules']);
  expect(log.filter((entry) => entry.error !== undefined)).toEqual([]);
  // and no server process outlived the hook
  expect(processesMentioning(world.root)).toEqual([]);
}

/**
 * mcp.changes for Claude Code and Gemini CLI (SPEC §6): a server that appears after guard first
 * looked asks before its first use; once the person let it run it is known, in that chat and the
 * next. Claude Code's comes from the project's .mcp.json (Claude Code asks before it starts one,
 * guard never starts it), Gemini CLI's from the person's settings.json.
 */
describe('a new MCP server asks before its first use, and is known once it ran with a yes', () => {
  it.for(['claude-code', 'gemini', 'qwen'] as const)('%s', async (agent, { expect }) => {
    const world = makeWorld(`mcp-new-${agent}`, 'guard');
    worlds.push(world);
    const server = (mode: string) => ({ command: 'sh', args: [MCP_SERVER, mode, world.root] });
    configure(agent, world, { tickets: server('clean') });

    // guard's first look: the person's own servers are taken as they are
    const first = CHATS[agent](world, `mcp-new-${agent}-1`);
    expect(chatTextOf(first, await need(first.start)())).not.toMatch(/new or changed/);
    expect(first.seen(await first.mcp('tickets', 'lookup_ticket', { id: 'T-1' }))).toBe('allow');

    // a server added since
    const tracker = server('clean');
    if (agent === 'claude-code')
      writeText(join(world.project, '.mcp.json'), `${JSON.stringify({ mcpServers: { tracker } }, null, 2)}\n`);
    else if (agent === 'qwen')
      writeText(
        join(world.project, '.qwen', 'settings.json'),
        `${JSON.stringify({ mcpServers: { tracker } }, null, 2)}\n`,
      );
    else configure(agent, world, { tickets: server('clean'), tracker });

    const second = CHATS[agent](world, `mcp-new-${agent}-2`);
    expect(chatTextOf(second, await need(second.start)())).toContain(
      'MCP server tracker is new or changed since guard last let one of its tools run, so its first use asks',
    );
    const asked = await second.mcp('tracker', 'lookup_ticket', { id: 'T-2' });
    expect(second.seen(asked), asked.stdout).toBe('ask');
    expect(second.text(asked)).toContain('mcp.changes');
    expect(second.seen(await second.mcp('tickets', 'lookup_ticket', { id: 'T-3' }))).toBe('allow');
    const printsBefore = readFileSync(join(world.guardHome, 'mcp-servers.json'), 'utf8');

    // the person says yes: in Claude Code's own prompt (the call ran), in Gemini CLI's chat
    if (agent === 'claude-code')
      await hook(world, ['claude-code'], {
        ...fixture('claude-code/post-tool-use-mcp'),
        session_id: second.id,
        cwd: world.project,
        tool_name: 'mcp__tracker__lookup_ticket',
        tool_input: { id: 'T-2' },
        mcp_server: { name: 'tracker', source: 'project' },
      });
    else if (agent === 'qwen')
      await hook(world, ['qwen'], {
        ...fixture('qwen/post-tool-use-shell'),
        session_id: second.id,
        cwd: world.project,
        tool_name: 'mcp__tracker__lookup_ticket',
        tool_input: { id: 'T-2' },
        tool_response: { llmContent: [{ text: 'T-2: open' }], returnDisplay: '' },
      });
    else await need(second.say)('yes');
    const again = await second.mcp('tracker', 'lookup_ticket', { id: 'T-2' });
    expect(second.seen(again), again.stdout).toBe('allow');
    expect(readFileSync(join(world.guardHome, 'mcp-servers.json'), 'utf8')).not.toBe(printsBefore);

    // the next chat knows it
    const third = CHATS[agent](world, `mcp-new-${agent}-3`);
    expect(chatTextOf(third, await need(third.start)())).not.toMatch(/new or changed/);
    expect(third.seen(await third.mcp('tracker', 'lookup_ticket', { id: 'T-4' }))).toBe('allow');
    expect(processesMentioning(world.root)).toEqual([]);
  });
});

function need<T>(value: T | undefined): T {
  if (value === undefined) throw new Error('this agent has no such event');
  return value;
}

function chatTextOf(chat: Chat, answer: Parameters<Chat['text']>[0]): string {
  return chat.text(answer);
}
