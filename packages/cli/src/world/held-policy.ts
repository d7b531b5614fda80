import { join } from 'node:path';
import { againstPin, type Policy } from '@guard/core';
import { readPins } from '../state/policy-pins.js';
import { loadPolicies, POLICY_FILE } from './policy.js';

/**
 * The policy the hook would use in a project, read only (for `guard explain` and `guard scan`,
 * which pin nothing): the project's `.guard.yaml` held against the policy guard pinned for it, once
 * per project. A file with mistakes, or one that loosens the pin, is told on `warn` once.
 */
export function heldPolicies(guardHome: string, warn: (text: string) => void): (projectRoot: string) => Policy {
  const policies = new Map<string, Policy>();
  let pins: ReturnType<typeof readPins> | undefined;
  return (projectRoot) => {
    let policy = policies.get(projectRoot);
    if (policy !== undefined) return policy;
    const loaded = loadPolicies(projectRoot);
    if (loaded.error !== undefined) {
      warn(
        `guard: warning: ${join(projectRoot, POLICY_FILE)} has mistakes; the built-in rules apply all the same.\n${loaded.error}\n`,
      );
    }
    pins ??= readPins(guardHome);
    const pinned = Object.hasOwn(pins, projectRoot) ? pins[projectRoot]?.policy : undefined;
    const held = againstPin(pinned, loaded.policy);
    if (held.loosens.length > 0) {
      warn(
        `guard: warning: ${join(projectRoot, POLICY_FILE)} loosens the policy guard pinned for this project, so the pinned one applies until you run \`guard policy accept\`:\n${held.loosens.map((line) => `  ${line}`).join('\n')}\n`,
      );
    }
    policies.set(projectRoot, (policy = held.policy));
    return policy;
  };
}
