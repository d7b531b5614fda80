/**
 * Facts about program text handed to an interpreter (inline `python -c` code, or a script file
 * read from disk): whether it prints the whole environment, which secret-named variables it
 * prints, which file names it reads and shows, and whether it runs code it decodes first. A
 * scanner over call shapes and string literals, not a parser; every pattern starts with a literal
 * and is bounded, so the work stays linear in the text.
 */
import type { InlineCode } from '../shell/types.js';
import { isSecretVariableName } from './keys.js';

export type CodeLanguage = InlineCode['language'];

/** `[start, end)` into the code text. */
export type CodeSpan = readonly [number, number];

/** A secret-named variable the code prints. */
export interface PrintedVariable {
  readonly name: string;
  readonly span: CodeSpan;
}

interface Dialect {
  /** A call (or statement) that shows its arguments. Ends in `(` when the call needs one. */
  readonly print: RegExp;
  /** The whole environment as one value. */
  readonly wholeEnv: RegExp;
  /** Going over every variable (printing each is then the same as printing them all). */
  readonly envLoop: RegExp;
  /** One variable read by name (`name` group). */
  readonly oneVar: readonly RegExp[];
}

const NODE: Dialect = {
  print:
    /(?<![\w$.])(?:console\.(?:log|info|warn|error|debug|dir|table|trace)|process\.(?:stdout|stderr)\.write|Deno\.stdout\.write)\s*\(/g,
  wholeEnv: /(?<![\w$.])process\.env\b(?!\s*(?:\.|\[|\?\.))|Deno\.env\.toObject\s*\(/g,
  envLoop:
    /Object\.(?:entries|keys|values)\s*\(\s*process\.env\s*\)|\bfor\s*\([^)\n]{0,80}\b(?:in|of)\s+(?:Object\.\w+\(\s*)?process\.env\b/g,
  oneVar: [
    /(?<![\w$.])process\.env\.(?<name>[A-Za-z_$][\w$]{0,100})/g,
    /(?<![\w$.])process\.env\[\s*(['"`])(?<name>[^'"`\n]{1,100})\1\s*\]/g,
    /Deno\.env\.get\s*\(\s*(['"`])(?<name>[^'"`\n]{1,100})\1/g,
  ],
};

const DIALECTS: Readonly<Partial<Record<CodeLanguage, Dialect>>> = {
  python: {
    print: /(?<![\w.])(?:print|pprint(?:\.pprint)?|sys\.(?:stdout|stderr)\.write)\b\s*\(?/g,
    wholeEnv: /(?<![\w.])(?:os\.)?environ\b(?!\s*(?:\[|\.(?:get|setdefault|pop|keys|__contains__|__getitem__)\b))/g,
    envLoop: /\bfor\b[^\n:]{0,120}\bin\s+(?:sorted\s*\(\s*)?(?:os\.)?environ\b/g,
    oneVar: [
      /(?<![\w.])(?:os\.)?environ\s*\[\s*(['"])(?<name>[^'"\n]{1,100})\1\s*\]/g,
      /(?<![\w.])(?:os\.)?environ\.get\s*\(\s*(['"])(?<name>[^'"\n]{1,100})\1/g,
      /(?<![\w.])(?:os\.)?getenv\s*\(\s*(['"])(?<name>[^'"\n]{1,100})\1/g,
    ],
  },
  node: NODE,
  deno: NODE,
  ruby: {
    print:
      /(?<![\w.:$])(?:puts|print|pp|p|warn|\$stdout\.(?:puts|print|write)|STDOUT\.(?:puts|print|write))(?![\w?!])\s*\(?/g,
    wholeEnv: /(?<![\w:$])ENV\b(?!\s*(?:\[|\.(?:fetch|key\?|has_key\?|include\?|dig|keys)\b))/g,
    envLoop: /(?<![\w:$])ENV\.(?:each|each_pair|map|to_h|to_a|sort|select|filter)\b/g,
    oneVar: [
      /(?<![\w:$])ENV\[\s*(['"])(?<name>[^'"\n]{1,100})\1\s*\]/g,
      /(?<![\w:$])ENV\.fetch\s*\(\s*(['"])(?<name>[^'"\n]{1,100})\1/g,
    ],
  },
  perl: {
    print: /(?<![\w$@%>])(?:print|say|printf|warn)\b\s*\(?/g,
    wholeEnv: /%ENV\b/g,
    envLoop: /\b(?:keys|values|each)\s+%ENV\b/g,
    oneVar: [/\$ENV\{\s*(['"]?)(?<name>[\w.-]{1,100})\1\s*\}/g],
  },
  php: {
    print: /(?<![\w$>:])(?:echo|print|print_r|var_dump|var_export|printf)\b\s*\(?/g,
    wholeEnv: /\$_(?:ENV|SERVER)\b(?!\s*\[)|(?<![\w$>:])getenv\s*\(\s*\)/g,
    envLoop: /\bforeach\s*\(\s*(?:\$_ENV|\$_SERVER|getenv\s*\(\s*\))/g,
    oneVar: [
      /(?<![\w$>:])getenv\s*\(\s*(['"])(?<name>[^'"\n]{1,100})\1/g,
      /\$_(?:ENV|SERVER)\[\s*(['"])(?<name>[^'"\n]{1,100})\1\s*\]/g,
    ],
  },
};

/** The longest stretch of arguments read after a print call. */
const MAX_ARGS = 2048;

/** The argument text of every print call: `[start, end)` ranges into `code`. */
function printArguments(dialect: Dialect, code: string): CodeSpan[] {
  const out: CodeSpan[] = [];
  const re = dialect.print;
  re.lastIndex = 0;
  for (let m = re.exec(code); m !== null; m = re.exec(code)) {
    let at = m.index + m[0].length;
    if (!m[0].endsWith('(')) {
      while (code[at] === ' ' || code[at] === '\t') at++;
      // `print(…)` written with a space, or a statement form (`puts x`, `echo $x;`)
      if (code[at] === '(') at++;
      else {
        out.push([at, statementEnd(code, at)]);
        re.lastIndex = Math.max(re.lastIndex, at);
        continue;
      }
    }
    out.push([at, closingParen(code, at)]);
  }
  return out;
}

/** Index of the `)` closing a call whose arguments start at `from` (strings skipped; bounded). */
function closingParen(code: string, from: number): number {
  const limit = Math.min(code.length, from + MAX_ARGS);
  let depth = 0;
  for (let i = from; i < limit; i++) {
    const c = code[i];
    if (c === '"' || c === "'" || c === '`') {
      i = literalEnd(code, i, limit) - 1;
    } else if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') {
      if (depth === 0) return i;
      depth--;
    }
  }
  return limit;
}

/** End of a statement that starts at `from`: the next `;` or line end outside strings (bounded). */
function statementEnd(code: string, from: number): number {
  const limit = Math.min(code.length, from + MAX_ARGS);
  for (let i = from; i < limit; i++) {
    const c = code[i];
    if (c === '"' || c === "'" || c === '`') i = literalEnd(code, i, limit) - 1;
    else if (c === ';' || c === '\n') return i;
  }
  return limit;
}

/** Index just past the string literal opening at `start` (or `start + 1` when it never closes on its line). */
function literalEnd(code: string, start: number, limit: number): number {
  const quote = code[start];
  for (let i = start + 1; i < limit; i++) {
    const c = code[i];
    if (c === '\\') i++;
    else if (c === quote) return i + 1;
    else if (c === '\n' && quote !== '`') return start + 1;
  }
  return start + 1;
}

function within(ranges: readonly CodeSpan[], at: number): boolean {
  return ranges.some(([start, end]) => at >= start && at < end);
}

/** Every match of a module-level global pattern (collected first, so callers may nest calls). */
function matches(re: RegExp, code: string): RegExpExecArray[] {
  const out: RegExpExecArray[] = [];
  re.lastIndex = 0;
  for (let m = re.exec(code); m !== null; m = re.exec(code)) {
    out.push(m);
    if (m[0] === '') re.lastIndex++;
  }
  return out;
}

/** Print-call arguments, or the whole code when the interpreter prints its value (`node -p`). */
function printedRanges(dialect: Dialect, code: string, printsValue: boolean): CodeSpan[] {
  const ranges = printArguments(dialect, code);
  if (printsValue) ranges.push([0, code.length]);
  return ranges;
}

/**
 * Where the code prints every environment variable at once, or undefined. `printsValue`: the
 * interpreter prints the value of the code itself (`node -p process.env`).
 */
export function printsWholeEnvironment(
  language: CodeLanguage,
  code: string,
  printsValue = false,
): CodeSpan | undefined {
  const dialect = DIALECTS[language];
  if (!dialect) return undefined;
  const printed = printedRanges(dialect, code, printsValue);
  if (printed.length === 0) return undefined;
  for (const m of matches(dialect.wholeEnv, code)) {
    const before = code.slice(Math.max(0, m.index - 16), m.index);
    // `'X' in os.environ` asks whether a name is set
    if (/\bin\s+$/.test(before)) continue;
    // `Object.keys(process.env)` shows the names alone
    if (/Object\.keys\s*\(\s*$/.test(before) && namesOnly(language, code)) continue;
    if (within(printed, m.index)) return [m.index, m.index + m[0].length];
  }
  const loop = matches(dialect.envLoop, code)[0];
  if (!loop || namesOnly(language, code, loop[0])) return undefined;
  return [loop.index, loop.index + loop[0].length];
}

/** Going over the names alone: `Object.keys(process.env)`, `for k in os.environ` (not `.items()`). */
const NAMES_LOOP: Readonly<Partial<Record<CodeLanguage, RegExp>>> = {
  node: /^Object\.keys\s*\(\s*process\.env\s*\)$|^for\s*\(\s*(?:const|let|var)?\s*[\w$]+\s+in\s+process\.env$/,
  python: /^for\b[^\n:]{0,120}\bin\s+(?:sorted\s*\(\s*)?(?:os\.)?environ$/,
};
/** A value read by a name the code works out (`process.env[k]`, `os.environ[k]`, `.items()`). */
const VALUE_BY_NAME: Readonly<Partial<Record<CodeLanguage, RegExp>>> = {
  node: /process\.env\s*\[\s*[^\s'"`]|Object\.(?:entries|values)\s*\(\s*process\.env/,
  python:
    /environ\s*\[\s*[^\s'"]|environ\.(?:get|pop)\s*\(\s*[^\s'"]|getenv\s*\(\s*[^\s'")]|environ\s*\.\s*(?:items|values|copy)\b|environ\s*\)?\s*\.\s*(?:items|values)\b/,
};

/**
 * The code goes over the variables' names only (`loop`, when given, is such a loop), and reads no
 * value by a name it works out at run time: what it can print are names, not values.
 */
function namesOnly(language: CodeLanguage, code: string, loop?: string): boolean {
  const names = NAMES_LOOP[language];
  const values = VALUE_BY_NAME[language];
  if (!names || !values || (loop !== undefined && !names.test(loop))) return false;
  return !values.test(code);
}

// `len(os.environ['KEY'])`, `!!process.env.KEY`: only whether it is set, or its length, is shown.
const SHOWS_LESS_BEFORE =
  /(?:\b(?:len|bool|Boolean|hash|typeof|isset|empty|defined|exists|is_null|strlen)\s*\(?\s*|\b(?:if|elif|not|while|unless)\s+|!!\s*|!\s*)$/;
const SHOWS_LESS_AFTER =
  /^\s*(?:\.length\b|\.size\b|\.nil\?|\.empty\?|\.present\?|\.startswith\b|\.startsWith\b|\.endswith\b|\.endsWith\b|\)?\s*(?:is\s+(?:not\s+)?None\b|[!=]==?|\?[^?.]|\bif\b))/;
const ASSIGNED = /(?:^|[\s;({,])((?:my\s+|local\s+|const\s+|let\s+|var\s+)?\$?[A-Za-z_][\w$]{0,60})\s*=\s*(?:\(?\s*)$/;
const NODE_DESTRUCTURE = /\{([^{}]{1,400})\}\s*=\s*process\.env\b/g;

/**
 * Secret-named variables (`*KEY*`, `*TOKEN*`, …) whose value the code prints: read inside a print
 * call's arguments (or anywhere, with `printsValue`), or read into a name a print call then shows.
 */
export function printedSecretVariables(language: CodeLanguage, code: string, printsValue = false): PrintedVariable[] {
  const dialect = DIALECTS[language];
  if (!dialect) return [];
  const printed = printedRanges(dialect, code, printsValue);
  if (printed.length === 0) return [];
  const out: PrintedVariable[] = [];
  const shown = (name: string): boolean =>
    printed.some(([start, end]) => {
      const args = code.slice(start, end);
      for (let at = args.indexOf(name); at >= 0; at = args.indexOf(name, at + 1)) {
        if (!/[\w$]/.test(args[at - 1] ?? '') && !/[\w$]/.test(args[at + name.length] ?? '')) return true;
      }
      return false;
    });
  for (const re of dialect.oneVar) {
    for (const m of matches(re, code)) {
      const name = m.groups?.['name'] ?? '';
      if (!isSecretVariableName(name)) continue;
      const start = m.index;
      const end = start + m[0].length;
      const lineStart = code.lastIndexOf('\n', start - 1) + 1;
      const before = code.slice(Math.max(lineStart, start - 80), start);
      if (SHOWS_LESS_BEFORE.test(before) || SHOWS_LESS_AFTER.test(code.slice(end, end + 40))) continue;
      if (within(printed, start)) {
        out.push({ name, span: [start, end] });
        continue;
      }
      const target = ASSIGNED.exec(before)?.[1]?.replace(/^(?:my|local|const|let|var)\s+/, '');
      if (target !== undefined && shown(target)) out.push({ name, span: [start, end] });
    }
  }
  if (dialect === NODE) {
    for (const m of matches(NODE_DESTRUCTURE, code)) {
      for (const part of (m[1] ?? '').split(',')) {
        const name = part.split(':')[0]?.trim() ?? '';
        const alias = part.includes(':') ? (part.split(':')[1]?.trim() ?? name) : name;
        if (isSecretVariableName(name) && shown(alias)) out.push({ name, span: [m.index, m.index + m[0].length] });
      }
    }
  }
  return out;
}

/** String literals in code (one line each), with their spans; bounded in count. */
export function codeLiterals(code: string, max = 2000): { readonly value: string; readonly span: CodeSpan }[] {
  const out: { value: string; span: CodeSpan }[] = [];
  for (let i = 0; i < code.length && out.length < max; i++) {
    const c = code[i];
    if (c !== '"' && c !== "'" && c !== '`') continue;
    const end = literalEnd(code, i, code.length);
    if (end === i + 1) continue;
    out.push({ value: code.slice(i + 1, end - 1), span: [i, end] });
    i = end - 1;
  }
  return out;
}

const READS_FILE =
  /(?<![\w$])(?:open|fopen|read\w{0,12}|file_get_contents|file|slurp|Get-Content)\s*\(|\.read(?:_text|_bytes|lines)?\s*\(|(?<![\w$])open\s+(?:my\s+)?[$\w]/;
const SHOWS_OR_SENDS =
  /(?<![\w$.])(?:print|pprint|puts|say|echo|print_r|var_dump|printf)\b|console\.\w+\s*\(|\.write\s*\(|requests\.\w+\s*\(|urlopen\s*\(|(?<![\w$.])fetch\s*\(|axios|http\.request|Net::HTTP|curl_exec|\bsocket\b/;

/**
 * Literals naming a file the code both reads and shows or sends (`print(open('.env').read())`);
 * `isInteresting` picks the names that matter (secret files). A literal that is only passed to a
 * loader (`load_dotenv('.env')`) does not count: nothing reads and prints it.
 */
export function shownFileLiterals(
  code: string,
  isInteresting: (literal: string) => boolean,
): { readonly value: string; readonly span: CodeSpan }[] {
  if (!READS_FILE.test(code) || !SHOWS_OR_SENDS.test(code)) return [];
  return codeLiterals(code).filter((lit) => PATH_LIKE.test(lit.value) && isInteresting(lit.value));
}

const PATH_LIKE = /^(?=[^\s]*[./])[~.\w/\\-][\w.~/\\@+-]{0,1000}$/;

/** Code that makes a network request: urllib, requests, http.client, httpx, fetch, Node's http, … */
const REQUESTS =
  /urlopen|urllib|requests\.\w+\s*\(|httpx|aiohttp|http\.client|HTTPS?Connection|(?<![\w$.])fetch\s*\(|axios|\bhttps?\.(?:get|request)\s*\(|['"](?:node:)?https?['"]|Net::HTTP|net\/http|URI\.open|open-uri|curl_exec|file_get_contents|HTTP::Tiny|LWP::|Invoke-(?:WebRequest|RestMethod)|\bsocket\b/;
/** The host of a literal that is a URL (`http://169.254.169.254/latest`) or a host alone (`"169.254.169.254"`). */
const LITERAL_HOST =
  /^(?:[a-z][a-z0-9+.-]{0,20}:\/\/)?(?:[^/@\s]{0,200}@)?(?:\[([0-9a-f:.]{2,60})\]|([^/:?#\s[\]]{1,253}))(?::\d{1,5})?(?:[/?#]|$)/i;

/**
 * Literals naming a host `isHost` picks (a URL's host, or the host alone as `http.client` and
 * Node's `http.get({ host })` take it), in code that makes a network request: the code asks that
 * host. Code that only mentions the address (`print("… 169.254.169.254")`) asks nothing.
 */
export function requestedHosts(
  code: string,
  isHost: (host: string) => boolean,
): { readonly host: string; readonly span: CodeSpan }[] {
  if (!REQUESTS.test(code)) return [];
  const out: { host: string; span: CodeSpan }[] = [];
  for (const literal of codeLiterals(code)) {
    const m = LITERAL_HOST.exec(literal.value);
    const host = (m?.[1] ?? m?.[2])?.toLowerCase().replace(/\.$/, '');
    if (host !== undefined && isHost(host)) out.push({ host, span: literal.span });
  }
  return out;
}

/** A request's body or an upload in code (`requests.post`, `data=`, `method: "PUT"`, `body:`). */
const SENDS_DATA =
  /\.(?:post|put|patch)\s*\(|\b(?:data|json|files)\s*=|\bbody\s*:|method\s*[:=]\s*['"](?:POST|PUT|PATCH)/i;
/** At most this many URLs are taken from one piece of code. */
const MAX_URLS = 16;

/**
 * The `http(s)://` URLs written as literals in code that makes a network request (urllib, requests,
 * fetch, Node's http, …), and whether the code sends data: the sites the code reaches, as
 * `curl URL` would. Code that only mentions a URL (`print("https://…")`) reaches none.
 */
export function requestedUrls(
  code: string,
  modules = '',
): {
  readonly urls: readonly { readonly value: string; readonly span: CodeSpan }[];
  readonly sends: boolean;
} {
  if (!REQUESTS.test(code) && !REQUESTS.test(modules)) return { urls: [], sends: false };
  const urls = codeLiterals(code)
    .filter((literal) => /^https?:\/\/[^\s/]/i.test(literal.value))
    .slice(0, MAX_URLS);
  return { urls, sends: urls.length > 0 && SENDS_DATA.test(code) };
}

const DECODES =
  /b64decode|decodebytes|decode_base64|decode64|base64_decode|base64\.decode|atob\s*\(|Buffer\.from\s*\([^)]{0,4000}['"](?:base64|hex)['"]|fromhex|unhexlify|codecs\.decode|str_rot13|gzinflate|zlib\.decompress|FromBase64String/;
const EVALS =
  /(?<![\w$.])(?:exec|eval|Function|compile|instance_eval|class_eval|assert|create_function|iex|Invoke-Expression)\s*\(|(?<![\w$])eval\s+[$\w(]/;

/** True when the code decodes base64, hex, rot13 or compressed text (`b64decode`, `atob`, `fromhex`, …). */
export function decodesText(code: string): boolean {
  return DECODES.test(code);
}

/** True when the code decodes text and runs the result as code (`exec(b64decode(…))`). */
export function runsDecodedCode(code: string): boolean {
  return EVALS.test(code) && DECODES.test(code);
}
