import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Policy, Probe } from '@guard/core';
import { EMPTY_POLICY } from '@guard/core';

/** The project policy as the hook uses it: never throws; a policy that cannot be read is an error to log. */
export interface PolicyResult {
  readonly policy: Policy;
  readonly error?: string;
}

export const POLICY_FILE = '.guard.yaml';

/**
 * The project's `.guard.yaml`. Most projects have none, so the policy reader (and the yaml parser
 * behind it) is loaded only when the file is there.
 */
export async function projectPolicy(projectRoot: string): Promise<PolicyResult> {
  if (!existsSync(join(projectRoot, POLICY_FILE))) return { policy: EMPTY_POLICY };
  // LOCAL STAND-IN until the policy reader (`loadPolicy` in ../policy.ts) is committed.
  return { policy: EMPTY_POLICY, error: `${POLICY_FILE} is not read by this build yet` };
}

/** What the hook knows about the world outside the step (git, files); see ../probe.ts. */
export function hookProbe(): Probe {
  // LOCAL STAND-IN until `createProbe` (../probe.ts) is committed: a probe that knows nothing.
  return {};
}
