import { availableParallelism } from 'node:os';
import { relative } from 'node:path';
import { defineConfig } from 'vitest/config';
import { BaseSequencer } from 'vitest/node';
import type { TestSpecification } from 'vitest/node';
import { scaled } from './test/machine.js';

// Resolve workspace packages to their TypeScript source, so unit tests never need a build.
// ssr.* is what Vitest uses for Node tests; Vite's defaults are kept after our condition, but for
// 'module': Vitest hands these conditions to Node as well, and a package's 'module' build is for
// bundlers (@opentelemetry/api's names its files without extensions, which Node cannot load).
const conditions = ['@guard/source', 'node', 'development|production'];

/**
 * The files that take longest, longest first: they start first, so the run does not end waiting on
 * one of them while the other workers have nothing left to do. (Without this, a fresh clone runs
 * the largest files first, and a checkout that ran before its slowest; neither is these.) The order
 * is Vitest's own time for each file in a whole run on 2 cores, every file of 15 s or more there
 * (and the CLI's setup and bin files, slow in earlier runs at load 18 to 43), with the two
 * self-attack suites first by far: faults (about 250 s at load 5, much of it waiting out the agents'
 * deadlines), then hook-pins (about 285 s before its status, doctor and setup calls ran in process,
 * some 40% of that since; measured at load 25). A file that takes
 * long and is not here starts after all of these, where it can be the one the run ends waiting on.
 * test/hook/scenarios-mcp.test.ts (about 55 s, mostly waiting on a server that never answers) is
 * left out on purpose: its chat starts must finish within guard's own 7 s, and beside the fault
 * cases' hooks with both cores busy one did not.
 */
const SLOW_FIRST = [
  'test/self-attack/faults.test.ts',
  'test/self-attack/hook-pins.test.ts',
  'packages/core/test/redos.test.ts',
  'test/self-attack/tamper.test.ts',
  'packages/cli/test/e2e/cli-bundle.test.ts',
  'test/self-attack/policy-pin.test.ts',
  'test/hook/scenarios.test.ts',
  'test/e2e/droid.test.ts',
  // about 250 s alone: thirteen droid exec runs over a scratch /etc
  'test/e2e/droid-system.test.ts',
  'packages/cli/test/hook/unchecked.test.ts',
  'test/e2e/opencode.test.ts',
  'test/e2e/kilo.test.ts',
  'test/e2e/cline.test.ts',
  'test/e2e/qwen.test.ts',
  'test/hook/replay.test.ts',
  'test/self-attack/writes-kb.test.ts',
  'test/self-attack/nested-agents.test.ts',
  'test/e2e/codex.test.ts',
  'test/e2e/copilot.test.ts',
  'test/hook/slow-git.test.ts',
  'test/self-attack/chat-code.test.ts',
  'test/self-attack/computed-paths.test.ts',
  'test/e2e/auggie.test.ts',
  'test/hook/resident.test.ts',
  'packages/cli/test/hook/run.test.ts',
  'test/hook/export.test.ts',
  'test/hook/cross-host.test.ts',
  'test/hook/orphan.test.ts',
  'test/e2e/codex-trust.test.ts',
  'packages/cli/test/state/chats.test.ts',
  'test/e2e/claude-code.test.ts',
  'packages/cli/test/e2e/odd-paths.test.ts',
  'test/e2e/gemini.test.ts',
  'packages/cli/test/state/locked-files.test.ts',
  'test/e2e/copilot-cross-host.test.ts',
  'test/e2e/claude-code-system.test.ts',
  'test/e2e/codex-system.test.ts',
  'test/e2e/copilot-system.test.ts',
  'test/e2e/codex-modes.test.ts',
  'test/package/package.test.ts',
  'packages/cli/test/e2e/setup.test.ts',
  'packages/cli/test/e2e/bin.test.ts',
];

class SlowFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification): number => {
      const at = SLOW_FIRST.indexOf(relative(file.project.config.root, file.moduleId).split('\\').join('/'));
      return at < 0 ? SLOW_FIRST.length : at;
    };
    // Array.prototype.sort is stable: the rest keep Vitest's own order
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions } },
  test: {
    projects: [
      // core and adapters are pure (no files, processes or globals of their own): their test files
      // share a worker and the modules it loaded, instead of a fresh worker each
      {
        extends: true,
        test: { name: 'pure', include: ['packages/{core,adapters}/test/**/*.test.ts'], isolate: false },
      },
      { extends: true, test: { name: 'io', include: ['packages/cli/test/**/*.test.ts', 'test/**/*.test.ts'] } },
    ],
    server: { deps: { inline: [/@opentelemetry/] } },
    clearMocks: true,
    restoreMocks: true,
    // time limits for a quiet machine, stretched by how busy this one is (test/machine.ts)
    testTimeout: scaled(20_000),
    hookTimeout: scaled(30_000),
    // most of the slow files wait on the processes they start: two files at once even on two cores
    maxWorkers: Math.max(2, availableParallelism() - 1),
    sequence: { sequencer: SlowFirst },
    // a resident checker a test's hook calls start (hook-server.cjs) leaves soon after its last call,
    // not after the 10 minutes an agent's gets, so a run leaves none behind for long
    env: { GUARD_SERVER_IDLE_MS: '3000' },
  },
});
