export * from './types.js';
export * from './product.js';
export * from './shell/index.js';
export { quoteWord, type QuoteStyle } from './shell/quote.js';
export { fieldNames } from './analysis/mcp-args.js';
export * from './evaluate.js';
export * from './facts/paths.js';
export type {
  AgentKnowledge,
  AgentLists,
  AgentPattern,
  AgentProgram,
  HookAnchor,
  ProgramSwitch,
} from './facts/agents.js';
export { agentKnowledge, NO_AGENTS, SWITCH_OFF } from './facts/agents.js';
export * from './facts/hosts.js';
export * from './facts/keys.js';
export * from './facts/log-text.js';
export * from './facts/injection.js';
export * from './facts/patch.js';
export * from './rule.js';
export * from './policy.js';
export * from './catalogue.js';
export { buildContext, stepText, looseStrings, FRESH_SESSION } from './context/build.js';
export type {
  Arg,
  Argv,
  ChatCode,
  Environment,
  FileEffect,
  FileOp,
  NetEffect,
  Script,
  Stage,
  SubArgv,
} from './context/types.js';
export { rules } from './rules/index.js';
export * from './session.js';
export * from './chat/index.js';
export * from './modes.js';
export * from './floor.js';
export * from './second-opinion/index.js';
