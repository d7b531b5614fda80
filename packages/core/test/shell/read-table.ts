import { expect } from 'vitest';
import { readCommand } from '@guard/core';
import type { Invocation, Opaque, ReadOptions, ReadResult, Via } from '@guard/core';

/** The options every reader test uses (a neutral machine). */
export const OPTIONS: ReadOptions = { cwd: '/home/dev/project', home: '/home/dev', tmp: '/tmp' };

/** What one invocation must look like; fields left out are not checked (except the span, see checkRow). */
export interface Expected {
  readonly program: string;
  /** The name rules match it by, when it is not the program word's own (`/usr/bin/g?t` read as git). */
  readonly name?: string;
  readonly args?: readonly string[];
  readonly cwd?: string;
  readonly cwdKnown?: boolean;
  /** How it was reached, e.g. `sudo > sh -c` (see formatVia); '' for top level. Defaults to ''. */
  readonly via?: string;
  readonly env?: Readonly<Record<string, string>>;
  /** Targets of the redirections that write a file. */
  readonly writes?: readonly string[];
  /** `[index, length]` of its pipeline stage. */
  readonly stage?: readonly [number, number];
  /** `line.slice(span[0], span[1])`. */
  readonly src?: string;
  readonly code?: string;
  readonly stdin?: string;
  readonly host?: string;
  /** Prefixes taken off, e.g. `sudo -u bob, env`. */
  readonly prefixes?: string;
}

/** One table row: a line and every invocation read from it, in order. */
export interface Row {
  readonly line: string;
  readonly expect: readonly Expected[];
  /** Names that must not appear among the invocations (data that looks like a command). */
  readonly absent?: readonly string[];
  /** Opaque reasons, in span order. Defaults to none. */
  readonly opaque?: readonly Opaque['reason'][];
  readonly options?: Partial<ReadOptions>;
}

/** `sudo > sh -c > $(`: one short label per step of the way. */
export function formatVia(via: readonly Via[]): string {
  return via
    .map((v) => {
      switch (v.kind) {
        case 'shell-c':
          return `${v.name} -c`;
        case 'heredoc':
          return `${v.name} <<`;
        case 'inline-code':
          return `${v.name} code`;
        case 'remote':
          return v.name;
        case 'function':
          return `${v.name}()`;
        default:
          return v.name;
      }
    })
    .join(' > ');
}

const unquote = (text: string): string => text.replace(/['"\\]/g, '');

/** Reads the row's line and checks every invocation, the absent names, the opaque parts and every span. */
export function checkRow(row: Row): ReadResult {
  const { line } = row;
  const result = readCommand(line, { ...OPTIONS, ...row.options });
  const actual = result.invocations;
  const describe = (inv: Invocation): string => `${inv.program} [${formatVia(inv.via)}]`;
  expect(actual.map(describe), 'invocations').toEqual(row.expect.map((e) => `${e.program} [${e.via ?? ''}]`));
  row.expect.forEach((want, index) => {
    const inv = actual[index] as Invocation;
    const label = `${index}: ${inv.program}`;
    if (want.args) expect(inv.args, `${label} args`).toEqual(want.args);
    if (want.name !== undefined) expect(inv.name, `${label} name`).toBe(want.name);
    if (want.cwd !== undefined) expect(inv.cwd, `${label} cwd`).toBe(want.cwd);
    if (want.cwdKnown !== undefined) expect(inv.cwdKnown, `${label} cwdKnown`).toBe(want.cwdKnown);
    if (want.env) expect(inv.env, `${label} env`).toEqual(want.env);
    if (want.writes)
      expect(
        inv.redirects.filter((r) => r.write).map((r) => r.target),
        `${label} writes`,
      ).toEqual(want.writes);
    if (want.stage) expect([inv.pipeline.index, inv.pipeline.length], `${label} stage`).toEqual(want.stage);
    if (want.code !== undefined) expect(inv.code?.text, `${label} code`).toBe(want.code);
    if (want.stdin !== undefined) expect(inv.stdinText, `${label} stdin`).toBe(want.stdin);
    if (want.host !== undefined) expect(inv.remoteHost, `${label} host`).toBe(want.host);
    if (want.prefixes !== undefined) {
      expect(inv.prefixes.map((p) => [p.name, ...p.args].join(' ')).join(', '), `${label} prefixes`).toBe(
        want.prefixes,
      );
    }
    const src = line.slice(inv.span[0], inv.span[1]);
    if (want.src !== undefined) expect(src, `${label} span`).toBe(want.src);
    else
      expect(
        unquote(src).startsWith(unquote(inv.program)),
        `${label} span ${JSON.stringify(src)} starts with the program`,
      ).toBe(true);
  });
  for (const name of row.absent ?? [])
    expect(
      actual.map((i) => i.name),
      `no ${name}`,
    ).not.toContain(name);
  expect(
    result.opaque.map((o) => o.reason),
    'opaque',
  ).toEqual(row.opaque ?? []);
  checkSpans(result);
  return result;
}

/** What is wrong with a result's spans: each must lie inside the line, with start <= end. */
export function spanProblems(result: ReadResult): string[] {
  const length = result.line.length;
  const inside = ([start, end]: readonly [number, number]): boolean =>
    Number.isInteger(start) && Number.isInteger(end) && start >= 0 && start <= end && end <= length;
  const problems: string[] = [];
  for (const inv of result.invocations) {
    const spans = [
      inv.span,
      ...inv.argSpans,
      ...inv.redirects.map((r) => r.span),
      ...(inv.code ? [inv.code.span] : []),
    ];
    if (!spans.every(inside)) problems.push(`a span of ${inv.program}`);
    if (inv.argSpans.length !== inv.args.length) problems.push(`argSpans of ${inv.program}`);
  }
  for (const part of result.opaque) if (!inside(part.span)) problems.push(`the span of opaque ${part.reason}`);
  return problems;
}

/** Every span of a result lies inside the line, with start <= end. */
export function checkSpans(result: ReadResult): void {
  expect(spanProblems(result)).toEqual([]);
}
