import { describe, expect, it } from 'vitest';
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
