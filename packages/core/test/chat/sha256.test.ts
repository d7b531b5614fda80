import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/chat/sha256.js';

describe('sha256Hex: the same digest as node:crypto', () => {
  const rows: readonly { name: string; text: string }[] = [
    { name: 'empty', text: '' },
    { name: 'abc', text: 'abc' },
    { name: '55 bytes (the padding still fits the block)', text: 'a'.repeat(55) },
    { name: '56 bytes (the length goes to a second block)', text: 'b'.repeat(56) },
    { name: '64 bytes', text: 'c'.repeat(64) },
    { name: '119 and 120 bytes', text: 'd'.repeat(119) + '|' + 'e'.repeat(120) },
    { name: 'non-ASCII (hashed as UTF-8)', text: 'shell\u0000/home/dév/прoject\u0000rm -rf 🗑️ build' },
    { name: 'a lone surrogate', text: 'x\ud800y' },
    { name: 'a megabyte', text: 'git push --force origin main\n'.repeat(36_000) },
  ];
  it.for(rows)('$name', ({ text }) => {
    expect(sha256Hex(text)).toBe(createHash('sha256').update(text).digest('hex'));
  });

  it('the known answer for "abc" (FIPS 180-4)', () => {
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});
