import { describe, expect, it } from 'vitest';
import { InputTooBigError, readAll } from '../../src/hook/input.js';

/** Chunks as a stream that may never end: after the last one it waits forever unless `ends`. */
async function* stream(chunks: readonly string[], ends: boolean): AsyncGenerator<Uint8Array> {
  for (const chunk of chunks) yield Buffer.from(chunk);
  if (!ends) await new Promise(() => undefined);
}

describe('readAll: one payload from stdin', () => {
  const rows: readonly { name: string; chunks: string[]; ends: boolean; text: string }[] = [
    { name: 'one chunk, then the end', chunks: ['{"a":1}'], ends: true, text: '{"a":1}' },
    { name: 'no trailing newline, stdin left open', chunks: ['{"a":1}'], ends: false, text: '{"a":1}' },
    { name: 'a trailing newline, stdin left open', chunks: ['{"a":1}\n'], ends: false, text: '{"a":1}\n' },
    {
      name: 'an object split over chunks, stdin left open',
      chunks: ['{"a":', '{"b":"}"}', '}'],
      ends: false,
      text: '{"a":{"b":"}"}}',
    },
    { name: 'a UTF-8 byte order mark is dropped', chunks: ['\ufeff{"a":1}'], ends: true, text: '{"a":1}' },
    {
      name: 'a brace inside a string does not end it early',
      chunks: ['{"c":"x}', '"}'],
      ends: true,
      text: '{"c":"x}"}',
    },
    { name: 'not JSON: read to the end', chunks: ['not', ' json}'], ends: true, text: 'not json}' },
    { name: 'empty', chunks: [], ends: true, text: '' },
  ];
  it.for(rows)('$name', async ({ chunks, ends, text }) => {
    expect((await readAll(stream(chunks, ends))).text).toBe(text);
  });

  it('a whole object is handed back parsed, so it is parsed once', async () => {
    expect(await readAll(stream(['{"a":', '[1, 2]}'], false))).toEqual({ text: '{"a":[1, 2]}', json: { a: [1, 2] } });
    expect(await readAll(stream(['not json}'], true))).toEqual({ text: 'not json}' });
  });

  it('a payload over the cap is refused, not read on', async () => {
    await expect(readAll(stream(['{"a":"', 'x'.repeat(100), '"}'], true), 64)).rejects.toBeInstanceOf(InputTooBigError);
  });
});
