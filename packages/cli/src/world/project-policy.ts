import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
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
 * The project's `.guard.yaml`, and those of the projects around it (see loadPolicies). Most projects have none, so the policy reader (and the yaml parser
 * behind it) is loaded only when the file is there.
 */
export async function projectPolicy(projectRoot: string): Promise<PolicyResult> {
  if (!existsSync(join(projectRoot, POLICY_FILE)) && !anyAbove(projectRoot)) return { policy: EMPTY_POLICY };
  const { loadPolicies } = await import('./policy.js');
  return loadPolicies(projectRoot);
}

/** Whether a folder above the project holds a policy (a repository nested in another project). */
function anyAbove(projectRoot: string): boolean {
  for (let dir = dirname(projectRoot); dir !== dirname(dir); dir = dirname(dir))
    if (existsSync(join(dir, POLICY_FILE))) return true;
  return false;
}
