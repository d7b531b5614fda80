import { describe, expect, it } from 'vitest';
import { tilde } from '../../src/agents/found.js';

describe('tilde', () => {
  it.for([
    ['/home/someone/.codex', '~/.codex'],
    ['/home/someone/a/b.jsonl', '~/a/b.jsonl'],
    // near misses: the home itself, a folder whose name only starts like it, a path elsewhere
    ['/home/someone', '/home/someone'],
    ['/home/someone-else/.codex', '/home/someone-else/.codex'],
    ['/srv/home/someone/x', '/srv/home/someone/x'],
  ] as const)('%s is %s', ([path, said]) => {
    expect(tilde(path, '/home/someone')).toBe(said);
  });
});
