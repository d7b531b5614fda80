import { describe, expect, it } from 'vitest';
import type { AgentId } from '@guard/adapters';
import { heard, readsExitCode } from '../agent-answers.js';
import type { Said } from '../agent-answers.js';
import { AGENT_CASES, said } from '../hook-cases.js';
import type { Answer } from '../hook-cases.js';

/**
 * The readers the per-agent tables lean on (hook-cases.ts) read a hook's whole answer as the agent
 * does: each row an answer and what Codex (a JSON reply) or Windsurf and Kiro CLI (an exit code) make of it.
 */

const byId = (id: string) => {
  const found = AGENT_CASES.find((agentCase) => agentCase.agent === id);
  if (found === undefined) throw new Error(`no case for ${id}`);
  return found;
};
const codex = byId('codex');

const REASON = 'guard: blocked (git.push). Why.\n';
const DENY = `${JSON.stringify({ hookSpecificOutput: { permissionDecision: 'deny', permissionDecisionReason: 'x' } })}\n`;
const answer = (stdout: string, stderr: string, code: number | null): Answer => ({ stdout, stderr, code });

describe('reading a whole answer', () => {
  it.for(
    [
      { name: 'nothing, exit 0', given: answer('', '', 0), well: true, says: 'no objection', notes: '' },
      { name: 'exit 2, the reason on both', given: answer(REASON, REASON, 2), well: true, says: 'denied', notes: '' },
      {
        name: 'exit 2, a note before the reason',
        given: answer(REASON, `guard: it broke\n${REASON}`, 2),
        well: true,
        says: 'denied',
        notes: 'guard: it broke\n',
      },
      // near misses: the reason with an exit code the agent lets run, or missing from stderr
      { name: 'exit 0 with a reason', given: answer(REASON, REASON, 0), well: false, says: 'asked', notes: REASON },
      { name: 'exit 1 with a reason', given: answer(REASON, REASON, 1), well: false, says: 'asked', notes: REASON },
      { name: 'exit 2, nothing on stderr', given: answer(REASON, '', 2), well: false, says: 'asked', notes: '' },
      { name: 'ended by a signal', given: answer('', '', null), well: false, says: 'asked', notes: '' },
    ].flatMap((row) => ['windsurf', 'kiro'].map((agent) => ({ ...row, agent }))),
  )('$agent, $name', ({ agent, given, well, says, notes }) => {
    const exitCode = byId(agent);
    expect(exitCode.wellFormed(given)).toBe(well);
    expect(said(exitCode, given)).toBe(says);
    expect(exitCode.notes(given)).toBe(notes);
    expect(exitCode.read(given)).toEqual(well ? { ...given, stderr: notes, code: 0 } : given);
  });

  it.for([
    { name: 'nothing, exit 0', given: answer('', '', 0), well: true, says: 'no objection' },
    { name: 'a deny, exit 0', given: answer(DENY, 'guard: note\n', 0), well: true, says: 'denied' },
    // near misses: the same deny with another exit code, two lines, not an object
    { name: 'a deny, exit 2', given: answer(DENY, '', 2), well: false, says: 'denied' },
    { name: 'two lines', given: answer(`${DENY}${DENY}`, '', 0), well: false, says: undefined },
    { name: 'a list', given: answer('[1]\n', '', 0), well: false, says: 'asked' },
  ])('codex, $name', ({ given, well, says }) => {
    expect(codex.wellFormed(given)).toBe(well);
    expect(codex.read(given)).toBe(given);
    expect(codex.notes(given)).toBe(given.stderr);
    // (two replies are no JSON at all: the tables fail on wellFormed first)
    if (says !== undefined) expect(said(codex, given)).toBe(says);
  });
});

const IN_CHAT = "guard: this step needs the person's approval first (git.push). Ask them.";
const NOBODY = 'guard: blocked, because no one can approve this step here (git.push). Leave it out.';
const BLOCK = 'guard: blocked (git.push). Why.';
const nested = (decision: string, reason: string): string =>
  JSON.stringify({
    hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: decision, permissionDecisionReason: reason },
  });

describe("heard: what an answer stands for, by the agent's own reading", () => {
  it.for<{ agent: AgentId; given: Answer; said: Said; text: string }>([
    { agent: 'codex', given: answer('', '', 0), said: 'allow', text: '' },
    { agent: 'codex', given: answer(nested('deny', BLOCK), '', 0), said: 'block', text: BLOCK },
    // a deny in guard's words that ask the person in the chat is an ask; where an ask can reach a
    // person, one that says nobody can approve it is a block
    { agent: 'codex', given: answer(nested('deny', IN_CHAT), '', 0), said: 'ask', text: IN_CHAT },
    { agent: 'codex', given: answer(nested('deny', NOBODY), '', 0), said: 'block', text: NOBODY },
    // where none ever does, that is how the agent's ask reads
    {
      agent: 'crush',
      given: answer(JSON.stringify({ decision: 'deny', reason: NOBODY }), '', 0),
      said: 'ask',
      text: NOBODY,
    },
    {
      agent: 'cline',
      given: answer(JSON.stringify({ cancel: true, errorMessage: NOBODY }), '', 0),
      said: 'ask',
      text: NOBODY,
    },
    {
      agent: 'cline',
      given: answer(JSON.stringify({ cancel: true, errorMessage: BLOCK }), '', 0),
      said: 'block',
      text: BLOCK,
    },
    { agent: 'claude-code', given: answer(nested('ask', BLOCK), '', 0), said: 'ask', text: BLOCK },
    { agent: 'cursor', given: answer('{}\n', '', 0), said: 'allow', text: '' },
    // near misses: the ask's words not at the start, JSON the agent does not read, a signal, silence where it fails
    { agent: 'codex', given: answer(nested('deny', `x ${IN_CHAT}`), '', 0), said: 'block', text: `x ${IN_CHAT}` },
    { agent: 'codex', given: answer('{"a":1}\n', '', 0), said: 'failure', text: '' },
    { agent: 'codex', given: answer('', '', null), said: 'failure', text: '' },
    { agent: 'antigravity', given: answer('', '', 0), said: 'failure', text: '' },
    // the exit code's agents: their words on stderr, guard's notes before them
    {
      agent: 'windsurf',
      given: answer(`${IN_CHAT}\n`, `guard: a note\n${IN_CHAT}\n`, 2),
      said: 'ask',
      text: `guard: a note\n${IN_CHAT}`,
    },
    { agent: 'kiro', given: answer(`${BLOCK}\n`, `${BLOCK}\n`, 2), said: 'block', text: BLOCK },
    { agent: 'kiro', given: answer('', 'guard: a note\n', 1), said: 'failure', text: '' },
  ])('$agent: $given.stdout (exit $given.code) → $said', ({ agent, given, said: want, text }) => {
    expect(heard(agent, given)).toMatchObject({ said: want, text });
  });

  it.for<{ agent: AgentId; exitCode: boolean }>([
    { agent: 'windsurf', exitCode: true },
    { agent: 'kiro', exitCode: true },
    { agent: 'codex', exitCode: false },
    { agent: 'cline', exitCode: false },
    { agent: 'claude-code', exitCode: false },
  ])('$agent reads the exit code alone: $exitCode', ({ agent, exitCode }) => {
    expect(readsExitCode(agent)).toBe(exitCode);
  });
});
