import type { Span } from '../types.js';

/**
 * Text together with, for each of its characters, the index in the original line it came from.
 * `at(text.length)` is the index just after the last character. Inner strings (`bash -c "…"`,
 * `$(…)`, a string literal in inline code) are read as Mapped text, so spans found inside them
 * point back into the original line.
 */
export interface Mapped {
  readonly text: string;
  readonly at: (index: number) => number;
  /** Set on slices: the text this one is a piece of, and where in it the piece starts. */
  readonly source?: Mapped;
  readonly offset?: number;
}

/** The original line itself: every character maps to its own index. */
export function identity(text: string): Mapped {
  return { text, at: (i) => i };
}

/** A piece of a text: character i is character `offset + i` of `source`. */
class Slice implements Mapped {
  constructor(
    readonly text: string,
    readonly source: Mapped,
    readonly offset: number,
  ) {}

  // a method, not a closure per slice: the lexer makes a slice for most parts of most words
  at(i: number): number {
    return this.source.at(this.offset + i);
  }
}

/** A contiguous piece of `m`; shares its map instead of copying it. */
export function sliceMapped(m: Mapped, start: number, end: number): Mapped {
  if (start === 0 && end === m.text.length) return m;
  // slices of slices point at the first text, so lookups never walk a chain of slices
  return new Slice(m.text.slice(start, end), m.source ?? m, (m.offset ?? 0) + start);
}

/** The original span of characters `[start, end)` of `m`. */
export function spanOf(m: Mapped, start: number, end: number): Span {
  const a = m.at(start);
  if (end <= start) return [a, a];
  const b = m.at(end - 1) + 1;
  return a <= b ? [a, b] : [b - 1, a + 1];
}

/** `spanOf(m, start, end)[1]`, without building the span. */
export function spanEnd(m: Mapped, start: number, end: number): number {
  const a = m.at(start);
  if (end <= start) return a;
  const b = m.at(end - 1) + 1;
  return a <= b ? b : a + 1;
}

/** Collects characters with their original positions; used where text is not one contiguous piece. */
export interface MappedBuilder {
  /** Appends `text`, every character of it mapped to `at` (an escape or a resolved variable). */
  readonly char: (text: string, at: number) => void;
  /** Appends `text`, whose characters map to `from`, `from + 1`, … but never past `last`. */
  readonly spread: (text: string, from: number, last: number) => void;
  /** Appends characters `[start, end)` of `m`. */
  readonly piece: (m: Mapped, start: number, end: number) => void;
  /**
   * Appends `count` characters of `m`, every other one from `start` on (`start`, `start + 2`, …):
   * what a run of escapes (`\a\b\c`) leaves, kept as one run rather than one per character.
   */
  readonly everyOther: (m: Mapped, start: number, count: number) => void;
  readonly length: () => number;
  /** The text so far; `end` is the original index just after it. */
  readonly build: (end: number) => Mapped;
}

/**
 * One run of the built text: characters from `from` on map through `source` (character k to
 * `base + k * step`), or to `base + k` capped at `last` when there is no source.
 */
interface Segment {
  readonly from: number;
  readonly source: Mapped | undefined;
  readonly base: number;
  readonly last: number;
  readonly step: number;
  length: number;
}

/**
 * Starts an empty MappedBuilder. It stores runs rather than one position per character, so
 * appending a long piece costs the same as a short one, and adjacent pieces of one source merge.
 */
export function mappedBuilder(): MappedBuilder {
  return new Builder();
}

// Classes rather than objects of closures: a builder is made for most words that are not one
// plain piece, and each closure was an object of its own.
class Builder implements MappedBuilder {
  private text = '';
  private readonly segments: Segment[] = [];

  char(s: string, at: number): void {
    this.add(s, undefined, at, at, 1);
  }

  spread(s: string, from: number, last: number): void {
    this.add(s, undefined, from, last, 1);
  }

  piece(m: Mapped, start: number, end: number): void {
    this.add(m.text.slice(start, end), m.source ?? m, (m.offset ?? 0) + start, Number.MAX_SAFE_INTEGER, 1);
  }

  everyOther(m: Mapped, start: number, count: number): void {
    if (count === 1) {
      this.piece(m, start, start + 1);
      return;
    }
    // character codes into one array, made into strings a chunk at a time (`+=` would make a string per character)
    const text = m.text;
    const codes = new Uint16Array(count);
    for (let k = 0; k < count; k++) codes[k] = text.charCodeAt(start + 2 * k);
    let out = '';
    for (let k = 0; k < count; k += 4096) out += String.fromCharCode(...codes.subarray(k, Math.min(k + 4096, count)));
    this.add(out, m.source ?? m, (m.offset ?? 0) + start, Number.MAX_SAFE_INTEGER, 2);
  }

  length(): number {
    return this.text.length;
  }

  build(end: number): Mapped {
    return new Built(this.text, this.segments, end);
  }

  private add(s: string, source: Mapped | undefined, base: number, last: number, step: number): void {
    if (s.length === 0) return;
    const segments = this.segments;
    const previous = segments[segments.length - 1];
    if (
      previous &&
      source &&
      previous.source === source &&
      previous.step === step &&
      previous.base + previous.length * step === base
    ) {
      previous.length += s.length;
    } else {
      segments.push({ from: this.text.length, source, base, last, step, length: s.length });
    }
    this.text += s;
  }
}

/** Text a Builder made: positions are looked up in its runs (later appends lie past its length). */
class Built implements Mapped {
  constructor(
    readonly text: string,
    private readonly segments: readonly Segment[],
    private readonly end: number,
  ) {}

  at(i: number): number {
    const segments = this.segments;
    if (i >= this.text.length || segments.length === 0) return this.end;
    // binary search for the segment holding character i
    let lo = 0;
    let hi = segments.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((segments[mid] as Segment).from <= Math.max(i, 0)) lo = mid;
      else hi = mid - 1;
    }
    const segment = segments[lo] as Segment;
    const offset = Math.max(i, 0) - segment.from;
    return segment.source
      ? segment.source.at(segment.base + offset * segment.step)
      : Math.min(segment.base + offset, segment.last);
  }
}

/** Joins pieces with `separator` between them (`eval a b` hands `a b` to the shell). */
export function joinMapped(pieces: readonly Mapped[], separator = ' '): Mapped {
  const first = pieces[0];
  if (!first) return identity('');
  if (pieces.length === 1) return first;
  const out = mappedBuilder();
  let end = first.at(first.text.length);
  pieces.forEach((piece, index) => {
    if (index > 0) out.char(separator, end);
    out.piece(piece, 0, piece.text.length);
    end = piece.at(piece.text.length);
  });
  return out.build(end);
}
