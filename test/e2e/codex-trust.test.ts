import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { adapters, readFallback } from '../../packages/adapters/src/index.js';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { scaled } from '../machine.js';
import { listGuardHooks, trustGuardHooks } from '../../packages/cli/src/agents/codex-app-server.js';
import { guardCodexHooks } from '../../packages/adapters/src/codex/trust.js';
import { captureIo } from '../../packages/cli/test/capture-io.js';
import { CODEX, CODEX_CONFIG, codexExec, writeCodexConfig } from './harness/agents.js';
import { fakeResponsesModel } from './harness/fake-model.js';
import type { FakeModel } from './harness/fake-model.js';
import { closeAll, pathWithAgents, requireInstalled, setupGuard } from './harness/scenario.js';
import { git, guard, guardOk, makeWorld, readLog, remote } from './harness/world.js';
import type { World } from './harness/world.js';

// Codex runs only hooks the person trusted, and skips the others without a word. `guard setup
// codex` trusts guard's hooks through `codex app-server` when it finds `codex` on PATH; these tests
// check that against the real binary: what Codex itself reports, what it then runs, and that the
// person's config.toml keeps every byte it had.

let world: World;
let hooksFile: string;
let configFile: string;
const models: FakeModel[] = [];

beforeAll(() => requireInstalled('codex'));

beforeEach(() => {
  world = makeWorld();
  configFile = writeCodexConfig(world);
  hooksFile = join(world.codexHome, 'hooks.json');
});

afterEach(async () => {
  await closeAll(models);
  world.cleanup();
});

/** An Io for calling the CLI's modules directly in this world, with Codex on PATH. */
function worldIo() {
  const { io } = captureIo({ cwd: world.project, home: world.home });
  return { ...io, env: world.env({ PATH: pathWithAgents(world) }) };
}

/** guard's commands as the hooks file holds them now. */
function guardCommands(): readonly string[] {
  return adapters.codex.installedCommands(readFileSync(hooksFile, 'utf8'));
}

/** What Codex itself says about guard's hooks: key → trust status. */
async function codexSays(): Promise<Record<string, string>> {
  const hooks = await listGuardHooks(CODEX, hooksFile, guardCommands(), worldIo());
  return Object.fromEntries(hooks.map((hook) => [hook.key, hook.trustStatus]));
}

/** What `guard status --json` says about the user-level Codex file. */
async function statusTrust(): Promise<{ state: string; upToDate: boolean }> {
  const status = JSON.parse(await guardOk(world, ['status', '--json'])) as {
    agents: { agent: string; levels: { level: string; upToDate?: boolean; codexTrust?: { state: string } }[] }[];
  };
  const user = status.agents.find((agent) => agent.agent === 'codex')?.levels.find((level) => level.level === 'user');
  return { state: user?.codexTrust?.state ?? 'none', upToDate: user?.upToDate ?? false };
}

/** doctor's two trust checks (run with codex on PATH): name → passed. */
async function doctorTrust(): Promise<Record<string, boolean>> {
  // doctor's exit code also reflects its timing check, which depends on the machine's load
  const result = await guard(world, ['doctor', '--json'], { PATH: pathWithAgents(world) });
  const report = JSON.parse(result.stdout) as { agents: { checks: { name: string; ok: boolean }[] }[] };
  const checks = report.agents.flatMap((agent) => agent.checks).filter((check) => check.name.startsWith('Codex'));
  return Object.fromEntries(checks.map((check) => [check.name, check.ok]));
}

/** Tries a force push through the real `codex exec`; true when the remote moved. */
async function forcePushGoesThrough(): Promise<boolean> {
  const origin = remote(world, 'diverged');
  const before = origin.head('main');
  const fake = await fakeResponsesModel({ script: [{ shell: 'git push --force origin main' }] });
  models.push(fake);
  const result = await codexExec(world, fake, 'push it');
  expect(result.code, result.stderr).toBe(0);
  const moved = origin.head('main') !== before;
  expect(moved).toBe(origin.head('main') === git(world, world.project, ['rev-parse', 'HEAD']).trim());
  return moved;
}

const ALL_TRUSTED = (status: string): Record<string, string> =>
  Object.fromEntries(
    ['pre_tool_use', 'post_tool_use', 'session_start', 'user_prompt_submit'].map((event) => [
      `${hooksFile}:${event}:0:0`,
      status,
    ]),
  );

describe('Codex hook trust', { timeout: scaled(120_000) }, () => {
  it('setup with codex on PATH trusts every guard hook through app-server, keeping the config bytes, and Codex then runs them', async () => {
    const out = await setupGuard(world, 'codex', true);
    expect(out).toContain(`now trusts guard's 4 hooks`);
    expect(out).toMatch(/\nNext: Codex already trusts this hook; start a new Codex session\.\n$/);
    expect(await codexSays()).toEqual(ALL_TRUSTED('trusted'));
    const config = readFileSync(configFile, 'utf8');
    expect(config.startsWith(CODEX_CONFIG)).toBe(true);
    expect(config.slice(CODEX_CONFIG.length)).toMatch(/^\n?\[hooks\.state\]\n/);
    expect(await statusTrust()).toEqual({ state: 'trusted', upToDate: true });
    expect(await doctorTrust()).toEqual({
      'Codex trusts the hook': true,
      'Codex itself runs the hook': true,
      'Codex runs hooks': true,
    });
    expect(await forcePushGoesThrough()).toBe(false);
    // uninstall takes the trust out with the hooks: config.toml is byte for byte what it was
    await guardOk(world, ['uninstall', 'codex']);
    expect(readFileSync(configFile, 'utf8')).toBe(CODEX_CONFIG);
  });

  it('setup without codex on PATH says to use /hooks; untrusted, Codex silently skips guard; setup again with codex trusts it', async () => {
    const out = await setupGuard(world, 'codex', false);
    expect(out).toMatch(
      /\nNext: open Codex in a terminal, type \/hooks, and trust the guard hook; until then Codex skips it without a word\.\n$/,
    );
    expect(readFileSync(configFile, 'utf8')).toBe(CODEX_CONFIG);
    expect(await statusTrust()).toEqual({ state: 'untrusted', upToDate: true });
    expect(await codexSays()).toEqual(ALL_TRUSTED('untrusted'));
    // the hooks feature is on: what keeps guard from running here is the trust alone
    expect(await doctorTrust()).toEqual({
      'Codex trusts the hook': false,
      'Codex itself runs the hook': false,
      'Codex runs hooks': true,
    });
    // what happens without trust: the force push goes through and guard never hears of it
    expect(await forcePushGoesThrough()).toBe(true);
    expect(readLog(world).filter((entry) => entry.chat !== 'guard-doctor')).toEqual([]);

    const again = await setupGuard(world, 'codex', true);
    expect(again).toMatch(/^Already set up: .*\(nothing changed\)\.\n/);
    expect(again).toContain(`now trusts guard's 4 hooks`);
    expect(await statusTrust()).toEqual({ state: 'trusted', upToDate: true });
  });

  it('a changed hook command loses trust (Codex skips it) until setup trusts the new command', async () => {
    // an earlier setup from another Node, trusted back then
    await setupGuard(world, 'codex', false);
    // each event's command names that Node (the files its own answer checks, and the one it runs)
    const current = guardCommands();
    const node = readFallback(current[0] ?? '')?.files.node ?? '';
    const older = current.map((command) => command.replaceAll(node, '/opt/old-node/bin/node'));
    let text = readFileSync(hooksFile, 'utf8');
    current.forEach((command, index) => {
      text = text.replaceAll(JSON.stringify(command).slice(1, -1), JSON.stringify(older[index]).slice(1, -1));
    });
    writeFileSync(hooksFile, text);
    expect(await trustGuardHooks(CODEX, hooksFile, older, worldIo())).toEqual({ total: 4, trusted: 4, disabled: 0 });
    expect(await statusTrust()).toEqual({ state: 'trusted', upToDate: false });

    // setup writes today's command; without codex on PATH the trust stays with the old one
    await setupGuard(world, 'codex', false);
    expect(await statusTrust()).toEqual({ state: 'modified', upToDate: true });
    expect(await codexSays()).toEqual(ALL_TRUSTED('modified'));
    expect(await forcePushGoesThrough()).toBe(true);

    const again = await setupGuard(world, 'codex', true);
    expect(again).toContain(`now trusts guard's 4 hooks`);
    expect(await statusTrust()).toEqual({ state: 'trusted', upToDate: true });
    expect(await codexSays()).toEqual(ALL_TRUSTED('trusted'));
  });

  it('a config.toml Codex cannot read is left byte for byte, and setup says what to do', async () => {
    const broken = `${CODEX_CONFIG}[model_providers.fake\n`;
    writeFileSync(configFile, broken);
    const out = await setupGuard(world, 'codex', true);
    expect(out).toContain(
      `guard could not mark its hook trusted through \`codex app-server\`: Codex does not load guard's hooks from ${hooksFile} (Codex says: ${configFile}:`,
    );
    expect(out).toMatch(/\nNext: open Codex in a terminal, type \/hooks/);
    expect(readFileSync(configFile, 'utf8')).toBe(broken);
  });

  // guard's own reading of trust (status, doctor) recomputes Codex's hash: it must agree with Codex
  it.for([
    { name: 'a fresh file', before: '' },
    {
      name: "after the person's own hooks",
      before:
        '{\n  "hooks": {\n    "PreToolUse": [ { "matcher": "Bash", "hooks": [ { "type": "command", "command": "./mine.sh", "timeout": 5 } ] } ],\n    "SessionStart": [ { "hooks": [ { "type": "command", "command": "./start.sh" } ] } ]\n  }\n}\n',
    },
  ])("guard's trust keys and hashes equal Codex's own: $name", async ({ before }) => {
    if (before !== '') writeFileSync(hooksFile, before);
    await setupGuard(world, 'codex', false);
    const text = readFileSync(hooksFile, 'utf8');
    const ours = new Set(guardCommands());
    const computed = guardCodexHooks(hooksFile, text, (command) => ours.has(command)).map((hook) => [
      hook.key,
      hook.hash,
    ]);
    const listed = (await listGuardHooks(CODEX, hooksFile, [...ours], worldIo())).map((hook) => [
      hook.key,
      hook.currentHash,
    ]);
    expect(computed.length).toBe(4);
    expect(Object.fromEntries(computed)).toEqual(Object.fromEntries(listed));
  });
});
