import {
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { adapters, plainCommand } from '@guard/adapters';
import type { AgentId } from '@guard/adapters';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { splitCommand } from '../../src/agents/config-io.js';
import type { LogEntry } from '../../src/state/decision-log.js';
import { pathWithoutAgents } from '../agent-free-path.js';
import { AGENT_CASES } from '../hook-cases.js';

// A checkout, a home folder and guard's folder whose paths have spaces and letters beyond ASCII in
// them, as on many people's machines: setup writes a hook command that the agent's own shell runs
// as it is, the hook answers through it, and uninstall gives the person's file back byte for byte.

const REPO = fileURLToPath(new URL('../../../../', import.meta.url));
const ODD = join('dir with spaces', 'Ünïcødé ✓');
const ROOT = mkdtempSync(join(tmpdir(), 'guard-e2e-odd-'));
const CHECKOUT = join(ROOT, 'checkout', ODD, 'guard');
const BIN = join(CHECKOUT, 'packages', 'cli', 'dist', 'bin.js');
const HOOK = join(CHECKOUT, 'packages', 'cli', 'dist', 'hook-entry.cjs');
const HOME = join(ROOT, 'home', ODD);
const GUARD_HOME = join(ROOT, "guard's home", ODD);
const PROJECT = join(HOME, 'projects', 'mon projet ✓');
const ENV = { HOME, GUARD_HOME, SHELL: '/bin/sh', PATH: pathWithoutAgents(process.env.PATH ?? '') };
const PACKAGES = ['core', 'adapters', 'cli'];

/**
 * What a checkout at CHECKOUT needs to run the built CLI: each package's package.json and dist, and
 * its node_modules links the way pnpm makes them (a workspace package by a relative link, so the
 * copy runs its own code; a registry package by a link to the one installed here).
 */
function copyBuiltCheckout(): void {
  for (const name of PACKAGES) {
    const from = join(REPO, 'packages', name);
    const to = join(CHECKOUT, 'packages', name);
    mkdirSync(to, { recursive: true });
    cpSync(join(from, 'package.json'), join(to, 'package.json'));
    cpSync(join(from, 'dist'), join(to, 'dist'), { recursive: true });
    linkModules(join(from, 'node_modules'), join(to, 'node_modules'));
  }
}

function linkModules(from: string, to: string): void {
  if (!existsSync(from)) return;
  mkdirSync(to, { recursive: true });
  for (const entry of readdirSync(from)) {
    if (entry === '.bin') continue;
    const source = join(from, entry);
    if (!lstatSync(source).isSymbolicLink()) {
      linkModules(source, join(to, entry)); // a scope folder such as @guard
      continue;
    }
    const real = realpathSync(source);
    const workspace = real.startsWith(join(REPO, 'packages'));
    symlinkSync(workspace ? readlinkSync(source) : real, join(to, entry));
  }
}

/**
 * A person's own hooks in each agent's file, laid out as no tool would write them (OpenCode's
 * plugin (Kilo's too) and Cline's hook file are files of guard's alone, with no person's part to keep).
 */
const MINE: Record<Exclude<AgentId, 'opencode' | 'kilo' | 'cline'>, string> = {
  codex:
    '{\n  "hooks": {\n    "Stop": [ { "hooks": [ { "type": "command", "command": "echo fertig ✓" } ] } ]\n  }\n}\n',
  cursor: '{\n\t"version": 1,\n\t"hooks": { "stop": [ { "command": "./done.sh" } ] }\n}',
  antigravity:
    '{"lint":{"PostToolUse":[{"matcher":"run_command","hooks":[{"type":"command","command":"./lint.sh"}]}]}}\n',
  copilot: '{ "version": 1, "hooks": { "sessionEnd": [ { "type": "command", "bash": "./bye.sh" } ] } }\r\n',
  'claude-code':
    '{\n  "model": "opus",\n  "hooks": { "Stop": [ { "hooks": [ { "type": "command", "command": "echo fertig ✓" } ] } ] }\n}',
  gemini: '// meine Einstellungen ✓\n{ "ui": { "theme": "GitHub" } /* hell */ }\r\n',
  qwen: '{ "$version": 4, /* meine ✓ */ "model": { "name": "qwen3-coder-plus" } }',
  windsurf: '{ "hooks": { "post_run_command": [ { "command": "echo fertig ✓" } ] } }\r\n',
  droid: '{ /* meine ✓ */ "Stop": [ { "hooks": [ { "type": "command", "command": "echo fertig ✓" } ] } ] }\r\n',
  crush: '{ "hooks": { "PreToolUse": [ { "matcher": "bash", "command": "echo fertig ✓" } ] } }\r\n',
  auggie:
    '{ /* meine ✓ */ "hooks": { "Stop": [ { "hooks": [ { "type": "command", "command": "echo fertig ✓" } ] } ] } }\r\n',
  kiro: '{ "name": "guard", "hooks": { "stop": [ { "command": "echo fertig ✓" } ] } }\r\n',
};

const guard = (...args: string[]) =>
  execa(process.execPath, [BIN, ...args], { reject: false, env: ENV, extendEnv: false, cwd: PROJECT });

/** Runs a hook command as the agent does: Codex through the login shell, the others through sh -c. */
const runAsAgent = (agent: AgentId, command: string, input: string) =>
  execa(ENV.SHELL, [agent === 'codex' ? '-lc' : '-c', command], {
    reject: false,
    input,
    env: ENV,
    extendEnv: false,
    cwd: PROJECT,
    stripFinalNewline: false,
  });

function logSteps(): LogEntry[] {
  const path = join(GUARD_HOME, 'log.jsonl');
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as LogEntry)
    .filter((entry) => entry.decision !== undefined);
}

beforeAll(() => {
  if (!existsSync(join(REPO, 'packages', 'cli', 'dist', 'bin.js'))) {
    throw new Error(
      'packages/cli/dist/bin.js is missing: run `npm run build` first (`npm test` builds before testing).',
    );
  }
  copyBuiltCheckout();
  mkdirSync(join(PROJECT, '.git'), { recursive: true });
});
afterAll(() => rmSync(ROOT, { recursive: true, force: true }));

describe(`a checkout, home and guard folder under "${ODD}"`, () => {
  it.for([
    'codex',
    'cursor',
    'antigravity',
    'copilot',
    'claude-code',
    'gemini',
    'qwen',
    'droid',
    'windsurf',
    'crush',
    'auggie',
    'kiro',
  ] as const)(
    '%s: setup writes a command the agent runs as it is, the hook answers through it, uninstall gives the file back',
    async (agent) => {
      const adapter = adapters[agent];
      const file = adapter.configPath('user', { home: HOME, env: ENV, projectRoot: PROJECT });
      expect(file).toContain(HOME);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, MINE[agent]);

      // Kiro CLI runs guard's agent as the person's default (setup says to make it so)
      if (agent === 'kiro') {
        mkdirSync(join(HOME, '.kiro', 'settings'), { recursive: true });
        writeFileSync(join(HOME, '.kiro', 'settings', 'cli.json'), '{ "chat.defaultAgent": "guard" }\n');
      }
      const setup = await guard('setup', agent);
      expect(setup.exitCode, setup.stderr).toBe(0);
      expect(setup.stdout).toContain(`Updated ${file}: added guard's hook`);
      const text = readFileSync(file, 'utf8');
      const commands = adapter.installedCommands(text);
      expect(commands.length).toBeGreaterThan(0);
      for (const command of commands) {
        // the copy's own hook entry, wherever the command is split into words: the files its own
        // answer checks, and the plain command it stands for
        expect(splitCommand(command).slice(4, 6)).toEqual([process.execPath, HOOK]);
        expect(splitCommand(plainCommand(command)).slice(0, 4)).toEqual([process.execPath, HOOK, 'hook', agent]);
      }

      const status = await guard('status', '--json');
      const level = (
        JSON.parse(status.stdout) as {
          agents: { agent: string; levels: { level: string; upToDate?: boolean; commands: unknown[] }[] }[];
        }
      ).agents
        .find((entry) => entry.agent === agent)
        ?.levels.find((entry) => entry.level === 'user');
      expect(level?.upToDate).toBe(true);
      expect(level?.commands.length).toBeGreaterThan(0);
      for (const command of level?.commands ?? []) expect(command).toMatchObject({ resolves: true, script: HOOK });

      const agentCase = AGENT_CASES.find((entry) => entry.agent === agent);
      const before = logSteps().length;
      for (const [step, denied] of [
        ['echo hi', false],
        ['git push --force origin main', true],
      ] as const) {
        const call = adapter.doctor.shellCall(step, PROJECT);
        const command = adapter.installedCommand(text, call.event);
        expect(command, `no command for ${call.event}`).toBeDefined();
        const { stdout, stderr, exitCode } = await runAsAgent(agent, command ?? '', JSON.stringify(call.payload));
        const answer = { stdout, stderr, code: exitCode ?? null };
        expect(agentCase?.wellFormed(answer), stderr).toBe(true);
        expect(agentCase?.notes(answer)).toBe('');
        if (denied) expect(agentCase?.denies(answer)).toBe(true);
        else expect(answer).toMatchObject({ code: 0, stdout: agentCase?.noObjection });
      }
      // both calls were judged with this folder as the project, and logged in guard's folder
      expect(logSteps().slice(before)).toEqual([
        expect.objectContaining({ agent, decision: 'allow', step: 'echo hi' }),
        expect.objectContaining({ agent, decision: 'block', step: 'git push --force origin main' }),
      ]);

      // guard doctor, run from the copy, reaches the same answers through the same shells
      const doctor = JSON.parse((await guard('doctor', '--json')).stdout) as {
        agents: { agent: string; checks: { name: string; ok: boolean; detail: string }[] }[];
      };
      expect(doctor.agents.map((entry) => entry.agent)).toEqual([agent]);
      const checks = doctor.agents[0]?.checks ?? [];
      expect(checks.filter((check) => check.name.startsWith('harmless') || check.name.startsWith('dangerous'))).toEqual(
        [
          expect.objectContaining({ name: 'harmless step goes ahead', ok: true }),
          expect.objectContaining({ name: 'dangerous step is blocked', ok: true }),
        ],
      );
      // the time check depends on the machine's load, and only Codex itself can trust its hooks
      const failed = checks.filter((check) => !check.ok).map((check) => check.name);
      expect(failed.filter((name) => name !== 'answers in time' && name !== 'Codex trusts the hook')).toEqual([]);

      const uninstall = await guard('uninstall', agent);
      expect(uninstall.exitCode, uninstall.stderr).toBe(0);
      expect(readFileSync(file, 'utf8')).toBe(MINE[agent]);
      expect(existsSync(`${file}.guard-backup`)).toBe(false);
    },
  );
});

// Cline runs guard's own hook file (by its `#!/bin/sh` line), not a command from a settings file
describe(`Cline's hook file, with a checkout, home and guard folder under "${ODD}"`, () => {
  it('setup writes the file, Cline runs it as it is and the hook answers through it, uninstall removes it', async () => {
    const adapter = adapters.cline;
    const file = adapter.configPath('user', { home: HOME, env: ENV, projectRoot: PROJECT });
    const setup = await guard('setup', 'cline');
    expect(setup.exitCode, setup.stderr).toBe(0);
    expect(setup.stdout).toContain(`Created ${file} with guard's hook`);
    const [command = ''] = adapter.installedCommands(readFileSync(file, 'utf8'));
    expect(splitCommand(plainCommand(command)).slice(0, 4)).toEqual([process.execPath, HOOK, 'hook', 'cline']);
    const agentCase = AGENT_CASES.find((entry) => entry.agent === 'cline');
    const before = logSteps().length;
    for (const [step, denied] of [
      ['echo hi', false],
      ['git push --force origin main', true],
    ] as const) {
      const call = adapter.doctor.shellCall(step, PROJECT);
      const answer = await execa('/bin/sh', [file], {
        reject: false,
        input: JSON.stringify(call.payload),
        env: ENV,
        extendEnv: false,
        cwd: PROJECT,
        stripFinalNewline: false,
      });
      expect(answer.exitCode, answer.stderr).toBe(0);
      const { stdout, stderr } = answer;
      if (denied) expect(agentCase?.denies({ stdout, stderr, code: 0 })).toBe(true);
      else expect(answer.stdout).toBe('');
    }
    expect(logSteps().slice(before)).toEqual([
      expect.objectContaining({ agent: 'cline', decision: 'allow', step: 'echo hi' }),
      expect.objectContaining({ agent: 'cline', decision: 'block', step: 'git push --force origin main' }),
    ]);
    const uninstall = await guard('uninstall', 'cline');
    expect(uninstall.exitCode, uninstall.stderr).toBe(0);
    expect(existsSync(file)).toBe(false);
  });
});
