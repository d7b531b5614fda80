// The second opinion (SPEC §11): which steps a local model is asked about, what it is told, how its
// answer is read, when it raises a step, and its budgets, as plain data and pure functions. The
// HTTP call and the files it keeps are the CLI's.
export type { ChatOpinion, Judgement, Memo, OpinionBars, OpinionHealth, OpinionRecord } from './types.js';
export { DEFAULT_BARS, HEALTHY, OPINION_LIMITS } from './types.js';
export { consultable } from './candidate.js';
export type { Brief, OpinionServer } from './brief.js';
export { briefOf, briefText, describeStep, instructions, requestBody } from './brief.js';
export type { Reading } from './answer.js';
export { readOpinion, sureShare } from './answer.js';
export type { Asked, Plan, PlanInput } from './decide.js';
export {
  afterAnswer,
  afterFailure,
  memoOf,
  OPINION_ID,
  opinionReason,
  pausedUntil,
  planOpinion,
  raised,
  raises,
} from './decide.js';
