/**
 * The root of the machine's system-wide folders (managed agent settings, guard's system settings).
 * A constant: the hook and the CLI never take it from the environment, so nothing an agent sets can
 * move it; tests pass a scratch root through the API instead.
 */
export const SYSTEM_ROOT = '/';
