import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { scaled } from '../machine.js';
import {
  claudePrompt,
  codexExec,
  copilotPrompt,
  geminiPrompt,
  opencodeRun,
  qwenPrompt,
  writeClaudeSettings,
  writeCodexConfig,
  writeGeminiSettings,
  writeOpencodeConfig,
  writeQwenSettings,
} from './harness/agents.js';
import {
  fakeChatModel,
  fakeGeminiModel,
  fakeMessagesModel,
  fakeQwenModel,
  fakeResponsesModel,
} from './harness/fake-model.js';
import type { FakeModel, FakeModelOptions, Turn } from './harness/fake-model.js';
import type { RunResult } from './harness/process.js';
import { closeAll, requireInstalled, setupGuard } from './harness/scenario.js';
import type { E2eAgent } from './harness/scenario.js';
import { makeWorld, REPO } from './harness/world.js';
import type { World } from './harness/world.js';

// Records the transcripts `guard scan` reads its fixtures from: one short chat per real agent (a
// harmless command, a `git push --force` guard stops, a file written), with guard set up, and the
// files the agent keeps of the chat copied into packages/adapters/test/fixtures/<agent>/transcripts/
// with the scratch home replaced by `/home/dev` and the repository by `/opt/guard` (no machine path
// stays); only the chat files themselves are kept. Run by hand:
//   GUARD_RECORD_TRANSCRIPTS=1 npx vitest run test/e2e/transcripts.test.ts
// and check the diff; the scan tests (packages/adapters/test/transcripts.test.ts) then say what
// each must yield.

const RECORD = process.env['GUARD_RECORD_TRANSCRIPTS'] === '1';
/** What the scratch home becomes in a fixture. */
const HOME = '/home/dev';

let world: World;
const models: FakeModel[] = [];

beforeEach(() => {
  world = makeWorld();
});

afterEach(async () => {
  await closeAll(models);
  world.cleanup();
});

interface Recording {
  /** The model server the agent speaks to. */
  readonly model: (options: FakeModelOptions) => Promise<FakeModel>;
  /** Writes the agent's own settings before guard's setup. */
  readonly prepare?: (world: World, model: FakeModel) => void;
  /** How the agent writes a file, as a scripted turn. */
  readonly write: (path: string) => Turn;
  readonly run: (world: World, model: FakeModel) => Promise<RunResult>;
  /** Where, below the home, the agent keeps its chats. */
  readonly keeps: readonly string[];
}

const create = (path: string): Turn => ({ create: { path, text: 'hello\n' } });

// (Factory Droid's, Cline's, Kilo's and Auggie's chats are not read by `guard scan` yet: nothing of them is recorded here)
const RECORDINGS: Readonly<Record<Exclude<E2eAgent, 'droid' | 'cline' | 'kilo' | 'auggie'>, Recording>> = {
  'claude-code': {
    model: fakeMessagesModel,
    prepare: (w) => void writeClaudeSettings(w),
    write: create,
    run: (w, m) => claudePrompt(w, m, 'do the task'),
    keeps: ['.claude/projects'],
  },
  codex: {
    model: fakeResponsesModel,
    prepare: (w) => void writeCodexConfig(w),
    write: (path) => ({ patch: `*** Begin Patch\n*** Add File: ${path}\n+hello\n*** End Patch\n` }),
    run: (w, m) => codexExec(w, m, 'do the task'),
    keeps: ['.codex/sessions'],
  },
  gemini: {
    model: fakeGeminiModel,
    prepare: (w) => void writeGeminiSettings(w),
    write: create,
    run: (w, m) => geminiPrompt(w, m, 'do the task'),
    keeps: ['.gemini/tmp'],
  },
  copilot: {
    model: fakeChatModel,
    write: create,
    run: (w, m) => copilotPrompt(w, m, 'do the task'),
    keeps: ['.copilot/session-state'],
  },
  opencode: {
    model: fakeChatModel,
    prepare: (w, m) => void writeOpencodeConfig(w, m),
    write: create,
    run: (w) => opencodeRun(w, 'do the task'),
    keeps: ['.local/share/opencode'],
  },
  qwen: {
    model: fakeQwenModel,
    prepare: (w) => void writeQwenSettings(w),
    write: create,
    run: (w, m) => qwenPrompt(w, m, 'do the task'),
    keeps: ['.qwen'],
  },
};

/** Every file below `dir`, as paths relative to it. */
function filesBelow(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((path) => statSync(join(dir, path)).isFile());
}

/** The file's text with the scratch folders replaced (binary files are left out). */
function scrubbed(text: string): string {
  return text
    .replaceAll(world.home, HOME)
    .replaceAll(world.home.replaceAll('/', '-'), HOME.replaceAll('/', '-'))
    .replaceAll(world.root, '/tmp/world')
    .replaceAll(REPO, '/opt/guard/');
}

describe.skipIf(!RECORD)('recording transcripts from the real agents', { timeout: scaled(240_000) }, () => {
  it.each(Object.keys(RECORDINGS) as (keyof typeof RECORDINGS)[])('%s', async (agent) => {
    requireInstalled(agent);
    const recording = RECORDINGS[agent];
    const model = await recording.model({
      script: [
        { shell: 'ls' },
        { shell: 'git push --force origin main' },
        recording.write(join(world.project, 'notes.txt')),
        { say: 'done' },
      ],
    });
    models.push(model);
    recording.prepare?.(world, model);
    await setupGuard(world, agent);
    const result = await recording.run(world, model);
    expect(result.timedOut, result.stderr).toBe(false);

    const out = join(REPO, 'packages/adapters/test/fixtures', agent, 'transcripts');
    rmSync(out, { recursive: true, force: true });
    for (const keep of recording.keeps) {
      const from = join(world.home, keep);
      for (const file of filesBelow(from)) {
        const source = join(from, file);
        const target = join(
          out,
          scrubbed(relative(world.home, source)).replaceAll(HOME.replaceAll('/', '-'), '-home-dev'),
        );
        mkdirSync(join(target, '..'), { recursive: true });
        const bytes = readFileSync(source);
        if (bytes.includes(0)) cpSync(source, target);
        else writeFileSync(target, scrubbed(bytes.toString('utf8')));
      }
    }
  });
});
