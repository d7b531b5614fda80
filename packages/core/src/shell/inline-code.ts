import type { Language } from '../programs/index.js';
import { program, sourceOf } from '../programs/index.js';
import { awkScript } from './embedded.js';
import type { Word } from './expand.js';
import type { Folded } from './fold.js';
import { foldCode } from './fold.js';
import { joinMapped, mappedBuilder, sliceMapped } from './mapped.js';
import type { Mapped } from './mapped.js';

export type { Language } from '../programs/index.js';

/** Where an interpreter's program comes from, judged from its arguments. */
export type CodeSource =
  | { readonly kind: 'inline'; readonly language: Language; readonly words: readonly Word[] }
  | { readonly kind: 'stdin'; readonly language: Language }
  | { readonly kind: 'none' };

const NO_CODE: CodeSource = { kind: 'none' };

/**
 * Whether `name args…` runs inline code (`python -c`, `node -e`, `awk '{…}'`, `deno eval`), reads
 * its program from stdin, or neither: the knowledge base's `sourceOf`, with the words' positions.
 */
export function codeSource(name: string, args: readonly Word[]): CodeSource {
  const source = sourceOf(
    name,
    args.map((w) => w.text),
  );
  if (source.kind === 'stdin')
    return source.language === undefined ? NO_CODE : { kind: 'stdin', language: source.language };
  if (source.kind === 'script') {
    // `python3 <(printf …)`: the script is what the substitution prints
    const word = args[source.index];
    const language = program(name)?.language;
    return word?.printed === undefined || language === undefined || source.language === 'shell'
      ? NO_CODE
      : { kind: 'inline', language, words: [{ ...word, text: word.printed.text, map: word.printed }] };
  }
  if (source.kind !== 'code') return NO_CODE;
  const words: Word[] = [];
  for (const { index, offset } of source.parts) {
    const word = args[index];
    if (word === undefined) continue;
    words.push(
      offset ? { ...word, text: word.text.slice(offset), map: sliceMapped(word.map, offset, word.text.length) } : word,
    );
  }
  return words.length > 0 ? { kind: 'inline', language: source.language, words } : NO_CODE;
}

/** The code of an inline source as one text (several `-e` parts joined by newlines). */
export function codeText(words: readonly Word[]): Mapped {
  return joinMapped(
    words.map((w) => w.map),
    '\n',
  );
}

/** A command found in inline code: a shell line, or an argv that runs without a shell. */
export type CodeCommand =
  { readonly kind: 'text'; readonly text: Mapped } | { readonly kind: 'argv'; readonly words: readonly Mapped[] };

const CALLS: Readonly<Record<Language, RegExp | undefined>> = {
  python:
    /(?<![\w.])(?:os\.(?:system|popen|exec[lv]p?e?|spawn[lv]p?e?)|subprocess\.(?:run|call|check_call|check_output|Popen|getoutput|getstatusoutput)|commands\.getoutput|pty\.spawn|system|popen|check_output|check_call|Popen|getoutput)\s*\(/g,
  node: /(?<![\w$])(?:execSync|exec|execFileSync|execFile|spawnSync|spawn)\s*\(|(?<![\w$])\$(?=`)|new\s+Deno\.Command\s*\(|Deno\.run\s*\(/g,
  deno: /(?<![\w$])(?:execSync|exec|execFileSync|execFile|spawnSync|spawn)\s*\(|(?<![\w$])\$(?=`)|new\s+Deno\.Command\s*\(|Deno\.run\s*\(/g,
  ruby: /(?<![\w:])(?:system|exec|spawn|IO\.popen|Open3\.(?:capture2e|capture2|capture3|popen2e|popen2|popen3|pipeline))(?![\w?!])[ \t]*\(?|`|%x[({[<|!]/g,
  perl: /(?<![\w$@%>])(?:system|exec)(?!\w)[ \t]*\(?|`|\bqx[({[</|!']/g,
  php: /(?<![\w$>:])(?:shell_exec|exec|system|passthru|popen|proc_open|pcntl_exec)\s*\(|`/g,
  awk: /(?<![\w$])system\s*\(/g,
  lua: /(?<![\w.:])(?:os\.execute|io\.popen)\s*\(?/g,
  applescript: /\bdo shell script[ \t]+/g,
  r: /(?<![\w.])(?:system2?|shell)\s*\(/g,
  powershell: undefined,
  other: undefined,
};

/**
 * How a whole-line comment starts in each language, and what on such a line could still be code:
 * an interpolation (`{…}` of a Python f-string, `#{…}` in Ruby, `${…}` in JavaScript, `{$…}` in PHP)
 * in a string the line belongs to.
 */
const LINE_COMMENTS: Readonly<Partial<Record<Language, { readonly start: RegExp; readonly code: RegExp }>>> = {
  python: { start: /^[ \t]*#/, code: /\{/ },
  ruby: { start: /^[ \t]*#(?!\{)/, code: /#\{/ },
  node: { start: /^[ \t]*\/\//, code: /\$\{/ },
  deno: { start: /^[ \t]*\/\//, code: /\$\{/ },
  php: { start: /^[ \t]*(?:\/\/|#(?!\[))/, code: /\{\$|\$\{/ },
  r: { start: /^[ \t]*#/, code: /`/ },
};
/**
 * Code that runs text as code, or writes text to a file (which may then run): a comment line in a
 * string it handles that way is not only a comment.
 */
const EVALUATES =
  /\b(?:eval|exec|execfile|compile|Function|instance_eval|class_eval|module_eval|create_function|assert|runInThisContext|runInNewContext|runInContext|Script|Worker|setTimeout|setInterval|run_path|run_module|import_module|write|writelines|write_text|writeFile|writeFileSync|appendFile|appendFileSync|file_put_contents)\s*\(/;

/**
 * Whether a call found at an index sits on a line that is all comment (`# os.system("rm -rf ~")`):
 * text, not a call. Not where the line before continues into it (a trailing backslash), where the
 * line holds an interpolation, or where the code runs text as code (`exec`, `eval`): there a line
 * that looks like a comment may be code after all.
 */
function commentLines(language: Language, s: string): (index: number) => boolean {
  const syntax = LINE_COMMENTS[language];
  if (syntax === undefined || !/#|\/\//.test(s) || EVALUATES.test(s)) return () => false;
  const ranges: [number, number][] = [];
  let start = 0;
  let continued = false;
  while (start <= s.length) {
    const newline = s.indexOf('\n', start);
    const end = newline < 0 ? s.length : newline;
    const line = s.slice(start, end);
    if (!continued && syntax.start.test(line) && !syntax.code.test(line)) ranges.push([start, end]);
    continued = line.endsWith('\\');
    if (newline < 0) break;
    start = newline + 1;
  }
  // the ranges are in order: a binary search keeps a call site's look-up logarithmic
  return (index) => {
    let low = 0;
    let high = ranges.length - 1;
    while (low <= high) {
      const mid = (low + high) >> 1;
      const [from, to] = ranges[mid] as [number, number];
      if (index < from) high = mid - 1;
      else if (index >= to) low = mid + 1;
      else return true;
    }
    return false;
  };
}

/** At most this many call sites are looked at, and commands taken, in one piece of code. */
const MAX_CALLS = 256;
const MAX_FOUND = 64;

/**
 * Finds calls that run commands in inline code and returns what they run. Only string literals
 * (and lists of them) are read; this is a scanner, not a parser for the language.
 */
export function commandsInCode(language: Language, code: Mapped): CodeCommand[] {
  const pattern = CALLS[language];
  if (!pattern) return [];
  const scanner = new Scanner(code, language);
  const found: CodeCommand[] = [];
  const s = code.text;
  const commented = commentLines(language, s);
  // the language's own pattern, not a copy per call (nothing in the loop below scans code in turn)
  const re = pattern;
  re.lastIndex = 0;
  let calls = 0;
  for (let m = re.exec(s); m && found.length < MAX_FOUND && calls++ < MAX_CALLS && scanner.budget > 0; m = re.exec(s)) {
    const matched = m[0];
    const after = m.index + matched.length;
    if (commented(m.index)) continue;
    let command: CodeCommand | undefined;
    if (matched === '`' || matched === '$') {
      const literal = scanner.string(matched === '$' ? after : m.index);
      if (literal) re.lastIndex = literal.end;
      command = literal && { kind: 'text', text: literal.value };
    } else if (/^(?:%x|qx)/.test(matched)) {
      const literal = scanner.delimited(after - 1);
      re.lastIndex = literal.end;
      command = { kind: 'text', text: literal.value };
    } else if (/Deno\.(?:Command|run)/.test(matched)) {
      command = scanner.denoCommand(after, /Deno\.run/.test(matched) ? 'cmd' : 'args');
    } else {
      command = commandFromArgs(scanner.args(after, matched.endsWith('(')));
    }
    if (command) found.push(command);
  }
  if (HIDES[language]?.test(s) === true)
    found.push(...hiddenCommands(language, code, scanner, MAX_FOUND - found.length, commented));
  // awk's pipes: `print | "cmd"`, `"cmd" | getline`, `print "cmd" | "sh"`
  if (language === 'awk')
    for (const at of awkScript(s).commands) {
      const literal = scanner.string(at);
      if (literal !== undefined && found.length < MAX_FOUND) found.push({ kind: 'text', text: literal.value });
    }
  return found;
}

// ---------------------------------------------------------------------------------------------
// Calls that hide their name (an alias, `__import__`, `getattr`, a destructured require), and
// file deletion from code (`shutil.rmtree`, `fs.rmSync`), which is read as the `rm` it amounts to.

/** Code worth the second look: it imports under another name, looks a function up, or deletes files. */
const HIDES: Readonly<Partial<Record<Language, RegExp>>> = {
  python: /\bimport\b|__import__|getattr|rmtree|\b(?:remove|unlink|rmdir|removedirs)\s*\(/,
  node: /child_process|rmSync|unlinkSync|rmdirSync|\b(?:rm|unlink|rmdir)\s*\(|\bDeno\.remove|['"`](?:node:)?fs(?:\/promises)?['"`]/,
  deno: /child_process|rmSync|unlinkSync|rmdirSync|\b(?:rm|unlink|rmdir)\s*\(|\bDeno\.remove|['"`](?:node:)?fs(?:\/promises)?['"`]/,
  ruby: /\bFileUtils\b|\bFile\.(?:delete|unlink)\b/,
  perl: /\bunlink\b|\brmtree\b|\bremove_tree\b/,
  php: /\bunlink\s*\(/,
};

/** Python modules whose functions run a command, and the functions. */
const PY_RUNS: Readonly<Record<string, readonly string[]>> = {
  os: [
    'system',
    'popen',
    'execl',
    'execle',
    'execlp',
    'execlpe',
    'execv',
    'execve',
    'execvp',
    'execvpe',
    'spawnl',
    'spawnlp',
    'spawnv',
    'spawnvp',
  ],
  subprocess: ['run', 'call', 'check_call', 'check_output', 'Popen', 'getoutput', 'getstatusoutput'],
  pty: ['spawn'],
  commands: ['getoutput'],
};
/** Python functions that delete files: the `rm` each amounts to. */
const PY_DELETES: Readonly<Record<string, Readonly<Record<string, Deletion>>>> = {
  os: { remove: 'file', unlink: 'file', rmdir: 'dir', removedirs: 'dir' },
  shutil: { rmtree: 'tree' },
};
/** Node's child_process functions. */
const NODE_RUNS = ['execSync', 'exec', 'execFileSync', 'execFile', 'spawnSync', 'spawn', 'fork'];
/** Node's fs functions that delete (also those of fs/promises), and whether `{ recursive: true }` counts. */
const NODE_DELETES: Readonly<Record<string, boolean>> = {
  rmSync: true,
  rmdirSync: true,
  unlinkSync: false,
  rm: true,
  rmdir: true,
  unlink: false,
};
/** `require("fs")`, `require("node:fs/promises")`, `require("fs").promises`, `import("fs")`. */
const FS_MODULE = `(?:require\\s*\\(\\s*['"\`](?:node:)?fs(?:/promises)?['"\`]\\s*\\)(?:\\s*\\.\\s*promises)?|(?:await\\s+)?import\\s*\\(\\s*['"\`](?:node:)?fs(?:/promises)?['"\`]\\s*\\))`;
const FS_FROM = `from\\s*['"\`](?:node:)?fs(?:/promises)?['"\`]`;

/**
 * Expressions that stand for the home folder (`os.path.expanduser("~")`, `Path.home()`,
 * `process.env.HOME`, `os.homedir()`, `Dir.home`), read where a deleting call's path is: the
 * group, when there is one, is the rest of the path after `~`.
 */
const HOME_EXPRESSIONS: Readonly<Partial<Record<Language, RegExp>>> = {
  python:
    /(?:os\.path\.)?expanduser\(\s*(?:r|u)?['"]~([^'"\n]{0,200})['"]\s*\)|(?:os\.)?(?:environ\s*\[\s*['"](?:HOME|USERPROFILE)['"]\s*\]|environ\.get\(\s*['"](?:HOME|USERPROFILE)['"]\s*\)|getenv\(\s*['"](?:HOME|USERPROFILE)['"]\s*\))|(?:str\(\s*)?(?:pathlib\.)?Path\.home\(\s*\)/y,
  node: /process\.env(?:\.(?:HOME|USERPROFILE)\b|\[\s*['"`](?:HOME|USERPROFILE)['"`]\s*\])|(?:(?:require\(\s*['"`](?:node:)?os['"`]\s*\)|[\w$]+)\.)?homedir\(\s*\)/y,
  deno: /Deno\.env\.get\(\s*['"`](?:HOME|USERPROFILE)['"`]\s*\)|process\.env(?:\.(?:HOME|USERPROFILE)\b|\[\s*['"`](?:HOME|USERPROFILE)['"`]\s*\])/y,
  ruby: /Dir\.home\b|ENV\[\s*['"](?:HOME|USERPROFILE)['"]\s*\]|File\.expand_path\(\s*['"]~([^'"\n]{0,200})['"]\s*\)/y,
  perl: /\$ENV\{\s*['"]?(?:HOME|USERPROFILE)['"]?\s*\}/y,
  php: /getenv\(\s*['"](?:HOME|USERPROFILE)['"]\s*\)|\$_SERVER\[\s*['"]HOME['"]\s*\]/y,
};

type Deletion = 'file' | 'dir' | 'tree';

/** At most this many other names per module are followed (each is a pattern run over the code). */
const MAX_ALIASES = 8;

const IDENT = '[A-Za-z_$][\\w$]*';
/** String literals joined by `+` (`"sys" + "tem"`), as one name. */
const CONCAT = `((?:['"\`][\\w.]*['"\`]\\s*(?:\\+\\s*)?)+)`;

function joinedName(text: string): string {
  return text.replace(/['"`+\s]/g, '');
}

/**
 * Commands run under a hidden name, and files deleted from code, found with patterns made for
 * this code's own imports; `limit` caps what is taken.
 */
function hiddenCommands(
  language: Language,
  code: Mapped,
  scanner: Scanner,
  limit: number,
  commented: (index: number) => boolean,
): CodeCommand[] {
  const s = code.text;
  const out: CodeCommand[] = [];
  const at = (re: RegExp, take: (m: RegExpExecArray, after: number) => CodeCommand | undefined): void => {
    re.lastIndex = 0;
    let calls = 0;
    for (let m = re.exec(s); m && out.length < limit && calls++ < MAX_CALLS && scanner.budget > 0; m = re.exec(s)) {
      if (commented(m.index)) continue;
      const command = take(m, m.index + m[0].length);
      if (command) out.push(command);
    }
  };
  const runs = (after: number): CodeCommand | undefined => commandFromArgs(scanner.args(after, true));
  // the code's constant expressions, folded once when a deleting call's path is not a plain literal
  let folded: Folded | undefined;
  const deletes =
    (how: Deletion, recursiveOption = false) =>
    (m: RegExpExecArray, after: number): CodeCommand | undefined => {
      const args = scanner.args(after, true);
      const first =
        args[0]?.kind === 'str'
          ? args[0]
          : (homeAt(language, code, after) ?? foldedAt((folded ??= foldCode(language, s)), code, after));
      if (first?.kind !== 'str') return undefined;
      const recursive = how === 'tree' || (recursiveOption && /recursive\s*:\s*true/.test(s.slice(after, after + 300)));
      return removal(
        code,
        m.index,
        m[0].length,
        how === 'dir' && !recursive ? 'rmdir' : recursive ? '-rf' : '-f',
        first.value,
      );
    };

  if (language === 'python') {
    // receivers of each module: its name, `import os as o`, `__import__("os")`, `importlib.import_module("os")`
    const receivers = new Map<string, string[]>();
    const names = new Map<string, { module: string; fn: string }>();
    for (const m of s.matchAll(/\bimport[ \t]+([\w.]+)[ \t]+as[ \t]+(\w+)/g)) {
      const module = m[1] ?? '';
      const list = receivers.get(module) ?? [];
      if (m[2] !== undefined && list.length < MAX_ALIASES) receivers.set(module, [...list, m[2]]);
    }
    for (const m of s.matchAll(/\bfrom[ \t]+([\w.]+)[ \t]+import[ \t]+\(?([\w \t,]+)/g)) {
      for (const part of (m[2] ?? '').split(',')) {
        const [fn, alias] = part.trim().split(/[ \t]+as[ \t]+/);
        if (
          fn &&
          names.size < MAX_ALIASES &&
          (PY_RUNS[m[1] ?? '']?.includes(fn) === true || PY_DELETES[m[1] ?? '']?.[fn] !== undefined)
        )
          names.set(alias ?? fn, { module: m[1] ?? '', fn });
      }
    }
    const dynamic = (module: string): string =>
      `__import__\\s*\\(\\s*['"]${module}['"]\\s*\\)|importlib\\.import_module\\s*\\(\\s*['"]${module}['"]\\s*\\)`;
    const receiverOf = (module: string, withName: boolean): string =>
      [...(withName ? [module] : []), ...(receivers.get(module) ?? []), dynamic(module)].join('|');
    // runs: aliases and dynamic imports (`os.system` itself is the language's own pattern)
    for (const [module, fns] of Object.entries(PY_RUNS))
      at(
        new RegExp(`(?<![\\w.])(?:${receiverOf(module, false)})\\s*\\.\\s*(?:${fns.join('|')})\\s*\\(`, 'g'),
        (_m, after) => runs(after),
      );
    // deletes: by the module's name too
    for (const [module, fns] of Object.entries(PY_DELETES))
      for (const [fn, how] of Object.entries(fns))
        at(new RegExp(`(?<![\\w.])(?:${receiverOf(module, true)})\\s*\\.\\s*${fn}\\s*\\(`, 'g'), deletes(how));
    // names imported from a module, under their own name or another (`from os import system as run`)
    for (const [name, { module, fn }] of names) {
      const run = PY_RUNS[module]?.includes(fn) === true;
      const how = PY_DELETES[module]?.[fn];
      // `system(`, `popen(`, `Popen(`, … under their own names are the language's own pattern
      if (run && (name !== fn || !/^(?:system|popen|check_output|check_call|Popen|getoutput)$/.test(fn)))
        at(new RegExp(`(?<![\\w.])${name}\\s*\\(`, 'g'), (_m, after) => runs(after));
      else if (how !== undefined) at(new RegExp(`(?<![\\w.])${name}\\s*\\(`, 'g'), deletes(how));
    }
    // `getattr(os, "sys" + "tem")(…)`
    at(new RegExp(`getattr\\s*\\(\\s*([^,]{1,120}?)\\s*,\\s*${CONCAT}\\)\\s*\\(`, 'g'), (m, after) => {
      const receiver = (m[1] ?? '').replace(/\s/g, '');
      const fn = joinedName(m[2] ?? '');
      const module = Object.keys(PY_RUNS).find(
        (name) =>
          receiver === name ||
          receivers.get(name)?.includes(receiver) === true ||
          receiver.includes(`'${name}'`) ||
          receiver.includes(`"${name}"`),
      );
      return module !== undefined && PY_RUNS[module]?.includes(fn) === true ? runs(after) : undefined;
    });
    // `Path("x").unlink()`, `pathlib.Path("x").rmdir()`
    at(/(?<![\w.])(?:pathlib\.)?Path\s*\(/g, (m, after) => {
      const first = scanner.args(after, true)[0];
      if (first?.kind !== 'str') return undefined;
      const close = s.indexOf(')', after);
      const tail = /^\)\s*\.\s*(unlink|rmdir)\s*\(/.exec(s.slice(close, close + 40));
      return tail ? removal(code, m.index, m[0].length, tail[1] === 'rmdir' ? 'rmdir' : '-f', first.value) : undefined;
    });
  } else if (language === 'node' || language === 'deno') {
    const aliases: string[] = [];
    const CP = `(?:require\\s*\\(\\s*['"\`](?:node:)?child_process['"\`]\\s*\\)|(?:await\\s+)?import\\s*\\(\\s*['"\`](?:node:)?child_process['"\`]\\s*\\))`;
    const destructured = (names: string): void => {
      for (const part of names.split(',')) {
        // `{ default: { execSync: run } }`: the innermost pair names the function
        const [fn, alias] = part
          .replace(/^[^{]*\{/, '')
          .replace(/\}[^}]*$/, '')
          .trim()
          .split(/\s*:\s*|\s+as\s+/);
        if (fn && alias && NODE_RUNS.includes(fn) && aliases.length < MAX_ALIASES && /^[\w$]+$/.test(alias))
          aliases.push(alias);
      }
    };
    // `const { execSync: run } = require("child_process")`, `import { exec as run } from "child_process"`
    for (const m of s.matchAll(
      new RegExp(`\\{([^}]{1,400})\\}\\s*(?:=\\s*${CP}|from\\s*['"\`](?:node:)?child_process['"\`])`, 'g'),
    ))
      destructured(m[1] ?? '');
    // `import("child_process").then(({ execSync: run }) => run(…))`, `.then(async function ({ exec: run }) {…})`
    for (const m of s.matchAll(
      new RegExp(
        `${CP}\\s*\\.\\s*then\\s*\\(\\s*(?:async\\s+)?(?:function\\s*[\\w$]*\\s*)?\\(\\s*\\{([^()]{1,400})\\}\\s*\\)`,
        'g',
      ),
    ))
      destructured(m[1] ?? '');
    // `const run = require("child_process").execSync`
    for (const m of s.matchAll(new RegExp(`(${IDENT})\\s*=\\s*${CP}\\s*\\.\\s*(\\w+)`, 'g')))
      if (
        m[1] !== undefined &&
        NODE_RUNS.includes(m[2] ?? '') &&
        !NODE_RUNS.includes(m[1]) &&
        aliases.length < MAX_ALIASES
      )
        aliases.push(m[1]);
    if (aliases.length > 0)
      at(
        new RegExp(`(?<![\\w$.])(?:${aliases.map((a) => a.replace(/\$/g, '\\$')).join('|')})\\s*\\(`, 'g'),
        (_m, after) => runs(after),
      );
    // `require("child_process")["exec" + "Sync"](…)`, `cp[name](…)` with a literal name
    at(new RegExp(`\\[\\s*${CONCAT}\\]\\s*\\(`, 'g'), (m, after) =>
      NODE_RUNS.includes(joinedName(m[1] ?? '')) ? runs(after) : undefined,
    );
    // fs under other names: `const { rmSync: r } = require("fs")`, `import { rm as r } from "fs/promises"`,
    // `const fs2 = require("fs")`, `import("fs").then(({ rmSync: r }) => …)`, `const r = fs.rmSync`
    const deleting = new Map<string, boolean>();
    const receivers: string[] = [];
    const fsNames = (names: string): void => {
      for (const part of names.split(',')) {
        const [fn, alias = fn] = part.trim().split(/\s*:\s*|\s+as\s+/);
        const recursive = fn === undefined ? undefined : NODE_DELETES[fn];
        if (recursive !== undefined && alias !== undefined && /^[\w$]+$/.test(alias) && deleting.size < MAX_ALIASES)
          deleting.set(alias, recursive);
      }
    };
    for (const m of s.matchAll(new RegExp(`\\{([^{}]{1,400})\\}\\s*(?:=\\s*${FS_MODULE}|${FS_FROM})`, 'g')))
      fsNames(m[1] ?? '');
    for (const m of s.matchAll(
      new RegExp(
        `${FS_MODULE}\\s*\\.\\s*then\\s*\\(\\s*(?:async\\s+)?(?:function\\s*[\\w$]*\\s*)?\\(\\s*\\{([^{}()]{1,400})\\}`,
        'g',
      ),
    ))
      fsNames(m[1] ?? '');
    for (const m of s.matchAll(
      new RegExp(`(?:(${IDENT})\\s*=\\s*${FS_MODULE}|import\\s+(?:\\*\\s+as\\s+)?(${IDENT})\\s+${FS_FROM})`, 'g'),
    )) {
      const name = m[1] ?? m[2];
      if (name !== undefined && receivers.length < MAX_ALIASES) receivers.push(name);
    }
    for (const m of s.matchAll(
      new RegExp(`(${IDENT})\\s*=\\s*(?:${FS_MODULE}|[\\w$]+)\\s*\\.\\s*(\\w+)\\b(?!\\s*\\()`, 'g'),
    )) {
      const recursive = NODE_DELETES[m[2] ?? ''];
      if (m[1] !== undefined && recursive !== undefined && deleting.size < MAX_ALIASES) deleting.set(m[1], recursive);
    }
    const escaped = (name: string): string => name.replace(/\$/g, '\\$');
    for (const [alias, recursive] of deleting)
      // `rmSync(` under its own name is read below
      if (!/^(?:rmSync|rmdirSync|unlinkSync)$/.test(alias))
        at(new RegExp(`(?<![\\w$.])${escaped(alias)}\\s*\\(`, 'g'), deletes('file', recursive));
    if (receivers.length > 0) {
      const receiver = `(?<![\\w$.])(?:${receivers.map(escaped).join('|')})(?:\\s*\\.\\s*promises)?\\s*\\.\\s*`;
      at(new RegExp(`${receiver}(?:rm|rmdir)\\s*\\(`, 'g'), deletes('file', true));
      at(new RegExp(`${receiver}unlink\\s*\\(`, 'g'), deletes('file'));
    }
    // file deletion: fs.rmSync / unlinkSync / rmdirSync, fs.rm / fs.promises.rm, Deno.remove
    at(/(?<![\w$])(?:[\w$]+\.)*(?:rmSync|rmdirSync)\s*\(/g, deletes('file', true));
    at(/(?<![\w$])(?:[\w$]+\.)*unlinkSync\s*\(/g, deletes('file'));
    at(/(?<![\w$.])(?:fs|fsp|fs\.promises|promises)\.(?:rm|rmdir)\s*\(/g, deletes('file', true));
    at(/(?<![\w$.])(?:fs|fsp|fs\.promises|promises)\.unlink\s*\(/g, deletes('file'));
    at(/\bDeno\.remove(?:Sync)?\s*\(/g, deletes('file', true));
  } else if (language === 'ruby') {
    at(/\bFileUtils\.(?:rm_rf|rm_r|remove_dir|remove_entry_secure|remove_entry|rmtree)[ \t]*\(?/g, (m, after) =>
      deletes('tree')(m, after),
    );
    at(/\bFileUtils\.(?:rm|rm_f|remove|remove_file)[ \t]*\(?/g, deletes('file'));
    at(/\bFile\.(?:delete|unlink)[ \t]*\(?/g, deletes('file'));
  } else if (language === 'perl') {
    at(/(?<![\w$@%>:])(?:File::Path::)?(?:rmtree|remove_tree)[ \t]*\(?/g, deletes('tree'));
    at(/(?<![\w$@%>:])unlink[ \t]*\(?/g, deletes('file'));
  } else if (language === 'php') {
    at(/(?<![\w$>:])unlink\s*\(/g, deletes('file'));
  }
  return out;
}

/** The home folder as a path (`~`, `~/rest`), when a home expression starts at or after `from` (blanks skipped). */
function homeAt(language: Language, code: Mapped, from: number): Arg | undefined {
  const re = HOME_EXPRESSIONS[language];
  if (re === undefined) return undefined;
  const s = code.text;
  let i = from;
  while (isSpace(s[i])) i++;
  re.lastIndex = i;
  const m = re.exec(s);
  if (!m) return undefined;
  const b = mappedBuilder();
  const end = i + m[0].length;
  b.spread(`~${m[1] ?? ''}`, code.at(i), code.at(end - 1));
  return { kind: 'str', value: b.build(code.at(end)) };
}

/** The path a deleting call builds from constants (`os.path.join(home, '.x')`), as one word on the argument. */
function foldedAt(folded: Folded, code: Mapped, from: number): Arg | undefined {
  const value = folded.at(from);
  if (value === undefined || value === '') return undefined;
  const b = mappedBuilder();
  b.spread(value, code.at(from), code.at(from));
  return { kind: 'str', value: b.build(code.at(from) + 1) };
}

/** `rm -rf PATH` (or `rm -f`, `rmdir`) made from a deleting call, its program word on the call's name. */
function removal(code: Mapped, start: number, length: number, how: '-rf' | '-f' | 'rmdir', path: Mapped): CodeCommand {
  const word = (text: string): Mapped => {
    const b = mappedBuilder();
    b.spread(text, code.at(start), code.at(start + length - 1));
    return b.build(code.at(start + length));
  };
  return how === 'rmdir'
    ? { kind: 'argv', words: [word('rmdir'), path] }
    : { kind: 'argv', words: [word('rm'), word(how), path] };
}

type Arg =
  | { readonly kind: 'str'; readonly value: Mapped }
  | { readonly kind: 'list'; readonly items: readonly Mapped[] }
  | { readonly kind: 'other' };

/** `f("rm -rf x")` is a shell line; `f(["rm", "-rf"])`, `f("rm", ["-rf"])`, `f("rm", "-rf")` are argvs. */
function commandFromArgs(args: readonly Arg[]): CodeCommand | undefined {
  const [first, second] = args;
  if (first?.kind === 'list') return first.items.length ? { kind: 'argv', words: first.items } : undefined;
  if (first?.kind !== 'str') return undefined;
  if (second?.kind === 'list') return { kind: 'argv', words: [first.value, ...second.items] };
  const strings: Mapped[] = [];
  for (const arg of args) {
    if (arg.kind !== 'str') break;
    strings.push(arg.value);
  }
  return strings.length > 1 ? { kind: 'argv', words: strings } : { kind: 'text', text: first.value };
}

const QUOTES = new Set(["'", '"', '`']);
const ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', '0': '\0' };
const CLOSERS: Record<string, string> = { '(': ')', '{': '}', '[': ']', '<': '>' };
const isSpace = (c: string | undefined): boolean => c === ' ' || c === '\t' || c === '\n' || c === '\r';

/**
 * Reads literals out of code. Every character it looks at is paid from one budget (a few times the
 * code's length), so unclosed strings or brackets repeated many times cannot make the work quadratic.
 */
class Scanner {
  budget: number;
  private readonly s: string;

  constructor(
    private readonly code: Mapped,
    private readonly language: Language,
  ) {
    this.s = code.text;
    this.budget = 4 * code.text.length + 4096;
  }

  /** The call's arguments, up to its closing parenthesis (or the end of the statement without one). */
  args(start: number, parens: boolean): Arg[] {
    const { s } = this;
    const args: Arg[] = [];
    let i = start;
    while (args.length < 16 && this.budget > 0) {
      while (s[i] === ' ' || s[i] === '\t' || (parens && (s[i] === '\n' || s[i] === '\r'))) i++;
      const literal = this.string(i);
      if (literal) {
        args.push({ kind: 'str', value: literal.value });
        i = literal.end;
      } else if (s[i] === '[' || (this.language === 'perl' && s[i] === '(')) {
        const close = s[i] === '[' ? ']' : ')';
        const items = this.list(i + 1, close);
        args.push(items.length ? { kind: 'list', items } : { kind: 'other' });
        i = this.skipTo(i + 1, [close]) + 1;
      } else {
        const end = this.skipTo(i, parens ? [',', ')'] : [',', ';', '\n']);
        if (end === i) break;
        args.push({ kind: 'other' });
        i = end;
      }
      while (s[i] === ' ' || s[i] === '\t') i++;
      if (s[i] !== ',') break;
      i++;
    }
    return args;
  }

  /** String literals of a list `"a", 'b', …` up to `close`; stops at the first item that is not one. */
  list(start: number, close = ']'): Mapped[] {
    const { s } = this;
    const items: Mapped[] = [];
    let i = start;
    while (items.length < 256 && this.budget > 0) {
      while (isSpace(s[i])) i++;
      if (s[i] === close) break;
      const literal = this.string(i);
      if (!literal) break;
      items.push(literal.value);
      i = literal.end;
      while (isSpace(s[i])) i++;
      if (s[i] !== ',') break;
      i++;
    }
    return items;
  }

  /** `new Deno.Command("rm", { args: [...] })` / `Deno.run({ cmd: [...] })`. */
  denoCommand(start: number, key: 'args' | 'cmd'): CodeCommand | undefined {
    const args = this.args(start, true);
    const program = args[0]?.kind === 'str' ? [args[0].value] : [];
    const list = new RegExp(`\\b${key}\\s*:\\s*\\[`).exec(this.s.slice(start, start + 2000));
    const rest = list ? this.list(start + list.index + list[0].length) : [];
    return program.length + rest.length ? { kind: 'argv', words: [...program, ...rest] } : undefined;
  }

  /** Index of the first of `stops` at nesting level zero (skipping strings), or the end of the text. */
  private skipTo(start: number, stops: readonly string[]): number {
    const { s } = this;
    let level = 0;
    for (let i = start; i < s.length && this.budget-- > 0; i++) {
      const c = s[i] ?? '';
      if (level === 0 && stops.includes(c)) return i;
      if (QUOTES.has(c)) {
        const close = s.indexOf(c, i + 1);
        if (close < 0) return s.length;
        this.budget -= close - i;
        i = close;
      } else if (c === '(' || c === '[' || c === '{') level++;
      else if (c === ')' || c === ']' || c === '}') {
        if (level === 0) return i;
        level--;
      }
    }
    return s.length;
  }

  /** A string literal starting at `i` (with Python prefixes and triple quotes), or undefined. */
  string(i: number): { value: Mapped; end: number } | undefined {
    const { s, code, language } = this;
    let raw = false;
    if (language === 'python') {
      let j = i;
      while (j < i + 2 && /[rRbBuUfF]/.test(s[j] ?? '')) j++;
      if (j > i && (s[j] === '"' || s[j] === "'")) {
        raw = /[rR]/.test(s.slice(i, j));
        i = j;
      }
    }
    const quote = s[i] ?? '';
    if (!QUOTES.has(quote) || (quote === '`' && language === 'python')) return undefined;
    const triple = language === 'python' && s.startsWith(quote.repeat(3), i);
    const closer = triple ? quote.repeat(3) : quote;
    // single-quoted strings in Ruby, Perl and PHP only know \\ and \'
    const literalSingle = quote === "'" && (language === 'ruby' || language === 'perl' || language === 'php');
    const out = mappedBuilder();
    let j = i + closer.length;
    while (j < s.length && !s.startsWith(closer, j)) {
      if (this.budget-- <= 0) return undefined;
      const n = s[j + 1];
      if (s[j] === '\\' && n !== undefined && !raw) {
        const value = literalSingle ? (n === '\\' || n === "'" ? n : undefined) : (ESCAPES[n] ?? n);
        if (value === undefined) out.piece(code, j, j + 2);
        else if (value === n) out.piece(code, j + 1, j + 2);
        else out.char(value, code.at(j));
        j += 2;
        continue;
      }
      out.piece(code, j, j + 1);
      j++;
    }
    if (j >= s.length) return undefined;
    return { value: out.build(code.at(j)), end: j + closer.length };
  }

  /** `%x(…)` / `qx{…}`: text up to the matching delimiter (`start` is the opening one). */
  delimited(start: number): { value: Mapped; end: number } {
    const { s } = this;
    const open = s[start] ?? '';
    const close = CLOSERS[open] ?? open;
    let level = 0;
    let j = start + 1;
    for (; j < s.length && this.budget-- > 0; j++) {
      const c = s[j];
      if (c === '\\') j++;
      else if (c === open && close !== open) level++;
      else if (c === close) {
        if (level === 0) break;
        level--;
      }
    }
    const end = Math.min(j, s.length);
    return { value: sliceMapped(this.code, start + 1, end), end: Math.min(end + 1, s.length) };
  }
}
