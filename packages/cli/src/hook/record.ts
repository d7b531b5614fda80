// The hook's last stage: record, once the reply is out. The call's log line, the turn's request
// for the second opinion, the second opinion's pause, what the answer changes in the chat, an MCP
// server that became known, and the session layer's housekeeping: nothing of it is written before
// the agent has its answer, and nothing of it can change that answer. (What a decision stands on is
// kept by the stage that decides it: an event's change to the chat, whose notice holds only once it
// is kept; the chat-start scan's findings; the second opinion's health; the last good settings.)
import { exportIsOn, senderRunning } from '../export/config.js';
import { cliScriptPath } from '../self.js';
import { appendLog } from '../state/decision-log.js';
import { keepRequest } from '../state/opinion.js';
import { markTold } from '../state/pins.js';
import type { Call } from './call.js';
import { oneLine } from './call.js';
import type { Decision } from './decide.js';
import type { Answered } from './reply.js';

/**
 * Writes what the call leaves: what comes with the answer only when `answered` is the answer that
 * went out, what the decision leaves (`decision`: none for a failure answer) when it came too late
 * as well. Never throws (what cannot be written costs a line on stderr); returns the exit code.
 */
export function record(call: Call, answered: Answered, decision?: Decision): number {
  const { io, guardHome } = call;
  const after = decision?.after;
  if (answered.line !== undefined) {
    try {
      appendLog(guardHome, answered.line);
    } catch (error) {
      io.err(`guard: could not write the log in ${guardHome}: ${oneLine(error)}\n`);
    }
    keepTurn(call);
    try {
      after?.keepCall?.();
    } catch {
      // the other hook of the call decides on its own
    }
    if (after?.told !== undefined) {
      try {
        markTold(guardHome, after.told);
      } catch {
        // told again by the next answer that can carry it
      }
    }
  }
  if (after?.paused !== undefined) {
    try {
      appendLog(guardHome, { time: new Date().toISOString(), how: 'second-opinion-paused', reason: after.paused });
    } catch {
      // the step's own line says it could not be judged, and why
    }
  }
  if (after?.pin !== undefined) {
    try {
      // the chat was told only if this answer went out
      after.pin.keep(after.pin.told && answered.line !== undefined);
    } catch (error) {
      io.err(`guard: could not keep the project policy's pin: ${oneLine(error)}\n`);
    }
  }
  // a reply the deadline already gave is not this verdict: nothing to remember
  const chat = answered.line === undefined ? undefined : after?.chat;
  if (chat?.server !== undefined) {
    try {
      chat.memory.serverRan?.(chat.server);
    } catch (error) {
      io.err(`guard: could not keep the MCP server as known: ${oneLine(error)}\n`);
    }
  }
  if (chat !== undefined) {
    try {
      chat.memory.save(chat.change);
    } catch (error) {
      io.err(`guard: could not save this chat's memory: ${oneLine(error)}\n`);
    }
  }
  try {
    after?.session?.tidy?.();
  } catch {
    // housekeeping: what it could not do, a later call does
  }
  if (answered.line !== undefined) startSender(call);
  return answered.code;
}

/**
 * With export on, the log line just written is shipped by a sender of its own (`guard export send`,
 * detached), started when none runs: the hook only looks at two files, and the sender, not the
 * call, waits on the collector.
 */
function startSender(call: Call): void {
  const { guardHome, io } = call;
  try {
    if ((call.known.systemExport !== true && !exportIsOn(guardHome)) || senderRunning(guardHome)) return;
    const { spawn } = process.getBuiltinModule('node:child_process');
    spawn(process.execPath, [cliScriptPath(), 'export', 'send'], {
      detached: true,
      stdio: 'ignore',
      env: { ...io.env, GUARD_HOME: guardHome },
    }).unref();
  } catch (error) {
    io.err(`guard: could not start the export's sender: ${oneLine(error)}\n`);
  }
}

/**
 * The person's message is the turn's request, kept only while the second opinion is on (and guard
 * is): whatever the message was answered with, once it could be read.
 */
function keepTurn(call: Call): void {
  const { input, settings } = call.known;
  if (input?.type !== 'prompt' || input.chatId === '' || settings?.enabled !== true || !settings.secondOpinion.on)
    return;
  try {
    keepRequest(call.guardHome, call.agent, input.chatId, input.prompt, Date.now());
  } catch (error) {
    call.io.err(`guard: could not keep this turn's request for the second opinion: ${oneLine(error)}\n`);
  }
}
