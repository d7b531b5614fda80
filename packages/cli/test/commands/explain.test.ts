import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { evaluate, readCommand, type Evaluation, type Finding, type Invocation, type ShellStep } from '@guard/core';
import { afterAll, describe, expect, it } from 'vitest';
import { explain, renderText, toJson, type ExplainJson, type ExplainOptions } from '../../src/commands/explain.js';
import type { Io } from '../../src/io.js';
import { captureIo, NOWHERE, NOWHERE_PROJECT } from '../capture-io.js';
import { systemSettingsPath } from '../../src/world/system-settings.js';

const CWD = '/home/dev/project';
const DECISIONS = ['allow', 'ask', 'block'];

async function explainJson(command: string, extra: Partial<ExplainOptions> = {}, io = captureIo()) {
  await explain({ command, json: true, jsonl: false, cwd: undefined, ...extra }, io.io);
  return JSON.parse(io.stdout()) as ExplainJson;
}

async function explainText(command: string): Promise<string> {
  const io = captureIo();
  await explain({ command, json: false, jsonl: false, cwd: undefined }, io.io);
  return io.stdout();
}

/** The text under each `^^^` marker of a text answer, read back from the line above it. */
function markedSlices(output: string): string[] {
  const lines = output.split('\n');
  const slices: string[] = [];
  lines.forEach((line, i) => {
    const gutter = /^ +\d+:\d+ \| /.exec(line)?.[0];
    const marker = lines[i + 1];
    if (gutter === undefined || marker === undefined) return;
    expect(marker.slice(0, gutter.length)).toBe(`${' '.repeat(gutter.length - 2)}| `);
    const carets = /\^+/.exec(marker.slice(gutter.length));
    expect(carets).not.toBeNull();
    if (carets) slices.push(line.slice(gutter.length).slice(carets.index, carets.index + carets[0].length));
  });
  return slices;
}

// Commands the shell reader and the engine will both see; plumbing only, whatever they decide.
const COMMANDS = [
  'git status',
  'sudo sh -c "cd /repo && git push --force"',
  'ls -la | wc -l',
  'echo "rm -rf /"',
  'cd build\nrm -rf .',
  'echo "unbalanced',
  'HUSKY=0 git commit -m "wip" > log.txt 2>&1',
  'x'.repeat(500),
];

describe('explain --json', () => {
  it.for(COMMANDS)('one object of the documented shape for %j', async (command) => {
    const answer = await explainJson(command);
    expect(Object.keys(answer).sort()).toEqual([
      'command',
      'cwd',
      'decision',
      'findings',
      'invocations',
      'opaque',
      'projectRoot',
    ]);
    expect(DECISIONS).toContain(answer.decision);
    expect(answer).toMatchObject({ command, cwd: NOWHERE_PROJECT, projectRoot: NOWHERE_PROJECT });
    const inRange = ([start, end]: readonly [number, number]) => 0 <= start && start <= end && end <= command.length;
    for (const finding of answer.findings) {
      expect(['block', 'ask']).toContain(finding.decision);
      expect(finding.ruleId).toMatch(/^[a-z]+\.[a-z-]+$/);
      expect(finding.reason).not.toBe('');
      expect(inRange(finding.span)).toBe(true);
      expect(finding.text).toBe(command.slice(...finding.span));
    }
    for (const invocation of answer.invocations) {
      expect(Object.keys(invocation).sort()).toEqual([
        'args',
        'cwd',
        'cwdKnown',
        'env',
        'name',
        'prefixes',
        'program',
        'redirects',
        'remoteHost',
        'span',
        'text',
        'via',
      ]);
      expect(inRange(invocation.span)).toBe(true);
      expect(invocation.text).toBe(command.slice(...invocation.span));
    }
    for (const part of answer.opaque) expect(part.text).toBe(command.slice(...part.span));
  });

  it.for(['git status', 'ls -la | wc -l', 'npm test', "git commit -m 'rm -rf /'"])(
    'harmless %j is allowed',
    async (command) => {
      const answer = await explainJson(command);
      expect(answer.decision).toBe('allow');
      expect(answer.findings).toEqual([]);
    },
  );

  it('reads through sudo and sh -c to the forced push, with its span in the original line', async () => {
    const line = 'sudo sh -c "cd /repo && git push --force"';
    const answer = await explainJson(line);
    expect(answer.decision).toBe('block');
    expect(answer.findings.map((f) => f.ruleId)).toContain('git.rewrite-shared-history');
    const git = answer.invocations.filter((inv) => inv.name === 'git');
    expect(git).toMatchObject([
      {
        args: ['push', '--force'],
        cwd: '/repo',
        via: [
          { kind: 'prefix', name: 'sudo' },
          { kind: 'shell-c', name: 'sh' },
        ],
      },
    ]);
    expect(line.slice(git[0]?.span[0], git[0]?.span[1])).toBe('git push --force');
  });

  describe('where the command runs', () => {
    const root = mkdtempSync(join(tmpdir(), 'guard-explain-'));
    mkdirSync(join(root, '.git'));
    mkdirSync(join(root, 'sub', 'dir'), { recursive: true });
    const outside = mkdtempSync(join(tmpdir(), 'guard-explain-'));
    afterAll(() => {
      rmSync(root, { recursive: true, force: true });
      rmSync(outside, { recursive: true, force: true });
    });

    it.for([
      {
        name: 'the git top level above --cwd is the project root',
        cwd: join(root, 'sub', 'dir'),
        base: '/',
        expected: join(root, 'sub', 'dir'),
        projectRoot: root,
      },
      {
        name: 'a relative --cwd is read from the process cwd',
        cwd: 'sub/dir',
        base: root,
        expected: join(root, 'sub', 'dir'),
        projectRoot: root,
      },
      { name: 'the folder holding .git is its own root', cwd: root, base: '/', expected: root, projectRoot: root },
      {
        name: 'no .git anywhere above: the cwd is the root',
        cwd: outside,
        base: '/',
        expected: outside,
        projectRoot: outside,
      },
    ])('$name', async ({ cwd, base, expected, projectRoot }) => {
      const answer = await explainJson('ls', { cwd }, captureIo({ cwd: base }));
      expect(answer.cwd).toBe(expected);
      expect(answer.projectRoot).toBe(projectRoot);
    });
  });
});

describe('explain (text)', () => {
  it.for(COMMANDS)('decision first, then each invocation marked under its span: %j', async (command) => {
    const [text, answer] = [await explainText(command), await explainJson(command)];
    const lines = text.split('\n');
    expect(lines[0]).toBe(answer.decision);
    expect(text.endsWith('\n')).toBe(true);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(80);
    const slices = markedSlices(text);
    expect(slices).toHaveLength(answer.findings.length + answer.opaque.length + answer.invocations.length);
    for (const { span } of answer.invocations) {
      const spanned = command.slice(...span).split('\n')[0] ?? '';
      // short spans show in full; long ones are cut at the window's edge
      if (spanned.length < 60) expect(slices).toContain(spanned);
      else expect(slices.some((s) => spanned.startsWith(s.replace(/…$/, '')))).toBe(true);
    }
  });
});

// A hand-made evaluation, so rendering is tested for every kind of part whatever the engine finds
// today. Built on real engine output, so fields added to the shapes later are filled in.
function invocation(fields: Partial<Invocation> & Pick<Invocation, 'program' | 'span'>): Invocation {
  const [base] = readCommand('true', { cwd: CWD, home: '/home/dev', tmp: '/tmp' }).invocations;
  if (!base) throw new Error('the shell reader found no invocation in `true`');
  return {
    ...base,
    name: fields.program,
    args: [],
    argSpans: [],
    env: {},
    redirects: [],
    cwd: CWD,
    cwdKnown: true,
    via: [],
    prefixes: [],
    ...fields,
  };
}

function evaluation(text: string, parts: Partial<Evaluation>): Evaluation {
  const base = evaluate(step(text), { home: '/home/dev', tmp: '/tmp' });
  return { ...base, decision: 'allow', findings: [], invocations: [], opaque: [], ...parts, text };
}

const step = (command: string): ShellStep => ({
  kind: 'shell',
  agent: 'codex',
  toolName: 'explain',
  chatId: '',
  cwd: CWD,
  projectRoot: CWD,
  command,
});

const finding = (span: readonly [number, number], fields: Partial<Finding> = {}): Finding => ({
  ruleId: 'git.rewrite-shared-history',
  decision: 'block',
  reason: 'Rewriting history that others have pulled cannot be undone from this machine, so it is not allowed here.',
  span,
  remember: 'never',
  concern: undefined,
  ...fields,
});

describe('renderText', () => {
  it('marks a finding, its reason wrapped to 80 columns, and each invocation with how it was reached', () => {
    const command = 'sudo sh -c "cd /repo && git push --force"';
    const gitAt = command.indexOf('git push');
    const out = renderText(
      evaluation(command, {
        decision: 'block',
        findings: [
          finding([gitAt, gitAt + 16], { saferWay: 'Push to a new branch.' }),
          finding([0, 4], { ruleId: 'system.elevate', decision: 'ask' }),
        ],
        invocations: [
          invocation({
            program: 'cd',
            args: ['/repo'],
            span: [12, 20],
            via: [
              { kind: 'prefix', name: 'sudo' },
              { kind: 'shell-c', name: 'sh' },
            ],
          }),
          invocation({
            program: 'git',
            args: ['push', '--force'],
            cwd: '/repo',
            span: [gitAt, gitAt + 16],
            via: [
              { kind: 'prefix', name: 'sudo' },
              { kind: 'shell-c', name: 'sh' },
            ],
            prefixes: [{ name: 'sudo', args: ['-u', 'root'] }],
          }),
        ],
      }),
      step(command),
    );
    const lines = out.split('\n');
    expect(lines[0]).toBe('block');
    expect(lines).toContain('  1. block git.rewrite-shared-history');
    expect(lines).toContain('  2. ask system.elevate');
    expect(lines.indexOf('  1. block git.rewrite-shared-history')).toBeLessThan(
      lines.indexOf('  2. ask system.elevate'),
    );
    expect(lines).toContain('     Safer: Push to a new branch.');
    expect(lines).toContain('  2. git push --force');
    expect(lines).toContain('     via: sudo → sh -c');
    expect(lines).toContain('     prefixes: sudo -u root');
    expect(lines).toContain('     cwd: /repo');
    expect(markedSlices(out)).toEqual(['git push --force', 'sudo', 'cd /repo', 'git push --force']);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(80);
    expect(lines.filter((l) => l.startsWith('     Rewriting') || l.startsWith('     undone')).length).toBeGreaterThan(
      0,
    );
  });

  it.for([
    { name: 'second line', text: 'cd build\nrm -rf .', span: [9, 17], location: '2:1', marked: 'rm -rf .' },
    { name: 'middle of the third line', text: 'a\nb\nls && rm x\nc', span: [10, 14], location: '3:7', marked: 'rm x' },
    {
      name: 'span running on past its line',
      text: 'cat <<EOF\nhi\nEOF',
      span: [0, 16],
      location: '1:1',
      marked: 'cat <<EOF',
    },
    { name: 'empty span at the end', text: 'echo "open', span: [10, 10], location: '1:11', marked: '' },
  ] as const)('multi-line: $name', ({ text, span, location, marked }) => {
    const out = renderText(evaluation(text, { opaque: [{ reason: 'unreadable', span }] }), step(text));
    expect(out).toContain(`     ${location} | `);
    const [slice] = markedSlices(out);
    expect(slice).toBe(marked);
  });

  it('shows a window of a long line with … at both cut ends, marker still aligned', () => {
    const text = `${'a'.repeat(150)} rm -rf / ${'b'.repeat(150)}`;
    const at = text.indexOf('rm');
    const out = renderText(evaluation(text, { findings: [finding([at, at + 8], { ruleId: 'fs.wipe' })] }), step(text));
    for (const line of out.split('\n')) expect(line.length).toBeLessThanOrEqual(80);
    const excerpt = out.split('\n').find((l) => l.includes(`1:${at + 1} | `));
    expect(excerpt).toMatch(/\| …a+ rm -rf \/ b+…$/);
    expect(markedSlices(out)).toContain('rm -rf /');
  });

  it('cuts a span longer than the window at the window', () => {
    const text = `echo ${'z'.repeat(200)}`;
    const out = renderText(
      evaluation(text, {
        invocations: [invocation({ program: 'echo', args: ['z'.repeat(200)], span: [0, text.length] })],
      }),
      step(text),
    );
    const [slice] = markedSlices(out);
    expect(slice?.startsWith('echo zzz')).toBe(true);
    expect(slice?.endsWith('z')).toBe(true);
    for (const line of out.split('\n')) expect(line.length).toBeLessThanOrEqual(80);
  });

  it('keeps control and bidi characters out of the terminal without moving the marker', () => {
    const text = 'echo \u001b[31m\u202e; rm -rf x';
    const at = text.indexOf('rm');
    const out = renderText(
      evaluation(text, { findings: [finding([at, at + 8], { ruleId: 'fs.delete', decision: 'ask' })] }),
      step(text),
    );
    expect(out).not.toMatch(/[\u001b\u202e]/);
    expect(markedSlices(out)).toEqual(['rm -rf x']);
  });

  it.for([
    {
      name: 'plain words stay bare',
      args: ['push', 'origin/main', '--force-with-lease=x'],
      line: 'git push origin/main --force-with-lease=x',
    },
    {
      name: 'spaces and quotes are single-quoted',
      args: ['commit', '-m', "it's done"],
      line: "git commit -m 'it'\\''s done'",
    },
    {
      name: "control characters use $'…'",
      args: ['commit', '-m', 'a\nb\tc\u0007'],
      line: "git commit -m $'a\\nb\\tc\\x07'",
    },
    { name: 'an empty argument is shown', args: ['commit', '-m', ''], line: "git commit -m ''" },
  ])('shell-quoted invocation line: $name', ({ args, line }) => {
    const text = 'git …';
    const out = renderText(
      evaluation(text, { invocations: [invocation({ program: 'git', args, span: [0, 3] })] }),
      step(text),
    );
    expect(out.split('\n')).toContain(`  1. ${line}`);
  });

  it('shows assignments, redirects, remote host and an unsure cwd', () => {
    const text = 'ssh box "HUSKY=0 git commit > out.txt 2>/dev/null"';
    const inv = invocation({
      program: 'git',
      args: ['commit'],
      span: [9, 49],
      env: { HUSKY: '0', MSG: 'a b' },
      cwdKnown: false,
      remoteHost: 'box',
      via: [{ kind: 'remote', name: 'ssh' }],
      redirects: [
        { op: '>', target: 'out.txt', write: true, append: false, span: [28, 37] },
        { op: '2>', fd: 2, target: '/dev/null', write: false, append: false, span: [38, 49] },
      ],
    });
    const lines = renderText(evaluation(text, { invocations: [inv] }), step(text)).split('\n');
    expect(lines).toContain("  1. HUSKY=0 MSG='a b' git commit");
    expect(lines).toContain(`     cwd: ${CWD} (best guess)`);
    expect(lines).toContain('     runs on: box');
    expect(lines).toContain('     via: ssh');
    expect(lines).toContain('     redirects: > out.txt (writes), 2> /dev/null');
  });

  it('says when nothing runs', () => {
    expect(renderText(evaluation('', {}), step('')).split('\n')).toEqual([
      'allow',
      `cwd: ${CWD}`,
      '',
      'Invocations (0)',
      '  (none)',
      '',
    ]);
  });

  it('toJson keeps spans and adds the spanned text', () => {
    const text = 'git push -f';
    const answer = toJson(
      evaluation(text, {
        decision: 'block',
        findings: [finding([0, 11])],
        invocations: [invocation({ program: 'git', args: ['push', '-f'], span: [0, 11] })],
      }),
      step(text),
    );
    expect(answer.findings).toEqual([
      { ruleId: 'git.rewrite-shared-history', decision: 'block', reason: finding([0, 0]).reason, span: [0, 11], text },
    ]);
    expect(answer.invocations[0]).toMatchObject({ program: 'git', remoteHost: null, text });
  });
});

describe('explain --jsonl', () => {
  // an absolute cwd outside the project (in a folder that does not exist, so nothing is read there)
  const ELSEWHERE = join(NOWHERE, 'srv', 'app');
  const run = async (stdin: string) => {
    const io = captureIo({ stdin });
    await explain({ command: undefined, json: false, jsonl: true, cwd: undefined }, io.io);
    return io.stdout();
  };

  it('answers every line in order; malformed lines get an error and the batch goes on', async () => {
    const input = [
      { line: '{"command": "git status"}', error: null },
      { line: '', error: /empty line/ },
      { line: '{"command": "ls", "cwd": "sub"}', error: null },
      { line: '{"command": ', error: /not valid JSON/ },
      { line: '   ', error: /empty line/ },
      { line: '["ls"]', error: /expected a JSON object/ },
      { line: '"ls"', error: /expected a JSON object/ },
      { line: 'null', error: /expected a JSON object/ },
      { line: '{"cmd": "ls"}', error: /"command" must be a string/ },
      { line: '{"command": 42}', error: /"command" must be a string/ },
      { line: '{"command": ""}', error: /"command" is empty/ },
      { line: '{"command": "ls", "cwd": 7}', error: /"cwd" must be a string/ },
      { line: `{"command": "ls", "cwd": ${JSON.stringify(ELSEWHERE)}, "extra": true}\r`, error: null },
      { line: '{"command": "echo \\"unbalanced"}', error: null },
    ];
    const out = (await run(`${input.map((i) => i.line).join('\n')}\n`)).split('\n');
    expect(out.pop()).toBe('');
    expect(out).toHaveLength(input.length);
    out.forEach((line, i) => {
      const answer = JSON.parse(line) as Record<string, unknown>;
      const { error } = input[i] ?? {};
      if (error) {
        expect(Object.keys(answer)).toEqual(['error']);
        expect(answer['error']).toMatch(error);
      } else {
        expect(answer).not.toHaveProperty('error');
        expect(DECISIONS).toContain(answer['decision']);
      }
    });
    expect(JSON.parse(out[2] ?? '')).toMatchObject({ command: 'ls', cwd: join(NOWHERE_PROJECT, 'sub') });
    expect(JSON.parse(out[12] ?? '')).toMatchObject({ command: 'ls', cwd: ELSEWHERE });
  });

  it('prints nothing for empty input', async () => {
    expect(await run('')).toBe('');
  });

  it('answers each line before reading the next (streams)', async () => {
    const captured = captureIo();
    const seen: number[] = [];
    const io: Io = {
      ...captured.io,
      async *stdinLines() {
        for (let i = 0; i < 3; i++) {
          seen.push(captured.stdout().split('\n').length - 1);
          yield '{"command": "ls"}';
        }
      },
    };
    await explain({ command: undefined, json: false, jsonl: true, cwd: undefined }, io);
    expect(seen).toEqual([0, 1, 2]);
  });
});

describe("guard's system folder (the organisation's settings floor) is guard's", () => {
  const settings = systemSettingsPath(join(NOWHERE, 'system-root'));
  const folder = dirname(settings);
  const tamper = async (command: string): Promise<boolean> =>
    (await explainJson(command)).findings.some((finding) => finding.ruleId === 'guard.tamper');
  it.for([
    `sudo rm ${settings}`,
    `echo 'offAllowed: true' | sudo tee ${settings}`,
    `sudo rm -rf ${folder}`,
    `sudo sed -i /lockedRules/d ${settings}`,
  ])('%s is guard.tamper', async (command) => {
    expect(await tamper(command)).toBe(true);
  });
  it.for([`cat ${settings}`, `sudo rm ${folder}ian.yaml`, `ls ${folder}`])('%s is not', async (command) => {
    expect(await tamper(command)).toBe(false);
  });
});
