import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Policy } from '@guard/core';
import { EMPTY_POLICY } from '@guard/core';

/** The project policy as the hook uses it: never throws; a policy that cannot be read is an error to log. */
export interface PolicyResult {
  readonly policy: Policy;
  readonly error?: string;
}

// the same name policy.ts reads; repeated here so that the hook need not load policy.ts to look
const POLICY_FILE = '.guard.yaml';

/**
 * The project's `.guard.yaml`. Most projects have none, so the policy reader (and the yaml parser
 * behind it) is loaded only when the file is there.
 */
export async function projectPolicy(projectRoot: string): Promise<PolicyResult> {
  if (!existsSync(join(projectRoot, POLICY_FILE))) return { policy: EMPTY_POLICY };
  const { loadPolicy } = await import('./policy.js');
  return loadPolicy(projectRoot);
}
