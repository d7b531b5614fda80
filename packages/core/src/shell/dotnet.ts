import { addOpaque } from './context.js';
import type { Reader } from './context.js';
import { mappedBuilder, sliceMapped, spanOf } from './mapped.js';
import type { Mapped } from './mapped.js';
import { plainText } from './tokens.js';
import type { Part, WordToken } from './tokens.js';

// .NET calls in a PowerShell statement. The ones that touch files, sites or programs are read as
// the cmdlet that does the same (`[IO.File]::Delete(x)` as `Remove-Item -LiteralPath x`), so the
// rules judge them by what they do; the ones that only compute are let through; any other is
// reported as unread (.NET can delete, read and start anything).

// .NET static members that only compute a value or read the clock: type (without `System.`, lower
// case) → its members, or '*' for all.
const HARMLESS = new Map<string, ReadonlySet<string> | '*'>([
  ['io.path', '*'],
  ['math', '*'],
  ['datetime', '*'],
  ['datetimeoffset', '*'],
  ['timespan', '*'],
  ['guid', '*'],
  ['string', '*'],
  ['char', '*'],
  ['int', '*'],
  ['int32', '*'],
  ['int64', '*'],
  ['double', '*'],
  ['bool', '*'],
  ['version', '*'],
  ['regex', '*'],
  ['text.encoding', '*'],
  // running decoded text is exec.hidden's, on the statement that runs it
  ['convert', '*'],
  ['diagnostics.stopwatch', new Set(['startnew'])],
  ['runtime.interopservices.runtimeinformation', '*'],
  ['net.servicepointmanager', new Set(['securityprotocol'])],
  ['net.securityprotocoltype', '*'],
  // its methods are read where they are called (WEB_CLIENT)
  ['net.webclient', new Set(['new'])],
  ['console', new Set(['outputencoding', 'inputencoding', 'windowwidth', 'write', 'writeline'])],
  [
    'environment',
    new Set([
      'currentdirectory',
      'machinename',
      'osversion',
      'processorcount',
      'is64bitoperatingsystem',
      'is64bitprocess',
      'newline',
      'version',
      'tickcount',
      'getfolderpath',
      'username',
      'userdomainname',
    ]),
  ],
]);

/**
 * The cmdlet a .NET call stands for, as PowerShell text around its arguments: each `$0`, `$1`, …
 * is that argument as written (`$-1` the last); `?1{…}` is kept when argument 1 is there and is
 * not false (`[IO.Directory]::Delete(x, $true)` recurses).
 */
const AS_CMDLET = new Map<string, ReadonlyMap<string, string>>([
  [
    'io.file',
    members({
      delete: 'Remove-Item -LiteralPath $0',
      'readalltext readalllines readallbytes readlines openread opentext': 'Get-Content -LiteralPath $0',
      'writealltext writealllines writeallbytes create createtext openwrite open': 'Set-Content -LiteralPath $0',
      'appendalltext appendalllines appendtext': 'Add-Content -LiteralPath $0',
      copy: 'Copy-Item -LiteralPath $0 -Destination $1',
      'move replace': 'Move-Item -LiteralPath $0 -Destination $1',
      'exists getattributes getlastwritetime getcreationtime getlastaccesstime': 'Test-Path -LiteralPath $0',
    }),
  ],
  [
    'io.directory',
    members({
      delete: 'Remove-Item -LiteralPath $0 ?1{-Recurse}',
      createdirectory: 'New-Item -ItemType Directory -Path $0',
      move: 'Move-Item -LiteralPath $0 -Destination $1',
      'exists getfiles getdirectories getfilesystementries enumeratefiles enumeratedirectories enumeratefilesystementries getparent':
        'Get-ChildItem -LiteralPath $0',
      setcurrentdirectory: 'Set-Location -LiteralPath $0',
      getcurrentdirectory: 'Get-Location',
    }),
  ],
  ['diagnostics.process', members({ start: 'Start-Process -FilePath $0 ?1{-ArgumentList $1}' })],
  ['environment', members({ getenvironmentvariables: 'Get-ChildItem env:' })],
  // a script block made of text runs that text where it is called (`& ([scriptblock]::Create($s))`)
  ['management.automation.scriptblock', members({ create: 'Invoke-Expression $0' })],
  ['scriptblock', members({ create: 'Invoke-Expression $0' })],
]);

/** `WebClient`'s methods, on whatever object they are called (`(New-Object Net.WebClient).DownloadFile(…)`). */
const WEB_CLIENT = members({
  'downloadfile downloadfileasync downloadfiletaskasync': 'Invoke-WebRequest -Uri $0 -OutFile $1',
  'downloadstring downloaddata downloadstringtaskasync downloaddatataskasync openread': 'Invoke-RestMethod -Uri $0',
  'uploadfile uploadfileasync': 'Invoke-WebRequest -Uri $0 -Method Post -InFile $-1',
  'uploadstring uploaddata uploadvalues uploadstringasync uploaddataasync':
    'Invoke-WebRequest -Uri $0 -Method Post -Body $-1',
});

function members(table: Record<string, string>): ReadonlyMap<string, string> {
  const out = new Map<string, string>();
  for (const [names, text] of Object.entries(table)) for (const name of names.split(' ')) out.set(name, text);
  return out;
}

const STATIC_CALL = /^\[([A-Za-z_][\w.]*)\]::([A-Za-z_]\w*)$/;
const DOTNET_CALL = /\[([A-Za-z_][\w.]*)\]::([A-Za-z_]\w*)/g;
const METHOD_CALL = /\.([A-Za-z_]\w*)$/;

/**
 * The .NET calls of one PowerShell statement: the cmdlet text each known one stands for (to be
 * read in its place), the unknown ones reported as unread.
 */
export function dotnetCalls(reader: Reader, tokens: readonly WordToken[]): Mapped[] {
  const out: Mapped[] = [];
  for (let t = 0; t < tokens.length; t++) {
    const token = tokens[t] as WordToken;
    const args = callArguments(tokens[t + 1]);
    const text = plainText(token) ?? rawText(token);
    const whole = STATIC_CALL.exec(text);
    const method = whole === null && args !== undefined ? METHOD_CALL.exec(text) : null;
    const template =
      whole !== null
        ? AS_CMDLET.get(typeName(whole[1] as string))?.get((whole[2] as string).toLowerCase())
        : method !== null
          ? WEB_CLIENT.get((method[1] as string).toLowerCase())
          : undefined;
    if (template !== undefined && args !== undefined) {
      const call = tokens[t + 1] as WordToken;
      const built = fill(template, token, args, call.src.at(call.end - 1));
      if (built !== undefined) {
        out.push(built);
        continue;
      }
    }
    for (let p = 0; p < token.parts.length; p++) {
      const part = token.parts[p] as Part;
      if (part.kind !== 'lit' || !part.text.text.includes('::')) continue;
      for (const found of part.text.text.matchAll(DOTNET_CALL)) {
        const known = HARMLESS.get(typeName(found[1] as string));
        const member = (found[2] as string).toLowerCase();
        if (known === '*' || known?.has(member) === true) continue;
        addOpaque(reader, 'dotnet-call', spanOf(token.src, token.start, token.end), found[0]);
      }
    }
  }
  return out;
}

const typeName = (written: string): string => written.toLowerCase().replace(/^system\./, '');

function rawText(token: WordToken): string {
  return token.src.text.slice(token.start, token.end);
}

/** The arguments of a call: the `(…)` word right after the member, split at its top-level commas. */
function callArguments(token: WordToken | undefined): Mapped[] | undefined {
  const only = token?.parts.length === 1 ? token.parts[0] : undefined;
  if (only?.kind !== 'sub' || only.open !== '(') return undefined;
  const raw = only.raw;
  const s = raw.text;
  if (s[s.length - 1] !== ')') return undefined;
  const out: Mapped[] = [];
  let depth = 0;
  let from = 1;
  for (let i = 1; i < s.length - 1; i++) {
    const c = s[i];
    if (c === "'" || c === '"') {
      const close = s.indexOf(c, i + 1);
      if (close < 0) return undefined;
      i = close;
    } else if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') depth--;
    else if (c === ',' && depth === 0) {
      out.push(trimmed(raw, from, i));
      from = i + 1;
    }
  }
  const last = trimmed(raw, from, s.length - 1);
  if (last.text !== '' || out.length > 0) out.push(last);
  return out;
}

function trimmed(m: Mapped, start: number, end: number): Mapped {
  while (start < end && /\s/.test(m.text[start] ?? '')) start++;
  while (end > start && /\s/.test(m.text[end - 1] ?? '')) end--;
  return sliceMapped(m, start, end);
}

const FALSE = /^(?:\$false|0)$/i;

/**
 * The template with the arguments put in, mapped to the call's text (from the member's start to
 * `close`, its `)`); undefined when an argument is missing.
 */
function fill(template: string, member: WordToken, args: readonly Mapped[], close: number): Mapped | undefined {
  const b = mappedBuilder();
  const at = member.src.at(member.start);
  let missing = false;
  const text = template.replace(/\?(\d)\{([^}]*)\}/g, (_, n: string, inner: string) => {
    const arg = args[Number(n)];
    return arg === undefined || FALSE.test(arg.text) ? '' : inner;
  });
  const re = /\$(-?\d)/g;
  let last = 0;
  for (const found of text.matchAll(re)) {
    b.char(text.slice(last, found.index), at);
    const n = Number(found[1]);
    const arg = args[n < 0 ? args.length + n : n];
    if (arg === undefined || arg.text === '') missing = true;
    else b.piece(arg, 0, arg.text.length);
    last = found.index + found[0].length;
  }
  b.char(text.slice(last), close);
  return missing ? undefined : b.build(close + 1);
}
