/**
 * Commands written inside another program's options or text, which that program hands to a shell
 * (or to an interpreter) when it runs: git's aliases and the commands its settings name, vim's
 * `:!cmd`, sed's `e`, a Makefile's recipes, less's `+!cmd`. Each function takes the text as the
 * line wrote it (Mapped, so spans point back into the line) and returns the pieces that run; every
 * scan is one pass over the text.
 */
import type { Language } from '../programs/index.js';
import { EDITOR_ENV, PAGER_ENV } from '../programs/index.js';
import { literalWord } from './expand.js';
import type { Word } from './expand.js';
import { joinMapped, mappedBuilder, sliceMapped } from './mapped.js';
import type { Mapped } from './mapped.js';

/** A piece of text another program runs: shell text, or code in a language. */
export type Embedded =
  | { readonly kind: 'text'; readonly text: Mapped }
  | { readonly kind: 'code'; readonly language: Language; readonly text: Mapped };

// ---------------------------------------------------------------------------------------------
// git

/**
 * Settings whose value is a command git runs through a shell (`sh -c`), by their lower-case name;
 * a `*` stands for any one part of the name (`filter.lfs.clean`, `pager.log`).
 */
const GIT_COMMAND_SETTINGS = [
  'core.sshcommand',
  'core.pager',
  'core.editor',
  'core.askpass',
  'core.fsmonitor',
  'core.alternaterefscommand',
  'sequence.editor',
  'diff.external',
  'diff.*.command',
  'diff.*.textconv',
  'merge.*.driver',
  'filter.*.clean',
  'filter.*.smudge',
  'filter.*.process',
  'credential.helper',
  'gpg.program',
  'gpg.*.program',
  'pager.*',
  'uploadpack.packobjectshook',
];

/** Environment variables whose value is a command git runs. */
export const GIT_COMMAND_ENV = [
  'GIT_SSH_COMMAND',
  'GIT_SSH',
  'GIT_PAGER',
  'GIT_EDITOR',
  'GIT_SEQUENCE_EDITOR',
  'GIT_EXTERNAL_DIFF',
  'GIT_ASKPASS',
  'GIT_PROXY_COMMAND',
  // what git falls back on when its own are not set
  ...EDITOR_ENV,
  ...PAGER_ENV,
];

/** Whether a setting's value is a command git runs (`core.sshCommand`, `pager.log`). */
export function isGitCommandSetting(key: string): boolean {
  const parts = key.toLowerCase().split('.');
  return GIT_COMMAND_SETTINGS.some((pattern) => {
    const want = pattern.split('.');
    if (want.length !== parts.length && !(want.length === 3 && parts.length >= 3)) return false;
    if (want.length === 3 && parts.length > 3) {
      // a subsection may hold dots (`filter.my.tool.clean`): the first and the last part decide
      return want[0] === parts[0] && want[2] === parts[parts.length - 1];
    }
    return want.every((w, i) => w === '*' || w === parts[i]);
  });
}

/** The command in a git setting's value, or none: `credential.helper=store` names a helper, `!cmd` a command. */
export function gitSettingCommand(key: string, value: Mapped): Mapped | undefined {
  const text = value.text.trim();
  if (text === '') return undefined;
  const lower = key.toLowerCase();
  // `core.fsmonitor=true` turns on git's own monitor; a path or command is run
  if (lower === 'core.fsmonitor' && /^(?:true|false|yes|no|on|off|0|1)$/i.test(text)) return undefined;
  if (lower === 'credential.helper' || lower.endsWith('.helper')) {
    // `store`, `cache --timeout 60`, `osxkeychain` are git-credential-NAME; `!cmd` is shell text
    return text.startsWith('!') ? sliceMapped(value, value.text.indexOf('!') + 1, value.text.length) : undefined;
  }
  return value;
}

/**
 * `git config [--global|--local|--system|--file F|--add|--replace-all] KEY VALUE`, also `git config
 * set KEY VALUE`: the setting it writes, for the git commands later in the line. Reading forms
 * (`--get`, `--list`, `--unset`, …) write nothing.
 */
export function gitConfigWrite(words: readonly Word[]): { key: string; value: Mapped } | undefined {
  let at = 0;
  const operands: Word[] = [];
  for (; at < words.length; at++) {
    const word = words[at] as Word;
    const text = word.text;
    if (text === '--file' || text === '-f' || text === '--blob' || text === '--type' || text === '--comment') {
      at++;
      continue;
    }
    if (/^--(?:get|unset|list|remove-section|rename-section|edit|get-regexp|get-all|get-urlmatch)/.test(text))
      return undefined;
    if (text === '-l' || text === '-e') return undefined;
    if (text.startsWith('-')) continue;
    operands.push(word);
  }
  const [first, second, third] = operands;
  if (first?.text === 'set' && second !== undefined && third !== undefined)
    return { key: second.text.toLowerCase(), value: third.map };
  if (first === undefined || second === undefined || first.text === 'get' || first.text === 'unset') return undefined;
  return first.text.includes('.') ? { key: first.text.toLowerCase(), value: second.map } : undefined;
}

/** `-c k=v` pairs as git takes them: the key (lower case) and the value's text. */
export function gitSetting(word: Word, offset = 0): { key: string; value: Mapped } | undefined {
  const text = word.text.slice(offset);
  const eq = text.indexOf('=');
  if (eq <= 0) return undefined;
  return { key: text.slice(0, eq).toLowerCase(), value: sliceMapped(word.map, offset + eq + 1, word.text.length) };
}

/**
 * `GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.pager GIT_CONFIG_VALUE_0=cmd`, and
 * `GIT_CONFIG_PARAMETERS="'core.pager'='cmd'"`: settings handed to git in its environment.
 */
export function gitEnvSettings(env: (name: string) => Mapped | undefined): { key: string; value: Mapped }[] {
  const out: { key: string; value: Mapped }[] = [];
  const count = Number(env('GIT_CONFIG_COUNT')?.text ?? '0');
  for (let i = 0; i < Math.min(Number.isFinite(count) ? count : 0, 64); i++) {
    const key = env(`GIT_CONFIG_KEY_${i}`);
    const value = env(`GIT_CONFIG_VALUE_${i}`);
    if (key !== undefined && value !== undefined) out.push({ key: key.text.toLowerCase(), value });
  }
  const parameters = env('GIT_CONFIG_PARAMETERS');
  if (parameters !== undefined) {
    const re = /'([^']*)'=?'?([^']*)'?/g;
    for (let m = re.exec(parameters.text); m !== null; m = re.exec(parameters.text)) {
      const valueAt = m.index + m[0].indexOf(m[2] ?? '', (m[1] ?? '').length + 2);
      if (m[1])
        out.push({ key: m[1].toLowerCase(), value: sliceMapped(parameters, valueAt, valueAt + (m[2] ?? '').length) });
    }
  }
  return out;
}

/** An alias's value split into words as git splits it (blanks; quotes kept out). */
export function aliasWords(value: Mapped): Word[] {
  const out: Word[] = [];
  const text = value.text;
  let i = 0;
  while (i < text.length) {
    while (i < text.length && /\s/.test(text[i] as string)) i++;
    if (i >= text.length) break;
    const quote = text[i] === '"' || text[i] === "'" ? (text[i] as string) : undefined;
    if (quote !== undefined) {
      const close = text.indexOf(quote, i + 1);
      const end = close < 0 ? text.length : close;
      out.push(literalWord(sliceMapped(value, i + 1, end)));
      i = end + 1;
      continue;
    }
    const start = i;
    while (i < text.length && !/\s/.test(text[i] as string)) i++;
    out.push(literalWord(sliceMapped(value, start, i)));
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// vim, nvim, ex

/**
 * What an Ex command runs (`:!cmd`, `:r !cmd`, `:%!cmd`, `:terminal cmd`, `:call system('cmd')`,
 * `:py3 code`, `:lua code`), after the `:`, `silent` and range that may come first; commands
 * joined by `|` are each looked at (after a `!` the rest of the line is the shell's).
 */
export function exCommands(line: Mapped): Embedded[] {
  const out: Embedded[] = [];
  const text = line.text;
  let at = 0;
  for (let guard = 0; at < text.length && guard < 64; guard++) {
    const m = EX_HEAD.exec(text.slice(at, at + 256));
    if (m === null) break;
    const start = at + m[0].length;
    const bang = m[1];
    const word = (m[2] ?? '').toLowerCase();
    if (bang !== undefined || (/^(?:r|re|rea|read|w|wr|wri|writ|write)$/.test(word) && text[start] === '!')) {
      const from = bang !== undefined ? start : start + 1;
      out.push({ kind: 'text', text: sliceMapped(line, from, text.length) });
      return out;
    }
    const bar = text.indexOf('|', start);
    const end = bar < 0 ? text.length : bar;
    if (/^ter(?:m|mi|min|mina|minal)?$/.test(word)) out.push({ kind: 'text', text: sliceMapped(line, start, end) });
    else if (/^(?:py|py3|pyx|python|python3|pythonx|py3do|pydo)$/.test(word))
      out.push({ kind: 'code', language: 'python', text: sliceMapped(line, start, text.length) });
    else if (word === 'lua' || word === 'luado')
      out.push({ kind: 'code', language: 'lua', text: sliceMapped(line, start, text.length) });
    else if (word === 'perl' || word === 'perldo')
      out.push({ kind: 'code', language: 'perl', text: sliceMapped(line, start, text.length) });
    else if (word === 'ruby' || word === 'rubydo')
      out.push({ kind: 'code', language: 'ruby', text: sliceMapped(line, start, text.length) });
    else {
      // `:call system('cmd')`, `:echo systemlist("cmd")`, `:exe '!cmd'`
      const piece = text.slice(start, end);
      const call = /\bsystem(?:list)?\s*\(\s*(['"])([^'"]*)\1/.exec(piece);
      if (call !== undefined && call !== null) {
        const from = start + call.index + call[0].length - (call[2] ?? '').length - 1;
        out.push({ kind: 'text', text: sliceMapped(line, from, from + (call[2] ?? '').length) });
      }
      const exe = /^(['"])\s*:?\s*!(.*)\1\s*$/.exec(piece);
      if (/^exe(?:c|cu|cut|cute)?$/.test(word) && exe !== null) {
        const from = start + piece.indexOf('!') + 1;
        out.push({ kind: 'text', text: sliceMapped(line, from, from + (exe[2] ?? '').length) });
      }
    }
    if (bar < 0) break;
    at = bar + 1;
  }
  return out;
}

/** `:`, blanks, `silent!`, a range (`%`, `1,$`, `'<,'>`), then `!` or a command name. */
const EX_HEAD = /^[\s:]*(?:sil(?:e|en|ent)?!?\s+)?(?:[%$.\d,;'<>+\-/]|\\[/?&])*\s*(?:(!)|([A-Za-z]+[0-9]?))\s*/;

/** Every line of an Ex script (`vim -es < cmds`, a heredoc to `ex`) as Ex commands. */
export function exScript(text: Mapped): Embedded[] {
  return linesOf(text).flatMap(exCommands);
}

// ---------------------------------------------------------------------------------------------
// sed

/**
 * The commands a sed script runs: GNU sed's `e command` and the `e` flag of `s///`, whose
 * replacement is run (the pattern space, which the replacement usually is all of).
 */
export function sedCommands(script: Mapped): Mapped[] {
  return sedScript(script.text).commands.map(([from, to]) => sliceMapped(script, from, to));
}

/** A file a program's script names, and whether it is read or written. */
export interface ScriptFile {
  readonly op: 'read' | 'write';
  readonly name: string;
  /** `print >> "FILE"` adds to the file. */
  readonly append?: boolean;
}

/** The files a sed script reads (`r FILE`, `R FILE`) and writes (`w FILE`, `W FILE`, `s/a/b/w FILE`). */
export function sedFiles(script: string): ScriptFile[] {
  return sedScript(script).files;
}

/** One pass over a sed script: the commands it runs (as `[from, to)`) and the files it names. */
function sedScript(s: string): { commands: [number, number][]; files: ScriptFile[] } {
  const out: [number, number][] = [];
  const files: ScriptFile[] = [];
  const file = (op: 'read' | 'write', from: number, to: number): void => {
    const name = s.slice(from, to).trim();
    if (name !== '' && files.length < 64) files.push({ op, name });
  };
  let i = 0;
  const skipBlanks = (): void => {
    while (i < s.length && (s[i] === ' ' || s[i] === '\t' || s[i] === ';' || s[i] === '\n' || s[i] === '}')) i++;
  };
  const toLineEnd = (): number => {
    const end = s.indexOf('\n', i);
    return end < 0 ? s.length : end;
  };
  for (let guard = 0; i < s.length && guard < 4096; guard++) {
    skipBlanks();
    if (i >= s.length) break;
    // addresses: numbers, `$`, `/re/`, `\cREc`, `first~step`, joined by `,`, then `!` and `{`
    for (;;) {
      if (s[i] === '/' || s[i] === '\\') {
        const delimiter = s[i] === '\\' ? (s[i + 1] ?? '/') : '/';
        i = delimitedEnd(s, i + (s[i] === '\\' ? 2 : 1), delimiter);
        while (s[i] === 'I' || s[i] === 'M') i++;
      } else if (/[\d$~+]/.test(s[i] ?? '')) {
        while (/[\d$~+]/.test(s[i] ?? '')) i++;
      }
      while (s[i] === ' ' || s[i] === '\t') i++;
      if (s[i] === ',') {
        i++;
        continue;
      }
      break;
    }
    while (s[i] === '!' || s[i] === ' ' || s[i] === '{' || s[i] === '\t') i++;
    const command = s[i];
    if (command === undefined) break;
    i++;
    if (command === 's' || command === 'y') {
      const delimiter = s[i] ?? '/';
      const patternEnd = delimitedEnd(s, i + 1, delimiter);
      const replacementEnd = delimitedEnd(s, patternEnd, delimiter);
      const replacement: [number, number] = [patternEnd, Math.max(patternEnd, replacementEnd - 1)];
      i = replacementEnd;
      const flagsStart = i;
      while (i < s.length && !/[;\n}]/.test(s[i] as string)) {
        // `w file` ends the command at the line's end
        if (s[i] === 'w') {
          if (command === 's') file('write', i + 1, toLineEnd());
          i = toLineEnd();
          break;
        }
        i++;
      }
      if (command === 's' && s.slice(flagsStart, i).replace(/w.*$/s, '').includes('e')) out.push(replacement);
    } else if (command === 'e') {
      while (s[i] === ' ' || s[i] === '\t') i++;
      const end = toLineEnd();
      if (end > i) out.push([i, end]);
      i = end;
    } else if ('aicrRwWbtTv:#'.includes(command)) {
      // text, a file name or a label up to the line's end (`b`, `t`, `:` also end at `;`)
      const end = toLineEnd();
      if (command === 'r' || command === 'R') file('read', i, end);
      else if (command === 'w' || command === 'W') file('write', i, end);
      const semicolon = 'btT'.includes(command) ? s.indexOf(';', i) : -1;
      i = semicolon >= 0 && semicolon < end ? semicolon : end;
    }
  }
  return { commands: out, files };
}

/** Index just past the closing `delimiter` of a part that starts at `from` (escapes skipped). */
function delimitedEnd(s: string, from: number, delimiter: string): number {
  for (let i = from; i < s.length; i++) {
    if (s[i] === '\\') i++;
    else if (s[i] === delimiter) return i + 1;
    else if (s[i] === '\n') return i;
  }
  return s.length;
}

// ---------------------------------------------------------------------------------------------
// Makefiles

/**
 * A Makefile's recipes as shell text, one line per recipe line: the lines that start with a tab,
 * and what follows `;` on a rule's line (`all: ; rm -rf x`). `@`, `-` and `+` in front are make's;
 * `$$` is a `$`.
 */
export function makefileRecipes(text: Mapped): Mapped | undefined {
  const out: Mapped[] = [];
  for (const line of linesOf(text)) {
    const s = line.text;
    let start: number | undefined;
    if (s.startsWith('\t')) start = 1;
    else {
      const colon = ruleColon(s);
      if (colon >= 0) {
        const semicolon = s.indexOf(';', colon);
        if (semicolon >= 0) start = semicolon + 1;
      }
    }
    if (start === undefined) continue;
    while (start < s.length && /[\s@+-]/.test(s[start] as string)) start++;
    if (start >= s.length) continue;
    out.push(dollars(sliceMapped(line, start, s.length)));
  }
  return out.length === 0 ? undefined : joinMapped(out, '\n');
}

/** Where a rule's `:` is (`target: deps`), not a variable's `:=`; -1 for other lines. */
function ruleColon(s: string): number {
  if (/^\s*(?:#|[A-Za-z_][\w.]*\s*[:?+!]?=)/.test(s)) return -1;
  const colon = s.indexOf(':');
  return colon > 0 && s[colon + 1] !== '=' ? colon : -1;
}

/** `$$` → `$` (make's own escape); everything else as written. */
function dollars(text: Mapped): Mapped {
  if (!text.text.includes('$$')) return text;
  const out = mappedBuilder();
  const s = text.text;
  let from = 0;
  for (let i = s.indexOf('$$'); i >= 0; i = s.indexOf('$$', i + 2)) {
    out.piece(text, from, i + 1);
    from = i + 2;
  }
  out.piece(text, from, s.length);
  return out.build(text.at(s.length));
}

// ---------------------------------------------------------------------------------------------
// less

/** `less +'!cmd' file`, `less '++!cmd'`: a command less runs when it starts. */
export function lessCommand(word: Word): Mapped | undefined {
  const text = word.text;
  if (!text.startsWith('+')) return undefined;
  let at = text.startsWith('++') ? 2 : 1;
  while (text[at] === ':' || text[at] === ' ') at++;
  return text[at] === '!' && at + 1 < text.length ? sliceMapped(word.map, at + 1, text.length) : undefined;
}

// ---------------------------------------------------------------------------------------------
// awk

/**
 * What an awk program hands to the world beyond its output: the files `print`/`printf` write
 * (`print > "FILE"`, `>> "FILE"`), and where the string literals start that run as shell text:
 * the commands of its pipes (`print | "CMD"`, `"CMD" | getline`) and the one string a print pipes
 * into a shell (`print "CMD" | "sh"`). Only string literals are read, and the variables assigned
 * only them; a `>` inside parentheses is a comparison, as awk reads it.
 */
export function awkScript(s: string): { files: ScriptFile[]; commands: number[] } {
  const files: ScriptFile[] = [];
  const commands: number[] = [];
  const names = awkNames(s);
  // `system(c)`, `print | c`, `c | getline` where `c = "CMD"`: the strings it is assigned
  const named = (at: number, pattern: RegExp): void => {
    const m = pattern.exec(s.slice(at, at + 64));
    for (const held of m === null ? [] : (names.get(m[1] as string) ?? [])) commands.push(held);
  };
  let depth = 0;
  // the parenthesis depth of the `print` in the statement being read (-1: none), and where its words start
  let print = -1;
  let printed = 0;
  for (let i = 0; i < s.length && files.length + commands.length < 64; i++) {
    const c = s[i] as string;
    if (c === '"') {
      const end = stringEnd(s, i);
      // `"CMD" | getline`
      if (/^\s*\|&?\s*getline\b/.test(s.slice(end, end + 64))) commands.push(i);
      i = end - 1;
    } else if (c === '#') {
      while (i < s.length && s[i] !== '\n') i++;
      print = -1;
    } else if (c === '(') depth++;
    else if (c === ')') depth = Math.max(0, depth - 1);
    else if (c === ';' || c === '{' || c === '}' || c === '\n') print = -1;
    else if (/[A-Za-z_]/.test(c) && !/[\w$]/.test(s[i - 1] ?? '')) {
      const word = /^[A-Za-z_]\w*/.exec(s.slice(i, i + 64))?.[0] ?? c;
      if (word === 'print' || word === 'printf') {
        print = depth;
        printed = i + word.length;
      } else if (word === 'system') named(i + word.length, /^\s*\(\s*([A-Za-z_]\w*)\s*\)/);
      else if (names.has(word)) named(i, /^([A-Za-z_]\w*)\s*\|&?\s*getline\b/);
      i += word.length - 1;
    } else if (c === '|' && print === depth) {
      // `print | "CMD"` or `print | c`: the command's string(s); a single string printed into a shell is its input
      const target = /^\|&?\s*(?:"|([A-Za-z_]\w*)\b)/.exec(s.slice(i, i + 64));
      if (target === null) continue;
      const quotes = target[1] === undefined ? [i + target[0].length - 1] : (names.get(target[1]) ?? []);
      commands.push(...quotes);
      const fed = i - printed > 4096 ? null : /^\s*\(?\s*"(?:[^"\\\n]|\\.)*"\s*\)?\s*$/.exec(s.slice(printed, i));
      if (fed !== null && quotes.some((q) => SHELL_COMMAND.test(s.slice(q + 1, stringEnd(s, q) - 1))))
        commands.push(printed + fed[0].indexOf('"'));
      if (target[1] === undefined) i = stringEnd(s, i + target[0].length - 1) - 1;
    } else if (c === '>' && print === depth) {
      const m = /^(>>?)\s*"/.exec(s.slice(i, i + 8));
      if (m === null) continue;
      const quote = i + m[0].length - 1;
      const end = stringEnd(s, quote);
      if (end - quote > 2)
        files.push({ op: 'write', name: s.slice(quote + 1, end - 1), ...(m[1] === '>>' ? { append: true } : {}) });
      i = end - 1;
    }
  }
  return { files, commands };
}

/**
 * awk's variables assigned only string literals (`c = "CMD"`), and where each literal starts; a
 * variable also assigned anything else is left out (what it holds is not known here).
 */
function awkNames(s: string): Map<string, number[]> {
  const out = new Map<string, number[]>();
  const other = new Set<string>();
  const re = /(?<![\w$.])([A-Za-z_]\w*)\s*=(?!=)\s*/g;
  // one string literal, then more of the value on the same line (`"rm " x`)
  const more = /"(?:[^"\\\n]|\\.)*"[ \t]*[^\s;}#]/y;
  for (let m = re.exec(s); m !== null && out.size + other.size < 64; m = re.exec(s)) {
    const name = m[1] as string;
    const at = m.index + m[0].length;
    if (other.has(name)) continue;
    more.lastIndex = at;
    if (s[at] !== '"' || more.test(s)) {
      // a value that is not one literal (`c = "rm " x`)
      out.delete(name);
      other.add(name);
    } else {
      const held = out.get(name);
      if (held === undefined) out.set(name, [at]);
      else if (held.length < 16) held.push(at);
    }
  }
  return out;
}

/** A shell that reads its commands from stdin (`sh`, `/bin/bash -s`). */
const SHELL_COMMAND = /^\s*(?:\S*\/)?(?:ba|da|z|k|mk)?sh(?:\s+-[a-z]+)*\s*$/;

/** Index just past the string literal that starts at `from` (its `"`), or the line's end. */
function stringEnd(s: string, from: number): number {
  let i = from + 1;
  for (; i < s.length && s[i] !== '"' && s[i] !== '\n'; i++) if (s[i] === '\\') i++;
  return s[i] === '"' ? i + 1 : i;
}

// ---------------------------------------------------------------------------------------------
// substitutions and remote helpers

/**
 * The commands of a value's `$(…)` and backquotes, which a shell runs when it expands the value
 * (a prompt: `PS4='$(cmd)'`, `PROMPT_COMMAND`'s cousins); the rest of the value is text.
 */
export function substitutionsIn(value: Mapped): Mapped[] {
  const out: Mapped[] = [];
  const s = value.text;
  for (let i = 0; i < s.length && out.length < 64; i++) {
    if (s[i] === '\\') {
      i++;
      continue;
    }
    if (s[i] === '`') {
      const end = s.indexOf('`', i + 1);
      if (end < 0) break;
      out.push(sliceMapped(value, i + 1, end));
      i = end;
    } else if (s[i] === '$' && s[i + 1] === '(' && s[i + 2] !== '(') {
      let depth = 1;
      let j = i + 2;
      for (; j < s.length && depth > 0; j++) {
        if (s[j] === '(') depth++;
        else if (s[j] === ')') depth--;
      }
      out.push(sliceMapped(value, i + 2, depth === 0 ? j - 1 : s.length));
      i = j - 1;
    }
  }
  return out;
}

/**
 * git's `ext::CMD ARGS` remote (`git clone 'ext::sh -c cmd% args'`): the command git runs for
 * the remote, as words split at blanks, where `% ` is a blank inside a word and `%%` a `%`
 * (`%S`, `%s`, `%G`, `%V` stand for git's own values and are kept as written).
 */
export function extWords(word: Word): Word[] | undefined {
  if (!word.text.startsWith('ext::')) return undefined;
  const s = word.text;
  const out: Word[] = [];
  let piece = mappedBuilder();
  let empty = true;
  let from = 5;
  const flush = (to: number): void => {
    if (to > from) {
      piece.piece(word.map, from, to);
      empty = false;
    }
  };
  for (let i = 5; i <= s.length; i++) {
    const c = s[i];
    if (c === '%' && (s[i + 1] === ' ' || s[i + 1] === '%')) {
      flush(i);
      from = i + 1;
      i++;
    } else if (c === undefined || c === ' ') {
      flush(i);
      if (!empty) out.push(literalWord(piece.build(word.map.at(i))));
      piece = mappedBuilder();
      empty = true;
      from = i + 1;
    }
  }
  return out.length > 0 ? out : undefined;
}

/** The lines of a text (without their new lines). */
export function linesOf(text: Mapped): Mapped[] {
  const out: Mapped[] = [];
  const s = text.text;
  let from = 0;
  for (let i = s.indexOf('\n'); ; i = s.indexOf('\n', from)) {
    const end = i < 0 ? s.length : i;
    if (end > from) out.push(sliceMapped(text, from, end));
    if (i < 0 || out.length >= 4096) break;
    from = i + 1;
  }
  return out;
}
