import { availableParallelism } from 'node:os';
import { relative } from 'node:path';
import { defineConfig } from 'vitest/config';
import { BaseSequencer } from 'vitest/node';
import type { TestSpecification } from 'vitest/node';
import { scaled } from './test/machine.js';

// Resolve workspace packages to their TypeScript source, so unit tests never need a build.
// ssr.* is what Vitest uses for Node tests; Vite's defaults are kept after our condition.
const conditions = ['@guard/source', 'module', 'node', 'development|production'];

/**
 * The files that take longest, longest first: they start first, so the run does not end waiting on
 * one of them while the other workers have nothing left to do. (Without this, a fresh clone runs
 * the largest files first, and a checkout that ran before its slowest; neither is these.) The order
 * is the longer of two whole runs on 2 cores: one among other test runs (load 18 to 43), one with
 * both cores held by busy loops (load 10). test/hook/scenarios-mcp.test.ts (about 65 s, mostly
 * waiting on a server that never answers) is left out on purpose: its chat starts must finish
 * within guard's own 7 s, and beside the fault cases' hooks with both cores busy one did not.
 */
const SLOW_FIRST = [
  'test/self-attack/hook-pins.test.ts',
  'test/self-attack/faults.test.ts',
  'packages/cli/test/e2e/cli-bundle.test.ts',
  'packages/core/test/redos.test.ts',
  'test/self-attack/tamper.test.ts',
  'test/self-attack/policy-pin.test.ts',
  'test/hook/replay.test.ts',
  'test/hook/scenarios.test.ts',
  'packages/cli/test/e2e/odd-paths.test.ts',
  'test/package/package.test.ts',
  'packages/cli/test/e2e/bin.test.ts',
  'test/e2e/opencode.test.ts',
  'test/e2e/cline.test.ts',
  'test/e2e/kilo.test.ts',
  'test/e2e/codex.test.ts',
  'packages/cli/test/e2e/setup.test.ts',
  'packages/cli/test/state/locked-files.test.ts',
  'test/e2e/copilot.test.ts',
  'test/e2e/copilot-cross-host.test.ts',
  'test/e2e/qwen.test.ts',
  'test/e2e/droid.test.ts',
  'test/e2e/auggie.test.ts',
  'test/hook/resident.test.ts',
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
