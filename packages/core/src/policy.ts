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
