import { describe, expect, it } from 'vitest';
import type { Finding } from '../../src/types.js';
import type { Example } from '../../src/rule.js';
import { rules } from '../../src/rules/index.js';
import { evaluateExample } from '../rule-tester.js';

/**
 * Every finding's message fits the step it is about: each rule's must-match examples (and the rows
 * below, from spellings that once got a message that did not fit) are run through the engine, and
 * each finding of that rule is read as the person reads it. A message must not name a placeholder,
 * point at nothing, name a path or a target the step does not hold, tell the person to delete
 * their home folder, speak of a file when the step is a command, or call a script block a file
 * name pattern.
 */

const HOME = '/home/dev';

/** More steps per rule, beyond its own examples. */
const MORE: Readonly<Record<string, readonly (string | Example)[]>> = {
  'fs.wipe': ['rm -rf ~', 'rm -rf ~/', 'rm -rf $HOME/*', 'Remove-Item -Recurse -Force $env:USERPROFILE', 'rm -rf /*'],
  'secrets.read': [
    'op read op://vault/db/password',
    'pass show db/prod',
    'bw get password github',
    'security find-generic-password -s gh -w',
    'aws secretsmanager get-secret-value --secret-id prod/db',
    'cat ~/.ssh/id_rsa',
  ],
  'git.push': ['git push origin', 'git push upstream', 'git push origin HEAD', 'git push --tags', 'git push --all'],
  'infra.destroy': [
    'aws ecs delete-service --cluster c --service s --force',
    'aws ec2 terminate-instances --instance-ids=i-1 i-2',
    'aws --profile prod s3 rm s3://assets --recursive',
    'az vm delete -g rg -n vm1 --yes',
    'gcloud --project=acme compute instances delete vm-1 vm-2 --zone=us-east1-b',
    'kubectl --context prod delete -f k8s/',
    'kubectl delete pods -A',
    'kubectl delete pods --all -n prod',
    'doctl compute droplet delete 123 --force',
  ],
  'shell.opaque': ['gci | ?{ $_.PSIsContainer } | % { $_.Name }', '*.sh --version'],
};

/** The part of a reason after its last `(`: what the finding names, when it names something. */
function detailOf(reason: string): string | undefined {
  const m = /\(([^()]*(?:\([^()]*\)[^()]*)*)\)\.$/.exec(reason);
  return m?.[1];
}

/** Words a detail may hold that are not the step's own: guard's words around the target. */
const JOINERS = new Set([
  'on',
  'to',
  'container',
  'pod',
  'HTTP',
  'DELETE',
  'another',
  'computer',
  '--all-namespaces',
  '...',
]);

/** What is wrong with one finding's message about `text` (the step as written); empty when it fits. */
function misfits(finding: Pick<Finding, 'ruleId' | 'reason' | 'span'>, text: string, probed = ''): string[] {
  const out: string[] = [];
  const { reason, span } = finding;
  const detail = detailOf(reason) ?? '';
  if (!/[.)]$/.test(reason.trim())) out.push('the reason is not a sentence');
  if (/\bundefined\b|\bNaN\b|\[object |\((?:null|\s*)\)|\/\?(?:[)/\s]|$)|\(\?\)/.test(reason))
    out.push('the reason names a placeholder');
  if (span[1] <= span[0] || text.slice(span[0], span[1]).trim() === '') out.push('the span is empty');
  else if (/^[{}()]$/.test(text.slice(span[0], span[1]).trim())) out.push('the span is a bracket, not a target');
  if (/^[{}()[\]]$/.test(detail)) out.push('the detail is a bracket, not a target');
  // a path the step does not hold: its last name is neither in the command nor in the world it ran in
  for (const path of detail.match(/(?:^|\s)(\/[^\s,;)]*)/g) ?? []) {
    const abs = path.trim().replace(/\/\*?$/, '');
    const base = abs.split('/').filter(Boolean).at(-1) ?? '';
    const home = abs === HOME && /~|\$HOME|\$\{HOME\}|USERPROFILE/.test(text);
    if (abs !== '' && !home && !text.includes(base) && !probed.includes(base))
      out.push(`the detail names ${abs}, which the step does not hold`);
  }
  // the home folder must never read as what to delete
  const advice = reason.slice(reason.lastIndexOf(';') + 1);
  if (
    /\(\/home\/dev\/?\*?\)\.$/.test(reason) &&
    /\b(?:delete|remove|erase)\b/.test(advice) &&
    !/\bnever\b/.test(advice)
  )
    out.push('the advice tells the person to delete the home folder');
  // a command that prints a secret is not a file
  if (/^[a-z][\w.-]* [a-z][\w-]*/.test(detail) && !detail.includes('/') && /\bthe file\b/.test(reason))
    out.push('the advice speaks of a file for a command');
  if (/is a file name pattern/.test(reason) && /[{}]/.test(text.slice(span[0], span[1])))
    out.push('a script block is called a file name pattern');
  // a remote target is named by the words the step holds, not by words moved or taken from elsewhere
  if (finding.ruleId === 'infra.destroy') {
    const words = text.split(/[\s"']+/);
    const shown = detail.replace(/ on \S+$/, '').split(/\s+/);
    shown.forEach((word, i) => {
      if (JOINERS.has(word)) return;
      const at = words.indexOf(word);
      if (at < 0 && !text.includes(word)) out.push(`the target names ${word}, which the step does not hold`);
      // a long option's value shown without its option (`--cluster c` shown as the target `c`)
      const option = words[at - 1];
      if (option !== undefined && /^--[\w-]+$/.test(option) && shown[i - 1] !== option)
        out.push(`the target names ${word} without the option it is the value of (${option})`);
    });
  }
  return out;
}

const stepText = (row: string | Example): string => {
  const step = typeof row === 'string' ? row : row.step;
  return typeof step === 'string' ? step : JSON.stringify(step);
};

describe.for(rules.map((rule) => [rule.meta.id, rule] as const))('%s: every finding fits its step', ([id, rule]) => {
  const rows = [...rule.meta.examples.match, ...(MORE[id] ?? [])];
  it.for(rows.map((row) => [stepText(row).slice(0, 100), row] as const))('%s', ([, row]) => {
    const evaluation = evaluateExample(row);
    const findings = evaluation.findings.filter((finding) => finding.ruleId === id);
    expect(findings.length, `no ${id} finding`).toBeGreaterThan(0);
    const probe = typeof row === 'string' ? undefined : row.probe;
    const probed = JSON.stringify(probe ?? {});
    for (const finding of findings) expect(misfits(finding, evaluation.text, probed), finding.reason).toEqual([]);
  });
});

describe('the check itself: messages that do not fit are caught (must-not-pass rows), fitting ones pass', () => {
  const finding = (ruleId: string, reason: string, span: [number, number]) => ({ ruleId, reason, span });
  it.for([
    // messages guard once gave
    [
      'fs.wipe',
      'This would erase the home folder; delete only the exact project folder you mean, written out in full (/home/dev).',
      'rm -rf ~',
      [7, 8],
    ],
    ['git.push', 'A push publishes commits; prefer a new branch with a pull request (origin/?).', 'git push', [0, 8]],
    [
      'secrets.read',
      'This would read a stored secret; let the person handle the file, or work from a template such as .env.example (op read).',
      'op read op://vault/db/password',
      [0, 30],
    ],
    [
      'shell.opaque',
      'guard cannot tell which program this runs: ?{ is a file name pattern that names no program guard knows.',
      'gci | ?{ $_.PSIsContainer }',
      [6, 8],
    ],
    [
      'infra.destroy',
      'This deletes something on another computer; check the target first (aws ecs delete-service c).',
      'aws ecs delete-service --cluster c --service s',
      [0, 45],
    ],
    ['fs.delete', 'This deletes files; commit first (}).', '& { Remove-Item -Recurse build }', [30, 31]],
    ['fs.delete', 'This deletes files; commit first (src).', 'rm -rf src', [7, 7]],
    [
      'fs.write-outside',
      'This writes outside the project (/home/dev/other/x.json).',
      'cp a.json ~/notes/y.json',
      [10, 24],
    ],
    ['pkg.unlisted', 'This package is not listed (undefined).', 'npm install left-pad', [12, 20]],
  ] as const)('%s: %s', ([ruleId, reason, text, span]) => {
    expect(misfits(finding(ruleId, reason, [...span]), text)).not.toEqual([]);
  });

  it.for([
    [
      'fs.wipe',
      'This would erase the home folder; delete only a folder inside the project, written out in full, and never what this step names (/home/dev).',
      'rm -rf ~',
      [7, 8],
    ],
    ['git.push', 'A push publishes commits (origin, the branch checked out).', 'git push', [0, 8]],
    [
      'secrets.read',
      'This would read a stored secret; let the person use it themselves (op read).',
      'op read x',
      [0, 9],
    ],
    [
      'infra.destroy',
      'This deletes something (aws ecs delete-service --cluster c --service s).',
      'aws ecs delete-service --cluster c --service s',
      [0, 45],
    ],
    ['fs.delete', 'This deletes files; commit first (src).', 'rm -rf src', [7, 10]],
    [
      'fs.write-outside',
      'This writes outside the project (/home/dev/notes/y.json).',
      'cp a.json ~/notes/y.json',
      [10, 24],
    ],
  ] as const)('fits, %s: %s', ([ruleId, reason, text, span]) => {
    expect(misfits(finding(ruleId, reason, [...span]), text)).toEqual([]);
  });
});
