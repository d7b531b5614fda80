import type { Decision } from './types.js';

/** A project rule of the simple form: a program and an argument pattern → a decision and a sentence. */
export interface PolicyRule {
  /** `policy.<name>`, kebab-case. */
  readonly id: string;
  /** Program name as rules see it (`terraform`, `git`). */
  readonly program: string;
  /**
   * Words that must appear among the arguments, in this order (not necessarily adjacent);
   * `*` in a word matches any run of characters. Empty: any call of the program.
   */
  readonly args: readonly string[];
  readonly decision: Exclude<Decision, 'allow'>;
  readonly reason: string;
}

/** `.guard.yaml` at the project root, validated. It may only tighten, except path-scoped allows. */
export interface Policy {
  /** Where it came from, for messages. */
  readonly source?: string;
  /** Extra secret files (globs relative to the project root, or `~/…`). */
  readonly secrets: readonly string[];
  /** Ask rules whose ask becomes a block in this project. */
  readonly block: readonly string[];
  /** Extra rules. */
  readonly rules: readonly PolicyRule[];
  /** Ask-rule ids allowed for paths matching a glob (relative to the project root). Never-list rules cannot be allowed. */
  readonly allow: readonly { readonly rule: string; readonly paths: readonly string[] }[];
}

export const EMPTY_POLICY: Policy = { secrets: [], block: [], rules: [], allow: [] };

/**
 * What going from the `pinned` policy to `next` loosens, one line each; empty when `next` only
 * tightens or changes nothing that counts (order, comments, a rule's reason). A secret or block
 * that is gone, a project rule that is gone or matches less (another program, ask in place of
 * block, argument words added) and an allow that is new all loosen.
 */
export function policyLoosenings(pinned: Policy, next: Policy): string[] {
  const out: string[] = [];
  for (const secret of pinned.secrets)
    if (!next.secrets.includes(secret)) out.push(`secrets: ${secret} is no longer a secret`);
  for (const id of pinned.block) if (!next.block.includes(id)) out.push(`block: ${id} asks again instead of blocking`);
  for (const rule of pinned.rules) {
    const now = next.rules.find((other) => other.id === rule.id);
    if (now === undefined) out.push(`rules: ${rule.id} is gone`);
    else if (!atLeastAsStrict(now, rule)) out.push(`rules: ${rule.id} catches less than before`);
  }
  for (const entry of next.allow)
    for (const path of entry.paths)
      if (!allows(pinned, entry.rule, path)) out.push(`allow: ${entry.rule} goes ahead for ${path}`);
  return out;
}

/**
 * The strictest of two policies: every secret, block and rule of either, and only the allows both
 * give (the same rule for the same glob). What applies while a loosening change waits for the person.
 */
export function strictestPolicy(a: Policy, b: Policy): Policy {
  const rules = [...a.rules, ...b.rules.filter((rule) => !a.rules.some((other) => sameRule(other, rule)))];
  const allow = a.allow
    .map((entry) => ({ rule: entry.rule, paths: entry.paths.filter((path) => allows(b, entry.rule, path)) }))
    .filter((entry) => entry.paths.length > 0);
  return {
    ...(a.source === undefined ? {} : { source: a.source }),
    secrets: [...new Set([...a.secrets, ...b.secrets])],
    block: [...new Set([...a.block, ...b.block])],
    rules,
    allow,
  };
}

/**
 * What applies of a project's policy as it reads now (`current`) given the one guard pinned (none
 * yet: measured against the built-in catalogue alone, so a first file's tightenings apply at once
 * and its allows wait). A change that only tightens applies and is the new pin (`loosens` empty);
 * one that loosens anything waits for the person: the strictest of both applies meanwhile.
 */
export function againstPin(
  pinned: Policy | undefined,
  current: Policy,
): { readonly policy: Policy; readonly loosens: readonly string[] } {
  const loosens = policyLoosenings(pinned ?? EMPTY_POLICY, current);
  return { policy: loosens.length === 0 ? current : strictestPolicy(current, pinned ?? EMPTY_POLICY), loosens };
}

function allows(policy: Policy, rule: string, path: string): boolean {
  return policy.allow.some((entry) => entry.rule === rule && entry.paths.includes(path));
}

/** `now` catches every call `before` caught, at least as firmly: same program, its words a subsequence of the old ones. */
function atLeastAsStrict(now: PolicyRule, before: PolicyRule): boolean {
  if (now.program !== before.program) return false;
  if (before.decision === 'block' && now.decision !== 'block') return false;
  let at = 0;
  for (const word of before.args) if (at < now.args.length && now.args[at] === word) at += 1;
  return at === now.args.length;
}

function sameRule(a: PolicyRule, b: PolicyRule): boolean {
  return (
    a.id === b.id &&
    a.program === b.program &&
    a.decision === b.decision &&
    a.reason === b.reason &&
    a.args.length === b.args.length &&
    a.args.every((word, i) => b.args[i] === word)
  );
}
