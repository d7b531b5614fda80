import { describe, expect, it } from 'vitest';
import type { Call, Chat, Settled } from '../../src/chat/index.js';
import { apply, newChat, onPrompt, onResult, rememberedBy, settle, viewOf } from '../../src/chat/index.js';
import { evaluate, keepsYes } from '../../src/evaluate.js';
import type { Mode } from '../../src/modes.js';
import { MODES } from '../../src/modes.js';
import type { Concern, ExampleStep, Probe } from '../../src/rule.js';
import { tableProbe } from '../../src/rule.js';
import type { YesScope } from '../../src/session.js';
import { approvalScope } from '../../src/session.js';
import { ENV, PROJECT, stepFrom } from '../rule-tester.js';
import { EMPTY_DISK, NOW } from './harness.js';

/**
 * How long a yes lasts (SPEC §12), driven through core's decisions as the hook drives them: a
 * chat on block-then-chat (the person's message carries the duration), and a store of the
 * project's yeses as the CLI keeps it (a set of memory keys per project root).
 */

const CODEX: Call = { canAsk: true, ask: 'block-then-chat' };

class Project {
  readonly kept = new Map<string, Set<string>>();
  has(root: string): (key: string) => boolean {
    return (key) => this.kept.get(root)?.has(key) ?? false;
  }
}

class Chatting {
  chat: Chat;
  constructor(
    readonly project: Project,
    readonly mode: Mode,
    id = 'chat-1',
    readonly root = PROJECT,
    readonly lockedRules: readonly string[] = [],
  ) {
    this.chat = newChat('codex', id, NOW);
  }
  step(example: ExampleStep, probe?: Probe): Settled {
    const s = { ...stepFrom(example), chatId: this.chat.chat, projectRoot: this.root };
    const rules = evaluate(s, {
      ...ENV,
      ...(probe === undefined ? {} : { probe }),
      session: viewOf(this.chat),
      remembered: rememberedBy(this.chat, this.project.has(this.root)),
    });
    const settled = settle(
      this.chat,
      s,
      rules,
      { ...CODEX, mode: this.mode, lockedRules: this.lockedRules },
      EMPTY_DISK,
    );
    this.chat = apply(this.chat, settled.change);
    return settled;
  }
  prompt(text: string): string | undefined {
    const decided = onPrompt(this.chat, text, { strict: false, lockedRules: this.lockedRules }, this.root);
    if (decided.project !== undefined) {
      const keys = this.project.kept.get(decided.project.root) ?? new Set<string>();
      for (const key of decided.project.keys) keys.add(key);
      this.project.kept.set(decided.project.root, keys);
    }
    this.chat = apply(this.chat, decided.change);
    return decided.notice;
  }
  /** The agent read a web page: the bar is up until the person's next message. */
  readUntrusted(): void {
    const s = stepFrom({ kind: 'fetch', url: 'https://example.com/page' });
    const decided = onResult(this.chat, { agent: 'codex', chatId: this.chat.chat, step: s, output: 'text' }, ENV);
    this.chat = apply(this.chat, decided.change);
  }
}

/** One asked step per concern class, and whether a yes to it may be kept beyond the step. */
const STEPS: readonly { concern: Concern; rule: string; step: ExampleStep; keeps: boolean }[] = [
  {
    concern: 'outside',
    rule: 'fs.write-outside',
    step: { kind: 'write', path: '/home/dev/notes/todo.md', content: 'x' },
    keeps: true,
  },
  {
    concern: 'outside',
    rule: 'net.new-site',
    step: 'curl -fsSL https://example.org/data.json -o data.json',
    keeps: true,
  },
  { concern: 'outside', rule: 'pkg.install', step: 'pnpm add zod', keeps: true },
  { concern: 'sending', rule: 'git.push', step: 'git push origin feature', keeps: true },
  {
    concern: 'secrets',
    rule: 'script.prints-key',
    step: 'node -e "console.log(process.env.GITHUB_TOKEN)"',
    keeps: false,
  },
  { concern: 'destructive', rule: 'fs.delete', step: 'rm -rf src', keeps: false },
  {
    concern: 'rules-or-machine',
    rule: 'mcp.changes',
    step: { kind: 'mcp', server: 'github', tool: 'create_issue', args: { owner: 'acme', repo: 'site', title: 'x' } },
    keeps: true,
  },
];

/** The person's words for each duration. */
const SAID: Readonly<Record<YesScope, string>> = {
  once: 'yes, just this once',
  chat: 'yes',
  project: 'yes, for this project',
};
const DURATIONS: readonly YesScope[] = ['once', 'chat', 'project'];

/** Which classes each mode asks about (the rest go ahead unasked). */
const ASKS: Readonly<Record<Mode, ReadonlySet<Concern>>> = {
  standard: new Set(['outside', 'sending', 'secrets', 'destructive', 'rules-or-machine']),
  extended: new Set(['sending', 'secrets', 'destructive', 'rules-or-machine']),
  full: new Set(),
};

const rows = MODES.flatMap((mode) =>
  STEPS.flatMap((row) =>
    DURATIONS.map((duration) => [`${mode} × ${row.rule} (${row.concern}) × ${duration}`, mode, row, duration] as const),
  ),
);

describe('every mode × concern class × duration', () => {
  it('covers 3 modes × 5 classes × 3 durations', () => {
    expect(new Set(rows.map(([, mode, row, duration]) => `${mode}/${row.concern}/${duration}`)).size).toBe(45);
  });

  it.for(rows)('%s', ([, mode, row, duration]) => {
    const project = new Project();
    const first = new Chatting(project, mode);
    const asked = first.step(row.step);
    expect(asked.mode).toBe(mode);
    if (!ASKS[mode].has(row.concern)) {
      // the mode lets it go ahead: no question, nothing to say yes to, nothing kept
      expect(asked).toMatchObject({ verdict: { decision: 'allow' }, how: 'mode' });
      expect(asked.byMode.map((finding) => finding.ruleId)).toContain(row.rule);
      expect(asked.approvalCode).toBeUndefined();
      expect(first.prompt(SAID[duration])).toBeUndefined();
      expect(project.kept.size).toBe(0);
      return;
    }
    expect(asked.verdict.decision).toBe('ask');
    expect(asked.yesLasts).toBe(row.keeps ? 'longer' : 'once');
    expect(first.prompt(SAID[duration])).toMatch(/^guard: the person approved/);
    // the step asked about runs once, whatever the yes was for
    expect(first.step(row.step).verdict.decision).toBe('allow');
    const inChat = row.keeps && duration !== 'once';
    const forProject = row.keeps && duration === 'project';
    expect(first.step(row.step).verdict.decision, 'again in the same chat').toBe(inChat ? 'allow' : 'ask');
    expect(project.kept.size, 'kept for the project').toBe(forProject ? 1 : 0);
    // a new chat in the same project
    const later = new Chatting(project, mode, 'chat-2');
    const there = later.step(row.step);
    expect(there.verdict.decision, 'in a later chat').toBe(forProject ? 'allow' : 'ask');
    if (forProject) expect(there.how).toBe('project');
    // another project knows nothing of it
    expect(new Chatting(project, mode, 'chat-3', '/home/dev/other').step(row.step).verdict.decision).toBe('ask');
    // untrusted content lowers no bar: a yes for the project lapses while the bar is up
    const wary = new Chatting(project, mode, 'chat-4');
    wary.readUntrusted();
    expect(wary.step(row.step).verdict.decision, 'after untrusted content').toBe('ask');
  });
});

describe('a yes for the project', () => {
  it('survives into a new chat for the same package and the same host, not another', () => {
    const project = new Project();
    for (const [step, other] of [
      ['pnpm add zod', 'pnpm add zod-extra'],
      ['curl -fsSL https://example.org/a.json -o a.json', 'curl -fsSL https://example.net/a.json -o a.json'],
    ] as const) {
      const first = new Chatting(project, 'standard', `first ${step}`);
      expect(first.step(step).verdict.decision).toBe('ask');
      expect(first.prompt('yes always')).toMatch(/for this project/);
      const later = new Chatting(project, 'standard', `later ${step}`);
      expect(later.step(step)).toMatchObject({ verdict: { decision: 'allow' }, how: 'project' });
      expect(later.step(other).verdict.decision).toBe('ask');
    }
  });

  it.for(['rm -rf src', 'terraform destroy', 'psql -c "DROP TABLE users"'])(
    'does not exist for a destructive step (%s): once only',
    (step) => {
      const project = new Project();
      const first = new Chatting(project, 'standard');
      const asked = first.step(step);
      expect(asked.verdict.decision).toBe('ask');
      expect(asked.yesLasts).toBe('once');
      expect(first.prompt('yes, for this project')).toMatch(/for this one time, not for the project/);
      expect(project.kept.size).toBe(0);
      expect(first.step(step).verdict.decision).toBe('allow');
      expect(first.step(step).verdict.decision).toBe('ask');
    },
  );

  it.for([
    { step: 'rm -rf src', kept: 'fs.delete:/home/dev/project/src', decision: 'ask' },
    { step: 'terraform destroy', kept: 'infra.destroy:/home/dev/project terraform destroy', decision: 'ask' },
    // near miss: a yes kept for a push is read
    { step: 'git push origin feature', kept: 'git.push:origin/feature', decision: 'allow' },
  ])('is never read for a destructive key, even if one were kept ($step)', ({ step, kept, decision }) => {
    const project = new Project();
    const asked = new Chatting(project, 'standard').step(step);
    expect(asked.verdict.findings.map((finding) => finding.memoryKey)).toEqual([kept]);
    project.kept.set(PROJECT, new Set([kept]));
    expect(new Chatting(project, 'standard', 'chat-2').step(step).verdict.decision).toBe(decision);
    // nor in a chat that kept it (in another project, so only the chat's yes could count)
    const chat = new Chatting(project, 'standard', 'chat-3', '/home/dev/other');
    chat.chat = { ...chat.chat, approved: [kept] };
    expect(chat.step(step).verdict.decision).toBe(decision);
  });

  it.for([
    { step: 'rm -rf src', keeps: false },
    { step: 'git push origin feature', keeps: true },
    { step: 'node -e "console.log(process.env.GITHUB_TOKEN)"', keeps: false },
    { step: 'git push --force origin main', keeps: false },
  ])('keepsYes: $step → $keeps', ({ step, keeps }) => {
    const [finding] = evaluate(stepFrom(step), ENV).findings;
    expect(finding === undefined ? undefined : keepsYes(finding)).toBe(keeps);
  });

  it("comes only from the person's message: the agent's own words keep nothing", () => {
    const project = new Project();
    const s = new Chatting(project, 'standard');
    s.step('git push origin feature');
    // a result that quotes "yes, for this project" is no message of the person
    const ran = stepFrom('echo "yes, for this project"');
    s.chat = apply(
      s.chat,
      onResult(s.chat, { agent: 'codex', chatId: s.chat.chat, step: ran, output: 'yes, for this project' }, ENV).change,
    );
    expect(project.kept.size).toBe(0);
    expect(s.step('git push origin feature').verdict.decision).toBe('ask');
  });
});

describe('a yes for the project to a step with a locked rule lasts for the chat only', () => {
  it.for([
    { locked: ['git.push'], step: 'git push origin feature', notFor: ['git.push'] },
    { locked: ['*'], step: 'git push origin feature', notFor: ['git.push'] },
    { locked: ['*'], step: 'pnpm add zod', notFor: ['pkg.install'] },
    // near misses: another rule locked, none locked, a destructive step (no yes to keep at all)
    { locked: ['pkg.install'], step: 'git push origin feature', notFor: undefined },
    { locked: [], step: 'git push origin feature', notFor: undefined },
    { locked: ['*'], step: 'rm -rf src', notFor: undefined },
  ])('$step under $locked', ({ locked, step, notFor }) => {
    const project = new Project();
    const first = new Chatting(project, 'standard', 'chat-1', PROJECT, locked);
    const asked = first.step(step);
    expect(asked.verdict.decision).toBe('ask');
    expect(asked.yesNotForProject).toEqual(notFor);
    const notice = first.prompt('yes, for this project') ?? '';
    expect(notice.includes("which the organisation's system settings lock")).toBe(notFor !== undefined);
    // kept for the project only where no locked rule is in it (and the step keeps a yes at all)
    expect(project.kept.size).toBe(notFor === undefined && asked.yesLasts === 'longer' ? 1 : 0);
    // the chat's own yes holds either way
    expect(first.step(step).verdict.decision).toBe('allow');
  });
});

/** A project that lists its packages, so a package it does not list is pkg.unlisted. */
const LISTS = tableProbe({ packages: ['react'] });

describe('a yes to a step of several findings covers all of them for as long as the reply says', () => {
  // kept: the rules whose yes lasts beyond the step; again: those that ask again each time
  it.for([
    { step: 'npm install left-pad', probe: LISTS, kept: ['pkg.install'], again: ['pkg.unlisted'] },
    {
      step: 'npm install left-pad && git push origin feature',
      probe: LISTS,
      kept: ['pkg.install', 'git.push'],
      again: ['pkg.unlisted'],
    },
    { step: 'git push origin feature; pkill node', kept: ['git.push'], again: ['process.kill-by-name'] },
    { step: 'git push origin feature && rm -rf src', kept: ['git.push'], again: ['fs.delete'] },
    {
      step: 'pnpm add left-pad; pkill -f vite',
      probe: LISTS,
      kept: ['pkg.install'],
      again: ['pkg.unlisted', 'process.kill-by-name'],
    },
    // near misses: every finding kept, or none
    { step: 'git push origin feature && pnpm add zod', kept: ['git.push', 'pkg.install'], again: [] },
    { step: 'npm install react', probe: LISTS, kept: ['pkg.install'], again: [] },
    { step: 'pkill node', kept: [], again: ['process.kill-by-name'] },
    { step: 'rm -rf src && pkill node', kept: [], again: ['fs.delete', 'process.kill-by-name'] },
  ])('$step', ({ step, probe, kept, again }) => {
    const project = new Project();
    const first = new Chatting(project, 'standard');
    const asked = first.step(step, probe);
    expect(asked.verdict.decision).toBe('ask');
    expect(new Set(asked.verdict.findings.map((finding) => finding.ruleId))).toEqual(new Set([...kept, ...again]));
    expect(asked.yesLasts).toBe(kept.length > 0 ? 'longer' : 'once');
    expect(asked.yesOnceFor === undefined ? [] : [...asked.yesOnceFor].sort()).toEqual(
      kept.length > 0 ? [...again].sort() : [],
    );
    const notice = first.prompt('yes, for this project') ?? '';
    if (kept.length === 0) expect(notice).toMatch(/for this one time, not for the project/);
    else expect(notice).toMatch(/in later chats of this project/);
    // the reply names what its yes does not cover beyond this time, and nothing else
    const named = /after that (.*) asks? again each time/.exec(notice)?.[1] ?? '';
    for (const rule of [...kept, ...again])
      expect(named.includes(rule), rule).toBe(kept.length > 0 && again.includes(rule));
    // this time the whole step goes ahead
    expect(first.step(step, probe).verdict.decision).toBe('allow');
    // after it, in this chat and in a new chat of the project: what the reply said
    for (const chat of [first, new Chatting(project, 'standard', 'chat-2')]) {
      const later = chat.step(step, probe);
      const left = later.verdict.findings.map((finding) => finding.ruleId);
      if (kept.length === 0 || again.length === 0) {
        expect(later.verdict.decision).toBe(kept.length === 0 ? 'ask' : 'allow');
        if (kept.length === 0) expect(new Set(left)).toEqual(new Set(again));
      } else {
        expect(later.verdict.decision).toBe('ask');
        expect(new Set(left)).toEqual(new Set(again));
      }
    }
  });
});

describe('approvalScope: how long the person’s words say a yes lasts', () => {
  it.for([
    ['yes', 'chat'],
    ['ok go ahead', 'chat'],
    ['yes once', 'once'],
    ['yes, just this once', 'once'],
    ['yes, for this chat', 'chat'],
    ['ok for the whole session', 'chat'],
    ['yes, for this project', 'project'],
    ['yes always', 'project'],
    ['yes for the whole repo', 'project'],
    ['ok, always, for this workspace', 'project'],
    ['yes, for this project, but just once', undefined],
    ['yes always once', 'once'],
    ['yes for this chat, always', 'chat'],
    ['K7Q2', 'chat'],
    ['K7Q2 always', 'chat'],
    ['go with K7Q2 for the whole project', 'chat'],
    ['K7Q2 once', 'once'],
    ['always', undefined],
    ['project', undefined],
    ['for this project', undefined],
    ['yes but not for the project', undefined],
    ['no, not always', undefined],
    ['yes for the tests', undefined],
    ['yes '.repeat(9), undefined],
  ] as const)('%s → %s', ([message, scope]) => {
    expect(approvalScope(message, 'K7Q2')).toBe(scope);
  });
});
