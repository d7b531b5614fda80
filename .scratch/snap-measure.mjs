// experiment: hook start from a V8 start-up snapshot vs the bundle with its code cache vs node -e 0
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir, loadavg } from 'node:os';
import { join } from 'node:path';
import { codexPayload, median, seen } from '../scripts/bench-scale.mjs';
const [blob, runs = '20'] = process.argv.slice(2);
const dir = mkdtempSync(join(tmpdir(), 'snap-m-'));
const env = { PATH: process.env.PATH, HOME: dir, GUARD_HOME: join(dir, 'g') };
const hook = 'packages/cli/dist/hook-entry.cjs';
const cases = [
  ['node -e 0', ['-e', '0'], ''],
  ['bundle: git status', [hook, 'hook', 'codex'], codexPayload('git status', dir)],
  ['snapshot: git status', ['--snapshot-blob', blob, 'hook', 'codex'], codexPayload('git status', dir)],
  ['bundle: push --force', [hook, 'hook', 'codex'], codexPayload('git push --force origin main', dir)],
  ['snapshot: push --force', ['--snapshot-blob', blob, 'hook', 'codex'], codexPayload('git push --force origin main', dir)],
];
const ms = cases.map(() => []);
const cpu = cases.map(() => []);
const answers = cases.map(() => new Set());
console.log('load before', loadavg());
for (let r = -1; r < Number(runs); r++) {
  for (let k = 0; k < cases.length; k++) {
    const at = (r + 1 + k) % cases.length;
    const [, argv, input] = cases[at];
    const t = process.hrtime.bigint();
    const res = spawnSync('/usr/bin/time', ['-f', 'CPU:%U+%S', process.execPath, ...argv], { input, env, encoding: 'utf8' });
    const d = Number(process.hrtime.bigint() - t) / 1e6;
    if (r < 0) continue;
    ms[at].push(d);
    const m = /CPU:([\d.]+)\+([\d.]+)/.exec(res.stderr);
    cpu[at].push((Number(m?.[1]) + Number(m?.[2])) * 1000);
    answers[at].add(at === 0 ? '' : seen(res.stdout));
  }
}
const base = median(ms[0]);
const baseCpu = median(cpu[0]);
for (let i = 0; i < cases.length; i++)
  console.log(cases[i][0].padEnd(24), median(ms[i]).toFixed(0).padStart(6), 'ms', (median(ms[i]) / base).toFixed(2) + 'x', ' cpu', median(cpu[i]).toFixed(0), 'ms', (median(cpu[i]) / baseCpu).toFixed(2) + 'x', [...answers[i]].join(','));
console.log('load after', loadavg());
