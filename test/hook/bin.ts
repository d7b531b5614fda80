import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { SYSTEM_ROOT } from '../../packages/cli/src/world/system-root.js';
import { systemSettingsPath } from '../../packages/cli/src/world/system-settings.js';

/** The built CLI, as agents run it (`npm test` builds first). */
export const BIN = fileURLToPath(new URL('../../packages/cli/dist/bin.js', import.meta.url));

/** Throws a clear error when the CLI was not built. */
export function requireBuild(): void {
  if (!existsSync(BIN)) {
    throw new Error(`${BIN} is missing: run \`npm run build\` first (\`npm test\` builds before testing).`);
  }
  // the built hook reads the machine's own system settings (it takes their root from nobody): a floor
  // set here would change what every test of it expects
  const system = systemSettingsPath(SYSTEM_ROOT);
  if (existsSync(system)) {
    throw new Error(`${system} sets a floor for every guard on this machine: run these tests where it is not.`);
  }
}

export interface BinResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `node <bin> hook …` (or another hook script) with `stdin` and only the given environment (plus PATH). */
export function runHookProcess(
  args: readonly string[],
  stdin: string,
  env: Readonly<Record<string, string>>,
  script: string = BIN,
): Promise<BinResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, 'hook', ...args], {
      env: { PATH: process.env['PATH'] ?? '', ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    // the hook may answer before reading everything (a payload over the cap): that is not an error here
    child.stdin.on('error', () => undefined);
    child.stdin.end(stdin);
  });
}
