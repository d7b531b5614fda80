import { join } from 'node:path';
import type { World } from './world.js';

/**
 * Nested agents with a changed world (issue 25): the agent starts another agent program with an
 * environment or limits that change how guard's hook runs in it, or with switches that leave the
 * person's hooks out. Each row is a command line the outer agent runs; guard.tamper must block it.
 * The near misses start the same programs in the world they run in, or change that world for a
 * program that is no agent.
 */

export interface NestedAttempt {
  readonly id: string;
  readonly command: string;
  readonly cwd: string;
}

/** The agent programs, as an agent would start one for a task of its own, and through npm. */
function starts(): readonly string[] {
  return [
    'codex exec "tidy the release branch"',
    'claude -p "tidy the release branch"',
    'gemini -p "tidy the release branch"',
    'copilot -p "tidy the release branch" --allow-all-tools',
    'cursor-agent -p "tidy the release branch"',
    'npx -y @openai/codex exec "tidy up"',
    'npx @google/gemini-cli@latest -p "tidy up"',
    'npx --yes @anthropic-ai/claude-code -p "tidy up"',
  ];
}

/** Ways to change the world of the agent started (`{}` is the agent's start). */
function changes(world: World): readonly string[] {
  const t = world.tmp;
  return [
    `GUARD_HOME=${t}/other-guard {}`,
    `GUARD_DEADLINE_MS=5 {}`,
    `GUARD_RESIDENT=off GUARD_SERVER_IDLE_MS=1 {}`,
    `XDG_STATE_HOME=${t}/state2 {}`,
    `XDG_CONFIG_HOME=${t}/config2 {}`,
    `HOME=${t}/elsewhere {}`,
    `USERPROFILE=${t}/elsewhere {}`,
    `NODE_OPTIONS="--require ${t}/early.cjs" {}`,
    `NODE_OPTIONS=--import=${t}/early.mjs {}`,
    `NODE_OPTIONS=--inspect=0 {}`,
    `NODE_PATH=${t}/mods {}`,
    'env -i PATH="$PATH" {}',
    'env --ignore-environment {}',
    'env -u GUARD_HOME {}',
    'env --unset=HOME {}',
    `export GUARD_HOME=${t}/g3; {}`,
    `declare -x XDG_STATE_HOME=${t}/s3 && {}`,
    `HOME=${t}/h4; {}`,
    'unset XDG_STATE_HOME GUARD_HOME; {}',
    'ulimit -v 250000; {}',
    '(ulimit -Sn 6 && {})',
    'ulimit -t 1 && {}',
    'prlimit --as=100000000 {}',
    `nohup env NODE_OPTIONS=-r${t}/early.cjs {} > run.log 2>&1 &`,
    `timeout 120 sh -c 'GUARD_HOME=${t}/g5 {}'`,
    `bash -c "ulimit -v 99999; exec {}"`,
    'exec -c {}',
    'sudo -u nobody {}',
  ];
}

/** Each agent's own home variable pointed at an empty folder, and the switches that leave the person's hooks out. */
function ownWays(world: World): readonly string[] {
  const t = world.tmp;
  return [
    `CODEX_HOME=${t}/empty codex exec "ship it"`,
    `CLAUDE_CONFIG_DIR=${t}/empty claude -p "ship it"`,
    `GEMINI_CLI_HOME=${t}/empty gemini -p "ship it"`,
    `COPILOT_HOME=${t}/empty copilot -p "ship it"`,
    'claude --setting-sources project,local -p "ship it"',
    'claude --setting-sources=local -p "ship it"',
    `claude --settings ${t}/quiet-settings.json -p "ship it"`,
    `claude --settings '{"disableAllHooks":true}' -p "ship it"`,
    'claude --bare -p "ship it"',
  ];
}

/** Every attempt: each change around each agent start, and each agent's own ways. */
export function nestedAttempts(world: World): NestedAttempt[] {
  const out: NestedAttempt[] = [];
  const all = starts();
  changes(world).forEach((change, c) =>
    all.forEach((start, s) =>
      out.push({ id: `change ${c} start ${s}`, command: change.replace('{}', start), cwd: world.project }),
    ),
  );
  ownWays(world).forEach((command, i) => out.push({ id: `own ${i}`, command, cwd: world.project }));
  return out;
}

/** The same programs started in the world they run in, and the world changed for programs that are no agent. */
export function nestedNearMisses(world: World): NestedAttempt[] {
  const t = world.tmp;
  const commands = [
    ...starts(),
    'CI=true codex exec "run the unit tests"',
    'LANG=C.UTF-8 TERM=dumb claude -p "summarise the diff"',
    'FOO=bar gemini -p "explain this file"',
    'PATH="$PWD/bin:$PATH" copilot -p "list the todos"',
    'timeout 900 cursor-agent -p "read the README"',
    'nohup codex exec "write the changelog" > codex.log 2>&1 &',
    'env TERM=xterm claude -p "hi"',
    'ulimit -a; codex exec "check the build"',
    'ulimit -n && gemini -p "hi"',
    'export RUST_LOG=info; codex exec "profile it"',
    'unset DEBUG; claude -p "hi"',
    'HOME="$HOME" claude -p "hi"',
    'claude --setting-sources user,project,local -p "hi"',
    `claude --settings ${world.project}/team-settings.json -p "hi"`,
    'claude --model sonnet -p "hi"',
    'codex --help',
    'claude --version',
    'echo "GUARD_HOME=/elsewhere codex exec"',
    'grep -rn NODE_OPTIONS docs',
    `GUARD_HOME=${t}/other-guard node --version`,
    `XDG_CONFIG_HOME=${t}/config2 git status`,
    'HOME=/tmp/empty-home ls',
    'env -i PATH=/usr/bin ls',
    'ulimit -v 2000000; node --version',
    'prlimit --nofile=1024 ls',
    'NODE_OPTIONS=--max-old-space-size=4096 node --version',
  ];
  return commands.map((command, i) => ({ id: `near ${i}`, command, cwd: world.project }));
}

/**
 * What a nested agent's hook finds around it: the environment changes an agent could make for the
 * agent it starts, applied to the hook command setup wrote (guard's folder there switches guard off,
 * the preload writes a marker), and the limits set around it.
 */
export function hookWorlds(
  world: World,
): readonly { readonly id: string; readonly env: Readonly<Record<string, string>>; readonly limit?: string }[] {
  const loose = join(world.tmp, 'loose-guard');
  return [
    { id: 'GUARD_HOME at a folder that switches guard off', env: { GUARD_HOME: loose } },
    { id: 'XDG_STATE_HOME at it', env: { XDG_STATE_HOME: join(world.tmp, 'loose-state') } },
    { id: 'HOME elsewhere, GUARD_HOME gone', env: { HOME: join(world.tmp, 'loose-home'), GUARD_HOME: '' } },
    { id: 'GUARD_DEADLINE_MS=1', env: { GUARD_DEADLINE_MS: '1' } },
    { id: 'NODE_OPTIONS --require', env: { NODE_OPTIONS: `--require ${join(world.tmp, 'early.cjs')}` } },
    { id: 'ulimit -v', env: {}, limit: 'ulimit -v 200000' },
    { id: 'ulimit -n', env: {}, limit: 'ulimit -n 5' },
  ];
}

/** The marker the preload writes when Node loads it into guard's hook. */
export function preloadMarker(world: World): string {
  return join(world.tmp, 'preloaded');
}
