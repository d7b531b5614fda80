import { describe, expect, it } from 'vitest';
import { AGENTS, placedPath } from '../src/index.js';

// A path of an agent's declaration on a machine: its `$VARIABLE` put in (an empty one is unset, an
// unknown one an error), `~` the home; other paths as written.

const files = AGENTS.codex.files;
const home = '/home/someone';

describe('placedPath', () => {
  it.for([
    ['$CODEX_HOME/sessions', {}, '/home/someone/.codex/sessions'],
    ['$CODEX_HOME/sessions', { CODEX_HOME: '/elsewhere/codex' }, '/elsewhere/codex/sessions'],
    ['$CODEX_HOME/sessions', { CODEX_HOME: '' }, '/home/someone/.codex/sessions'],
    ['$CODEX_HOME', { CODEX_HOME: '/elsewhere/codex' }, '/elsewhere/codex'],
    ['~/.gemini/tmp', { CODEX_HOME: '/elsewhere/codex' }, '/home/someone/.gemini/tmp'],
    ['~', {}, home],
    ['/etc/codex/hooks.json', {}, '/etc/codex/hooks.json'],
    // near misses: a `~` or `$` not at the start is no home and no variable
    ['sessions/~/x', {}, 'sessions/~/x'],
    ['~other/x', {}, '~other/x'],
    ['/x/$CODEX_HOME', { CODEX_HOME: '/elsewhere/codex' }, '/x/$CODEX_HOME'],
  ] as const)('%s with %j is %s', ([path, env, placed]) => {
    expect(placedPath(files, path, { home, env })).toBe(placed);
  });

  it.for(['$GEMINI_HOME/tmp', '$CODEX_HOMEX/sessions'])('%s names no home of the agent: an error', (path) => {
    expect(() => placedPath(files, path, { home, env: {} })).toThrow(/is not one of the agent's homes/);
  });
});
