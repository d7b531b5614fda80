import { defineConfig } from 'vitest/config';

// Resolve workspace packages to their TypeScript source, so unit tests never need a build.
// ssr.* is what Vitest uses for Node tests; Vite's defaults are kept after our condition.
const conditions = ['@guard/source', 'module', 'node', 'development|production'];

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions } },
  test: {
    include: ['packages/*/test/**/*.test.ts', 'test/**/*.test.ts'],
    clearMocks: true,
    restoreMocks: true,
    testTimeout: 20_000,
    // a resident checker a test's hook calls start (hook-server.cjs) leaves soon after its last call,
    // not after the 10 minutes an agent's gets, so a run leaves none behind for long
    env: { GUARD_SERVER_IDLE_MS: '3000' },
  },
});
