import { expect } from 'vitest';
import type { LogEntry } from '../../../packages/cli/src/state/decision-log.js';
import type { Turn } from './fake-model.js';
import { entriesFor, leftUndone, SAYS } from './scenario.js';
import type { World } from './world.js';

/**
 * The story most agents' suites tell in one chat, one step per scripted turn: a harmless command,
 * a force push, and a push asked twice. Run it against a remote that is only ahead (`remote(world,
 * 'ahead')`): any push that got through would move it.
 */
export const STORY: readonly Turn[] = [
  { shell: 'touch made-by-agent.txt' },
  { shell: 'git push --force origin main' },
  { shell: 'git push origin main' },
  { shell: 'git push origin main' },
];

/** The force push of the story was blocked by its rule, and the model read why (`told`). */
export function expectForcePushBlocked(world: World, told: string | undefined): LogEntry | undefined {
  const [entry] = entriesFor(world, 'git push --force origin main');
  expect(entry).toMatchObject({ decision: 'block', how: 'rules' });
  expect(entry?.rules).toContain('git.rewrite-shared-history');
  expect(told).toContain(SAYS.forcePush);
  expect(told).toContain(entry?.reason);
  return entry;
}

/**
 * The story's push asked twice where nobody can answer: the first answer is "safer way, or leave
 * it out", the second leaves it undone, and `guard report` lists it so.
 */
export async function expectAskedTwice(
  world: World,
  first: string | undefined,
  second: string | undefined,
): Promise<void> {
  expect(first).toContain(SAYS.away);
  expect(first).not.toContain(SAYS.leftUndone);
  expect(second).toContain(SAYS.leftUndone);
  expect(entriesFor(world, 'git push origin main').map((entry) => [entry.decision, entry.answer])).toEqual([
    ['ask', 'block'],
    ['ask', 'block'],
  ]);
  expect(await leftUndone(world)).toEqual([
    expect.objectContaining({ step: 'git push origin main', rules: ['git.push'] }),
  ]);
}
