/**
 * Constant strings in inline code: a small evaluator over literal expressions, never a runner of
 * the code. It folds what is constant and safe to compute (`'.co' + 'dex'`, template literals and
 * f-strings of constants, `String.fromCharCode(46, …)`, `chr(46)`, escapes, base64 and hex decoding,
 * `path.join`, `os.path.join`, `Path(…) / 'x'`, reversed and re-joined strings, names assigned once)
 * and stands the home folder in as `~` (`os.homedir()`, `expanduser('~')`, `process.env.HOME`) and
 * other variables as `$NAME`, so the path rules read the path the code builds. What it cannot
 * compute (a value read at run time, a listing, a name bound more than once) stays unknown.
 * One pass of tokens, every step paid from a budget linear in the code's length.
 */
import type { Language } from '../programs/index.js';

/** A string the code computes from an expression that is more than one plain literal. */
export interface FoldedString {
  readonly value: string;
  /** `[start, end)` of the expression in the code. */
  readonly span: readonly [number, number];
}

/** A call that writes, deletes, moves, links or changes the mode of a file, and its targets. */
export interface FileCall {
  /** The call's name as written last (`writeFileSync`, `remove`, `unlink`). */
  readonly name: string;
  /** Each target path: its value when constant, undefined when the code works it out at run time. */
  readonly targets: readonly (string | undefined)[];
  readonly span: readonly [number, number];
}

export interface Folded {
  readonly strings: readonly FoldedString[];
  readonly fileCalls: readonly FileCall[];
  /** The constant value of the expression that starts at `at` (blanks skipped), if there is one. */
  readonly at: (at: number) => string | undefined;
  /** False when the code was too long or deep to read all of (what it builds may then be missed). */
  readonly complete: boolean;
}

type Value =
  | { readonly k: 's'; readonly v: string }
  | { readonly k: 'n'; readonly v: number }
  | { readonly k: 'l'; readonly v: readonly Value[] }
  /** A pathlib path. */
  | { readonly k: 'p'; readonly v: string }
  /** A module, function or object named in the code (`os.path`, `require('path')`). */
  | { readonly k: 'm'; readonly v: string };

interface Tok {
  readonly t: 'str' | 'num' | 'id' | 'p' | 'tpl';
  readonly v: string;
  readonly s: number;
  readonly e: number;
  /** A string literal's value is known (no interpolation it cannot read). */
  readonly plain?: boolean;
}

type Family = 'py' | 'js' | 'rb' | 'pl' | 'php';
const FAMILY: Readonly<Partial<Record<Language, Family>>> = {
  python: 'py',
  node: 'js',
  deno: 'js',
  ruby: 'rb',
  perl: 'pl',
  php: 'php',
};

/** Code longer than this is folded only this far (and reported as not read whole). */
const MAX_CODE = 32 * 1024;
const MAX_STRING = 4096;
const MAX_LIST = 4096;
const MAX_DEPTH = 24;
const NONE: Folded = { strings: [], fileCalls: [], at: () => undefined, complete: true };

/** Calls that change a file, by their last name, and which arguments name the files (-1: the receiver). */
const FILE_CALLS: Readonly<Record<string, readonly number[]>> = {
  // Node, Deno
  writeFile: [0],
  writeFileSync: [0],
  appendFile: [0],
  appendFileSync: [0],
  createWriteStream: [0],
  rm: [0],
  rmSync: [0],
  rmdir: [0],
  rmdirSync: [0],
  unlink: [0],
  unlinkSync: [0],
  rename: [0, 1],
  renameSync: [0, 1],
  truncate: [0],
  truncateSync: [0],
  copyFile: [1],
  copyFileSync: [1],
  cp: [1],
  cpSync: [1],
  symlink: [1],
  symlinkSync: [1],
  link: [1],
  linkSync: [1],
  chmod: [0],
  chmodSync: [0],
  writeTextFile: [0],
  writeTextFileSync: [0],
  remove: [0],
  removeSync: [0],
  // Python (os, shutil, pathlib)
  removedirs: [0],
  rmtree: [0],
  replace: [0, 1],
  move: [0, 1],
  copy: [1],
  copy2: [1],
  copyfile: [1],
  copytree: [1],
  write_text: [-1],
  write_bytes: [-1],
  touch: [-1],
  symlink_to: [-1],
  hardlink_to: [-1],
  // Ruby, Perl, PHP
  delete: [0],
  rm_rf: [0],
  rm_r: [0],
  rm_f: [0],
  file_put_contents: [0],
  remove_tree: [0],
};
/** Names that are file calls only on a receiver that is a path or a module (not `list.remove(x)`). */
const NEEDS_MODULE = new Set(['remove', 'replace', 'delete', 'copy', 'move', 'link', 'cp', 'rm', 'rename']);
/** Modules whose `remove`, `rename`, … change files. */
const FILE_MODULES = /^(?:os|shutil|fs|fs\.promises|promises|fsp|Deno|File|FileUtils|pathlib|fse|fs-extra)$/;

/** Reads the constant strings and the file calls of `code` (nothing for a language it does not fold). */
export function foldCode(language: Language, code: string): Folded {
  const family = FAMILY[language];
  if (family === undefined) return NONE;
  if (code.length > MAX_CODE) return { ...new Folder(family, code.slice(0, MAX_CODE)).run(), complete: false };
  return new Folder(family, code).run();
}

class Folder {
  private budget: number;
  private readonly toks: Tok[];
  private readonly env = new Map<string, Value | null>();
  private readonly strings: FoldedString[] = [];
  private readonly fileCalls: FileCall[] = [];
  private depth = 0;
  /** Names bound for a while (a comprehension's, an arrow's): results then depend on them. */
  private bound = 0;
  private cuts = 0;
  /** Results of expressions in the code's own tokens, once every name is bound (each is read once). */
  private memo: Map<number, { val: Value | undefined; end: number } | undefined> | undefined;

  private readonly pay = (): boolean => this.budget-- > 0;

  constructor(
    private readonly fam: Family,
    private readonly code: string,
  ) {
    this.budget = 8 * code.length + 2048;
    this.toks = tokens(fam, code, 0, code.length);
  }

  run(): Folded {
    this.bindings();
    this.memo = new Map();
    const toks = this.toks;
    for (let i = 0; i < toks.length && this.budget > 0; i++) {
      if (!this.startsExpression(i)) continue;
      const r = this.expr(toks, i, true);
      const first = toks[i] as Tok;
      const value = r?.val?.k === 's' || r?.val?.k === 'p' ? r.val.v : undefined;
      // a literal as written is the rules' already; one with escapes (`'\x2e…'`) is not
      const written = r?.end === i + 1 && first.t === 'str' && !this.code.slice(first.s, first.e).includes('\\');
      if (r !== undefined && value !== undefined && !written)
        this.strings.push({ value, span: [first.s, toks[r.end - 1]?.e ?? first.e] });
    }
    return {
      strings: this.strings,
      fileCalls: this.fileCalls,
      complete: this.budget > 0,
      at: (at: number) => {
        // the first token that ends after `at`, when it starts there or later (not in a name's middle)
        let lo = 0;
        let hi = toks.length;
        while (lo < hi) {
          const mid = (lo + hi) >> 1;
          if ((toks[mid] as Tok).e <= at) lo = mid + 1;
          else hi = mid;
        }
        const i = lo;
        if ((toks[i]?.s ?? -1) < at || this.budget <= 0) return undefined;
        const r = this.expr(toks, i, false);
        return r?.val?.k === 's' || r?.val?.k === 'p' ? r.val.v : undefined;
      },
    };
  }

  /**
   * Where an expression or a statement may start: after `(`, `,`, `=`, `[`, `:`, `;`, a block's
   * brackets (`for (…) f()`, `{ |f| … }`), a keyword, or at the start.
   */
  private startsExpression(i: number): boolean {
    const before = this.toks[i - 1];
    if (before === undefined) return true;
    if (before.t === 'p') return /^(?:[(),=[;:{}|]|=>|\+=|&&|\|\|)$/.test(before.v);
    return (
      before.t === 'id' &&
      /^(?:return|in|of|yield|await|print|puts|echo|else|do|then|and|or|not|if|unless|while)$/.test(before.v)
    );
  }

  /**
   * Names bound once to a constant (`home = os.path.expanduser('~')`, `const p = path.join(…)`,
   * `from os.path import join as j`, `const { join } = require('path')`); a name bound twice, in a
   * loop, by `+=` or as a loop variable is unknown.
   */
  private bindings(): void {
    const toks = this.toks;
    const counts = new Map<string, number>();
    const bump = (name: string, by = 1): void => void counts.set(name, (counts.get(name) ?? 0) + by);
    for (let i = 0; i < toks.length; i++) {
      const t = toks[i] as Tok;
      const next = toks[i + 1];
      if (t.t === 'id' && next?.t === 'p' && next.v === '=' && toks[i - 1]?.v !== '.') bump(t.v);
      else if (t.t === 'id' && next?.t === 'p' && /^[-+*/.]=|\+\+|--$/.test(next.v)) bump(t.v, 2);
      else if (t.t === 'id' && (t.v === 'for' || t.v === 'as' || t.v === 'foreach' || t.v === 'each'))
        // loop variables and `with … as f`, `except … as e`: several values
        for (let j = i + 1; j < Math.min(toks.length, i + 8); j++) {
          const u = toks[j] as Tok;
          if (u.t === 'id' && /^(?:in|of)$/.test(u.v)) break;
          if (u.t === 'id') bump(u.v, 2);
        }
    }
    for (let i = 0; i < toks.length && this.budget > 0; i++) {
      const t = toks[i] as Tok;
      // `import os.path as p`, `from os import path as p`, `from os.path import join, expanduser as e`
      if (this.fam === 'py' && t.t === 'id' && (t.v === 'import' || t.v === 'from')) {
        i = this.pyImport(i);
        continue;
      }
      // `const { join: j, homedir } = require('os')`
      if (t.t === 'p' && t.v === '{' && this.fam === 'js') {
        let j = i + 1;
        const names: [string, string][] = [];
        while (toks[j]?.t === 'id' && j < i + 40) {
          const key = (toks[j] as Tok).v;
          let alias = key;
          if (toks[j + 1]?.v === ':' && toks[j + 2]?.t === 'id') {
            alias = (toks[j + 2] as Tok).v;
            j += 2;
          }
          names.push([key, alias]);
          j++;
          if (toks[j]?.v === ',') j++;
        }
        if (toks[j]?.v === '}' && toks[j + 1]?.v === '=') {
          const r = this.expr(toks, j + 2, false);
          if (r?.val?.k === 'm')
            for (const [key, alias] of names)
              if ((counts.get(alias) ?? 0) === 0) this.bind(alias, { k: 'm', v: `${r.val.v}.${key}` });
        }
        continue;
      }
      if (t.t !== 'id' || toks[i + 1]?.v !== '=' || toks[i - 1]?.v === '.') continue;
      if (counts.get(t.v) !== 1) {
        this.env.set(t.v, null);
        continue;
      }
      const r = this.expr(toks, i + 2, false);
      this.env.set(t.v, r?.val ?? null);
    }
  }

  private bind(name: string, value: Value): void {
    this.env.set(name, value);
  }

  private pyImport(i: number): number {
    const toks = this.toks;
    const dotted = (j: number): [string, number] => {
      let name = toks[j]?.v ?? '';
      while (toks[j + 1]?.v === '.' && toks[j + 2]?.t === 'id') {
        name += `.${(toks[j + 2] as Tok).v}`;
        j += 2;
      }
      return [name, j + 1];
    };
    if (toks[i]?.v === 'from') {
      const [module, j] = dotted(i + 1);
      if (toks[j]?.v !== 'import') return j;
      let k = j + 1;
      if (toks[k]?.v === '(') k++;
      while (toks[k]?.t === 'id') {
        const name = (toks[k] as Tok).v;
        let alias = name;
        if (toks[k + 1]?.v === 'as' && toks[k + 2]?.t === 'id') {
          alias = (toks[k + 2] as Tok).v;
          k += 2;
        }
        this.bind(alias, { k: 'm', v: `${module}.${name}` });
        k++;
        if (toks[k]?.v !== ',') break;
        k++;
      }
      return k;
    }
    let k = i + 1;
    while (toks[k]?.t === 'id') {
      const [module, j] = dotted(k);
      k = j;
      if (toks[k]?.v === 'as' && toks[k + 1]?.t === 'id') {
        this.bind((toks[k + 1] as Tok).v, { k: 'm', v: module });
        k += 2;
      }
      if (toks[k]?.v !== ',') break;
      k++;
    }
    return k;
  }

  // -------------------------------------------------------------------------------------------
  // expressions: sum := postfix (('+' | '.' | '/' | '%' | '*' | '-') postfix)*

  private expr(toks: readonly Tok[], i: number, record: boolean): { val: Value | undefined; end: number } | undefined {
    const memo = toks === this.toks && this.bound === 0 ? this.memo : undefined;
    if (memo?.has(i) === true) return memo.get(i);
    const cuts = this.cuts;
    const r = this.sum(toks, i, record);
    // a result cut short by the depth bound is not kept: read from further in, it may fold
    if (memo !== undefined && cuts === this.cuts) memo.set(i, r);
    return r;
  }

  private sum(toks: readonly Tok[], i: number, record: boolean): { val: Value | undefined; end: number } | undefined {
    if (this.depth > MAX_DEPTH || this.budget-- <= 0) {
      this.cuts++;
      return undefined;
    }
    this.depth++;
    try {
      let left = this.postfix(toks, i, record);
      if (left === undefined) return undefined;
      for (;;) {
        const op: Tok | undefined = toks[left.end];
        if (op?.t !== 'p' || !this.binary(op.v)) return left;
        const right = this.postfix(toks, left.end + 1, record);
        if (right === undefined) return left;
        left = { val: combine(op.v, left.val, right.val, this.fam), end: right.end };
      }
    } finally {
      this.depth--;
    }
  }

  private binary(op: string): boolean {
    if (op === '+' || op === '*' || op === '-') return true;
    if (op === '.') return this.fam === 'pl' || this.fam === 'php';
    return (op === '/' || op === '%') && this.fam === 'py';
  }

  private postfix(
    toks: readonly Tok[],
    i: number,
    record: boolean,
  ): { val: Value | undefined; end: number } | undefined {
    const t = toks[i];
    if (t === undefined || this.budget-- <= 0) return undefined;
    let val: Value | undefined;
    let end = i + 1;
    if (t.t === 'str' && t.plain === true && this.fam === 'py' && toks[i + 1]?.t === 'str') {
      // Python joins adjacent literals: `'.co' 'dex'`
      let joined = '';
      let j = i;
      for (; toks[j]?.t === 'str'; j++) {
        const part = toks[j] as Tok;
        if (part.plain !== true) break;
        joined += part.v;
      }
      if (toks[j]?.t === 'str') return undefined;
      val = strOf(joined);
      end = j;
    } else if (t.t === 'str') val = t.plain === true ? { k: 's', v: t.v } : this.interpolated(t);
    else if (t.t === 'tpl') val = this.interpolated(t);
    else if (t.t === 'num') val = { k: 'n', v: Number(t.v) };
    else if (t.t === 'id') {
      if (/^(?:new|await|typeof|not|lambda|function|def|class|if|for|while)$/.test(t.v) && t.v !== 'new')
        return undefined;
      if (t.v === 'new') return this.postfix(toks, i + 1, record);
      const bound = this.env.get(t.v);
      val = bound === null ? undefined : (bound ?? { k: 'm', v: t.v });
    } else if (t.v === '(' || t.v === '[') {
      const items = this.items(toks, i + 1, t.v === '(' ? ')' : ']', record);
      if (items === undefined) return undefined;
      end = items.end;
      val = t.v === '(' && items.vals.length === 1 && !items.comma ? items.vals[0] : listOf(items.vals);
    } else if (t.v === '-' && toks[i + 1]?.t === 'num') {
      val = { k: 'n', v: -Number((toks[i + 1] as Tok).v) };
      end = i + 2;
    } else if (t.v === '...' || t.v === '*') {
      // a spread argument: the list itself
      return this.postfix(toks, i + 1, record);
    } else return undefined;

    for (let guard = 0; guard < 64 && this.budget-- > 0; guard++) {
      const op = toks[end];
      if (op?.t !== 'p') break;
      const concat = op.v === '.' && (this.fam === 'pl' || this.fam === 'php');
      if ((op.v === '.' || op.v === '?.' || op.v === '->' || op.v === '::') && !concat && toks[end + 1]?.t === 'id') {
        const member = (toks[end + 1] as Tok).v;
        end += 2;
        if (toks[end]?.v === '(') {
          const args = this.items(toks, end + 1, ')', record);
          if (args === undefined) return { val: undefined, end };
          const callee = val?.k === 'm' ? { k: 'm' as const, v: `${val.v}.${member}` } : undefined;
          if (record) this.noteFileCall(member, val, args.vals, [t.s, toks[args.end - 1]?.e ?? op.e]);
          val = callee
            ? this.call(callee.v, args.vals)
            : member === 'map'
              ? this.mapped(args.vals[0], val)
              : method(val, member, args.vals, this.fam);
          end = args.end;
        } else {
          val = val?.k === 'm' ? member_(val.v, member) : property(val, member);
        }
      } else if (op.v === '(' && val !== undefined) {
        const args = this.items(toks, end + 1, ')', record);
        if (args === undefined) return { val: undefined, end };
        if (val.k === 'm') {
          const last = val.v.slice(val.v.lastIndexOf('.') + 1);
          const dot = val.v.lastIndexOf('.');
          // a function called by its bare name (PHP's and Perl's `unlink`) is a library's: '' stands for it
          const receiver: Value = { k: 'm', v: dot < 0 ? '' : val.v.slice(0, dot) };
          if (record) this.noteFileCall(last, receiver, args.vals, [t.s, toks[args.end - 1]?.e ?? op.e]);
          val = this.call(val.v, args.vals);
        } else val = undefined;
        end = args.end;
      } else if (op.v === '[' || (op.v === '{' && this.fam === 'pl')) {
        const close = op.v === '[' ? ']' : '}';
        const sliced = this.index(toks, end + 1, close, val);
        if (sliced === undefined) return { val: undefined, end };
        val = sliced.val;
        end = sliced.end;
      } else break;
    }
    return { val, end };
  }

  /** A file call seen while folding: its targets, as far as they fold. */
  private noteFileCall(
    name: string,
    receiver: Value | undefined,
    args: readonly (Value | undefined)[],
    span: readonly [number, number],
  ): void {
    if (this.fileCalls.length >= 256 || this.fileCalls.some((c) => c.span[0] === span[0] && c.span[1] === span[1]))
      return;
    const targets = fileTargets(name, receiver, args);
    if (targets !== undefined) this.fileCalls.push({ name, targets: targets.map(pathOf), span });
  }

  /** Items up to `close`: `a, b, …`, with a comprehension (`chr(c) for c in [..]`) or an arrow read too. */
  private items(
    toks: readonly Tok[],
    i: number,
    close: string,
    record: boolean,
  ): { vals: (Value | undefined)[]; end: number; comma: boolean } | undefined {
    const vals: (Value | undefined)[] = [];
    let comma = false;
    while (this.budget-- > 0) {
      const t = toks[i];
      if (t === undefined) return undefined;
      if (t.v === close && t.t === 'p') return { vals, end: i + 1, comma };
      // keyword arguments: `mode='w'`
      if (t.t === 'id' && toks[i + 1]?.v === '=' && toks[i + 2]?.v !== '=') i += 2;
      const spread = toks[i]?.v === '...';
      const r = this.element(toks, spread ? i + 1 : i, record);
      if (spread && r !== undefined) {
        const list = asList(r.val);
        if (list === undefined) vals.push(undefined);
        else vals.push(...list);
        i = r.end;
        if (toks[i]?.v === ',') {
          comma = true;
          i++;
        }
        continue;
      }
      if (r === undefined) {
        const skip = skipTo(toks, i, close, this.pay);
        if (skip < 0) return undefined;
        vals.push(undefined);
        i = skip;
      } else {
        vals.push(r.val);
        i = r.end;
      }
      if (toks[i]?.v === ',') {
        comma = true;
        i++;
      } else if (toks[i]?.v !== close) {
        const skip = skipTo(toks, i, close, this.pay);
        if (skip < 0) return undefined;
        vals[vals.length - 1] = undefined;
        i = skip;
        if (toks[i]?.v === ',') i++;
      }
    }
    return undefined;
  }

  /** One item: an expression, a comprehension over a constant list, or an arrow function given as a value. */
  private element(
    toks: readonly Tok[],
    i: number,
    record: boolean,
  ): { val: Value | undefined; end: number } | undefined {
    // `c => f(c)`, `(c) => f(c)`, `function (c) { return f(c) }`: a function value, applied by map
    const arrow = toks === this.toks ? arrowAt(toks, i) : undefined;
    if (arrow !== undefined) {
      if (record) this.withBinding(arrow.param, null, () => this.expr(toks, arrow.body, true));
      return { val: { k: 'm', v: `\0fn${arrow.param}\0${arrow.body}\0${arrow.bodyEnd}` }, end: arrow.end };
    }
    const r = this.expr(toks, i, record);
    if (r === undefined) return undefined;
    if (toks[r.end]?.v !== 'for' || toks[r.end + 1]?.t !== 'id' || toks[r.end + 2]?.v !== 'in') return r;
    const name = (toks[r.end + 1] as Tok).v;
    const source = this.expr(toks, r.end + 3, false);
    if (source === undefined) return undefined;
    const items = asList(source.val);
    const end = source.end;
    if (items === undefined || toks[end]?.v === 'if') return { val: undefined, end: end };
    const out = items.map((item) => this.withBinding(name, item, () => this.expr(toks, i, false))?.val);
    return { val: listOf(out), end };
  }

  /** `x[…]`: an index, a Python slice (`[::-1]`, `[1:]`), or a variable by name (`environ['HOME']`, `$ENV{HOME}`). */
  private index(
    toks: readonly Tok[],
    i: number,
    close: string,
    val: Value | undefined,
  ): { val: Value | undefined; end: number } | undefined {
    // `$ENV{HOME}`: a bare name
    if (close === '}' && toks[i]?.t === 'id' && toks[i + 1]?.v === '}')
      return { val: val?.k === 'm' ? member_(val.v, toks[i].v) : undefined, end: i + 2 };
    const parts: (Value | undefined | null)[] = [null];
    let j = i;
    while (toks[j] !== undefined && toks[j]?.v !== close && this.budget-- > 0) {
      if (toks[j]?.v === ':' || toks[j]?.v === '::') {
        parts.push(null);
        if (toks[j]?.v === '::') parts.push(null);
        j++;
        continue;
      }
      const r = this.expr(toks, j, false);
      if (r === undefined) return undefined;
      parts[parts.length - 1] = r.val;
      j = r.end;
    }
    if (toks[j] === undefined) return undefined;
    const end = j + 1;
    const number = (p: Value | undefined | null): number | undefined | null =>
      p === null ? undefined : p?.k === 'n' ? p.v : null;
    if (parts.length === 1) {
      const key = parts[0];
      if (val?.k === 'm' && key?.k === 's') return { val: member_(val.v, key.v), end };
      const at = number(key);
      if (typeof at !== 'number') return { val: undefined, end };
      if (val?.k === 's') return { val: strOf(val.v.at(at)), end };
      if (val?.k === 'l') return { val: val.v.at(at), end };
      return { val: undefined, end };
    }
    const [a, b, step = 1] = parts.map(number);
    const seq: Value[] | undefined =
      val?.k === 's' ? [...val.v].map((c) => ({ k: 's', v: c })) : val?.k === 'l' ? [...val.v] : undefined;
    if (seq === undefined || a === null || b === null || step === null || (step !== 1 && step !== -1))
      return { val: undefined, end };
    if (step === -1 && (a !== undefined || b !== undefined)) return { val: undefined, end };
    const out = step === -1 ? seq.reverse() : seq.slice(a, b);
    return { val: val?.k === 's' ? join_({ k: 'l', v: out }, '') : { k: 'l', v: out }, end };
  }

  /** A template literal or an interpolating string (`${…}`, `{…}` in an f-string, `#{…}`, `$ENV{HOME}`). */
  private interpolated(t: Tok): Value | undefined {
    const raw = t.v;
    const escapes = this.fam !== 'py' || !/^[a-z]*r/i.test(this.code.slice(t.s, t.s + 3));
    let out = '';
    let piece = '';
    const flush = (): void => {
      out += decodeEscapes(piece, this.fam, escapes);
      piece = '';
    };
    const opener = this.fam === 'js' ? '${' : this.fam === 'rb' ? '#{' : this.fam === 'py' ? '{' : undefined;
    for (let i = 0; i < raw.length; i++) {
      if (this.budget-- <= 0 || out.length > MAX_STRING) return undefined;
      if (this.fam === 'py' && (raw.startsWith('{{', i) || raw.startsWith('}}', i))) {
        piece += raw[i];
        i++;
        continue;
      }
      if (opener !== undefined && raw.startsWith(opener, i)) {
        const close = matching(raw, i + opener.length - 1);
        if (close < 0) return undefined;
        const inner = raw.slice(i + opener.length, close);
        if (/[!:]/.test(inner.replace(/(['"]).*?\1|\[[^\]]*\]|\([^)]*\)/g, '')) && this.fam === 'py') return undefined;
        const v = this.foldText(inner);
        if (v === undefined) return undefined;
        flush();
        out += v;
        i = close;
        continue;
      }
      if ((this.fam === 'pl' || this.fam === 'php') && raw[i] === '$') {
        const m = /^\$(?:ENV\{\s*['"]?(\w+)['"]?\s*\}|_SERVER\[\s*['"](\w+)['"]\s*\]|\{?(\w+)\}?)/.exec(raw.slice(i));
        if (!m) return undefined;
        const envName = m[1] ?? m[2];
        const v = envName !== undefined ? envValue(envName) : this.env.get(`$${m[3] ?? ''}`);
        if (v === undefined || v === null || (v.k !== 's' && v.k !== 'p')) return undefined;
        flush();
        out += v.v;
        i += m[0].length - 1;
        continue;
      }
      piece += raw[i];
    }
    flush();
    return strOf(out);
  }

  /** The value of an expression written as text (inside `${…}`). */
  private foldText(text: string): string | undefined {
    if (this.depth > MAX_DEPTH) return undefined;
    const toks = tokens(this.fam, text, 0, text.length);
    const r = this.expr(toks, 0, false);
    if (r === undefined || r.end !== toks.length) return undefined;
    return r.val?.k === 's' || r.val?.k === 'p' ? r.val.v : r.val?.k === 'n' ? String(r.val.v) : undefined;
  }

  // -------------------------------------------------------------------------------------------
  // calls of named functions

  private call(name: string, args: readonly (Value | undefined)[]): Value | undefined {
    if (name.startsWith('\0fn')) return this.apply(name, args);
    const last = name.slice(name.lastIndexOf('.') + 1);
    const a = args[0];
    const s0 = a?.k === 's' || a?.k === 'p' ? a.v : undefined;
    switch (name) {
      case 'require':
      case 'import':
      case '__import__':
      case 'importlib.import_module':
        return s0 === undefined ? undefined : { k: 'm', v: s0.replace(/^node:/, '').replace(/\//g, '.') };
      case 'String.fromCharCode':
      case 'String.fromCodePoint': {
        const codes = args.flatMap((v): (Value | undefined)[] => (v?.k === 'l' ? [...v.v] : [v]));
        return charsOf(codes);
      }
      case 'chr':
      case 'unichr':
        return a?.k === 'n' ? charsOf([a]) : undefined;
      case 'atob':
      case 'base64.b64decode':
      case 'base64.standard_b64decode':
      case 'base64.urlsafe_b64decode':
      case 'base64.decodebytes':
      case 'binascii.a2b_base64':
      case 'Base64.decode64':
      case 'Base64.strict_decode64':
      case 'Base64.urlsafe_decode64':
      case 'MIME::Base64::decode_base64':
      case 'decode_base64':
      case 'base64_decode':
        return s0 === undefined ? undefined : strOf(fromBase64(s0));
      case 'bytes.fromhex':
      case 'bytearray.fromhex':
      case 'binascii.unhexlify':
      case 'binascii.a2b_hex':
      case 'hex2bin':
        return s0 === undefined ? undefined : strOf(fromHex(s0));
      case 'codecs.decode':
        return s0 === undefined ? undefined : strOf(decodeAs(s0, args[1]));
      case 'Buffer.from':
        if (a?.k === 'l') return charsOf(a.v);
        return s0 === undefined ? undefined : strOf(decodeAs(s0, args[1]));
      case 'bytes':
      case 'bytearray':
        return a?.k === 'l' ? charsOf(a.v) : a?.k === 's' ? a : undefined;
      case 'str':
      case 'String':
      case 'os.fspath':
      case 'os.fsdecode':
      case 'decodeURIComponent':
      case 'unescape':
      case 'os.path.normpath':
      case 'os.path.abspath':
      case 'os.path.realpath':
      case 'path.normalize':
      case 'path.resolve':
      case 'File.expand_path':
      case 'os.path.expanduser':
      case 'expanduser':
      case 'realpath':
        if (name === 'path.resolve' && args.length > 1) return joinPaths(args);
        if (name === 'decodeURIComponent' && s0 !== undefined) return strOf(safeUri(s0));
        return a?.k === 'p'
          ? { k: 's', v: a.v }
          : a?.k === 'n'
            ? { k: 's', v: String(a.v) }
            : a?.k === 's'
              ? a
              : undefined;
      case 'reversed':
      case 'list':
      case 'Array.from':
      case 'tuple': {
        const items = asList(a);
        if (items === undefined) return undefined;
        return { k: 'l', v: last === 'reversed' ? [...items].reverse() : items };
      }
      case 'map':
        return this.mapped(a, args[1]);
      case 'os.homedir':
      case 'homedir':
      case 'Path.home':
      case 'pathlib.Path.home':
      case 'Dir.home':
        return name.includes('Path') ? { k: 'p', v: '~' } : { k: 's', v: '~' };
      case 'os.getenv':
      case 'getenv':
      case 'os.environ.get':
      case 'Deno.env.get':
      case 'ENV.fetch':
        return s0 === undefined ? undefined : envValue(s0);
      case 'os.path.join':
      case 'path.join':
      case 'path.posix.join':
      case 'File.join':
        return joinPaths(args);
      case 'join':
        return this.fam === 'pl' ? join_(listOf(args.slice(1)), s0) : undefined;
      case 'Path':
      case 'pathlib.Path':
      case 'PurePath':
      case 'pathlib.PurePath':
      case 'PosixPath':
        return joinPaths(args, true);
      case 'strrev':
        return s0 === undefined ? undefined : { k: 's', v: [...s0].reverse().join('') };
      case 'implode':
        return join_(args[1], s0);
      case 'str_replace':
        return args[2]?.k === 's' && s0 !== undefined && args[1]?.k === 's'
          ? { k: 's', v: args[2].v.split(s0).join(args[1].v) }
          : undefined;
      case 'reverse':
      case 'scalar':
        return this.fam === 'pl' ? reverseOf(args) : undefined;
      default:
        return undefined;
    }
  }

  /** `map(chr, [...])`, `list.map(c => String.fromCharCode(c))`. */
  private mapped(fn: Value | undefined, over: Value | undefined): Value | undefined {
    const items = asList(over);
    if (fn?.k !== 'm' || items === undefined) return undefined;
    return listOf(items.map((item) => this.call(fn.v, [item])));
  }

  private apply(fn: string, args: readonly (Value | undefined)[]): Value | undefined {
    const [, param = '', body = '', bodyEnd = ''] = fn.split('\0');
    const r = this.withBinding(param.slice(2), args[0] ?? null, () => this.expr(this.toks, Number(body), false));
    return r?.end === Number(bodyEnd) ? r.val : undefined;
  }

  /** Runs `f` with `name` bound to `value` (null: unknown), then binds it back. */
  private withBinding<T>(name: string, value: Value | null, f: () => T): T {
    const saved = this.env.get(name);
    this.env.set(name, value);
    this.bound++;
    try {
      return f();
    } finally {
      this.bound--;
      if (saved === undefined) this.env.delete(name);
      else this.env.set(name, saved);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// file calls

/** pathlib's methods that change the file the path names (the receiver), and take the other path first. */
const PATH_METHODS = new Set([
  'unlink',
  'rmdir',
  'write_text',
  'write_bytes',
  'touch',
  'chmod',
  'rename',
  'replace',
  'symlink_to',
  'hardlink_to',
]);

/** The paths a call changes, or undefined when it changes no file. */
function fileTargets(
  name: string,
  receiver: Value | undefined,
  args: readonly (Value | undefined)[],
): (Value | undefined)[] | undefined {
  const mode = args[1]?.k === 's' ? args[1].v : undefined;
  if (name === 'open' || name === 'fopen' || name === 'sysopen') {
    // Perl: `open(my $f, '>', $path)`, `open(F, ">$path")`
    if (mode !== undefined && /^\+?>|^\+</.test(mode))
      return [args.length > 2 ? args[2] : strOf(mode.replace(/^\+?>+\s*/, ''))];
    if (mode !== undefined && /^[rwabxt+U]{1,4}$/.test(mode) && /[wax+]/.test(mode)) return [args[0]];
    return undefined;
  }
  if (name === 'write' && receiver?.k === 'm' && /^(?:File|IO)$/.test(receiver.v)) return [args[0]];
  const moduleReceiver = receiver?.k === 'm' && (receiver.v === '' || FILE_MODULES.test(receiver.v));
  const twoPaths = name === 'rename' || name === 'replace';
  if (PATH_METHODS.has(name) && receiver?.k === 'p') return twoPaths ? [receiver, args[0]] : [receiver];
  // a path the code got at run time (`for p in home.iterdir(): p.unlink()`, `Path(input()).touch()`)
  if (
    PATH_METHODS.has(name) &&
    (receiver === undefined || receiver.k === 'm') &&
    !moduleReceiver &&
    args.length <= 1 &&
    (!twoPaths || args.length === 1)
  )
    return [undefined];
  if (!Object.hasOwn(FILE_CALLS, name)) return undefined;
  if (NEEDS_MODULE.has(name) && !moduleReceiver) return undefined;
  const indexes = (FILE_CALLS[name] ?? []).filter((index) => index >= 0 && index < Math.max(args.length, 1));
  return indexes.length === 0 ? undefined : indexes.map((index) => args[index]);
}

function pathOf(v: Value | undefined): string | undefined {
  return v?.k === 's' || v?.k === 'p' ? v.v : undefined;
}

// ---------------------------------------------------------------------------------------------
// values

function strOf(v: string | undefined): Value | undefined {
  return v === undefined || v.length > MAX_STRING ? undefined : { k: 's', v };
}

function listOf(vals: readonly (Value | undefined)[]): Value | undefined {
  if (vals.length > MAX_LIST || vals.some((v) => v === undefined)) return undefined;
  return { k: 'l', v: vals as Value[] };
}

function asList(v: Value | undefined): readonly Value[] | undefined {
  if (v?.k === 'l') return v.v;
  if (v?.k === 's') return [...v.v].map((c) => ({ k: 's', v: c }));
  return undefined;
}

function charsOf(codes: readonly (Value | undefined)[]): Value | undefined {
  let out = '';
  for (const c of codes) {
    if (c?.k === 's' && c.v.length === 1) out += c.v;
    else if (c?.k === 'n' && Number.isInteger(c.v) && c.v >= 0 && c.v <= 0x10ffff) out += String.fromCodePoint(c.v);
    else return undefined;
    if (out.length > MAX_STRING) return undefined;
  }
  return { k: 's', v: out };
}

/**
 * A variable's value: the home folder as `~`; a variable that names a folder (`GUARD_HOME`,
 * `XDG_CONFIG_HOME`, an agent's `…_HOME` or `…_DIR`, the temp folder) as `$NAME`, for the path
 * rules to resolve; any other variable is a value read at run time.
 */
function envValue(name: string): Value | undefined {
  if (name === 'HOME' || name === 'USERPROFILE') return { k: 's', v: '~' };
  return /^(?:[A-Z][A-Z0-9_]*_(?:HOME|DIR)|TMPDIR|TMP|TEMP|APPDATA|LOCALAPPDATA|PROGRAMDATA)$/.test(name)
    ? { k: 's', v: `$${name}` }
    : undefined;
}

/** A name's member: `os.path`, `process.env.HOME` (the home folder), `os.environ['X']`, `os.sep`. */
function member_(base: string, member: string): Value | undefined {
  if (/^(?:process\.env|os\.environ|ENV|\$ENV|\$_SERVER|\$_ENV|Deno\.env)$/.test(base)) return envValue(member);
  if (`${base}.${member}` === 'Dir.home') return { k: 's', v: '~' };
  if (/^(?:os\.sep|path\.sep|File::SEPARATOR|File\.SEPARATOR|DIRECTORY_SEPARATOR)$/.test(`${base}.${member}`))
    return { k: 's', v: '/' };
  return { k: 'm', v: `${base}.${member}` };
}

function property(v: Value | undefined, member: string): Value | undefined {
  if (member === 'length' && v?.k === 's') return { k: 'n', v: v.v.length };
  // Ruby calls without parentheses: `'xedoc.'.reverse`, `46.chr`
  if (member === 'reverse' && v?.k === 's') return { k: 's', v: [...v.v].reverse().join('') };
  if (member === 'chr' && v?.k === 'n') return charsOf([v]);
  if (v?.k === 'p' && member === 'parent') return { k: 'p', v: v.v.replace(/\/[^/]*$/, '') || '/' };
  return undefined;
}

/** A method of a known value: a string's, a list's or a path's. */
function method(
  v: Value | undefined,
  name: string,
  args: readonly (Value | undefined)[],
  fam: Family,
): Value | undefined {
  if (v === undefined) return undefined;
  const a = args[0];
  const s0 = a?.k === 's' ? a.v : undefined;
  if (v.k === 'p') {
    if (name === 'joinpath') return joinPaths([v, ...args], true);
    if (name === 'expanduser' || name === 'resolve' || name === 'absolute' || name === 'as_posix') return v;
    if (name === '__str__') return { k: 's', v: v.v };
    return undefined;
  }
  if (v.k === 'l') {
    if (name === 'reverse') return { k: 'l', v: [...v.v].reverse() };
    if (name === 'join') return join_(v, s0 ?? (args.length === 0 ? ',' : undefined));
    if (name === 'map') return undefined;
    if (name === 'pack' && s0 !== undefined && /^[UCc]\*$/.test(s0)) return charsOf(v.v);
    return undefined;
  }
  if (v.k === 'n') return name === 'chr' ? charsOf([v]) : name === 'toString' ? { k: 's', v: String(v.v) } : undefined;
  if (v.k !== 's') return undefined;
  const s = v.v;
  switch (name) {
    case 'decode':
    case 'toString':
    case 'encode':
    case 'to_s':
    case 'strip':
    case 'trim':
    case 'chomp':
    case 'valueOf':
    case 'normalize':
      if (s0 !== undefined && !/^utf-?8$/i.test(s0))
        return name === 'decode' ? strOf(decodeAs(s, a)) : name === 'encode' ? v : undefined;
      return name === 'strip' || name === 'trim' ? { k: 's', v: s.trim() } : v;
    case 'join':
      // `''.join(…)`, `'/'.join([...])`
      return fam === 'py' ? join_(a, s) : undefined;
    case 'split':
      return s0 === undefined ? undefined : listOf(s.split(s0).map((x) => ({ k: 's', v: x })));
    case 'chars':
      return listOf([...s].map((x) => ({ k: 's', v: x })));
    case 'reverse':
      return { k: 's', v: [...s].reverse().join('') };
    case 'replace':
    case 'replaceAll':
    case 'gsub':
    case 'sub': {
      const b = args[1];
      if (s0 === undefined || b?.k !== 's') return undefined;
      return strOf(name === 'replace' && fam === 'js' ? s.replace(s0, () => b.v) : s.split(s0).join(b.v));
    }
    case 'concat':
      return args.every((x) => x?.k === 's')
        ? { k: 's', v: s + args.map((x) => (x as { v: string }).v).join('') }
        : undefined;
    case 'slice':
    case 'substring': {
      const [x, y] = [a?.k === 'n' ? a.v : undefined, args[1]?.k === 'n' ? args[1].v : undefined];
      return x === undefined ? undefined : { k: 's', v: name === 'slice' ? s.slice(x, y) : s.substring(x, y) };
    }
    case 'lower':
    case 'toLowerCase':
    case 'downcase':
      return { k: 's', v: s.toLowerCase() };
    case 'upper':
    case 'toUpperCase':
    case 'upcase':
      return { k: 's', v: s.toUpperCase() };
    case 'repeat':
      return a?.k === 'n' && a.v >= 0 && a.v * s.length <= MAX_STRING ? { k: 's', v: s.repeat(a.v) } : undefined;
    case 'unpack1':
    case 'unpack':
      return s0 === 'm' || s0 === 'm0' ? strOf(fromBase64(s)) : undefined;
    case 'format':
      return format(s, args);
    default:
      return undefined;
  }
}

function join_(list: Value | undefined, sep: string | undefined): Value | undefined {
  const items = asList(list);
  if (items === undefined || sep === undefined) return undefined;
  const parts: string[] = [];
  for (const item of items) {
    if (item.k === 's' || item.k === 'p') parts.push(item.v);
    else if (item.k === 'n') parts.push(String(item.v));
    else return undefined;
  }
  return strOf(parts.join(sep));
}

/** `os.path.join(a, b)`, `Path(a, b)`: an absolute part starts the path again. */
function joinPaths(args: readonly (Value | undefined)[], pathlib = false): Value | undefined {
  let out = '';
  for (const arg of args) {
    if (arg?.k !== 's' && arg?.k !== 'p') return undefined;
    const part = arg.v;
    if (part === '') continue;
    out = part.startsWith('/') || out === '' ? part : `${out.replace(/\/+$/, '')}/${part}`;
  }
  if (out.length > MAX_STRING) return undefined;
  return pathlib ? { k: 'p', v: out === '' ? '.' : out } : { k: 's', v: out };
}

function combine(op: string, a: Value | undefined, b: Value | undefined, fam: Family): Value | undefined {
  if (a === undefined || b === undefined) return undefined;
  if (op === '/' && a.k === 'p' && (b.k === 's' || b.k === 'p')) return joinPaths([a, b], true);
  if (op === '%' && a.k === 's') return format(a.v.replace(/%[sdr]/g, '{}'), b.k === 'l' ? b.v : [b]);
  if (op === '*') {
    if (a.k === 'n' && b.k === 'n') return { k: 'n', v: a.v * b.v };
    if (a.k === 's' && b.k === 'n' && b.v >= 0 && b.v * a.v.length <= MAX_STRING) return { k: 's', v: a.v.repeat(b.v) };
    return undefined;
  }
  if (op === '-') return a.k === 'n' && b.k === 'n' ? { k: 'n', v: a.v - b.v } : undefined;
  if (a.k === 'n' && b.k === 'n') return op === '+' ? { k: 'n', v: a.v + b.v } : undefined;
  if (a.k === 'l' && b.k === 'l' && op === '+') return listOf([...a.v, ...b.v]);
  const text = (v: Value): string | undefined =>
    v.k === 's' || v.k === 'p' ? v.v : v.k === 'n' && (fam === 'js' || op === '.') ? String(v.v) : undefined;
  const x = text(a);
  const y = text(b);
  return x === undefined || y === undefined ? undefined : strOf(x + y);
}

/** `'{}/{}'.format(a, b)`, `'%s/%s' % (a, b)`. */
function format(template: string, args: readonly (Value | undefined)[]): Value | undefined {
  let n = 0;
  let failed = false;
  const out = template.replace(/\{(\d*)\}/g, (_m, index: string) => {
    const v = args[index === '' ? n++ : Number(index)];
    if (v?.k === 's' || v?.k === 'p') return v.v;
    if (v?.k === 'n') return String(v.v);
    failed = true;
    return '';
  });
  return failed ? undefined : strOf(out);
}

function reverseOf(args: readonly (Value | undefined)[]): Value | undefined {
  const a = args[0];
  return a?.k === 's' ? { k: 's', v: [...a.v].reverse().join('') } : undefined;
}

function decodeAs(text: string, how: Value | undefined): string | undefined {
  const encoding = how?.k === 's' ? how.v.toLowerCase().replace(/[-_]/g, '') : 'utf8';
  if (encoding === 'base64' || encoding === 'base64url') return fromBase64(text);
  if (encoding === 'hex') return fromHex(text);
  if (encoding === 'rot13')
    return text.replace(/[a-z]/gi, (c) => {
      const base = c <= 'Z' ? 65 : 97;
      return String.fromCharCode(((c.charCodeAt(0) - base + 13) % 26) + base);
    });
  return /^(?:utf8|ascii|latin1|binary|utf16le)$/.test(encoding) ? text : undefined;
}

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** Base64 (standard or URL-safe) to text; undefined when it is not base64. Pure, no Buffer in core. */
export function fromBase64(text: string): string | undefined {
  const bytes = base64Bytes(text);
  return bytes === undefined ? undefined : utf8(bytes);
}

/**
 * Base64 of UTF-16LE text, as `powershell -EncodedCommand` takes it, to text; undefined when it is
 * not that (not base64, an odd number of bytes).
 */
export function fromBase64Utf16(text: string): string | undefined {
  const bytes = base64Bytes(text);
  if (bytes === undefined || bytes.length % 2 !== 0) return undefined;
  let out = '';
  for (let i = 0; i < bytes.length; i += 2)
    out += String.fromCharCode((bytes[i] as number) | ((bytes[i + 1] as number) << 8));
  return out;
}

function base64Bytes(text: string): number[] | undefined {
  const clean = text.replace(/\s+/g, '').replace(/-/g, '+').replace(/_/g, '/').replace(/=+$/, '');
  if (clean.length > MAX_STRING * 2 || /[^A-Za-z0-9+/]/.test(clean) || clean.length % 4 === 1) return undefined;
  const bytes: number[] = [];
  let bits = 0;
  let acc = 0;
  for (const c of clean) {
    acc = (acc << 6) | B64.indexOf(c);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      bytes.push((acc >> bits) & 0xff);
    }
  }
  return bytes;
}

function fromHex(text: string): string | undefined {
  const clean = text.replace(/\s+/g, '');
  if (clean.length % 2 !== 0 || /[^0-9a-f]/i.test(clean) || clean.length > MAX_STRING * 2) return undefined;
  const bytes: number[] = [];
  for (let i = 0; i < clean.length; i += 2) bytes.push(parseInt(clean.slice(i, i + 2), 16));
  return utf8(bytes);
}

/** Bytes read as UTF-8 (a byte that does not fit stands for itself, as latin-1). */
function utf8(bytes: readonly number[]): string {
  let out = '';
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i] as number;
    const more = b >= 0xf0 ? 3 : b >= 0xe0 ? 2 : b >= 0xc0 ? 1 : 0;
    const tail = bytes.slice(i + 1, i + 1 + more);
    if (more > 0 && tail.length === more && tail.every((c) => (c & 0xc0) === 0x80)) {
      let code = b & (0x3f >> more);
      for (const c of tail) code = (code << 6) | (c & 0x3f);
      out += String.fromCodePoint(code);
      i += more;
    } else out += String.fromCharCode(b);
  }
  return out;
}

function safeUri(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

// ---------------------------------------------------------------------------------------------
// tokens

const PUNCT3 = new Set(['...', '===', '!==', '**=']);
const PUNCT2 = new Set([
  '=>',
  '==',
  '!=',
  '<=',
  '>=',
  '+=',
  '-=',
  '*=',
  '/=',
  '.=',
  '++',
  '--',
  '?.',
  '->',
  '::',
  '**',
  '//',
  '&&',
  '||',
]);
const WORD = /0[xX][0-9a-fA-F]+|\d+(?:\.\d+)?|[A-Za-z_$@][\w$]*/y;

/** The tokens of `code[from, to)`: strings (their value decoded), numbers, names and punctuation. */
function tokens(fam: Family, code: string, from: number, to: number): Tok[] {
  const out: Tok[] = [];
  let i = from;
  while (i < to && out.length < 200_000) {
    const c = code[i] as string;
    if (c === ' ' || c === '\t' || c === '\r' || c === '\\') {
      i++;
      continue;
    }
    if (c === '\n') {
      if (out[out.length - 1]?.v !== ';') out.push({ t: 'p', v: ';', s: i, e: i + 1 });
      i++;
      continue;
    }
    // comments
    if ((c === '#' && fam !== 'js') || ((fam === 'js' || fam === 'php') && code.startsWith('//', i))) {
      const nl = code.indexOf('\n', i);
      i = nl < 0 || nl > to ? to : nl;
      continue;
    }
    if ((fam === 'js' || fam === 'php') && code.startsWith('/*', i)) {
      const close = code.indexOf('*/', i + 2);
      i = close < 0 || close > to ? to : close + 2;
      continue;
    }
    // strings, with Python's prefixes
    let j = i;
    let prefix = '';
    if (fam === 'py')
      while (j < i + 2 && /[rRbBuUfF]/.test(code[j] ?? '')) {
        prefix += (code[j] as string).toLowerCase();
        j++;
      }
    const q = code[j] ?? '';
    if ((q === '"' || q === "'" || (q === '`' && fam === 'js')) && (j === i || prefix !== '')) {
      const triple = fam === 'py' && code.startsWith(q.repeat(3), j);
      const closer = triple ? q.repeat(3) : q;
      let k = j + closer.length;
      while (k < to && !code.startsWith(closer, k)) k += code[k] === '\\' ? 2 : 1;
      if (k >= to) break;
      const body = code.slice(j + closer.length, k);
      const end = k + closer.length;
      const raw = prefix.includes('r');
      const single = q === "'" && fam !== 'js' && fam !== 'py';
      if (
        q === '`' ||
        prefix.includes('f') ||
        (q === '"' && (fam === 'rb' || fam === 'pl' || fam === 'php') && /[$#]/.test(body))
      )
        out.push({ t: 'tpl', v: raw ? body : body, s: i, e: end });
      else
        out.push({
          t: 'str',
          v: raw ? body : single ? body.replace(/\\([\\'])/g, '$1') : decodeEscapes(body, fam, true),
          s: i,
          e: end,
          plain: true,
        });
      i = end;
      continue;
    }
    WORD.lastIndex = i;
    const word = /[\w$@]/.test(c) ? WORD.exec(code) : null;
    if (word && i + word[0].length <= to) {
      const w = word[0];
      out.push({ t: /^\d/.test(w) ? 'num' : 'id', v: w, s: i, e: i + w.length });
      i += w.length;
      continue;
    }
    const three = code.slice(i, i + 3);
    const two = three.slice(0, 2);
    const p = PUNCT3.has(three) ? three : PUNCT2.has(two) ? two : c;
    out.push({ t: 'p', v: p, s: i, e: i + p.length });
    i += p.length;
  }
  return out;
}

/** Backslash escapes as the language reads them in a string that knows them. */
function decodeEscapes(body: string, fam: Family, escapes: boolean): string {
  if (!escapes || !body.includes('\\')) return body;
  return body.replace(
    /\\(?:x([0-9a-fA-F]{2})|u\{([0-9a-fA-F]{1,6})\}|u([0-9a-fA-F]{4})|U([0-9a-fA-F]{8})|([0-7]{1,3})|(.))/gs,
    (_m, x?: string, ub?: string, u?: string, big?: string, oct?: string, other?: string) => {
      const hex = x ?? ub ?? u ?? big;
      if (hex !== undefined) {
        const code = parseInt(hex, 16);
        return code <= 0x10ffff ? String.fromCodePoint(code) : '';
      }
      if (oct !== undefined) return oct === '0' && fam === 'js' ? '\0' : String.fromCharCode(parseInt(oct, 8) & 0xff);
      const simple: Record<string, string> = {
        n: '\n',
        t: '\t',
        r: '\r',
        e: '\x1b',
        a: '\x07',
        b: '\b',
        f: '\f',
        v: '\v',
      };
      return simple[other ?? ''] ?? other ?? '';
    },
  );
}

/** Index of the token closing the bracket level at `i` (`close` at level zero), or -1. */
function skipTo(toks: readonly Tok[], i: number, close: string, pay: () => boolean): number {
  let level = 0;
  for (let j = i; j < toks.length && pay(); j++) {
    const v = (toks[j] as Tok).v;
    if ((toks[j] as Tok).t !== 'p') continue;
    if (level === 0 && (v === close || v === ',')) return j;
    if (v === '(' || v === '[' || v === '{') level++;
    else if (v === ')' || v === ']' || v === '}') {
      if (level === 0) return -1;
      level--;
    }
  }
  return -1;
}

/** The bracket that closes the one at `open` in `text` (quotes skipped), or -1. */
function matching(text: string, open: number): number {
  let level = 0;
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if (c === '"' || c === "'") {
      const close = text.indexOf(c, i + 1);
      if (close < 0) return -1;
      i = close;
    } else if (c === '{') level++;
    else if (c === '}' && --level === 0) return i;
  }
  return -1;
}

/** `c => body`, `(c) => body`, `function (c) { return body }`, `lambda c: body` at `i`. */
function arrowAt(
  toks: readonly Tok[],
  i: number,
): { param: string; body: number; bodyEnd: number; end: number } | undefined {
  let param: string | undefined;
  let body: number;
  const t = toks[i];
  if (t?.t === 'id' && toks[i + 1]?.v === '=>') {
    param = t.v;
    body = i + 2;
  } else if (t?.v === '(' && toks[i + 1]?.t === 'id' && toks[i + 2]?.v === ')' && toks[i + 3]?.v === '=>') {
    param = (toks[i + 1] as Tok).v;
    body = i + 4;
  } else if (t?.v === 'lambda' && toks[i + 1]?.t === 'id' && toks[i + 2]?.v === ':') {
    param = (toks[i + 1] as Tok).v;
    body = i + 3;
  } else if (
    t?.v === 'function' &&
    toks[i + 1]?.v === '(' &&
    toks[i + 2]?.t === 'id' &&
    toks[i + 3]?.v === ')' &&
    toks[i + 4]?.v === '{' &&
    toks[i + 5]?.v === 'return'
  ) {
    param = (toks[i + 2] as Tok).v;
    body = i + 6;
  } else return undefined;
  if (toks[body]?.v === '{') return undefined;
  // the body ends at the `,` or `)` of the call it is given to (or the `}` of a function)
  let level = 0;
  let j = body;
  for (; j < toks.length && j < body + 512; j++) {
    const v = (toks[j] as Tok).v;
    if ((toks[j] as Tok).t !== 'p') continue;
    if (level === 0 && (v === ',' || v === ')' || v === '}' || v === ';')) break;
    if (v === '(' || v === '[' || v === '{') level++;
    else if (v === ')' || v === ']' || v === '}') level--;
  }
  let end = j;
  if (t?.v === 'function') {
    while (toks[end]?.v === ';') end++;
    if (toks[end]?.v !== '}') return undefined;
    end++;
  }
  return { param, body, bodyEnd: j, end };
}
