import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { adapters, tomlSetting } from '@guard/adapters';
import { parse } from 'smol-toml';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { StatusJson } from '../../src/agents/inspect.js';
import type { SystemWorld } from '../../src/agents/system.js';
import { agentShellRunner, diagnose } from '../../src/commands/doctor.js';
import { status } from '../../src/commands/status.js';
import { setup } from '../../src/commands/setup.js';
import { uninstall, uninstallAllSystem } from '../../src/commands/uninstall.js';
import { GuardError } from '../../src/errors.js';
import { captureIo } from '../capture-io.js';
import { makeAgentHome, readIfThere, snapshotOf } from './agent-home.js';
import type { AgentHome } from './agent-home.js';

// `guard setup codex --system` writes two files: guard's hook in /etc/codex/hooks.json and
// `[features] hooks = true` in /etc/codex/requirements.toml (the codex declaration's `system.also`),
// without which a user's config.toml, `-c` or `--disable` switches the system layer's hooks off
// (test/e2e/codex-system.test.ts). Every byte of an administrator's requirements.toml is kept and
// given back; one that switches hooks off is refused, with nothing written.

// a write of one of these files fails (the second of setup's two writes, to see the first given back);
// of `failingLater`'s, every write after the first (the giving back)
const { failing, failingLater } = vi.hoisted(() => ({ failing: new Set<string>(), failingLater: new Set<string>() }));
vi.mock('../../src/fsx.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/fsx.js')>();
  const written = new Set<string>();
  return {
    ...real,
    writeFileAtomic: (path: string, text: string | Uint8Array, mode?: number) => {
      const later = failingLater.has(path) && written.has(path);
      written.add(path);
      if (failing.has(path) || later) throw Object.assign(new Error(`EACCES: ${path}`), { code: 'EACCES' });
      real.writeFileAtomic(path, text, mode);
    },
  };
});

let box: AgentHome;
let root: string;
beforeEach(() => {
  box = makeAgentHome();
  root = mkdtempSync(join(tmpdir(), 'guard-system-'));
  // the machine's /etc is there already
  mkdirSync(join(root, 'etc'));
  failing.clear();
  failingLater.clear();
});
afterEach(() => {
  box.cleanup();
  rmSync(root, { recursive: true, force: true });
});

const world = (): SystemWorld => ({
  root,
  platform: 'linux',
  isAdmin: () => true,
  changeable: () => [],
  changeableAt: () => [],
});
const HOOKS = (): string => join(root, 'etc', 'codex', 'hooks.json');
const REQUIREMENTS = (): string => join(root, 'etc', 'codex', 'requirements.toml');
const PIN = { table: 'features', key: 'hooks', value: true } as const;

async function run(command: (io: ReturnType<typeof captureIo>['io']) => Promise<void>) {
  const captured = captureIo({ cwd: box.cwd, home: box.home });
  const io = { ...captured.io, env: box.env, tmp: () => box.root };
  let error: GuardError | undefined;
  try {
    await command(io);
  } catch (thrown) {
    if (!(thrown instanceof GuardError)) throw thrown;
    error = thrown;
  }
  return { stdout: captured.stdout(), error };
}
const setUp = (dryRun = false) => run((io) => setup('codex', { project: false, dryRun, system: world() }, io));
const takeOut = () => run((io) => uninstall('codex', { project: false, system: world() }, io));

/** Every file and folder under the scratch root, with its bytes (a folder as '/'). */
const snapshot = (): Record<string, string> => snapshotOf(root);

function write(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

describe('setup codex --system writes requirements.toml beside the hook, and uninstall gives both back byte for byte', () => {
  it.each([
    { name: 'no file', original: undefined },
    { name: 'an empty file', original: '' },
    {
      name: 'comments and other tables',
      original:
        '# managed by IT: do not edit\n[otel]\nenvironment = "prod" # keep\n\n[mcp_servers.audit]\ncommand = "/opt/audit"\n',
    },
    { name: '[features] with other keys', original: '[features]\nweb_search = false # off here\n\n[otel]\nx = 1\n' },
    { name: '[features] with a comment on its header', original: '[ features ] # ours\nweb_search = true\n' },
    { name: 'CRLF lines, no [features]', original: '# IT\r\n[otel]\r\nenvironment = "prod"\r\n' },
    { name: 'CRLF lines with [features]', original: '# IT\r\n[features]\r\nweb_search = true\r\n' },
    { name: 'no newline at the end', original: '[otel]\nx = 1' },
    { name: 'a subtable of features only', original: '[features.extra]\nx = 1\n' },
  ])('$name', async ({ original }) => {
    if (original !== undefined) write(REQUIREMENTS(), original);
    const before = snapshot();
    const done = await setUp();
    expect(done.error).toBeUndefined();
    expect(done.stdout).toContain(`Created ${HOOKS()} with guard's hook`);
    expect(done.stdout).toContain(
      `${original === undefined ? 'Created' : 'Updated'} ${REQUIREMENTS()}: it keeps Codex's hooks feature on for every user`,
    );
    const after = readIfThere(REQUIREMENTS()) as string;
    expect(tomlSetting(after, PIN)).toBe(true);
    // every other key as it was
    const { features, ...others } = parse(after) as Record<string, Record<string, unknown>>;
    const was = parse(original ?? '') as Record<string, Record<string, unknown>>;
    expect(others).toEqual(Object.fromEntries(Object.entries(was).filter(([key]) => key !== 'features')));
    expect(features).toEqual({ ...was.features, hooks: true });
    // the line ends are the file's own
    if (original?.includes('\r\n') === true) expect(after.replace(/\r\n/g, '')).not.toContain('\n');
    expect(
      (readIfThere(join(root, 'etc', 'guard', 'installs.json')) ?? '').includes(JSON.stringify(REQUIREMENTS())),
    ).toBe(true);

    const again = await setUp();
    expect(again.stdout).toContain('Already set up');
    expect(readIfThere(REQUIREMENTS())).toBe(after);

    const removed = await takeOut();
    expect(removed.error).toBeUndefined();
    expect(snapshot()).toEqual(before);
  });

  it('a file that already pins the hooks on is left alone by setup and by uninstall', async () => {
    const own = '# IT\n[features]\nhooks = true\n';
    write(REQUIREMENTS(), own);
    const done = await setUp();
    expect(done.error).toBeUndefined();
    expect(done.stdout).not.toContain(REQUIREMENTS());
    expect(readIfThere(REQUIREMENTS())).toBe(own);
    await takeOut();
    expect(readIfThere(REQUIREMENTS())).toBe(own);
    expect(readdirSync(join(root, 'etc', 'codex'))).toEqual(['requirements.toml']);
  });

  it.each([
    {
      name: 'hooks = false',
      original: '# IT\n[features]\nhooks = false # not here\n',
      says: /\[features\] hooks is false here/,
    },
    { name: 'hooks as a string', original: '[features]\nhooks = "on"\n', says: /must be true or false/ },
    {
      name: 'an inline features table',
      original: 'features = { web_search = true }\n',
      says: /add hooks = true to it yourself/,
    },
    { name: 'a file that is not TOML', original: '[features\nhooks = true\n', says: /not valid TOML/ },
  ])('$name: refused, naming the file and what to do; nothing written', async ({ original, says }) => {
    write(REQUIREMENTS(), original);
    const before = snapshot();
    const done = await setUp();
    expect(done.error?.message).toMatch(says);
    expect(done.error?.message).toContain(REQUIREMENTS());
    expect(done.error?.message).toContain('guard wrote nothing');
    expect(snapshot()).toEqual(before);
  });

  it("changed by the administrator after setup: uninstall takes out guard's line and keeps the change", async () => {
    write(REQUIREMENTS(), '[features]\nweb_search = true\n');
    await setUp();
    writeFileSync(REQUIREMENTS(), `${readIfThere(REQUIREMENTS()) as string}\n[otel]\nx = 2\n`);
    const removed = await takeOut();
    expect(removed.stdout).toContain(`Removed guard's hooks = true from ${REQUIREMENTS()}`);
    expect(readIfThere(REQUIREMENTS())).toBe('[features]\nweb_search = true\n\n[otel]\nx = 2\n');
  });

  it.each([
    { name: 'uninstall codex --system', takeOut },
    { name: 'uninstall --all --system', takeOut: () => run((io) => uninstallAllSystem(world(), io)) },
  ])('the hook file taken out by hand: $name still gives requirements.toml back', async ({ takeOut: remove }) => {
    await setUp();
    rmSync(HOOKS());
    const removed = await remove();
    expect(removed.error).toBeUndefined();
    expect(removed.stdout).toContain(`Removed ${REQUIREMENTS()} (guard had created it).`);
    expect(readdirSync(join(root, 'etc'))).toEqual([]);
  });

  it('--dry-run names both files and shows both changes, writing nothing', async () => {
    write(REQUIREMENTS(), '# IT\n[otel]\nx = 1\n');
    const before = snapshot();
    const dry = await setUp(true);
    expect(dry.error).toBeUndefined();
    expect(dry.stdout).toContain(`Would create ${HOOKS()} (dry run: nothing written):`);
    expect(dry.stdout).toContain(
      `Would update ${REQUIREMENTS()} (dry run: nothing written): it keeps Codex's hooks feature on for every user`,
    );
    expect(dry.stdout).toContain('+[features]\n+hooks = true\n');
    expect(dry.stdout).toContain('"PreToolUse"');
    expect(snapshot()).toEqual(before);
    // set up already: the dry run shows only what is left to write
    await setUp();
    const none = await setUp(true);
    expect(none.stdout).toContain(`Already set up: ${HOOKS()}`);
    expect(none.stdout).not.toContain('Would');
  });

  it.each([
    { name: 'the hook file fails: requirements.toml is given back', fails: HOOKS },
    { name: 'requirements.toml fails: the hook file is not written', fails: REQUIREMENTS },
  ])('$name, and setup says guard wrote nothing', async ({ fails }) => {
    write(REQUIREMENTS(), '# IT\n[otel]\nx = 1\n');
    const before = snapshot();
    failing.add(fails());
    const done = await setUp();
    expect(done.error?.message).toContain(`Cannot write ${fails()} (EACCES)`);
    expect(done.error?.message).toContain('guard wrote nothing');
    expect(snapshot()).toEqual(before);
  });

  // a giving back that fails too is said as it is: not "nothing written", and how to put it back
  it('the hook file fails and requirements.toml cannot be given back: setup says so, and its backup stays', async () => {
    const mine = '# IT\n[otel]\nx = 1\n';
    write(REQUIREMENTS(), mine);
    failing.add(HOOKS());
    failingLater.add(REQUIREMENTS());
    const done = await setUp();
    expect(done.error?.message).toContain(`Cannot write ${HOOKS()} (EACCES)`);
    expect(done.error?.message).toContain(`guard could not give back what it had written to ${REQUIREMENTS()}`);
    expect(done.error?.message).not.toContain('guard wrote nothing');
    expect(done.error?.message).not.toContain('It gave back');
    expect(done.error?.hint).toContain(`copy ${REQUIREMENTS()}.guard-backup over it`);
    expect(readIfThere(`${REQUIREMENTS()}.guard-backup`)).toBe(mine);
    expect(readIfThere(REQUIREMENTS())).not.toBe(mine);
  });

  // near miss: a user's own setup writes no requirements
  it('setup codex for the user writes no requirements.toml', async () => {
    await run((io) => setup('codex', { project: false, dryRun: false }, io));
    expect(readdirSync(join(root, 'etc'))).toEqual([]);
    expect(adapters.codex.files.system?.also?.map((one) => one.linux)).toEqual(['/etc/codex/requirements.toml']);
  });
});

// status and doctor: the user's (or a project's) switch that turns Codex's hooks feature off, and
// whether the requirements setup --system wrote overrule it
describe("status and doctor say when Codex's hooks feature is off", () => {
  const OFF = '[features]\nhooks = false\n';
  const userConfig = (): string => join(box.home, '.codex', 'config.toml');
  const projectConfig = (): string => join(box.project, '.codex', 'config.toml');
  const codexOf = async () => {
    const json = JSON.parse((await run((io) => status({ json: true, system: world() }, io))).stdout) as StatusJson;
    const text = (await run((io) => status({ json: false, system: world() }, io))).stdout;
    return { off: json.agents.find((entry) => entry.agent === 'codex')?.hooksOff ?? [], text };
  };
  const doctorSays = async () => {
    const captured = captureIo({ cwd: box.cwd, home: box.home });
    const io = { ...captured.io, env: box.env, tmp: () => box.root };
    const report = await diagnose(io, agentShellRunner(io), () => {}, world());
    const entry = report.agents.find((found) => found.agent === 'codex' && found.level === 'system');
    return entry?.checks.find((check) => check.name === 'Codex runs hooks');
  };

  it.each([
    {
      name: "the user's switch, pinned on by setup",
      files: [userConfig],
      unpin: false,
      scope: 'overruled',
      line: `tried to switch guard off, cannot: ${join('HOME', '.codex', 'config.toml')} sets [features] hooks = false, but`,
      doctor: true,
    },
    {
      name: "the user's switch, requirements.toml gone",
      files: [userConfig],
      unpin: true,
      scope: 'everywhere',
      line: `NOT RUNNING: ${join('HOME', '.codex', 'config.toml')} sets [features] hooks = false, so Codex runs no hooks at all`,
      doctor: false,
    },
    {
      name: "a project's switch, requirements.toml gone",
      files: [projectConfig],
      unpin: true,
      scope: 'here',
      line: `not running in this folder: ${join('PROJECT', '.codex', 'config.toml')} sets [features] hooks = false`,
      doctor: true,
    },
    // near miss: nothing switched off
    {
      name: 'no switch, requirements.toml gone',
      files: [],
      unpin: true,
      scope: undefined,
      line: undefined,
      doctor: true,
    },
  ])('$name', { timeout: 60_000 }, async ({ files, unpin, scope, line, doctor }) => {
    for (const file of files) write(file(), OFF);
    await setUp();
    if (unpin) rmSync(REQUIREMENTS());
    const { off, text } = await codexOf();
    expect(off.map((one) => one.scope)).toEqual(scope === undefined ? [] : [scope]);
    if (line !== undefined) expect(text).toContain(line.replace('HOME', box.home).replace('PROJECT', box.project));
    const check = await doctorSays();
    expect(check?.ok).toBe(doctor);
    if (!doctor) expect(check?.detail).toContain('sets [features] hooks = false');
  });
});
