import { execFile, execFileSync } from 'node:child_process';
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, it } from 'vitest';
import type { AgentId } from '../../packages/adapters/src/index.js';
import { AGENTS as REGISTRY } from '../../packages/adapters/src/agents.js';
import { findOnPath } from '../../packages/cli/src/agents/codex-app-server.js';
import { changesDir, chatFile, loadChat, recordChange } from '../../packages/cli/src/state/chats.js';
import { BIN, requireBuild } from '../hook/bin.js';
import { startChecker } from '../hook/resident.js';
import { FULL, scaled } from '../machine.js';
import type { Ran, Scratch, Verdict } from './harness.js';
import {
  AGENTS,
  guardOk,
  withGuardHome,
  limiter,
  pool,
  runShell,
  scratch,
  setUpAll,
  shellPayload,
  STRICTNESS,
  verdictOf,
  exitOf,
} from './harness.js';

/**
 * Faults against guard's own hook, as the agents run it (the commands setup wrote, through `sh -c`):
 * settings, chat memory, guard's folder, locks, stdin and the project policy go wrong in every way
 * this file knows, under fail-open and fail-closed, and each answer is compared with the answer the
 * same step gets when nothing is wrong. A fault may make guard stricter; it must never make it
 * looser, never leave the agent without an answer, and never answer in a form the agent misreads.
 */

// an ask and a block: what a failure could loosen (a step that goes ahead cannot get looser)
const ASKED = 'git push origin main';
const BLOCKED = 'git push --force origin main';
const COMMANDS = [ASKED, BLOCKED] as const;

type Mode = 'fail-open' | 'fail-closed';
const MODES: readonly Mode[] = ['fail-open', 'fail-closed'];

/** What a fault changes for one run. */
interface Arranged {
  /** GUARD_HOME for the run (default: the case's own folder). */
  readonly guardHome?: string;
  /** Shell words before the hook command. */
  readonly before?: string;
  /** Stdin text instead of the whole payload; `keepOpen` leaves stdin open after it. */
  readonly stdin?: (payload: string) => string;
  readonly keepOpen?: boolean;
  /** The payload cannot be read: fail-open asks at least (SPEC §7), fail-closed must block. */
  readonly unreadable?: boolean;
  /** Breaks a copy of guard's built code (the hook's folder), which the run then uses. */
  readonly code?: (dist: string) => void;
  /** A resident checker of that copy runs before the call, so the call goes to it (hook-server.cjs). */
  readonly resident?: boolean;
}

interface Fault {
  readonly name: string;
  /** Skipped where the mechanism does not exist on this machine (with why). */
  readonly skip?: string | false;
  /**
   * Breaks a fresh copy of guard's folder (and the project) for one chat of one agent. (What starts
   * a process awaits it: the cases run side by side, and a wait that held up this process would
   * count against the runs of the others.)
   */
  arrange(place: Place): Arranged | void | Promise<Arranged | void>;
  /** After an asked step's run: what is wrong with guard's folder, if anything. */
  readonly after?: (place: Place) => string | undefined;
  /** Its hook waits out the agent's deadline, idle (7 to 84 s): its runs hold no lane. */
  readonly waits?: true;
}

interface Place {
  readonly guardHome: string;
  readonly project: string;
  readonly agent: AgentId;
  readonly chat: string;
}

const isRoot = process.getuid?.() === 0;
const hasDevZero = existsSync('/dev/zero');

const run = promisify(execFile);

/** A named pipe nobody writes to: a read of it waits forever. */
async function fifo(path: string): Promise<void> {
  mkdirSync(join(path, '..'), { recursive: true });
  rmSync(path, { force: true });
  await run('mkfifo', [path]);
}

const hasMkfifo = (() => {
  try {
    execFileSync('sh', ['-c', 'command -v mkfifo'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

/** A PID that no process has now: a child that ran and was reaped. */
async function deadPid(): Promise<number> {
  // execFile calls back once the child has exited and been reaped
  const { stdout } = await run(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {
    encoding: 'utf8',
  });
  return Number(stdout);
}

const settingsFile = (place: Place): string => join(place.guardHome, 'settings.yaml');
/** The copy of the last good settings guard keeps beside settings.yaml. */
const lastGood = (place: Place): string => join(place.guardHome, 'settings.last-good.json');
/** A settings fault on a machine where no good copy was ever kept. */
const withoutCopy = (fault: (place: Place) => void) => (place: Place) => {
  rmSync(lastGood(place), { force: true });
  fault(place);
};
const appendTo = (path: string, text: string | Buffer): void =>
  writeFileSync(path, Buffer.concat([readFileSync(path), Buffer.from(text)]));
const chatOf = (place: Place): string => chatFile(place.guardHome, place.agent, place.chat);
const changesOf = (place: Place): string => changesDir(place.guardHome, place.agent, place.chat);
/** A change file of the chat, beside one guard recorded (so the folder is guard's own). */
const changeFile = (place: Place): string => {
  recordChange(place.guardHome, place.agent, place.chat, Date.now() - 1_000, { keySeen: true });
  return join(changesOf(place), `${(Date.now() - 500).toString(16).padStart(12, '0')}-1-0-0.json`);
};

const CODE_AND_DATA_FAULTS: readonly Fault[] = [
  // settings.yaml
  { name: 'a bad value appended to settings.yaml', arrange: (p) => appendTo(settingsFile(p), 'failClosed: maybe\n') },
  { name: 'a stray indented line in settings.yaml', arrange: (p) => appendTo(settingsFile(p), '   - stray\n') },
  { name: 'a line with two colons in settings.yaml', arrange: (p) => appendTo(settingsFile(p), 'this: is: wrong\n') },
  {
    name: 'bytes that are not UTF-8 in settings.yaml',
    arrange: (p) => appendTo(settingsFile(p), Buffer.from([0xff, 0xfe, 0x0a])),
  },
  { name: 'settings.yaml cut off mid-line', arrange: (p) => writeFileSync(settingsFile(p), 'enabled: true\nfailCl') },
  {
    name: 'settings.yaml of the wrong shape',
    arrange: (p) => writeFileSync(settingsFile(p), '- enabled\n- failClosed\n'),
  },
  {
    name: 'failClosed with no value in settings.yaml',
    arrange: (p) => writeFileSync(settingsFile(p), 'failClosed:\n'),
  },
  {
    name: 'failClosed: ~ in settings.yaml',
    arrange: (p) => writeFileSync(settingsFile(p), 'enabled: true\nfailClosed: ~\n'),
  },
  { name: 'settings.yaml deleted', arrange: (p) => rmSync(settingsFile(p)) },
  {
    name: 'a bad value appended to settings.yaml, no good copy kept',
    arrange: withoutCopy((p) => appendTo(settingsFile(p), 'failClosed: maybe\n')),
  },
  {
    name: 'settings.yaml cut off mid-line, no good copy kept',
    arrange: withoutCopy((p) => writeFileSync(settingsFile(p), 'enabled: true\nfailCl')),
  },
  {
    name: 'the good copy of the settings is torn',
    arrange: (p) => (writeFileSync(lastGood(p), '{"enab'), appendTo(settingsFile(p), '\tfailClosed: x\n')),
  },
  { name: 'settings.yaml is a folder', arrange: (p) => (rmSync(settingsFile(p)), mkdirSync(settingsFile(p))) },
  {
    name: 'settings.yaml is a named pipe',
    skip: !hasMkfifo && 'no mkfifo',
    arrange: (p) => (rmSync(settingsFile(p)), fifo(settingsFile(p))),
  },
  {
    name: 'settings.yaml is a device that never ends',
    skip: !hasDevZero && 'no /dev/zero',
    arrange: (p) => (rmSync(settingsFile(p)), symlinkSync('/dev/zero', settingsFile(p))),
  },
  // the chat's memory
  { name: 'a torn chat file', arrange: (p) => writeText(chatOf(p), '{"v":1,"approved":["git.pu') },
  { name: 'a chat file of the wrong shape', arrange: (p) => writeText(chatOf(p), '{"v":1}\n') },
  { name: 'the chat file is a folder', arrange: (p) => mkdirSync(chatOf(p), { recursive: true }) },
  { name: 'the chat file is a named pipe', skip: !hasMkfifo && 'no mkfifo', arrange: (p) => fifo(chatOf(p)) },
  {
    name: 'the chat file is a device that never ends',
    skip: !hasDevZero && 'no /dev/zero',
    arrange: (p) => (mkdirSync(join(chatOf(p), '..'), { recursive: true }), symlinkSync('/dev/zero', chatOf(p))),
  },
  { name: "guard's chats folder is a file", arrange: (p) => writeText(join(p.guardHome, 'chats'), 'x') },
  // the chat's change files (recorded by each hook call, folded into the chat file later)
  { name: 'a torn change file', arrange: (p) => writeText(changeFile(p), '{"v":1,"time":1,"change":{"untr') },
  { name: 'a change file of the wrong shape', arrange: (p) => writeText(changeFile(p), '{"v":1,"change":[]}\n') },
  {
    name: 'a change file with a field guard does not know',
    arrange: (p) => writeText(changeFile(p), '{"v":1,"time":1,"change":{"bar":"down"}}\n'),
  },
  { name: 'a change file is a folder', arrange: (p) => mkdirSync(changeFile(p), { recursive: true }) },
  { name: 'a change file is a named pipe', skip: !hasMkfifo && 'no mkfifo', arrange: (p) => fifo(changeFile(p)) },
  {
    name: 'a change file is a device that never ends',
    skip: !hasDevZero && 'no /dev/zero',
    arrange: (p) => symlinkSync('/dev/zero', changeFile(p)),
  },
  {
    name: 'a change file nobody may read (chmod; root reads anyway)',
    skip: isRoot && 'running as root',
    arrange: (p) => {
      const path = changeFile(p);
      writeText(path, '{"v":1,"time":1,"change":{}}\n');
      chmodSync(path, 0);
    },
  },
  { name: "the chat's changes folder is a file", arrange: (p) => writeText(changesOf(p), 'x') },
  {
    name: "the chat's changes folder is read-only (chmod; root writes anyway)",
    skip: isRoot && 'running as root',
    arrange: (p) => (changeFile(p), chmodSync(changesOf(p), 0o500)),
  },
  // guard's folder
  {
    name: "guard's folder lies under a file (nothing there can be read or written)",
    arrange: (p) => {
      writeText(join(p.guardHome, '..', 'blocker'), '');
      return { guardHome: join(p.guardHome, '..', 'blocker', 'guard') };
    },
  },
  { name: 'a full disk (every write to a file fails: ulimit -f 0)', arrange: () => ({ before: 'ulimit -f 0' }) },
  {
    name: 'the log is a folder',
    arrange: (p) => (
      rmSync(join(p.guardHome, 'log.jsonl'), { force: true }),
      mkdirSync(join(p.guardHome, 'log.jsonl'))
    ),
  },
  {
    name: 'the log is a named pipe',
    skip: !hasMkfifo && 'no mkfifo',
    arrange: (p) => fifo(join(p.guardHome, 'log.jsonl')),
  },
  {
    name: "guard's folder is read-only (chmod; root writes anyway)",
    skip: isRoot && 'running as root',
    arrange: async (p) => void (await run('chmod', ['-R', 'a-w', p.guardHome])),
  },
  // locks
  {
    name: 'a lock left by a killed hook',
    arrange: async (p) => writeText(`${chatOf(p)}.lock`, String(await deadPid())),
    after: remembered,
  },
  {
    // by its age alone such a lock stays fresh until after a waiter gives up: only knowing that its
    // holder is gone lets the chat be saved
    name: 'a lock left by a killed hook, dated two seconds ahead',
    arrange: async (p) => {
      writeText(`${chatOf(p)}.lock`, String(await deadPid()));
      const later = new Date(Date.now() + 2_000);
      utimesSync(`${chatOf(p)}.lock`, later, later);
    },
    after: remembered,
  },
  {
    name: 'a lock left by a killed hook, dated in the future',
    arrange: async (p) => {
      writeText(`${chatOf(p)}.lock`, String(await deadPid()));
      const later = new Date(Date.now() + 3_600_000);
      utimesSync(`${chatOf(p)}.lock`, later, later);
    },
    after: remembered,
  },
  {
    name: 'a lock whose PID now belongs to another process',
    // this process is alive, but did not start at tick 1 after boot
    arrange: (p) => writeText(`${chatOf(p)}.lock`, `${String(process.pid)} 1`),
    after: remembered,
  },
  // stdin
  {
    name: 'half a payload, stdin left open',
    waits: true,
    arrange: () => ({
      stdin: (payload) => payload.slice(0, Math.floor(payload.length / 2)),
      keepOpen: true,
      unreadable: true,
    }),
  },
  {
    name: 'half a payload, then stdin closed',
    arrange: () => ({ stdin: (payload) => payload.slice(0, Math.floor(payload.length / 2)), unreadable: true }),
  },
  { name: 'the whole payload, stdin left open', arrange: () => ({ keepOpen: true }) },
  // the project's policy
  {
    name: '.guard.yaml that is not YAML',
    arrange: (p) => writeText(join(p.project, '.guard.yaml'), 'block: [git.push\n'),
  },
  { name: '.guard.yaml is a folder', arrange: (p) => mkdirSync(join(p.project, '.guard.yaml')) },
  {
    name: '.guard.yaml is a named pipe',
    skip: !hasMkfifo && 'no mkfifo',
    arrange: (p) => fifo(join(p.project, '.guard.yaml')),
  },
  // guard's own code: a lazy chunk of the hook bundle (the project policy's reader, loaded for a
  // project with a .guard.yaml; the chat-start scan, loaded on a chat's first step by agents with
  // no start event) gone, broken, or with a cache V8 cannot use
  {
    name: "the project policy's lazy chunk is missing",
    arrange: (p) => ({ ...withPolicy(p), code: (dist) => rmSync(lazyChunk(dist, 'policy')) }),
  },
  {
    name: "the project policy's lazy chunk is not JavaScript",
    arrange: (p) => ({ ...withPolicy(p), code: (dist) => writeFileSync(lazyChunk(dist, 'policy'), '{ not: js') }),
  },
  {
    name: "the project policy's lazy chunk throws when loaded",
    arrange: (p) => ({
      ...withPolicy(p),
      code: (dist) => writeFileSync(lazyChunk(dist, 'policy'), 'throw new Error("broken");\n'),
    }),
  },
  {
    name: "the project policy's lazy chunk has a torn code cache",
    arrange: (p) => ({
      ...withPolicy(p),
      code: (dist) => writeFileSync(lazyChunk(dist, 'policy').replace(/\.cjs$/, '.cache'), 'torn'),
    }),
  },
  {
    name: "the chat-start scan's lazy chunk is missing",
    arrange: () => ({ code: (dist) => rmSync(lazyChunk(dist, 'start-scan')) }),
  },
  {
    name: "the chat-start scan's lazy chunk is not JavaScript",
    arrange: () => ({ code: (dist) => writeFileSync(lazyChunk(dist, 'start-scan'), ')(') }),
  },
];
// the same faults of guard's own code, with the call answered by a resident checker of that code
const FAULTS: readonly Fault[] = [
  ...CODE_AND_DATA_FAULTS,
  ...CODE_AND_DATA_FAULTS.filter((fault) => fault.name.includes('lazy chunk')).map((fault): Fault => ({
    name: `${fault.name}, through a resident checker`,
    arrange: async (place) => ({ ...((await fault.arrange(place)) ?? {}), resident: true }),
  })),
];

/** The hook's built code, as the commands setup wrote run it. */
const DIST = dirname(BIN);

/** A project policy that changes nothing for the steps tried here, so its reader is loaded. */
function withPolicy(place: Place): Arranged {
  writeText(join(place.project, '.guard.yaml'), 'secrets:\n  - private/**\n');
  return {};
}

/** The file of a lazy chunk of the hook bundle in `dist` (its name carries a hash of its text). */
function lazyChunk(dist: string, name: string): string {
  const file = readdirSync(dist).find((entry) => entry.startsWith(`hook-lazy-${name}-`) && entry.endsWith('.cjs'));
  if (file === undefined) throw new Error(`the build has no lazy chunk named ${name}`);
  return join(dist, file);
}

/**
 * A copy of the hook's files, next to a link to the CLI's node_modules (the policy reader loads its
 * YAML parser from there), for a fault in guard's own code.
 */
function codeCopy(home: string): string {
  const dist = join(home, 'code', 'dist');
  mkdirSync(dist, { recursive: true });
  for (const entry of readdirSync(DIST))
    if (/^hook[-.].*\.(?:cjs|cache|id)$/.test(entry)) cpSync(join(DIST, entry), join(dist, entry));
  symlinkSync(join(DIST, '..', 'node_modules'), join(home, 'code', 'node_modules'));
  return dist;
}

/**
 * The asked step was remembered although a lock was left behind: recording a change takes no lock
 * (one left by a process that is gone is broken by the next compaction, `chats.test.ts`).
 */
function remembered(place: Place): string | undefined {
  const chat = loadChat(place.guardHome, place.agent, place.chat, Date.now(), 86_400_000);
  if (chat.pending.length === 0 && Object.keys(chat.away).length === 0 && chat.allowOnce.length === 0)
    return "the chat's memory does not hold the asked step";
  return undefined;
}

function writeText(path: string, text: string): void {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
}

let world: Scratch;
let commands: Record<AgentId, string>;
/** guard's folder as `guard fail-closed on|off` leaves it, per mode. */
const templates = {} as Record<Mode, string>;
/** What each step gets when nothing is wrong: mode → agent → command → verdict. */
const baseline = new Map<string, Verdict>();
let counter = 0;

const key = (mode: Mode, agent: AgentId, command: string): string => `${mode}\u0000${agent}\u0000${command}`;

beforeAll(async () => {
  requireBuild();
  world = scratch('faults');
  commands = await setUpAll(world);
  for (const mode of MODES) {
    // on, then off: the fail-open folder has a settings.yaml too (a switch already set writes nothing)
    if (mode === 'fail-open') await guardOk(world, ['fail-closed', 'on']);
    await guardOk(world, ['fail-closed', mode === 'fail-closed' ? 'on' : 'off']);
    templates[mode] = mkdtempSync(join(world.root, `template-${mode}-`));
    cpSync(world.guardHome, templates[mode], { recursive: true });
  }
  const cases = MODES.flatMap((mode) =>
    AGENTS.flatMap((agent) => COMMANDS.map((command) => ({ mode, agent, command }))),
  );
  await pool(cases, LANES, async ({ mode, agent, command }) => {
    const ran = await runCase(mode, agent, command, undefined);
    baseline.set(key(mode, agent, command), verdictOf(agent, ran.ran));
  });
}, scaled(300_000));

afterAll(() => {
  if (world !== undefined) {
    // a read-only copy (non-root runs) must be made writable again to be removed
    if (!isRoot) execFileSync('chmod', ['-R', 'u+w', world.root]);
    world.cleanup();
  }
}, scaled(120_000));

/** One run: a fresh copy of guard's folder and project, the fault, the agent's hook command. */
async function runCase(
  mode: Mode,
  agent: AgentId,
  command: string,
  fault: Fault | undefined,
): Promise<{ ran: Ran; arranged: Arranged; place: Place }> {
  const n = counter++;
  const home = join(world.root, `case-${n}`);
  const guardHome = join(home, 'guard');
  const project = join(home, 'project');
  cpSync(templates[mode], guardHome, { recursive: true });
  lastCallLongAgo(guardHome);
  mkdirSync(project, { recursive: true });
  writeFileSync(join(project, 'package.json'), '{ "name": "demo" }\n');
  const chat = `chat-${n}`;
  const place = { guardHome, project, agent, chat };
  const arranged = (await fault?.arrange(place)) ?? {};
  const payload = JSON.stringify(shellPayload(agent, command, project, chat));
  let hook = withGuardHome(world, commands[agent], arranged.guardHome ?? guardHome);
  if (arranged.code !== undefined) {
    const dist = codeCopy(home);
    arranged.code(dist);
    if (!hook.includes(DIST)) throw new Error(`the hook command does not name ${DIST}: ${hook}`);
    hook = hook.split(DIST).join(dist);
    // (it leaves soon after its one call: hundreds of cases run here)
    if (arranged.resident === true)
      await startChecker(
        arranged.guardHome ?? guardHome,
        world.env({ GUARD_HOME: arranged.guardHome ?? guardHome, HOME: home, GUARD_SERVER_IDLE_MS: '1000' }),
        join(dist, 'hook-server.cjs'),
      );
  }
  const ran = await runShell(hook, {
    env: world.env({
      GUARD_HOME: arranged.guardHome ?? guardHome,
      HOME: home,
      // however busy the machine, the call waits for the checker to accept it
      ...(arranged.resident === true ? { GUARD_RESIDENT_ACCEPT_MS: String(scaled(8_000)) } : {}),
    }),
    cwd: project,
    stdin: arranged.stdin?.(payload) ?? payload,
    ...(arranged.keepOpen === true ? { keepOpen: true } : {}),
    ...(arranged.before === undefined ? {} : { before: arranged.before }),
    // the agent's own timeout: guard's deadline is that less a margin (a stdin left open waits for it)
    limitMs: REGISTRY[agent].files.hookTimeout * 1000,
  });
  return { ran, arranged, place };
}

/**
 * guard's folder as one whose last call was long ago (`guard fail-closed` logged the switch just
 * now, and a copy is dated now): a call to it then starts no resident checker for the next call,
 * which no case makes. (The faults with a checker start their own.)
 */
function lastCallLongAgo(guardHome: string): void {
  const log = join(guardHome, 'log.jsonl');
  const old = new Date(Date.now() - 3_600_000);
  if (existsSync(log)) utimesSync(log, old, old);
}

/** Hook runs at once (the machine is small and shared), over all the cases running side by side. */
const LANES = 4;
const lane = limiter(LANES);
/**
 * The runs that wait out a deadline, idle, have lanes of their own: in the four above they held
 * half of them for minutes (Cline's deadline is 84 s) while the runs that work waited.
 */
const idle = limiter(AGENTS.length);

/**
 * The agents a case runs on. By default half of them, the other half under the other mode, taking
 * turns down the table: every fault meets every agent (under one of the modes), and every agent
 * meets both modes. `GUARD_FULL=1`: every agent under both modes.
 */
function agentsOf(fault: number, mode: Mode): readonly AgentId[] {
  if (FULL) return AGENTS;
  const half = (fault + (mode === 'fail-open' ? 0 : 1)) % 2;
  return AGENTS.filter((_, i) => i % 2 === half);
}

/** What went wrong in one run, or undefined when nothing did. */
async function tryCase(fault: Fault, mode: Mode, agent: AgentId, command: string): Promise<string | undefined> {
  const { ran, arranged, place } = await runCase(mode, agent, command, fault);
  const got = verdictOf(agent, ran);
  const expected = baseline.get(key(mode, agent, command)) ?? 'none';
  const wrong = (what: string): string =>
    `${agent} ${JSON.stringify(command)}: ${what} (got ${got}, exit ${String(ran.code)}, after ${ran.ms} ms; without the fault ${expected}); stderr: ${ran.stderr.slice(0, 200)}`;
  // every agent gets an answer, exit 0 (Windsurf: 2 for a stop), in a form it reads
  if (ran.timedOut) return wrong('no answer in time');
  if (ran.code !== exitOf(agent, got)) return wrong('exit code the agent misreads');
  if (STRICTNESS[got] < 0) return wrong('an answer the agent cannot read');
  if (arranged.unreadable === true) {
    // a payload that cannot be read is asked under fail-open (the never list blocks what of it could be
    // read: half a payload may or may not hold the command) and blocked under fail-closed (SPEC §7)
    if (mode === 'fail-closed') return got !== 'block' ? wrong('not blocked under fail-closed') : undefined;
    return STRICTNESS[got] < STRICTNESS.ask ? wrong('let through, though guard could not read it') : undefined;
  }
  if (STRICTNESS[got] < STRICTNESS[expected]) return wrong('looser than without the fault');
  const after = command === ASKED ? fault.after?.(place) : undefined;
  return after === undefined ? undefined : wrong(after);
}

/** Every run tried, and those that went wrong (for the closing count). */
const tally = { tried: 0, wrong: 0 };

describe('faults never loosen an answer', () => {
  afterAll(() => {
    // the count the self-attack reports: how many fault cases ran, how many went wrong
    console.log(`fault cases: ${tally.tried} tried, ${tally.wrong} went wrong`);
  });
  // the faults whose runs wait first: they wait while the others run
  const cases = FAULTS.flatMap((fault, index) =>
    MODES.map((mode) => ({ fault, mode, agents: agentsOf(index, mode) })),
  ).sort((a, b) => Number(b.fault.waits === true) - Number(a.fault.waits === true));
  // named in full (it.for would cut the names short, and names alike would run as one); side by
  // side, their runs sharing the lanes
  for (const { fault, mode, agents } of cases)
    it.concurrent(`${fault.name} (${mode})`, { timeout: scaled(120_000) }, async ({ skip, expect }) => {
      if (fault.skip) skip(fault.skip);
      const runs = agents.flatMap((agent) => COMMANDS.map((command) => ({ agent, command })));
      const gate = fault.waits === true ? idle : lane;
      const wrong = (
        await Promise.all(runs.map(({ agent, command }) => gate(() => tryCase(fault, mode, agent, command))))
      ).filter((problem): problem is string => problem !== undefined);
      tally.tried += runs.length;
      tally.wrong += wrong.length;
      expect(wrong).toEqual([]);
    });
});

/**
 * The cases above arrange their faults in a folder of their own, which the hook must read: were it
 * another (the one setup found), every fault would go unseen and every case pass. Guard switched
 * off there lets a force push through; left on, the same run blocks it.
 */
describe('each case runs in its own guard folder', () => {
  const off: Fault = { name: 'guard off', arrange: (p) => writeFileSync(settingsFile(p), 'enabled: false\n') };
  it.concurrent.for(AGENTS)(
    '%s: guard off there lets the force push through, left on it does not',
    async (agent, { expect }) => {
      const verdicts = await Promise.all(
        [off, undefined].map(async (fault) =>
          verdictOf(agent, (await lane(() => runCase('fail-open', agent, BLOCKED, fault))).ran),
        ),
      );
      expect(verdicts).toEqual(['allow', 'block']);
    },
  );
});

/**
 * A git slower than the probe's budget (a wrapper that waits before running the real one), under
 * fail-closed: a commit that would take an untracked `.env` along must not go ahead because guard
 * could not look in time. (How guard words "could not check in time" under fail-open is issue 15's.)
 */
describe('a git slower than its budget, under fail-closed', () => {
  const COMMIT = 'git add -A && git commit -m wip';
  it.concurrent.for(AGENTS)(
    '%s: a commit over an untracked .env does not go ahead',
    { timeout: scaled(60_000) },
    async (agent, { expect }) => {
      const realGit = findOnPath('git', world.env());
      if (realGit === undefined) throw new Error('git is not on PATH');
      const n = counter++;
      const home = join(world.root, `slow-git-${n}`);
      const guardHome = join(home, 'guard');
      const project = join(home, 'project');
      const bin = join(home, 'slow-bin');
      cpSync(templates['fail-closed'], guardHome, { recursive: true });
      lastCallLongAgo(guardHome);
      mkdirSync(project, { recursive: true });
      mkdirSync(bin);
      await run(realGit, ['init', '-q', project]);
      writeFileSync(join(project, 'app.js'), 'console.log(1);\n');
      writeFileSync(join(project, '.env'), 'API_TOKEN=not-a-real-one\n');
      writeFileSync(join(bin, 'git'), `#!/bin/sh\nsleep 3\nexec '${realGit}' "$@"\n`, { mode: 0o755 });
      const env = world.env({ GUARD_HOME: guardHome, HOME: home });
      const payload = JSON.stringify(shellPayload(agent, COMMIT, project, `slow-${n}`));
      const ran = await runShell(withGuardHome(world, commands[agent], guardHome), {
        env: { ...env, PATH: `${bin}:${env['PATH'] ?? ''}` },
        cwd: project,
        stdin: payload,
        // well within the agent's own timeout on a quiet machine; on a busy one, up to that timeout
        limitMs: Math.min(scaled(9_000), REGISTRY[agent].files.hookTimeout * 1000),
      });
      const got = verdictOf(agent, ran);
      const detail = `${agent}: got ${got} after ${ran.ms} ms; stderr: ${ran.stderr.slice(0, 200)}`;
      expect(ran.timedOut, detail).toBe(false);
      expect(ran.code, detail).toBe(exitOf(agent, got));
      expect(STRICTNESS[got], detail).toBeGreaterThanOrEqual(STRICTNESS.ask);
    },
  );
});
