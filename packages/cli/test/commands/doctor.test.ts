import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { adapters, fallbackReply, plainCommand, readFallback } from '@guard/adapters';
import type { AgentId, HookReply } from '@guard/adapters';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { agentShellRunner, BUDGET_MS, diagnose, doctor, protectedCheck } from '../../src/commands/doctor.js';
import type { Check, DoctorJson, HookRun, RunHook } from '../../src/commands/doctor.js';
import type { Io } from '../../src/io.js';
import { captureIo } from '../capture-io.js';
import { makeAgentHome } from './agent-home.js';
import type { AgentHome } from './agent-home.js';

const AGENTS: readonly AgentId[] = [
  'codex',
  'cursor',
  'antigravity',
  'copilot',
  'claude-code',
  'gemini',
  'opencode',
  'qwen',
  'windsurf',
  'droid',
  'cline',
  'kilo',
  'crush',
  'auggie',
  'kiro',
];

/**
 * Answers as guard's runtime gives them, made by each agent's own reply builder: a block for a
 * force push, no objection otherwise (the exit code with them: Windsurf's and Kiro CLI's 2 stops).
 */
const REPLIES = Object.fromEntries(
  AGENTS.map((agent) => {
    const { toReply, doctor: kit } = adapters[agent];
    const context = { event: kit.shellCall('true', '/').event, canAsk: true, failClosed: false };
    const reply = (decision: 'allow' | 'block'): HookReply =>
      toReply({ decision, findings: [], agentMessage: 'guard: blocked.', userMessage: 'guard: blocked.' }, context);
    return [agent, { allow: reply('allow'), deny: reply('block') }];
  }),
) as Record<AgentId, { readonly allow: HookReply; readonly deny: HookReply }>;

// A stand-in for guard's hook script; FAKE_MODE makes it misbehave the ways a real setup can.
const FAKE_HOOK = `
const agent = process.argv[3];
let input = '';
process.stdin.setEncoding('utf8');
for await (const chunk of process.stdin) input += chunk;
const replies = ${JSON.stringify(REPLIES)};
const mode = process.env.FAKE_MODE ?? 'good';
if (mode === 'garbage') process.stdout.write('Welcome back!\\n');
else if (mode === 'crash') { process.stderr.write('boom\\n'); process.exitCode = 1; }
else if (mode === 'good') {
  const reply = input.includes('push --force') ? replies[agent].deny : replies[agent].allow;
  process.stdout.write(reply.stdout);
  process.stderr.write(reply.stderr ?? '');
  process.exitCode = reply.exitCode;
}
`;

let box: AgentHome;
let fake: string;
beforeEach(() => {
  box = makeAgentHome();
  fake = join(box.root, 'fake-hook.mjs');
  writeFileSync(fake, FAKE_HOOK);
});
afterEach(() => box.cleanup());

function ioOf(): Io {
  const { io } = captureIo({ cwd: box.cwd, home: box.home });
  return { ...io, env: box.env, tmp: () => box.root };
}

/** Writes the agent's user config with guard's entries running `script`. */
function installWith(agent: AgentId, script: string, before = '', failClosed = false): string {
  const file = adapters[agent].configPath('user', { home: box.home, env: {}, projectRoot: box.project });
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(
    file,
    adapters[agent].install(before, {
      hookCommand: `"${process.execPath}" "${script}" hook ${agent}`,
      failClosed,
      fallback: { node: process.execPath, script },
    }),
  );
  return file;
}

function checksOf(report: DoctorJson, agent: AgentId): Record<string, Check> {
  const found = report.agents.find((entry) => entry.agent === agent && entry.level === 'user');
  expect(found, agent).toBeDefined();
  return Object.fromEntries((found?.checks ?? []).map((check) => [check.name, check]));
}

/** A hook runner that answers like the fake, without a process, in a chosen time. */
function cannedRunner(ms: number, calls: { agent: AgentId; command: string; cwd: string }[] = []): RunHook {
  return async (agent, command, input, cwd): Promise<HookRun> => {
    calls.push({ agent, command, cwd });
    const reply = input.includes('push --force') ? REPLIES[agent].deny : REPLIES[agent].allow;
    return {
      stdout: reply.stdout,
      stderr: reply.stderr ?? '',
      exitCode: reply.exitCode,
      ms,
      timedOut: false,
    };
  };
}

describe('guard doctor runs the installed command the way the agent does', () => {
  it.for(AGENTS)('%s: the harmless step goes ahead and the force push is blocked', async (agent) => {
    installWith(agent, fake);
    const report = await diagnose(ioOf(), agentShellRunner(ioOf()));
    const checks = checksOf(report, agent);
    expect(checks['config parses']?.ok).toBe(true);
    expect(checks['hook command resolves']?.ok).toBe(true);
    expect(checks['harmless step goes ahead']).toMatchObject({
      ok: true,
      detail: expect.stringMatching(/^no-objection \(.+\) in \d+ ms$/),
    });
    expect(checks['dangerous step is blocked']).toMatchObject({
      ok: true,
      detail: expect.stringMatching(/^block \(.+\) in \d+ ms$/),
    });
    // the hook file is one guard.tamper protects, here under the temp folder
    expect(checks['hook file is protected']).toMatchObject({ ok: true });
    // with its files gone, the command answers by itself, through the same shell
    expect(checks["answers when guard's files are gone"]).toMatchObject({
      ok: true,
      detail: expect.stringMatching(
        /^with its hook script gone, (ask|block) \(.+\); with its Node gone, (ask|block) \(/,
      ),
    });
    // the command is not the one setup writes (it runs the stand-in), and doctor says so
    expect(checks['entries match setup']).toMatchObject({ ok: false, fix: `Run \`guard setup ${agent}\`.` });
    expect(report.ok).toBe(false);
    expect(report.agents.map((entry) => entry.agent)).toEqual([agent]);
    // only Codex has a trust gate; a fresh file is not trusted, and doctor says how to fix that
    if (agent === 'codex')
      expect(checks['Codex trusts the hook']).toMatchObject({ ok: false, fix: expect.stringContaining('type /hooks') });
    else expect(checks['Codex trusts the hook']).toBeUndefined();
  });

  it.for([
    { mode: 'silent', agent: 'codex' as const, harmless: true, dangerous: /^expected block, got no-objection/ },
    {
      mode: 'silent',
      agent: 'antigravity' as const,
      harmless: false,
      dangerous: /^expected block, got failure \(no output\)/,
    },
    {
      mode: 'garbage',
      agent: 'codex' as const,
      harmless: false,
      dangerous: /^expected block, got failure \(output that is not JSON\).+stdout: Welcome back!/,
    },
    {
      mode: 'crash',
      agent: 'copilot' as const,
      harmless: false,
      dangerous:
        /^expected block, got failure \(exit code 1\) in \d+ ms\. Copilot blocks the step .+ rules decide\. stderr: boom$/,
    },
  ])(
    'a hook that answers wrongly ($mode, $agent) fails with what it saw and a fix',
    async ({ mode, agent, harmless, dangerous }) => {
      installWith(agent, fake);
      box.env.FAKE_MODE = mode;
      const checks = checksOf(await diagnose(ioOf(), agentShellRunner(ioOf())), agent);
      expect(checks['harmless step goes ahead']?.ok).toBe(harmless);
      expect(checks['dangerous step is blocked']).toMatchObject({
        ok: false,
        detail: expect.stringMatching(dangerous),
        fix: expect.stringContaining('guard explain -- git push --force'),
      });
    },
  );

  it("Codex's hook runs through the login shell named by SHELL", async () => {
    installWith('codex', fake);
    box.env.SHELL = join(box.root, 'no-such-shell');
    const checks = checksOf(await diagnose(ioOf(), agentShellRunner(ioOf())), 'codex');
    expect(checks['harmless step goes ahead']).toMatchObject({
      ok: false,
      detail: expect.stringMatching(/^the command did not start: .*no-such-shell/),
    });
  });
});

describe('guard doctor: guard.tamper protects the hook file where setup put it', () => {
  it.for([
    { agent: 'codex' as const, variable: 'CODEX_HOME', byName: false },
    { agent: 'copilot' as const, variable: 'COPILOT_HOME', byName: false },
    { agent: 'claude-code' as const, variable: 'CLAUDE_CONFIG_DIR', byName: false },
    // its file is `.gemini/settings.json` in the moved home: a name protected wherever it is
    { agent: 'gemini' as const, variable: 'GEMINI_CLI_HOME', byName: true },
    { agent: 'qwen' as const, variable: 'QWEN_HOME', byName: false },
    // its file is `.factory/hooks.json` in the moved home: a name protected wherever it is
    { agent: 'droid' as const, variable: 'FACTORY_HOME_OVERRIDE', byName: true },
    { agent: 'cline' as const, variable: 'CLINE_DIR', byName: false },
    // its file is `crush.json`: a name protected wherever it is (Crush loads it from any folder above)
    { agent: 'crush' as const, variable: 'CRUSH_GLOBAL_CONFIG', byName: true },
  ])('$agent: in the folder $variable moves it to', ({ agent, variable, byName }) => {
    box.env[variable] = join(box.root, 'moved');
    const file = adapters[agent].configPath('user', { home: box.home, env: box.env, projectRoot: box.project });
    expect(file.startsWith(join(box.root, 'moved'))).toBe(true);
    expect(protectedCheck(agent, file, ioOf())).toMatchObject({ ok: true });
    // the same file, the variable not set where doctor runs: not the agent's, and doctor names the variable
    delete box.env[variable];
    expect(protectedCheck(agent, file, ioOf())).toMatchObject(
      byName ? { ok: true } : { ok: false, fix: expect.stringContaining(variable) },
    );
  });

  it('a file where no agent keeps its hooks is not protected, and doctor says so', () => {
    const check = protectedCheck('cursor', join(box.root, 'elsewhere', 'hooks.json'), ioOf());
    expect(check).toMatchObject({ ok: false, fix: expect.stringContaining('Report this to guard') });
  });
});

describe('guard doctor failure paths', () => {
  it('a command whose script is missing fails with a fix, and is not run', async () => {
    const gone = join(box.root, 'old', 'dist', 'bin.js');
    installWith('cursor', gone);
    const calls: { agent: AgentId; command: string; cwd: string }[] = [];
    const checks = checksOf(await diagnose(ioOf(), cannedRunner(5, calls)), 'cursor');
    expect(checks['hook command resolves']).toMatchObject({
      ok: false,
      detail: `"${process.execPath}" "${gone}" hook cursor: the hook script ${gone} does not exist`,
      fix: expect.stringMatching(/^Run `guard setup` again/),
    });
    expect(checks['harmless step goes ahead']).toBeUndefined();
    // only the command's own answer is run (it is what answers now), with its files pointed at nothing
    expect(calls.map((call) => readFallback(call.command)?.files.script)).toEqual([
      expect.stringMatching(/guard-doctor-[^/]+\/bin\.js$/),
      gone,
    ]);
    expect(checks["answers when guard's files are gone"]).toMatchObject({ ok: true });
  });

  it('a config that does not parse fails with its line', async () => {
    const file = installWith('codex', fake);
    writeFileSync(
      file,
      `{\n  "hooks": {\n    "PreToolUse": [ { "hooks": [ { "command": "\\"/n\\" \\"/s\\" hook codex" } ] } ],,\n  }\n}\n`,
    );
    const report = await diagnose(ioOf(), cannedRunner(5));
    expect(checksOf(report, 'codex')).toEqual({
      'config parses': {
        name: 'config parses',
        ok: false,
        detail: expect.stringMatching(new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:3: `)),
        fix: 'Fix that line (or move the file aside), then run `guard setup codex`.',
      },
    });
  });

  it('a broken file that is not about guard is not checked at all', async () => {
    const file = adapters.cursor.configPath('user', { home: box.home, env: {}, projectRoot: box.project });
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, '{ "version": 1, "hooks": { "stop": [ { "command": "./x.sh" } ], } }');
    expect((await diagnose(ioOf(), cannedRunner(5))).agents).toEqual([]);
  });

  it.for([
    { ms: BUDGET_MS, warning: undefined },
    // slower than guard's budget, but the agent still waits for the answer: a warning with the load
    { ms: BUDGET_MS + 1, warning: true },
  ])('answers in $ms ms: warning $warning', async ({ ms, warning }) => {
    installWith('copilot', fake);
    const check = checksOf(await diagnose(ioOf(), cannedRunner(ms)), 'copilot')['answers in time'];
    expect(check?.ok).toBe(true);
    expect(check?.warning).toBe(warning);
    expect(check?.detail).toContain(`slowest answer ${ms} ms`);
    if (warning) expect(check?.detail).toMatch(/\(machine load \d+\.\d on \d+ cores\)$/);
    if (warning) expect(check?.fix).toBeDefined();
  });

  it("over the agent's own timeout: says what the agent then does", async () => {
    installWith('antigravity', fake);
    const check = checksOf(await diagnose(ioOf(), cannedRunner(31_000)), 'antigravity')['answers in time'];
    expect(check).toMatchObject({
      ok: false,
      detail: expect.stringContaining(
        `the agent gives up after 30 s: ${adapters.antigravity.capabilities.onHookTimeout}`,
      ),
    });
  });

  it('a hook that hangs is reported, not waited for', async () => {
    installWith('codex', fake);
    const hung: RunHook = async () => ({ stdout: '', stderr: '', exitCode: -1, ms: 10_000, timedOut: true });
    const check = checksOf(await diagnose(ioOf(), hung), 'codex')['harmless step goes ahead'];
    expect(check).toMatchObject({ ok: false, detail: 'no answer after 10000 ms (stopped)' });
  });

  it('guard switched off fails its own check', async () => {
    installWith('cursor', fake);
    mkdirSync(box.guardHome, { recursive: true });
    writeFileSync(join(box.guardHome, 'settings.yaml'), 'enabled: false\n');
    const report = await diagnose(ioOf(), cannedRunner(5));
    expect(report.guard.find((check) => check.name === 'guard is on')).toEqual({
      name: 'guard is on',
      ok: false,
      detail: 'guard is off: every step goes ahead',
      fix: 'Run `guard on`.',
    });
    expect(report.ok).toBe(false);
  });

  it.for([
    // Claude Code: the switch in its local project settings, beside guard's user settings
    { agent: 'claude-code' as const, text: '{"disableAllHooks": true}', says: /"disableAllHooks": true/ },
    // Gemini CLI: in the very file guard's hooks are in, with a comment
    { agent: 'gemini' as const, text: '// off\n{"hooksConfig": {"enabled": false}}\n', says: /"enabled": false/ },
    // Copilot CLI: a cloned repository's own settings switch off the user's hooks
    {
      agent: 'copilot' as const,
      text: '{ "disableAllHooks": true }',
      says: /\.github\/copilot\/settings\.json sets "disableAllHooks": true, .*policy hook/,
    },
    // Qwen Code: in a project's own settings, which switch off the user's hooks too
    {
      agent: 'qwen' as const,
      text: '// off\n{"disableAllHooks": true}\n',
      says: /\.qwen\/settings\.json sets "disableAllHooks": true/,
    },
    // Factory Droid: a project's own hooks.json switches off the user's hooks (seen on 0.215.0)
    {
      agent: 'droid' as const,
      text: '// off\n{"hooksDisabled": true}\n',
      says: /\.factory\/hooks\.json sets "hooksDisabled": true/,
    },
  ])(
    '$agent: its own setting that switches hooks off fails the check, and says which',
    async ({ agent, text, says }) => {
      box.env.GEMINI_CLI_SYSTEM_SETTINGS_PATH = join(box.root, 'none.json');
      box.env.GEMINI_CLI_SYSTEM_DEFAULTS_PATH = join(box.root, 'none.json');
      box.env.QWEN_CODE_SYSTEM_SETTINGS_PATH = join(box.root, 'none.json');
      box.env.QWEN_CODE_SYSTEM_DEFAULTS_PATH = join(box.root, 'none.json');
      const name = `${adapters[agent].displayName} runs hooks`;
      installWith(agent, fake);
      expect(checksOf(await diagnose(ioOf(), cannedRunner(5)), agent)[name]).toMatchObject({ ok: true });
      if (agent === 'gemini') installWith(agent, fake, text);
      else if (agent === 'copilot') {
        mkdirSync(join(box.project, '.github', 'copilot'), { recursive: true });
        writeFileSync(join(box.project, '.github', 'copilot', 'settings.json'), text);
        // near miss first: the same key off, and the key in a file Copilot does not read
        writeFileSync(join(box.project, '.github', 'copilot', 'settings.local.json'), '{ "disableAllHooks": false }');
        writeFileSync(join(box.project, '.github', 'settings.json'), text);
      } else if (agent === 'qwen') {
        mkdirSync(join(box.project, '.qwen'), { recursive: true });
        writeFileSync(join(box.project, '.qwen', 'settings.json'), text);
      } else if (agent === 'droid') {
        mkdirSync(join(box.project, '.factory'), { recursive: true });
        // near miss first: the switch off in the project's settings, and in a file Droid does not read
        writeFileSync(join(box.project, '.factory', 'settings.json'), '{"hooks": {"hooksDisabled": false}}');
        writeFileSync(join(box.project, '.factory', 'hooks.jsonc'), text);
        expect(checksOf(await diagnose(ioOf(), cannedRunner(5)), agent)[name]).toMatchObject({ ok: true });
        writeFileSync(join(box.project, '.factory', 'hooks.json'), text);
      } else {
        mkdirSync(join(box.project, '.claude'), { recursive: true });
        writeFileSync(join(box.project, '.claude', 'settings.local.json'), text);
      }
      const checks = checksOf(await diagnose(ioOf(), cannedRunner(5)), agent);
      expect(checks[name]).toMatchObject({
        ok: false,
        detail: expect.stringMatching(says),
        fix: expect.stringContaining('guard doctor'),
      });
      // the hook itself still answers right: only the agent does not run it
      expect(checks['dangerous step is blocked']?.ok).toBe(true);
    },
  );

  it("kiro: the check fails until guard's agent is the one a chat starts with; other agents are for status to name", async () => {
    const name = 'Kiro CLI runs hooks';
    installWith('kiro', fake);
    expect(checksOf(await diagnose(ioOf(), cannedRunner(5)), 'kiro')[name]).toMatchObject({
      ok: false,
      detail: expect.stringMatching(
        /built-in default agent, which runs no hooks.*kiro-cli settings chat\.defaultAgent guard/,
      ),
    });
    const settings = join(box.home, '.kiro', 'settings', 'cli.json');
    mkdirSync(dirname(settings), { recursive: true });
    // near miss: another agent as the default, one without guard's hook
    writeFileSync(settings, '{ "chat.defaultAgent": "review" }');
    writeFileSync(join(box.home, '.kiro', 'agents', 'review.json'), '{ "name": "review" }');
    expect(checksOf(await diagnose(ioOf(), cannedRunner(5)), 'kiro')[name]).toMatchObject({
      ok: false,
      detail: expect.stringContaining('makes "review" the agent a chat starts with'),
    });
    writeFileSync(settings, '{ "chat.defaultAgent": "guard" }');
    expect(checksOf(await diagnose(ioOf(), cannedRunner(5)), 'kiro')[name]).toMatchObject({ ok: true });
  });

  // the system settings are read last: the switch guard setup --system writes there overrules the
  // user's, which doctor says without failing; near miss: the system settings silent, it fails
  it.for([
    {
      agent: 'gemini' as const,
      user: '{"hooksConfig": {"enabled": false}}',
      system: '{"hooksConfig": {"enabled": true}}',
    },
    { agent: 'qwen' as const, user: '{"disableAllHooks": true}', system: '{"disableAllHooks": false}' },
  ])("$agent: a user's switch the system settings overrule passes, and is said", async ({ agent, user, system }) => {
    const systemFile = join(box.root, 'system.json');
    box.env.GEMINI_CLI_SYSTEM_SETTINGS_PATH = systemFile;
    box.env.GEMINI_CLI_SYSTEM_DEFAULTS_PATH = join(box.root, 'none.json');
    box.env.QWEN_CODE_SYSTEM_SETTINGS_PATH = systemFile;
    box.env.QWEN_CODE_SYSTEM_DEFAULTS_PATH = join(box.root, 'none.json');
    const name = `${adapters[agent].displayName} runs hooks`;
    installWith(agent, fake, user);
    writeFileSync(systemFile, '{}');
    expect(checksOf(await diagnose(ioOf(), cannedRunner(5)), agent)[name]).toMatchObject({ ok: false });
    writeFileSync(systemFile, system);
    expect(checksOf(await diagnose(ioOf(), cannedRunner(5)), agent)[name]).toMatchObject({
      ok: true,
      detail: expect.stringMatching(
        /^no setting of its own switches hooks off \(.* but .*system\.json, which wins over it, sets .*: guard's hooks run all the same\.\)$/,
      ),
    });
  });

  it('runs the command registered for the event it sends, from the folder of the config', async () => {
    const calls: { agent: AgentId; command: string; cwd: string }[] = [];
    const files = Object.fromEntries(AGENTS.map((agent) => [agent, installWith(agent, fake)]));
    await diagnose(ioOf(), cannedRunner(5, calls));
    const tails: Partial<Record<AgentId, string>> = {
      antigravity: ' --event PreToolUse',
      copilot: ' --event preToolUse',
    };
    // the agents are checked at once; each agent's own calls come in order
    expect(calls.map((call) => call.agent).sort()).toEqual(
      AGENTS.flatMap((agent) => [agent, agent, agent, agent]).sort(),
    );
    for (const agent of AGENTS) {
      const mine = calls.filter((call) => call.agent === agent);
      const { event } = adapters[agent].doctor.shellCall('true', box.root);
      for (const call of mine) {
        expect(call.cwd).toBe(dirname(files[agent] as string));
        // the entry of the event doctor sends (its words after the files, and that event's own answer)
        expect(plainCommand(call.command).endsWith(` hook ${agent}${tails[agent] ?? ''}`)).toBe(true);
        expect(readFallback(call.command)?.reply).toEqual(fallbackReply(adapters[agent], event, false));
      }
      // first its own answer, with the hook script and then Node pointed at nothing; then the command itself, twice
      expect(mine.map((call) => readFallback(call.command)?.files)).toEqual([
        { node: process.execPath, script: expect.stringMatching(/guard-doctor-[^/]+\/fake-hook\.mjs$/) as unknown },
        { node: expect.stringMatching(/guard-doctor-[^/]+\/node$/) as unknown, script: fake },
        { node: process.execPath, script: fake },
        { node: process.execPath, script: fake },
      ]);
    }
  });

  it.for(AGENTS)('%s: a command of an older setup, with no answer of its own, fails the check', async (agent) => {
    const file = adapters[agent].configPath('user', { home: box.home, env: {}, projectRoot: box.project });
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(
      file,
      adapters[agent].install('', { hookCommand: `"${process.execPath}" "${fake}" hook ${agent}`, failClosed: false }),
    );
    const calls: { agent: AgentId; command: string; cwd: string }[] = [];
    const checks = checksOf(await diagnose(ioOf(), cannedRunner(5, calls)), agent);
    expect(checks["answers when guard's files are gone"]).toMatchObject({
      ok: false,
      detail: `the command has no answer of its own for then: ${adapters[agent].capabilities.onHookFailure.replace(/\.$/, '')}`,
      fix: `Run \`guard setup ${agent}\`.`,
    });
    // nothing is run for it: only the two steps
    expect(calls).toHaveLength(2);
  });

  it.for([
    // no settings.yaml: the defaults (an empty one holds none of guard's settings, and is not read)
    { name: 'fail-closed off, the answer asks', failClosed: false, settings: undefined, ok: true },
    { name: 'fail-closed on, the answer blocks', failClosed: true, settings: 'failClosed: true\n', ok: true },
    {
      name: 'fail-closed on, the answer written before still asks',
      failClosed: false,
      settings: 'failClosed: true\n',
      ok: false,
    },
  ])('Claude Code through sh: $name', async ({ failClosed, settings, ok }) => {
    mkdirSync(box.guardHome, { recursive: true });
    if (settings !== undefined) writeFileSync(join(box.guardHome, 'settings.yaml'), settings);
    installWith('claude-code', fake, '', failClosed);
    const check = checksOf(await diagnose(ioOf(), agentShellRunner(ioOf())), 'claude-code')[
      "answers when guard's files are gone"
    ];
    const effect = failClosed ? 'block' : 'ask';
    expect(check).toMatchObject({
      ok,
      detail: expect.stringMatching(
        new RegExp(
          `^with its hook script gone, ${effect} \\(.+\\); with its Node gone, ${effect} \\(.+\\)${ok ? '$' : '; expected block$'}`,
        ),
      ) as unknown,
    });
  });
});

describe('guard doctor output and exit code', () => {
  it.for([
    {
      row: 'no agent on this machine',
      folders: [],
      says: ` (${AGENTS.join(', ')}); no agent was found on this machine.`,
    },
    {
      row: "an agent's folder in the home",
      folders: ['.codex', '.claude'],
      says: '; found here: codex (~/.codex), claude-code (~/.claude).',
    },
    // a folder of another program that only looks alike is not an agent's
    {
      row: 'a near miss',
      folders: ['.codex-backup', 'claude'],
      says: ` (${AGENTS.join(', ')}); no agent was found on this machine.`,
    },
  ])('with nothing set up ($row): exit 0, what to run and the agents found', async ({ folders, says }) => {
    for (const folder of folders) mkdirSync(join(box.home, folder), { recursive: true });
    const result = await box.guard('doctor');
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).toContain(`\nNothing set up yet: run \`guard setup <agent>\`${says}\n`);
    expect(result.stdout).not.toContain('FAIL');
  });

  it('a program of an agent on PATH is found', async () => {
    const bin = join(box.root, 'bin');
    mkdirSync(bin);
    writeFileSync(join(bin, 'gemini'), '#!/bin/sh\n', { mode: 0o755 });
    writeFileSync(join(bin, 'codex'), 'not runnable\n', { mode: 0o644 });
    box.env.PATH = bin;
    const result = await box.guard('doctor');
    expect(result.stdout).toContain('; found here: gemini (gemini on PATH).\n');
  });

  it('--json prints one object with every check; a failure exits 1 and counts the failures', async () => {
    installWith('cursor', fake);
    const { io, stdout } = captureIo({ cwd: box.cwd, home: box.home });
    const run = cannedRunner(5);
    // the document says it all: the exit code is left, no message
    await expect(doctor({ json: true, run }, { ...io, env: box.env, tmp: () => box.root })).rejects.toThrow(/^$/);
    const report = JSON.parse(stdout()) as DoctorJson;
    expect(report.ok).toBe(false);
    expect(report.agents[0]?.checks.map((check) => [check.name, check.ok])).toEqual([
      ['config parses', true],
      ['entries match setup', false],
      ['hook file is protected', true],
      ['hook command resolves', true],
      ["answers when guard's files are gone", true],
      ['harmless step goes ahead', true],
      ['dangerous step is blocked', true],
      ['answers in time', true],
    ]);
  });

  it('text: one line per check, the fix under a failed one', async () => {
    installWith('cursor', fake);
    const { io, stdout } = captureIo({ cwd: box.cwd, home: box.home });
    await expect(
      doctor({ json: false, run: cannedRunner(5) }, { ...io, env: box.env, tmp: () => box.root }),
    ).rejects.toThrow();
    expect(stdout()).toContain(
      '\n  FAIL entries match setup: the hook command or fail-closed switch differs from what setup writes now\n       fix: Run `guard setup cursor`.\n',
    );
    expect(stdout()).toContain('\n  ok   dangerous step is blocked: block (permission "deny") in 5 ms\n');
    expect(stdout()).toMatch(/\nSome checks failed: follow each fix above, then run `guard doctor` again\.\n$/);
  });
});
