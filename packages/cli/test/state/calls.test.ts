import { mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Verdict } from '@guard/core';
import { afterAll, describe, expect, it } from 'vitest';
import { CALL_KEPT_MS, claimCall } from '../../src/state/calls.js';

const ROOT = mkdtempSync(join(tmpdir(), 'guard-calls-'));
let count = 0;
const home = (): string => join(ROOT, `guard-${++count}`);
afterAll(() => rmSync(ROOT, { recursive: true, force: true }));

const BLOCK: Verdict = { decision: 'block', findings: [], agentMessage: 'no', userMessage: 'no' };
const PARTS = ['copilot', 'chat-1', 't:1', 'shell', 'git push --force'];

describe('claimCall: the first hook of a call decides, a later one gets its answer', () => {
  it('the first claim is first; a second is not, and has no answer until the first keeps one', () => {
    const guardHome = home();
    const first = claimCall(guardHome, PARTS, 'copilot');
    const second = claimCall(guardHome, PARTS, 'claude-code');
    expect(first.first).toBe(true);
    expect(second.first).toBe(false);
    if (!first.first || second.first) throw new Error('unreachable');
    expect(second.answer()).toBeUndefined();
    first.keep({ verdict: BLOCK, notice: 'guard is on' });
    expect(second.answer()).toEqual({ verdict: BLOCK, notice: 'guard is on' });
    // nothing of the step is in the file's name
    expect(readdirSync(join(guardHome, 'calls')).join()).not.toContain('push');
  });
  it('the same call through the same hook command again is the same payload sent twice: decided on its own', () => {
    const guardHome = home();
    const first = claimCall(guardHome, PARTS, 'copilot');
    const again = claimCall(guardHome, PARTS, 'copilot');
    if (!first.first || again.first) throw new Error('unreachable');
    expect(again.answer()).toBe('again');
    first.keep({ verdict: BLOCK });
    expect(again.answer()).toBe('again');
    // through the other hook command, the answer
    const other = claimCall(guardHome, PARTS, 'claude-code');
    expect(other.first === false && other.answer()).toEqual({ verdict: BLOCK });
  });
  it('the answer to another event is its notice, or none', () => {
    const guardHome = home();
    const first = claimCall(guardHome, ['start'], 'copilot');
    const later = claimCall(guardHome, ['start'], 'claude-code');
    if (!first.first || later.first) throw new Error('unreachable');
    first.keep({ event: true, notice: 'guard is on' });
    expect(later.answer()).toEqual({ event: true, notice: 'guard is on' });
    const quiet = claimCall(guardHome, ['result'], 'copilot');
    const again = claimCall(guardHome, ['result'], 'claude-code');
    if (!quiet.first || again.first) throw new Error('unreachable');
    quiet.keep({ event: true });
    expect(again.answer()).toEqual({ event: true });
  });
  it.for([
    { name: 'another host', parts: ['cursor', ...PARTS.slice(1)] },
    { name: 'another chat', parts: ['copilot', 'chat-2', ...PARTS.slice(2)] },
    { name: 'another call', parts: ['copilot', 'chat-1', 't:2', ...PARTS.slice(3)] },
    { name: 'another step', parts: [...PARTS.slice(0, 4), 'git push'] },
  ])('$name is another claim: first too', ({ parts }) => {
    const guardHome = home();
    claimCall(guardHome, PARTS, 'copilot');
    expect(claimCall(guardHome, parts, 'claude-code').first).toBe(true);
  });
  it.for([
    { name: 'empty (the first still deciding)', text: '' },
    { name: 'not JSON', text: '{"verdict":' },
    { name: 'no verdict', text: '{"notice":"x"}' },
    { name: 'a decision guard does not make', text: '{"verdict":{"decision":"go"}}' },
    { name: 'an event answer that is not one', text: '{"event":"yes","notice":"x"}' },
  ])('a claim file that is $name gives no answer (the hook decides on its own)', ({ text }) => {
    const guardHome = home();
    const first = claimCall(guardHome, PARTS, 'copilot');
    if (!first.first) throw new Error('unreachable');
    first.keep({ verdict: BLOCK });
    const [name = ''] = readdirSync(join(guardHome, 'calls'));
    writeFileSync(join(guardHome, 'calls', name), text);
    const later = claimCall(guardHome, PARTS, 'claude-code');
    expect(later.first === false && later.answer()).toBeUndefined();
  });
  it('claims older than a minute are swept when a call keeps its answer; newer ones stay', () => {
    const guardHome = home();
    const old = claimCall(guardHome, ['old'], 'copilot');
    if (!old.first) throw new Error('unreachable');
    old.keep({ verdict: BLOCK });
    // read while the old claim is the only one (a folder lists in no fixed order)
    const [oldName = ''] = readdirSync(join(guardHome, 'calls'));
    const young = claimCall(guardHome, ['young'], 'copilot');
    if (!young.first) throw new Error('unreachable');
    const past = (Date.now() - CALL_KEPT_MS - 1_000) / 1000;
    utimesSync(join(guardHome, 'calls', oldName), past, past);
    young.keep({ verdict: BLOCK });
    expect(readdirSync(join(guardHome, 'calls'))).toHaveLength(1);
    expect(readdirSync(join(guardHome, 'calls'))).not.toContain(oldName);
  });
  it('throws where guard’s folder cannot be written (the hook then decides on its own)', () => {
    const guardHome = home();
    writeFileSync(join(ROOT, `file-${count}`), 'not a folder');
    expect(() => claimCall(join(ROOT, `file-${count}`, 'guard'), PARTS, 'copilot')).toThrow();
    expect(claimCall(guardHome, PARTS, 'copilot').first).toBe(true);
  });
});
