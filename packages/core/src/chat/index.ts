// A chat's memory and decisions (SPEC §5, §6 "ask" and "away"), as plain data and pure functions:
// the hook reads the chat, settles a verdict against it, answers, and then saves the change.
export type { Chat, Pending, StartScan } from './chat.js';
export {
  asksEachTime,
  notKeptForProject,
  withinLimits,
  isIdle,
  CHAT_LIMITS,
  newChat,
  rememberedBy,
  viewOf,
  barRaised,
} from './chat.js';
export type { Change, Recorded } from './change.js';
export { apply, asChange, changesNothing, NO_CHANGE, replay, withoutLoosening } from './change.js';
export type { AskStyle, Call, How, Outside, Settled } from './settle.js';
export { keepsServer, settle } from './settle.js';
export type { ChatSettings, Decided, ProjectYes, ServerScan, StartScanResult } from './events.js';
export { onPrompt, onResult, onServerScan, onStart } from './events.js';
export { approvalCode, commandId, fingerprint, shortHash } from './ids.js';
export { sha256Hex } from './sha256.js';
export type { ServerCheck, ServerSeen } from './servers.js';
export { ANY_SERVER, checkServers, printToAsk, serverPrint, whyUnchecked } from './servers.js';
