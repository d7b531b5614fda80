import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { collectStatus } from '../../src/agents/inspect.js';
import { secondOpinion } from '../../src/commands/second-opinion.js';
import type { SecondOpinionOptions } from '../../src/commands/second-opinion.js';
import { diagnose } from '../../src/commands/doctor.js';
import { GuardError } from '../../src/errors.js';
import { opinionEndpoint, readSettings } from '../../src/state/settings.js';
import { captureIo } from '../capture-io.js';
import type { FakeModel } from '../fake-model.js';
import { startFakeModel } from '../fake-model.js';

// `guard second-opinion on|off|status` (SPEC §8, §11): what it keeps in settings.yaml, which
// servers it accepts, and what status and doctor say.

let guardHome: string;
let model: FakeModel;
beforeEach(async () => {
  guardHome = mkdtempSync(join(tmpdir(), 'guard-opinion-cmd-'));
  model = await startFakeModel('low');
});
afterEach(async () => {
  await model.close();
  rmSync(guardHome, { recursive: true, force: true });
});

function ioWith(extraEnv: Record<string, string> = {}) {
  const captured = captureIo();
  return { ...captured, io: { ...captured.io, env: { GUARD_HOME: guardHome, ...extraEnv } } };
}

async function run(
  state: 'on' | 'off' | 'status',
  options: SecondOpinionOptions,
  extraEnv: Record<string, string> = {},
) {
  const captured = ioWith(extraEnv);
  await secondOpinion(state, options, captured.io);
  return captured.stdout();
}

describe('which servers it sends to: this computer over http, or https', () => {
  const ACCEPTED: readonly [string, string][] = [
    ['http://127.0.0.1:11434/v1', 'http://127.0.0.1:11434/v1/chat/completions'],
    ['http://localhost:8080/v1/', 'http://localhost:8080/v1/chat/completions'],
    ['http://[::1]:8000', 'http://[::1]:8000/chat/completions'],
    ['http://127.0.0.1:1234/v1/chat/completions', 'http://127.0.0.1:1234/v1/chat/completions'],
    ['https://models.example.com/v1', 'https://models.example.com/v1/chat/completions'],
  ];
  it.each(ACCEPTED)('%s → %s', (url, endpoint) => {
    expect(opinionEndpoint(url)).toEqual({ endpoint });
  });
  const REFUSED: readonly string[] = [
    'http://models.example.com/v1', // plain http off this computer
    'http://10.0.0.5:11434/v1',
    'http://192.168.1.2/v1',
    'http://127.0.0.1.example.com/v1', // a look-alike name
    'http://localhost.example.com/v1',
    'ftp://127.0.0.1/v1',
    'file:///tmp/model',
    'https://user:secret@models.example.com/v1', // a key belongs in an environment variable
    'http://127.0.0.1:11434/v1#x',
    '127.0.0.1:11434',
    '',
  ];
  it.each(REFUSED)('refuses %j', (url) => {
    expect('problem' in opinionEndpoint(url)).toBe(true);
  });
});

describe('guard second-opinion on|off|status', () => {
  it('is off by default', async () => {
    expect((await readSettings(guardHome)).secondOpinion).toEqual({ on: false });
    expect(await run('status', {})).toMatch(/^second opinion: off/);
  });

  it('on keeps the server, model, key variable and time limit in settings.yaml, never the key', async () => {
    const out = await run(
      'on',
      { url: model.url, model: 'judge:1b', keyEnv: 'JUDGE_KEY', timeoutMs: 700 },
      { JUDGE_KEY: 'sekrit-value' },
    );
    expect(out).toMatch(/now on/);
    const settings = await readSettings(guardHome);
    expect(settings.secondOpinion).toMatchObject({
      on: true,
      config: {
        url: model.url,
        endpoint: `${model.url}/chat/completions`,
        model: 'judge:1b',
        keyEnv: 'JUDGE_KEY',
        timeoutMs: 700,
      },
    });
    const yaml = readFileSync(join(guardHome, 'settings.yaml'), 'utf8');
    expect(yaml).toContain('JUDGE_KEY');
    expect(yaml).not.toContain('sekrit-value');
    const status = await run('status', { json: true });
    expect(JSON.parse(status)).toMatchObject({
      on: true,
      model: 'judge:1b',
      keyEnv: 'JUDGE_KEY',
      keySet: false,
      timeoutMs: 700,
    });
  });

  it('off turns it off and keeps the user comments in settings.yaml', async () => {
    await run('on', { url: model.url, model: 'judge' });
    const path = join(guardHome, 'settings.yaml');
    writeFileSync(path, `# my note\n${readFileSync(path, 'utf8')}`);
    expect(await run('off', {})).toMatch(/now off/);
    expect((await readSettings(guardHome)).secondOpinion).toEqual({ on: false });
    expect(readFileSync(path, 'utf8')).toContain('# my note');
    expect(await run('off', {})).toMatch(/already off/);
  });

  const USAGE: readonly [string, SecondOpinionOptions][] = [
    ['no url', { model: 'judge' }],
    ['no model', { url: 'http://127.0.0.1:1/v1' }],
    ['a remote http url', { url: 'http://models.example.com/v1', model: 'judge' }],
    ['a key where its variable belongs', { url: 'http://127.0.0.1:1/v1', model: 'judge', keyEnv: 'sk-abc123' }],
    ['a model name with spaces', { url: 'http://127.0.0.1:1/v1', model: 'my judge' }],
    ['a time limit above the hook deadline allows', { url: 'http://127.0.0.1:1/v1', model: 'judge', timeoutMs: 5_000 }],
    ['a time limit too short to be useful', { url: 'http://127.0.0.1:1/v1', model: 'judge', timeoutMs: 10 }],
  ];
  it.each(USAGE)('on with %s is a usage error and changes nothing', async (_name, options) => {
    await expect(run('on', options)).rejects.toBeInstanceOf(GuardError);
    expect((await readSettings(guardHome)).secondOpinion).toEqual({ on: false });
  });
  it('off and status take no settings', async () => {
    await expect(run('off', { model: 'x' })).rejects.toBeInstanceOf(GuardError);
    await expect(run('status', { url: 'http://127.0.0.1:1/v1' })).rejects.toBeInstanceOf(GuardError);
  });

  it('a hand-edited setting it cannot use: status says so (and the hook judges nothing)', async () => {
    await run('on', { url: model.url, model: 'judge' });
    const path = join(guardHome, 'settings.yaml');
    writeFileSync(path, readFileSync(path, 'utf8').replace(model.url, 'http://example.com/v1'));
    expect((await readSettings(guardHome)).secondOpinion).toMatchObject({
      on: true,
      problem: expect.stringMatching(/http/),
    });
    expect(await run('status', {})).toMatch(/cannot be used/);
  });
});

describe('guard status and guard doctor', () => {
  it('status shows it off, then on with its model and server', async () => {
    const { io } = ioWith();
    expect((await collectStatus(io)).secondOpinion).toEqual({ on: false });
    await run('on', { url: model.url, model: 'judge' });
    expect((await collectStatus(io)).secondOpinion).toMatchObject({ on: true, model: 'judge', failuresInARow: 0 });
  });

  it('doctor does one round trip and reports its time; nothing when off', async () => {
    const noHook = async () => ({ exitCode: 0, stdout: '', stderr: '', ms: 1, timedOut: false });
    const { io } = ioWith();
    expect((await diagnose(io, noHook)).guard.some((check) => check.name === 'second opinion answers')).toBe(false);
    await run('on', { url: model.url, model: 'judge' });
    const check = (await diagnose(io, noHook)).guard.find((entry) => entry.name === 'second opinion answers');
    expect(check).toMatchObject({ ok: true, detail: expect.stringMatching(/judge answered in \d+ ms/) });
    expect(model.bodies).toHaveLength(1);
    model.behaviour = 'error';
    const failing = (await diagnose(io, noHook)).guard.find((entry) => entry.name === 'second opinion answers');
    expect(failing).toMatchObject({ ok: false, detail: expect.stringMatching(/HTTP 500/) });
  });
});
