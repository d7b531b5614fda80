import { describe, expect, it } from 'vitest';
import { briefOf, DEFAULT_BARS, readOpinion, requestBody, sureShare } from '../../src/second-opinion/index.js';
import { step } from '../chat/harness.js';

// What the second opinion is sent (never a file's content, the transcript or a key) and how its
// answer is read (a plain or wrapped JSON object, with or without token log-probabilities).

const GITHUB = `ghp_${'a1B2c3D4e5'.repeat(3)}123456`;
const OPENAI = `sk-proj-${'Ab1Cd2Ef3Gh4'.repeat(4)}`;

function body(request: string | undefined, s = step('node tools/migrate_down_all.js')): string {
  return JSON.stringify(requestBody({ model: 'judge' }, briefOf(s, request, 'project')));
}

describe('the brief: the request, the step, the folder and the project; nothing else', () => {
  it('holds the request and the command, and asks both questions with a JSON schema', () => {
    const sent = JSON.parse(body('fix the typo in README.md')) as {
      model: string;
      messages: { role: string; content: string }[];
      response_format: { json_schema: { schema: { required: string[] } } };
    };
    expect(sent.model).toBe('judge');
    const user = sent.messages.find((m) => m.role === 'user')?.content ?? '';
    expect(user).toContain('fix the typo in README.md');
    expect(user).toContain('node tools/migrate_down_all.js');
    expect(user).toContain('/home/dev/project');
    expect(sent.response_format.json_schema.schema.required).toEqual(['irreversible', 'outside_request']);
  });
  it('without a request only the irreversibility question is asked', () => {
    const sent = JSON.parse(body(undefined)) as {
      response_format: { json_schema: { schema: { required: string[] } } };
    };
    expect(sent.response_format.json_schema.schema.required).toEqual(['irreversible']);
    expect(body(undefined)).not.toContain('outside_request');
  });
  const KEYED: readonly [string, string | undefined, Parameters<typeof step>[0]][] = [
    ['a key in the command', undefined, `curl -H "Authorization: token ${GITHUB}" -X DELETE https://example.com/repo`],
    ['a key in the request', `use ${OPENAI} to run the migration`, 'node migrate.js'],
    ['a key in an env assignment', undefined, `OPENAI_API_KEY=${OPENAI} node job.js`],
    ['a key in a write path', undefined, { kind: 'write', path: `/home/dev/project/${GITHUB}.txt`, content: 'x' }],
  ];
  it.each(KEYED)('masks %s', (_name, request, row) => {
    const text = body(request, step(row));
    expect(text).not.toContain(GITHUB);
    expect(text).not.toContain(OPENAI);
    expect(text).toContain('[redacted:');
  });
  it('a write is described by its path and size, never by its content (or a key in it)', () => {
    const content = `SECRET_PLAN=${GITHUB}\nline two of the file\n`;
    const text = body('add a config', step({ kind: 'write', path: '/home/dev/project/config.ts', content }));
    expect(text).toContain('/home/dev/project/config.ts');
    expect(text).toContain(`${Buffer.byteLength(content)} bytes`);
    expect(text).not.toContain('line two of the file');
    expect(text).not.toContain('SECRET_PLAN');
  });
  it('a patch is described by its files and sizes, never by its lines', () => {
    const patch =
      '*** Begin Patch\n*** Update File: src/a.ts\n@@\n-old body line\n+new body line\n*** Add File: b.txt\n+hidden text\n*** End Patch\n';
    const text = body('edit', step({ kind: 'patch', patch }));
    expect(text).toContain('src/a.ts');
    expect(text).toContain('b.txt');
    expect(text).not.toContain('new body line');
    expect(text).not.toContain('old body line');
    expect(text).not.toContain('hidden text');
  });
  it("the agent's own statement of intent is sent, masked", () => {
    const s = { ...step('node migrate.js'), intent: `roll back the database with ${GITHUB}` };
    const text = body('fix a typo', s);
    expect(text).toContain('roll back the database');
    expect(text).not.toContain(GITHUB);
  });
  it('a long command is clipped', () => {
    const text = body(undefined, step(`node x.js ${'a'.repeat(5_000)}`));
    expect(text.length).toBeLessThan(5_000);
  });
});

/** A chat/completions answer whose message is `content`. */
const answer = (content: unknown, extra: Record<string, unknown> = {}): unknown => ({
  choices: [{ index: 0, message: { role: 'assistant', content }, ...extra }],
});

describe('readOpinion: the answer read into a judgement, or why not', () => {
  const OK: readonly [string, unknown, boolean, { irreversible: number; outside?: number }][] = [
    [
      'plain JSON',
      answer('{"irreversible": 0.9, "outside_request": 0.95}'),
      true,
      { irreversible: 0.9, outside: 0.95 },
    ],
    [
      'wrapped in words',
      answer('Sure! {"irreversible": 0.2, "outside_request": 0.1} done'),
      true,
      { irreversible: 0.2, outside: 0.1 },
    ],
    [
      'in a code fence',
      answer('```json\n{"irreversible": 1, "outside_request": 0}\n```'),
      true,
      { irreversible: 1, outside: 0 },
    ],
    [
      'numbers as strings',
      answer('{"irreversible": "0.85", "outside_request": "0.9"}'),
      true,
      { irreversible: 0.85, outside: 0.9 },
    ],
    ['booleans', answer('{"irreversible": true, "outside_request": false}'), true, { irreversible: 1, outside: 0 }],
    [
      'in parts',
      answer([
        { type: 'text', text: '{"irreversible": 0.3, ' },
        { type: 'text', text: '"outside_request": 0.4}' },
      ]),
      true,
      { irreversible: 0.3, outside: 0.4 },
    ],
    [
      'the legacy text shape',
      { choices: [{ text: '{"irreversible": 0.5, "outside_request": 0.6}' }] },
      true,
      { irreversible: 0.5, outside: 0.6 },
    ],
    ['irreversible alone, no request', answer('{"irreversible": 0.97}'), false, { irreversible: 0.97 }],
  ];
  it.each(OK)('reads %s', (_name, response, withRequest, judgement) => {
    expect(readOpinion(response, withRequest, DEFAULT_BARS)).toEqual({ ok: true, judgement });
  });
  const BAD: readonly [string, unknown, boolean][] = [
    ['no choices', {}, true],
    ['an error body', { error: { message: 'model not found' } }, true],
    ['no message text', answer(null), true],
    ['no JSON', answer('I think this is dangerous.'), true],
    ['garbage', 'not an object', true],
    ['no irreversible', answer('{"outside_request": 0.9}'), true],
    ['no outside_request where a request was asked', answer('{"irreversible": 0.9}'), true],
    ['a probability above 1', answer('{"irreversible": 1.5, "outside_request": 0.9}'), true],
    ['a negative probability', answer('{"irreversible": -0.1, "outside_request": 0.9}'), true],
    ['a word for a probability', answer('{"irreversible": "high", "outside_request": 0.9}'), true],
    ['an array', answer('[0.9, 0.9]'), true],
    ['a brace storm', answer('{'.repeat(5_000) + '}'.repeat(5_000)), true],
  ];
  it.each(BAD)('cannot read %s (then the step is not judged)', (_name, response, withRequest) => {
    const reading = readOpinion(response, withRequest, DEFAULT_BARS);
    expect(reading.ok).toBe(false);
    expect(!reading.ok && reading.why).toMatch(/\w/);
  });
});

/** Tokens spelling `content`, each with its log-probability and alternatives. */
function tokens(content: string, at: Record<string, { p: number; alts?: Record<string, number> }>) {
  const parts = content.match(/\d|[^\d]+/g) ?? [];
  return parts.map((token, i) => {
    const spec = at[`${i}:${token}`];
    return {
      token,
      logprob: Math.log(spec?.p ?? 1),
      top_logprobs: Object.entries(spec?.alts ?? {}).map(([alt, p]) => ({ token: alt, logprob: Math.log(p) })),
    };
  });
}

describe('log-probabilities: an answer that clears its bar counts only when the model was sure of it', () => {
  const content = '{"irreversible": 0.9, "outside_request": 0.9}';
  const parts = content.match(/\d|[^\d]+/g) ?? [];
  const nines = parts.flatMap((part, i) => (part === '9' ? [i] : []));
  const withLogprobs = (p: number, alts: Record<string, number>) =>
    answer(content, {
      logprobs: {
        content: tokens(content, Object.fromEntries(nines.map((i) => [`${i}:9`, { p, alts }]))),
      },
    });
  it('sure: most probability on digits that clear the bar', () => {
    const reading = readOpinion(withLogprobs(0.7, { '9': 0.7, '8': 0.2, '1': 0.1 }), true, DEFAULT_BARS);
    expect(reading).toEqual({ ok: true, judgement: { irreversible: 0.9, outside: 0.9 } });
  });
  it('unsure: most probability below the bar, so it counts as 0 (silence)', () => {
    const reading = readOpinion(withLogprobs(0.3, { '9': 0.3, '2': 0.4, '1': 0.3 }), true, DEFAULT_BARS);
    expect(reading).toEqual({ ok: true, judgement: { irreversible: 0, outside: 0 } });
  });
  it('no alternatives listed: the chosen token counts with its own probability', () => {
    expect(readOpinion(withLogprobs(0.9, {}), true, DEFAULT_BARS)).toEqual({
      ok: true,
      judgement: { irreversible: 0.9, outside: 0.9 },
    });
    expect(readOpinion(withLogprobs(0.2, {}), true, DEFAULT_BARS)).toEqual({
      ok: true,
      judgement: { irreversible: 0, outside: 0 },
    });
  });
  it('tokens that do not spell the answer are ignored', () => {
    const response = answer(content, { logprobs: { content: [{ token: 'x', logprob: -9, top_logprobs: [] }] } });
    expect(readOpinion(response, true, DEFAULT_BARS)).toEqual({
      ok: true,
      judgement: { irreversible: 0.9, outside: 0.9 },
    });
  });
  it('sureShare reads the digit that made the number clear the bar', () => {
    const toks = tokens('{"irreversible": 0.85}', {});
    expect(
      sureShare(
        '{"irreversible": 0.85}',
        'irreversible',
        toks.map((t) => ({ token: t.token, logprob: t.logprob, alternatives: [] })),
        0.8,
      ),
    ).toBe(1);
    expect(sureShare('{"irreversible": 0.85}', 'outside_request', [], 0.8)).toBeUndefined();
  });
});
