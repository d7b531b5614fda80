// Parts of `npm run bench` about scale (issue "fast at any size"), each reported as ratios to
// `node -e 0` measured in the same run:
//
// - repoBench: the hook's time on harmless, commit, delete and checkout steps in generated
//   repositories of several sizes, and whether `git add -A && git commit` over an untracked `.env`
//   is blocked every time (each try a fresh chat; `commitTries` tries in all, 20 by default, with
//   the machine's load while they ran).
// - loadBench: N hooks of one chat started at once against N `node -e 0` started at once, p50/p99
//   of each process's wall time.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';

/** A Codex PreToolUse payload for `command` in `cwd` (the shape `guard setup codex` is fed). */
export function codexPayload(command, cwd, chat = '01a2273f-cfcb-7371-b14a-9ad11511244c', call = 0) {
  return JSON.stringify({
    session_id: chat,
    turn_id: '01a2273f-cfe3-76f2-915a-6ebc8cd5e514',
    transcript_path: null,
    cwd,
    hook_event_name: 'PreToolUse',
    model: 'gpt-5.5',
    permission_mode: 'default',
    tool_name: 'Bash',
    tool_input: { command },
    tool_use_id: `call_${call}`,
  });
}

/**
 * A git repository of `files` tracked files (20 to a folder, 10 folders to a package folder),
 * committed, with one tracked file changed and an untracked `.env` at the top. Every file has the
 * same text, so git stores one blob: the repository is quick to make, and git's cost in it (which
 * reads names and file times, not contents) is that of a real one of that size.
 */
export function makeRepository(dir, files) {
  mkdirSync(dir, { recursive: true });
  const git = (...args) => {
    const result = spawnSync('git', ['-c', 'user.name=bench', '-c', 'user.email=bench@example.com', ...args], {
      cwd: dir,
      stdio: ['ignore', 'ignore', 'pipe'],
      encoding: 'utf8',
    });
    if (result.status !== 0) throw new Error(`git ${args.join(' ')}: ${result.stderr}`);
  };
  git('init', '-q');
  const text = 'export const value = 1;\n';
  for (let i = 0; i < files; i++) {
    const folder = `pkg${Math.floor(i / 200)}/mod${Math.floor(i / 20) % 10}`;
    if (i % 20 === 0) mkdirSync(join(dir, folder), { recursive: true });
    writeFileSync(join(dir, folder, `file${i % 20}.ts`), text);
  }
  git('add', '-A');
  git('commit', '-q', '-m', 'bench repository');
  writeFileSync(join(dir, 'pkg0/mod0/file1.ts'), 'export const value = 2;\n');
  writeFileSync(join(dir, '.env'), 'API_KEY=bench\n');
}

/** The steps measured in each repository, with what guard must answer. */
export const REPO_STEPS = [
  { name: 'harmless: git status', command: 'git status', expect: 'allow' },
  { name: 'harmless: npm test', command: 'npm test', expect: 'allow' },
  { name: 'checkout: git checkout -- <changed file>', command: 'git checkout -- pkg0/mod0/file1.ts', expect: 'ask' },
  { name: 'delete: rm -rf <folder>', command: 'rm -rf pkg1', expect: 'ask' },
  { name: 'commit: git commit -a (no secret changed)', command: 'git commit -am wip', expect: 'allow' },
  { name: 'commit: git add -A && git commit', command: 'git add -A && git commit -m wip', expect: 'block' },
];

/** What a Codex reply means: block (deny), ask (a deny that tells the agent to ask), or allow (nothing). */
export function seen(stdout) {
  const text = stdout.trim();
  if (text === '') return 'allow';
  const reason = JSON.parse(text)?.hookSpecificOutput?.permissionDecisionReason ?? '';
  return reason.startsWith('guard: blocked') ? 'block' : 'ask';
}

/**
 * For each size: `runs` rounds, each of `node -e 0` and every step once, in a rotating order.
 * `measure(argv, input)` spawns one process and returns `{ ms, stdout }`.
 */
export function repoBench({ sizes, runs, commitTries = 20, work, hooks, env, measure, log }) {
  const results = [];
  for (const files of sizes) {
    const dir = join(work, `repo-${files}`);
    const made = process.hrtime.bigint();
    log(`bench: making a repository of ${files.toLocaleString('en')} files…`);
    makeRepository(dir, files);
    const makeMs = Number(process.hrtime.bigint() - made) / 1e6;
    const cases = [
      { name: 'node -e 0', argv: ['-e', '0'], input: () => '' },
      ...hooks.flatMap((hook) =>
        REPO_STEPS.map((step) => ({
          ...step,
          name: hooks.length > 1 ? `${hook.label}: ${step.name}` : step.name,
          argv: [hook.path, 'hook', 'codex'],
          // a fresh chat every time: nothing remembered from the round before
          input: (round) => codexPayload(step.command, dir, `bench-${hook.label}-${files}-${round}`, round),
        })),
      ),
    ];
    // one untimed round: the file system cache is warm for every case alike
    for (const item of cases) measure(item.argv, item.input(-1), env);
    const ms = cases.map(() => []);
    const answers = cases.map(() => new Map());
    for (let round = 0; round < runs; round++) {
      for (let k = 0; k < cases.length; k++) {
        const at = (round + k) % cases.length;
        const item = cases[at];
        const sample = measure(item.argv, item.input(round), env);
        ms[at].push(sample.ms);
        if (at > 0) {
          const answer = seen(sample.stdout);
          answers[at].set(answer, (answers[at].get(answer) ?? 0) + 1);
        }
      }
    }
    // more fresh chats of the commit over the untracked .env, up to `commitTries` in all
    const tries = { loadBefore: machineLoad().loadAverage };
    for (let at = 1; at < cases.length; at++) {
      if (cases[at].expect !== 'block') continue;
      for (let round = runs; round < commitTries; round++) {
        const answer = seen(measure(cases[at].argv, cases[at].input(round), env).stdout);
        answers[at].set(answer, (answers[at].get(answer) ?? 0) + 1);
      }
    }
    tries.loadAfter = machineLoad().loadAverage;
    const base = median(ms[0]);
    results.push({
      files,
      makeSeconds: Math.round(makeMs / 100) / 10,
      nodeMs: round2(base),
      commitLoad: tries,
      steps: cases.slice(1).map((item, i) => ({
        name: item.name,
        expect: item.expect,
        medianMs: round2(median(ms[i + 1])),
        ratio: round2(median(ms[i + 1]) / base),
        answers: Object.fromEntries(answers[i + 1]),
      })),
    });
    rmSync(dir, { recursive: true, force: true });
  }
  return results;
}

/**
 * `count` processes at once, `rounds` times, alternating hooks of one chat and `node -e 0`: p50 and
 * p99 of each process's spawn-to-exit time. Half the hooks get an asked push (which the chat
 * saves), half a force push (the never list); the silent answers among them (an empty stdout or
 * `{}`, which Codex reads as "no objection") are counted: each of these steps must be answered with
 * a deny however loaded the machine, so the target is 0.
 */
export async function loadBench({ counts, rounds, work, hooks, env, log }) {
  const results = [];
  for (const count of counts) {
    log(`bench: ${count} at once…`);
    const nodeMs = [];
    const hookMs = hooks.map(() => []);
    const silent = hooks.map(() => 0);
    const batches = [
      () => Promise.all(Array.from({ length: count }, () => timed(process.execPath, ['-e', '0'], '', env))),
      ...hooks.map((hook) => (round) => {
        const chat = `bench-load-${hook.label}-${count}-${round}`;
        return Promise.all(
          Array.from({ length: count }, (_, i) =>
            timed(
              process.execPath,
              [hook.path, 'hook', 'codex'],
              codexPayload(`git push ${i % 2 === 0 ? '' : '--force '}origin branch-${i}`, work, chat, i),
              hook.env === undefined ? env : { ...env, ...hook.env },
            ),
          ),
        );
      }),
    ];
    for (let round = 0; round < rounds; round++) {
      // the order rotates, so no batch always meets a machine another one just warmed
      for (let k = 0; k < batches.length; k++) {
        const at = (round + k) % batches.length;
        const runs = await batches[at](round);
        if (at === 0) nodeMs.push(...runs.map((run) => run.ms));
        else {
          hookMs[at - 1].push(...runs.map((run) => run.ms));
          silent[at - 1] += runs.filter((run) => isSilent(run.stdout)).length;
        }
      }
    }
    const floor = { p50: percentile(nodeMs, 0.5), p99: percentile(nodeMs, 0.99) };
    results.push({
      count,
      rounds,
      nodeMs: { p50: round2(floor.p50), p99: round2(floor.p99) },
      hooks: hooks.map((hook, i) => {
        const guard = { p50: percentile(hookMs[i], 0.5), p99: percentile(hookMs[i], 0.99) };
        return {
          label: hook.label,
          hookMs: { p50: round2(guard.p50), p99: round2(guard.p99) },
          ratio: { p50: round2(guard.p50 / floor.p50), p99: round2(guard.p99 / floor.p99) },
          silent: silent[i],
          calls: hookMs[i].length,
        };
      }),
    });
  }
  return results;
}

/** Whether a hook's stdout is what Codex reads as "no objection": nothing, or an empty object. */
function isSilent(stdout) {
  const text = stdout.trim();
  return text === '' || text === '{}';
}

/** Spawn-to-exit wall time of one process, in ms, and its stdout (rejects when it fails). */
function timed(file, argv, input, env) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(file, argv, { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) reject(new Error(`${argv.join(' ')} exited ${code}: ${stderr}`));
      else resolve({ ms: Number(process.hrtime.bigint() - started) / 1e6, stdout });
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end(input);
  });
}

export function median(values) {
  return percentile(values, 0.5);
}

export function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (sorted.length - 1) * p;
  const low = Math.floor(at);
  const high = Math.ceil(at);
  return sorted[low] + (sorted[high] - sorted[low]) * (at - low);
}

export function round2(value) {
  return Math.round(value * 100) / 100;
}

/** The load average over 1, 5 and 15 minutes, and the number of cores. */
export function machineLoad() {
  return { loadAverage: loadavg().map((value) => round2(value)), cores: cpus().length };
}
