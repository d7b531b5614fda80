import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import type { Server, Socket } from 'node:net';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AGENT_CASES, BLOCKED } from '../../packages/cli/test/hook-cases.js';
import type { BinResult } from './bin.js';
import { FULL, scaled } from '../machine.js';
import { requireBuild } from './bin.js';
import { runProcess } from './chats.js';
import {
  alive,
  answers,
  buildId,
  checkerPid,
  checkerSocket,
  HOOK_ENTRY,
  noted,
  noting,
  startChecker,
  waitForChecker,
} from './resident.js';

/**
 * The resident checker (hook-server.cjs) answers exactly as a call in-process does, and a call it
 * cannot answer runs in-process with exactly that answer: never looser, never twice.
 */

// every call is a Node process (two per row), on a small shared machine
vi.setConfig({ testTimeout: scaled(120_000), hookTimeout: scaled(60_000) });

const ROOT = mkdtempSync(join(tmpdir(), 'guard-resident-'));
const HOME = join(ROOT, 'home');
const FIXTURES = new URL('../../packages/adapters/test/fixtures/', import.meta.url);
const codex = AGENT_CASES[0];
if (codex === undefined) throw new Error('no codex case');

beforeAll(() => {
  requireBuild();
  mkdirSync(HOME, { recursive: true });
});
// the checkers leave once their guard folder is gone
afterAll(() => rmSync(ROOT, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 }));

/** However busy the machine, a call waits for a running checker to accept it. */
const ACCEPTING = { GUARD_RESIDENT_ACCEPT_MS: String(scaled(60_000)) };

let homes = 0;
/** A fresh guard folder (made, as guard makes it on its first call) and the environment naming it. */
function guardHome(extra: Readonly<Record<string, string>> = {}): { guardHome: string; env: Record<string, string> } {
  const dir = join(ROOT, `guard-${(homes += 1)}`);
  mkdirSync(dir);
  return { guardHome: dir, env: { HOME, GUARD_HOME: dir, GUARD_SERVER_IDLE_MS: '30000', ...extra } };
}

/** Runs the hook command as setup writes it. */
function hook(args: readonly string[], stdin: string, env: Readonly<Record<string, string>>): Promise<BinResult> {
  return runProcess(process.execPath, [HOOK_ENTRY, 'hook', ...args], stdin, env);
}

/** A result with its guard folder's path, and the random approval code of an ask, made the same for any call. */
function same(result: BinResult, dir: string): BinResult {
  const plain = (text: string): string =>
    text
      .split(dir)
      .join('<guard>')
      .replace(/(approval code )[A-Z0-9]+/g, '$1<code>');
  return { code: result.code, stdout: plain(result.stdout), stderr: plain(result.stderr) };
}

/**
 * The recorded payloads of every agent, with the hook arguments setup writes for it: every third of
 * each agent's, in name order (about 60 of 180, each agent's events of every kind among them), or
 * with `GUARD_FULL=1` all of them.
 */
const RECORDED = AGENT_CASES.flatMap((item) =>
  readdirSync(new URL(`${item.agent}/`, FIXTURES))
    .filter((name) => name.endsWith('.json'))
    .sort()
    .filter((_, i) => FULL || i % 3 === 0)
    .map((name) => ({
      agent: item.agent,
      args: item.args,
      name,
      text: readFileSync(new URL(`${item.agent}/${name}`, FIXTURES), 'utf8'),
    })),
);

/** A slice of the corpus: the first commands of each file (10, or with `GUARD_FULL=1` 25), as Codex shell steps. */
const CORPUS = ['risky', 'harmless'].flatMap((file) =>
  readFileSync(new URL(`../corpus/${file}.jsonl`, import.meta.url), 'utf8')
    .split('\n')
    .filter(Boolean)
    .slice(0, FULL ? 25 : 10)
    .map((line) => (JSON.parse(line) as { command: string }).command),
);

describe.concurrent('the same answers through the resident checker as in-process', () => {
  it.for([
    { name: 'recorded payloads of every agent', calls: () => RECORDED.map((item) => ({ ...item })) },
    {
      name: 'a slice of the corpus (Codex shell steps)',
      calls: () =>
        CORPUS.map((command, i) => ({
          agent: 'codex',
          args: codex.args,
          name: command,
          text: JSON.stringify({ ...codex.shell(command), tool_use_id: `call_${i}` }),
        })),
    },
  ])('$name: byte-identical stdout, stderr and exit code', { timeout: scaled(400_000) }, async ({ calls }) => {
    const here = guardHome({ GUARD_RESIDENT: 'off' });
    // however busy the machine, every call waits for the checker to accept (the point is its answers)
    const there = guardHome(ACCEPTING);
    const notes = join(ROOT, `notes-${homes}`);
    await startChecker(there.guardHome, there.env);
    const list = calls();
    // agent by agent at once (their chats never meet), each agent's calls in order
    const agents = [...new Set(list.map((item) => item.agent))];
    await Promise.all(
      agents.map(async (agent) => {
        for (const call of list.filter((item) => item.agent === agent)) {
          const own = `${notes}-${agent}`;
          const before = noted(own).length;
          // (the two folders share nothing: both at once)
          const [inProcess, resident] = await Promise.all([
            hook(call.args, call.text, here.env).then((result) => same(result, here.guardHome)),
            hook(call.args, call.text, noting(there.env, own)).then((result) => same(result, there.guardHome)),
          ]);
          expect(resident, `${agent} ${call.name}`).toEqual(inProcess);
          expect(noted(own).slice(before), `${agent} ${call.name}`).toEqual(['resident']);
        }
      }),
    );
  });
});

/** A stand-in at the checker's socket that treats each connection as `behave` says. */
async function standIn(guardHome: string, behave: (conn: Socket) => void): Promise<Server> {
  const { run, socket } = checkerSocket(guardHome);
  mkdirSync(run, { recursive: true, mode: 0o700 });
  // half-open, as the checker: a client's end of stdin does not end the connection
  const server = createServer({ allowHalfOpen: true }, behave);
  await new Promise<void>((resolve) => server.listen(socket, resolve));
  return server;
}

/** What a checker does with a call's header: reads it, then acts. */
const afterHeader =
  (act: (conn: Socket) => void) =>
  (conn: Socket): void => {
    conn.once('data', () => act(conn));
    conn.on('error', () => undefined);
  };

/** A checker started and then killed (SIGKILL): its socket file stays, and nobody answers there. */
async function staleSocket(guardHome: string, env: Record<string, string>): Promise<void> {
  await startChecker(guardHome, env);
  const { socket } = checkerSocket(guardHome);
  const pid = checkerPid(socket);
  process.kill(pid, 'SIGKILL');
  while (await answers(socket)) await new Promise((resolve) => setTimeout(resolve, 20));
}

const isRoot = process.getuid?.() === 0;
const linux = process.platform === 'linux';

describe.concurrent('a call the checker cannot answer runs in-process, with exactly that answer', () => {
  // a blocked step, and the same step under fail-closed with a deadline the stand-ins may outlast
  const payload = JSON.stringify({ ...codex.shell(BLOCKED), tool_use_id: 'call_fallback' });
  let expected: BinResult;
  beforeAll(async () => {
    const here = guardHome({ GUARD_RESIDENT: 'off' });
    expected = same(await hook(codex.args, payload, here.env), here.guardHome);
    expect(expected.stdout).toMatch(/"permissionDecision":"deny"/);
  });

  it.for([
    {
      name: 'no checker, and another call in the last minute (one is started for the next call)',
      starts: true,
      arrange: (dir: string) => writeFileSync(join(dir, 'log.jsonl'), '{}\n'),
    },
    // the near miss: a first call in a while leaves nothing running
    { name: 'no checker, and no call in the last minute (none is started)', starts: false, arrange: () => undefined },
    {
      name: "a stale socket file (a killed checker's): replaced by a new checker",
      starts: true,
      skip: !linux,
      arrange: async (dir: string, env: Record<string, string>) => {
        await staleSocket(dir, env);
        writeFileSync(join(dir, 'log.jsonl'), '{}\n');
      },
    },
    {
      name: 'a checker of another build (answers "stale")',
      arrange: (dir: string) =>
        standIn(
          dir,
          afterHeader((conn) => conn.end('{"t":"stale"}\n')),
        ),
    },
    {
      name: 'a checker that dies mid-call (accepted, then the connection drops)',
      arrange: (dir: string) =>
        standIn(
          dir,
          afterHeader((conn) => conn.end('{"t":"accepted"}\n')),
        ),
    },
    {
      name: 'a checker that answers garbage',
      arrange: (dir: string) =>
        standIn(
          dir,
          afterHeader((conn) => conn.write('garbage\n')),
        ),
    },
    {
      name: 'a checker whose answer is not whole (no exit code)',
      arrange: (dir: string) =>
        standIn(
          dir,
          afterHeader((conn) => conn.write('{"t":"accepted"}\n{"t":"done","out":"{}","err":""}\n')),
        ),
    },
    {
      name: 'a checker that never accepts',
      arrange: (dir: string) =>
        standIn(
          dir,
          afterHeader(() => undefined),
        ),
    },
    {
      name: 'a checker that accepts and never answers (past the deadline and its grace)',
      env: { GUARD_DEADLINE_MS: '300' },
      arrange: (dir: string) =>
        standIn(
          dir,
          afterHeader((conn) => conn.write('{"t":"accepted"}\n')),
        ),
    },
    {
      name: 'a checker in a run folder others may enter (0755)',
      arrange: async (dir: string, env: Record<string, string>) => {
        await startChecker(dir, env);
        chmodSync(checkerSocket(dir).run, 0o755);
      },
    },
    {
      name: 'a run folder that is a symbolic link (to a folder of the right mode)',
      arrange: async (dir: string, env: Record<string, string>) => {
        const elsewhere = join(dir, '..', `elsewhere-${homes}`);
        mkdirSync(join(elsewhere, 'guard'), { recursive: true });
        await startChecker(join(elsewhere, 'guard'), { ...env, GUARD_HOME: join(elsewhere, 'guard') });
        symlinkSync(checkerSocket(join(elsewhere, 'guard')).run, checkerSocket(dir).run);
      },
    },
    {
      name: 'a run folder of another user',
      skip: !isRoot,
      arrange: async (dir: string, env: Record<string, string>) => {
        await startChecker(dir, env);
        chownSync(checkerSocket(dir).run, 1, 1);
      },
    },
  ])('$name', async ({ arrange, starts, env: extra, skip }, context) => {
    if (skip === true) context.skip();
    const there = guardHome(extra);
    const notes = join(ROOT, `notes-${homes}`);
    await arrange(there.guardHome, there.env);
    const result = same(await hook(codex.args, payload, noting(there.env, notes)), there.guardHome);
    if (extra?.GUARD_DEADLINE_MS === undefined) expect(result).toEqual(expected);
    // with the short deadline the call here may judge in time or give the deadline's answer: never looser
    else expect(result.stdout).toMatch(/"permissionDecision":"deny"/);
    expect(noted(notes)).toEqual(['in-process']);
    // one answer, one log line
    const log = readFileSync(join(there.guardHome, 'log.jsonl'), 'utf8').trim().split('\n');
    expect(log.filter((line) => line !== '{}')).toHaveLength(1);
    if (starts === false) {
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect(existsSync(checkerSocket(there.guardHome).socket)).toBe(false);
    }
    if (starts === true) {
      // the next call is answered by the checker the missed one started
      expect(await waitForChecker(checkerSocket(there.guardHome).socket)).toBe(true);
      const next = same(
        await hook(codex.args, payload, noting({ ...there.env, ...ACCEPTING }, notes)),
        there.guardHome,
      );
      expect(next.stdout).toBe(expected.stdout);
      expect(noted(notes)).toEqual(['in-process', 'resident']);
    }
  });

  // the call has one deadline, counted from the client's start: a checker that said it would answer
  // by 2 s and did not leaves the call run here with none of its 300 ms left, so it answers at once
  // (the deadline's answer, or the rules' when they are done before its timer fires: a deny either
  // way), never with a deadline of its own after the checker's
  it('a checker that says its deadline and then never answers: the call answers within the one deadline', async () => {
    const there = guardHome({ GUARD_DEADLINE_MS: '300' });
    const notes = join(ROOT, `notes-${homes}`);
    await standIn(
      there.guardHome,
      afterHeader((conn) => conn.write('{"t":"accepted"}\n{"t":"deadline","ms":2000}\n')),
    );
    const result = await hook(codex.args, payload, noting(there.env, notes));
    expect(result.stdout).toMatch(/"permissionDecision":"deny"/);
    expect(noted(notes)).toEqual(['in-process']);
    const log = readFileSync(join(there.guardHome, 'log.jsonl'), 'utf8').trim().split('\n');
    expect(log).toHaveLength(1);
    const line = JSON.parse(log[0] ?? '') as { how: string; ms: number };
    expect(line.how).toMatch(/^(deadline|rules)$/);
    // it waited for the checker's 2 s, not its own 300 ms: the log's time starts once the hook's
    // clock does, which a loaded machine starts some way into that wait (1,529 ms seen in CI)
    expect(line.ms).toBeGreaterThanOrEqual(1_000);
  });

  it('GUARD_RESIDENT=off: a running checker is not used', async () => {
    const there = guardHome();
    const notes = join(ROOT, `notes-${homes}`);
    await startChecker(there.guardHome, there.env);
    const result = same(
      await hook(codex.args, payload, noting({ ...there.env, GUARD_RESIDENT: 'off' }, notes)),
      there.guardHome,
    );
    expect(result).toEqual(expected);
    expect(noted(notes)).toEqual(['in-process']);
    // the near miss: without the switch, the same call goes to the checker
    await hook(codex.args, payload, noting({ ...there.env, ...ACCEPTING }, notes));
    expect(noted(notes)).toEqual(['in-process', 'resident']);
  });

  // 50 (with `GUARD_FULL=1` 200): a race among that many processes, each a Node start
  const MISSED = FULL ? 200 : 50;
  it(`${MISSED} missed calls at once start one checker, not ${MISSED}`, async () => {
    const there = guardHome({ GUARD_DEADLINE_MS: '60000' });
    // a call a moment ago (so a missed call starts a checker)
    writeFileSync(join(there.guardHome, 'log.jsonl'), '{}\n');
    const results = await Promise.all(Array.from({ length: MISSED }, () => hook(codex.args, payload, there.env)));
    for (const result of results) expect(same(result, there.guardHome)).toEqual(expected);
    const { socket } = checkerSocket(there.guardHome);
    expect(await waitForChecker(socket)).toBe(true);
    if (linux) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      const servers = readdirSync('/proc')
        .filter((name) => /^\d+$/.test(name))
        .filter((pid) => {
          try {
            return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes(socket);
          } catch {
            return false;
          }
        });
      expect(servers).toHaveLength(1);
    }
  });
});

describe.concurrent('the checker leaves', () => {
  it.for([
    { name: 'when its guard folder is removed', act: (dir: string) => rmSync(dir, { recursive: true, force: true }) },
    { name: 'when its socket is removed', act: (dir: string) => rmSync(checkerSocket(dir).socket) },
    { name: 'when its run folder is opened to others', act: (dir: string) => chmodSync(checkerSocket(dir).run, 0o755) },
    { name: 'when idle past GUARD_SERVER_IDLE_MS', idle: '1000', act: () => undefined },
  ])('$name', { skip: !linux }, async ({ act, idle }) => {
    const there = guardHome(idle === undefined ? {} : { GUARD_SERVER_IDLE_MS: idle });
    await startChecker(there.guardHome, there.env);
    const { socket } = checkerSocket(there.guardHome);
    const pid = checkerPid(socket);
    act(there.guardHome);
    const until = Date.now() + scaled(15_000);
    while (Date.now() < until && alive(pid)) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(alive(pid)).toBe(false);
  });

  // a call from another Node (the person upgraded it; the hook command names the new one) is not
  // answered by a checker on the old one: "stale", and it leaves; the same header on its own Node is accepted
  it.for([
    { name: 'on another Node: "stale", and the checker leaves', node: 'v0.0.0', frame: '{"t":"stale"}', leaves: true },
    {
      name: 'on its own Node: accepted, and the checker stays',
      node: process.version,
      frame: '{"t":"accepted"}',
      leaves: false,
    },
  ])('a call $name', { skip: !linux }, async ({ node, frame, leaves }) => {
    const there = guardHome();
    await startChecker(there.guardHome, there.env);
    const { socket } = checkerSocket(there.guardHome);
    const pid = checkerPid(socket);
    const header = {
      v: 2,
      id: buildId(),
      argv: ['codex'],
      env: there.env,
      ppid: process.pid,
      started: Date.now(),
      home: HOME,
      tmp: tmpdir(),
      node,
    };
    const first = await new Promise<string>((resolve, reject) => {
      const conn = connect(socket, () => conn.write(`${JSON.stringify(header)}\n`));
      let text = '';
      conn.setEncoding('utf8');
      conn.on('data', (data: string) => {
        text += data;
        const end = text.indexOf('\n');
        if (end >= 0) {
          conn.destroy();
          resolve(text.slice(0, end));
        }
      });
      conn.on('error', reject);
    });
    expect(first).toBe(frame);
    // (staying is shown by a wait as long on any machine)
    const until = Date.now() + (leaves ? scaled(15_000) : 3_000);
    while (Date.now() < until && alive(pid)) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(alive(pid)).toBe(!leaves);
    if (!leaves) process.kill(pid);
  });

  // the near miss: a checker with nothing changed is still there after the same wait
  it('and stays while nothing changes', { skip: !linux }, async () => {
    const there = guardHome();
    await startChecker(there.guardHome, there.env);
    const pid = checkerPid(checkerSocket(there.guardHome).socket);
    await new Promise((resolve) => setTimeout(resolve, 4_500));
    expect(alive(pid)).toBe(true);
    process.kill(pid);
  });
});
