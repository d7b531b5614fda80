import type { Rule } from '../rule.js';
import { gitRewriteSharedHistory } from './git-rewrite-shared-history.js';
import { shellOpaque } from './shell-opaque.js';

/** Every built-in rule, sorted by id. rules.meta.test.ts keeps this list and the folder in sync. */
export const rules: readonly Rule[] = [gitRewriteSharedHistory, shellOpaque];
