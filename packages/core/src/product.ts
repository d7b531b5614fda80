/**
 * The npm package that installs guard (its command is `guard`); scripts/package.mjs names the
 * tarball after it. The guard.tamper rule knows it, so an agent cannot remove guard with npm or
 * delete the installed files.
 */
export const GUARD_PACKAGE = 'agent-step-guard';
