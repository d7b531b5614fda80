import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { logLine } from '../../src/commands/log.js';
import { buildReports } from '../../src/commands/report.js';
import { secondOpinion } from '../../src/commands/second-opinion.js';
import type { HookIo } from '../../src/hook/run.js';
import { runHook } from '../../src/hook/run.js';
import type { LogEntry } from '../../src/state/decision-log.js';
import { lockOwner } from '../../src/state/lock.js';
import { captureIo, NOWHERE } from '../capture-io.js';
import type { Behaviour, FakeModel } from '../fake-model.js';
import { startFakeModel } from '../fake-model.js';
import { fixture } from '../hook-cases.js';

// The second opinion through the hook runtime, against a fake OpenAI-compatible server on
// 127.0.0.1 (SPEC §11): what raises, what is never sent, and that every failure leaves the rules'
// verdict standing, logged as "could not judge".

const KEY_VAR = 'JUDGE_TEST_KEY';
const KEY = 'judge-key-that-must-stay-in-the-environment';
const GITHUB = `ghp_${'a1B2c3D4e5'.repeat(3)}123456`;
const OFF_TASK = 'node tools/migrate_down_all.js';

let guardHome: string;
let model: FakeModel;
beforeEach(async () => {
  guardHome = mkdtempSync(join(tmpdir(), 'guard-opinion-'));
  model = await startFakeModel('high');
});
afterEach(async () => {
  await model.close();
  rmSync(guardHome, { recursive: true, force: true });
});

const env = (): Record<string, string> => ({ GUARD_HOME: guardHome, [KEY_VAR]: KEY });

async function turnOn(options: { timeoutMs?: number; keyEnv?: string } = {}): Promise<string> {
  const { io, stdout } = captureIo();
  await secondOpinion(
    'on',
    { url: model.url, model: 'fake-judge', timeoutMs: options.timeoutMs ?? 1_500, ...options },
    { ...io, env: env() },
  );
  return stdout();
}

async function turnOff(): Promise<string> {
  const { io, stdout } = captureIo();
  await secondOpinion('off', {}, { ...io, env: env() });
  return stdout();
}

interface Hooked {
  readonly code: number;
  readonly stdout: string;
}

async function hook(payload: Record<string, unknown>): Promise<Hooked> {
  let stdout = '';
  const io: HookIo = {
    stdin: (async function* () {
      yield Buffer.from(JSON.stringify(payload));
    })(),
    stopInput: () => undefined,
    out: (text) => void (stdout += text),
    err: () => undefined,
    env: env(),
    home: () => NOWHERE,
    tmp: () => '/tmp',
    parentArgs: () => ['node', 'codex'],
  };
  // a deadline well past the time limits set here, so a busy machine does not eat into them
  const code = await runHook(['codex'], io, { deadlineMs: 10_000 });
  return { code, stdout };
}

const TURN = '01a2273f-cfe3-76f2-915a-6ebc8cd5e514';
const prompt = (text: string, turn = TURN): Promise<Hooked> =>
  hook({ ...fixture('codex/user-prompt-submit'), prompt: text, turn_id: turn });
const shell = (command: string, turn = TURN): Promise<Hooked> =>
  hook({ ...fixture('codex/synth-pre-tool-use-interactive'), tool_input: { command }, turn_id: turn });

function denied(reply: Hooked): string | undefined {
  if (reply.stdout === '') return undefined;
  const output = (
    JSON.parse(reply.stdout) as {
      hookSpecificOutput?: { permissionDecision?: string; permissionDecisionReason?: string };
    }
  ).hookSpecificOutput;
  return output?.permissionDecision === 'deny' ? (output.permissionDecisionReason ?? '') : undefined;
}

function log(): LogEntry[] {
  try {
    return readFileSync(join(guardHome, 'log.jsonl'), 'utf8')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as LogEntry);
  } catch {
    return [];
  }
}

const stepLines = (): LogEntry[] => log().filter((entry) => entry.decision !== undefined);

function userText(body: Record<string, unknown> | undefined): string {
  const messages = (body?.['messages'] ?? []) as { role: string; content: string }[];
  return messages.find((message) => message.role === 'user')?.content ?? '';
}

describe('off (the default): nothing is sent and nothing kept', () => {
  it('the same off-task command goes ahead, no request is kept, the server hears nothing', async () => {
    await prompt('fix the typo in README.md');
    expect(denied(await shell(OFF_TASK))).toBeUndefined();
    expect(model.bodies).toHaveLength(0);
    expect(readdirSync(join(guardHome, 'chats')).filter((name) => name.endsWith('.request.json'))).toEqual([]);
    expect(stepLines().at(-1)?.opinion).toBeUndefined();
  });
});

describe('on, with a fake model on 127.0.0.1', () => {
  it('"high" raises an off-task irreversible command to an ask (Codex: block-then-chat), and says why', async () => {
    await turnOn();
    await prompt('fix the typo in README.md');
    const reason = denied(await shell(OFF_TASK));
    expect(reason).toMatch(/second opinion/);
    expect(reason).toMatch(/outside what the person asked for/);
    expect(reason).toMatch(/ask the person|ask them|in the chat/i);
    expect(model.bodies).toHaveLength(1);
    const sent = userText(model.bodies[0]);
    expect(sent).toContain('fix the typo in README.md');
    expect(sent).toContain(OFF_TASK);
    const line = stepLines().at(-1);
    expect(line?.decision).toBe('ask');
    expect(line?.how).toBe('second-opinion');
    expect(line?.rules).toEqual(['second-opinion']);
    expect(line?.opinion).toMatchObject({ outcome: 'raised', irreversible: 0.97, outside: 0.95 });
  });

  it('"low" lets it through, logged as judged (not as "not judged")', async () => {
    model.behaviour = 'low';
    await turnOn();
    await prompt('fix the typo in README.md');
    expect(denied(await shell(OFF_TASK))).toBeUndefined();
    expect(stepLines().at(-1)?.opinion).toMatchObject({ outcome: 'judged', irreversible: 0.05 });
  });

  it('log-probabilities: a sure "high" raises, an unsure one does not', async () => {
    await turnOn();
    await prompt('fix the typo in README.md');
    model.behaviour = 'high-unsure';
    expect(denied(await shell('node tools/a.js'))).toBeUndefined();
    expect(stepLines().at(-1)?.opinion).toMatchObject({ outcome: 'judged', irreversible: 0 });
    model.behaviour = 'high-sure';
    expect(denied(await shell('node tools/b.js'))).toMatch(/second opinion/);
  });

  it('a rules block stays a block and is never sent; a read, a listing and a rules ask are never sent', async () => {
    await turnOn();
    await prompt('fix the typo in README.md');
    expect(denied(await shell('git push --force origin main'))).not.toMatch(/second opinion/);
    expect(denied(await shell('git push origin main'))).not.toMatch(/second opinion/);
    expect(denied(await shell('cat README.md'))).toBeUndefined();
    expect(denied(await shell('ls -la && git status'))).toBeUndefined();
    expect(model.bodies).toHaveLength(0);
    expect(stepLines().every((entry) => entry.opinion === undefined)).toBe(true);
  });

  it('"low" never lowers: a rules ask stays an ask', async () => {
    model.behaviour = 'low';
    await turnOn();
    await prompt('push my branch');
    expect(denied(await shell('git push origin main'))).toBeDefined();
    expect(model.bodies).toHaveLength(0);
  });

  const FAILURES: readonly [string, Behaviour, RegExp][] = [
    ['a 500', 'error', /HTTP 500/],
    ['a body that is not JSON', 'garbage', /not JSON/],
    ['an answer with no JSON in it', 'no-json', /no JSON/],
    ['a dropped connection', 'hang-up', /reach|broke|socket|ECONNRESET/i],
  ];
  it.each(FAILURES)('%s: the step goes ahead on the rules, logged as not judged', async (_name, behaviour, why) => {
    model.behaviour = behaviour;
    await turnOn();
    await prompt('fix the typo in README.md');
    expect(denied(await shell(OFF_TASK))).toBeUndefined();
    const line = stepLines().at(-1);
    expect(line?.decision).toBe('allow');
    expect(line?.opinion?.outcome).toBe('unavailable');
    expect(line?.opinion?.why).toMatch(why);
    // still a block where the rules say block
    expect(denied(await shell('git push --force origin main'))).toBeDefined();
  });

  it('a slow server costs the time limit, not its own time: the step goes ahead before it answers', async () => {
    model.behaviour = { slowMs: 5_000 };
    await turnOn({ timeoutMs: 200 });
    await prompt('fix the typo in README.md');
    expect(denied(await shell(OFF_TASK))).toBeUndefined();
    // the hook answered while the server was still thinking
    expect(model.bodies).toHaveLength(1);
    expect(model.answered()).toBe(0);
    expect(stepLines().at(-1)?.opinion).toMatchObject({ outcome: 'unavailable', why: 'no answer within 200 ms' });
  });

  it('3 failures in a row pause it (logged once); nothing is sent while paused', async () => {
    model.behaviour = 'error';
    await turnOn();
    await prompt('fix the typo in README.md');
    for (let i = 0; i < 5; i++) expect(denied(await shell(`node tools/job-${i}.js`))).toBeUndefined();
    expect(model.bodies).toHaveLength(3);
    expect(log().filter((entry) => entry.how === 'second-opinion-paused')).toHaveLength(1);
    expect(stepLines().at(-1)?.opinion).toMatchObject({
      outcome: 'unavailable',
      why: expect.stringMatching(/paused until/),
    });
    const status = JSON.parse(readFileSync(join(guardHome, 'second-opinion.json'), 'utf8')) as { pausedUntil?: number };
    expect(status.pausedUntil).toBeGreaterThan(Date.now());
  });

  it.for([
    { row: 'free', held: false },
    // a live holder (this process): the answer does not wait the lock's seconds for it, the count is lost
    { row: 'held by another', held: true },
  ])("a failure while the health's lock is $row: the step goes ahead, counted only when free", async ({ held }) => {
    model.behaviour = 'error';
    await turnOn();
    await prompt('fix the typo in README.md');
    const health = join(guardHome, 'second-opinion.json');
    rmSync(health, { force: true });
    if (held) writeFileSync(`${health}.lock`, lockOwner(process.pid));
    expect(denied(await shell('node tools/job-a.js'))).toBeUndefined();
    expect(stepLines().at(-1)?.opinion).toMatchObject({ outcome: 'unavailable' });
    expect(existsSync(health)).toBe(!held);
    rmSync(`${health}.lock`, { force: true });
  });

  it('45 steps in one turn send at most 40', async () => {
    model.behaviour = 'low';
    await turnOn();
    await prompt('refactor the build scripts');
    for (let i = 0; i < 45; i++) await shell(`node scripts/step-${i}.js`);
    expect(model.bodies).toHaveLength(40);
    const unavailable = stepLines().filter((entry) => entry.opinion?.outcome === 'unavailable');
    expect(unavailable).toHaveLength(5);
    expect(unavailable[0]?.opinion?.why).toMatch(/40 judgements are spent/);
    // the next turn has its own budget
    await prompt('now the tests', 'turn-2');
    await shell('node scripts/step-next.js', 'turn-2');
    expect(model.bodies).toHaveLength(41);
  }, 60_000);

  it('the same step under the same request is not sent twice; under a new request it is', async () => {
    model.behaviour = 'low';
    await turnOn();
    await prompt('fix the typo in README.md');
    await shell(OFF_TASK);
    await shell(`timeout 30 ${OFF_TASK}`);
    expect(model.bodies).toHaveLength(1);
    expect(stepLines().at(-1)?.opinion).toMatchObject({ outcome: 'judged', remembered: true });
    await prompt('roll the database back', 'turn-2');
    await shell(OFF_TASK, 'turn-2');
    expect(model.bodies).toHaveLength(2);
    expect(userText(model.bodies[1])).toContain('roll the database back');
  });

  it('no key value, file content or key from the environment is in what is sent; the key goes in a header', async () => {
    await turnOn({ keyEnv: KEY_VAR });
    await prompt(`deploy with token ${GITHUB} please`);
    // a key written in a command is the rules' (a block), never sent
    expect(denied(await shell(`GITHUB_TOKEN=${GITHUB} node tools/deploy.js`))).toMatch(/key, token or password/);
    await shell('node tools/deploy.js --env production');
    await hook({
      ...fixture('codex/pre-tool-use-apply-patch'),
      tool_input: { command: `*** Begin Patch\n*** Add File: notes.txt\n+private line ${GITHUB}\n*** End Patch\n` },
    });
    expect(model.bodies).toHaveLength(2);
    for (const raw of model.raw) {
      expect(raw).not.toContain(GITHUB);
      expect(raw).not.toContain('private line');
    }
    const bodies = JSON.stringify(model.bodies);
    expect(bodies).not.toContain(KEY);
    expect(bodies).toContain('notes.txt');
    expect(model.raw[0]).toContain(`Bearer ${KEY}`);
    expect(readFileSync(join(guardHome, 'settings.yaml'), 'utf8')).not.toContain(KEY);
  });

  it('a key variable that is not set: not judged, and the step goes ahead', async () => {
    await turnOn({ keyEnv: 'JUDGE_KEY_NOBODY_SET' });
    await prompt('fix the typo in README.md');
    expect(denied(await shell(OFF_TASK))).toBeUndefined();
    expect(model.bodies).toHaveLength(0);
    expect(stepLines().at(-1)?.opinion).toMatchObject({
      outcome: 'unavailable',
      why: expect.stringMatching(/JUDGE_KEY_NOBODY_SET/),
    });
  });

  it("the turn's request is kept owner-only while on, and forgotten when it is turned off", async () => {
    await turnOn();
    await prompt(`fix the typo, the token is ${GITHUB}`);
    const chats = join(guardHome, 'chats');
    const requests = readdirSync(chats).filter((name) => name.endsWith('.request.json'));
    expect(requests).toHaveLength(1);
    const path = join(chats, requests[0] ?? '');
    if (process.platform !== 'win32') expect(statSync(path).mode & 0o777).toBe(0o600);
    const kept = readFileSync(path, 'utf8');
    expect(kept).toContain('fix the typo');
    expect(kept).not.toContain(GITHUB);
    expect(await turnOff()).toMatch(/Forgot the request kept for 1 chat/);
    expect(readdirSync(chats).filter((name) => name.endsWith('.request.json'))).toEqual([]);
    // and once off, a prompt is not kept
    await prompt('another message');
    expect(readdirSync(chats).filter((name) => name.endsWith('.request.json'))).toEqual([]);
  });

  it('a raised step the person said yes to goes ahead once, without asking the model again', async () => {
    await turnOn();
    await prompt('fix the typo in README.md');
    const reason = denied(await shell(OFF_TASK)) ?? '';
    const code = /approval code (\w+)/.exec(reason)?.[1];
    expect(code).toBeDefined();
    const sentBefore = model.bodies.length;
    await prompt(`yes, go ahead ${code ?? ''}`, 'turn-2');
    expect(denied(await shell(OFF_TASK, 'turn-2'))).toBeUndefined();
    expect(model.bodies).toHaveLength(sentBefore);
  });

  it('guard log and guard report say which steps it judged, raised or could not judge', async () => {
    await turnOn();
    await prompt('fix the typo in README.md');
    await shell(OFF_TASK);
    model.behaviour = 'low';
    await shell('node tools/build-docs.js');
    model.behaviour = 'error';
    await shell('node tools/other.js');
    const lines = stepLines().map(logLine);
    expect(lines[0]).toMatch(/second opinion raised it: irreversible 0\.97, outside request 0\.95/);
    expect(lines[1]).toMatch(/second opinion judged it: irreversible 0\.05/);
    expect(lines[2]).toMatch(/second opinion could not judge it: the server answered HTTP 500/);
    const [chat] = buildReports(log(), () => undefined);
    expect(chat?.secondOpinion.judged).toBe(2);
    expect(chat?.secondOpinion.raised.map((step) => step.step)).toEqual([OFF_TASK]);
    expect(chat?.secondOpinion.unavailable).toMatchObject([
      { step: 'node tools/other.js', why: 'the server answered HTTP 500' },
    ]);
  });
});
