import { readFileSync } from 'node:fs';
import type { Finding, Verdict } from '@guard/core';
import { expect } from 'vitest';
import type { HookReply } from '../src/adapter.js';

/** A recorded payload from test/fixtures/<agent>/<name>.json, JSON-parsed as the CLI would. */
export function fixture(agent: string, name: string): unknown {
  return JSON.parse(readFileSync(new URL(`fixtures/${agent}/${name}.json`, import.meta.url), 'utf8')) as unknown;
}

/** A finding as the engine would report it (only what the replies read matters here). */
export function finding(ruleId: string, decision: 'block' | 'ask', reason: string, saferWay?: string): Finding {
  return {
    ruleId,
    decision,
    reason,
    span: [0, 1],
    remember: 'never',
    concern: undefined,
    ...(saferWay === undefined ? {} : { saferWay }),
  };
}

/** A verdict whose decision is that of its first finding (allow when there is none). */
export function verdict(...findings: Finding[]): Verdict {
  return { decision: findings[0]?.decision ?? 'allow', findings, agentMessage: '', userMessage: '' };
}

export const blocked = verdict(
  finding(
    'secrets.read',
    'block',
    'Reading a stored secret can leak it where it cannot be taken back',
    'Use the example file instead',
  ),
  finding('fs.delete', 'ask', 'Deleting files that exist nowhere else cannot be undone'),
);
export const asked = verdict(finding('git.push', 'ask', 'A push publishes commits to a shared remote'));
export const allowed = verdict();

/** Which keys an agent accepts in a reply: `true` for a leaf, a nested shape for an object. */
export interface KeyShape {
  readonly [key: string]: true | KeyShape;
}

/**
 * Checks the agent contract every reply must keep: exit 0, and stdout either empty or exactly one
 * JSON object on one line (with a newline) that holds only keys the agent accepts.
 */
export function expectWellFormed(reply: HookReply, shape: KeyShape): void {
  expect(reply.exitCode).toBe(0);
  if (reply.stdout === '') return;
  expect(reply.stdout.endsWith('\n')).toBe(true);
  expect(reply.stdout.slice(0, -1)).not.toContain('\n');
  const value: unknown = JSON.parse(reply.stdout);
  expectKeys(value, shape, '');
}

function expectKeys(value: unknown, shape: KeyShape, path: string): void {
  expect(typeof value === 'object' && value !== null && !Array.isArray(value), `${path || 'reply'} is an object`).toBe(
    true,
  );
  for (const [key, inner] of Object.entries(value as Record<string, unknown>)) {
    const allowed = shape[key];
    expect(allowed, `unexpected key ${path}${key}`).toBeDefined();
    if (allowed !== undefined && allowed !== true) expectKeys(inner, allowed, `${path}${key}.`);
  }
}
