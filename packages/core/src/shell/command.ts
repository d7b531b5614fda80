import {
  cmdletOf,
  cmdletWith,
  entryName,
  grammarOf,
  isA,
  optionsNamed,
  parseArgv,
  program,
  program as programEntry,
  programsMatching,
  readsWith,
  sourceOf,
  writesFiles,
} from '../programs/index.js';
import type { ParsedArgv } from '../programs/index.js';
import type { Span } from '../types.js';
import { addOpaque, innerFrame, LIMITS } from './context.js';
import type { Dialect, Draft, Frame, Reader } from './context.js';
import { expandSingle, expandWord, isPattern, literalWord } from './expand.js';
import type { LoopSeen, Word } from './expand.js';
import { codeSource, codeText, commandsInCode } from './inline-code.js';
import { joinMapped, mappedBuilder, sliceMapped, spanEnd, spanOf } from './mapped.js';
import type { Mapped } from './mapped.js';
import { dotnetCalls } from './dotnet.js';
import { exScript, gitConfigWrite, makefileRecipes } from './embedded.js';
import { commandsIn, nestedCommands } from './nested.js';
import { printedBy } from './printed.js';
import { programName, resolvePath } from './paths.js';
import { isPrefix, matchPrefix } from './prefixes.js';
import {
  aliasOf,
  changeDirectory,
  childScope,
  exportVar,
  exportedValue,
  functionOf,
  isAbsolute,
  lookupVar,
  loopValues,
  remoteScope,
  setAlias,
  setLoopVar,
  setPositional,
  setVar,
  withCwd,
} from './scope.js';
import type { FunctionDef, LoopValues, Scope } from './scope.js';
import type { Part, RedirToken, Token, WordToken } from './tokens.js';
import type { Redirect, Via } from './types.js';
import { readBody, readFed, readSource, readRedirSubstitutions, readSubstitutions } from './walk.js';
import { lex } from './lexer.js';
import { plainText } from './tokens.js';

type Stage = Draft['pipeline'];

/** A simple command after expansion, before prefixes are taken off. */
interface Simple {
  readonly words: readonly Word[];
  readonly env: Readonly<Record<string, string>>;
  /** The assignments' values as written, for spans (`GIT_SSH_COMMAND='…' git fetch`). */
  readonly envMaps?: Readonly<Record<string, Mapped>>;
  readonly redirects: readonly Redirect[];
  /** Text on its stdin: a heredoc or here-string, or what the previous pipeline stage prints. */
  readonly stdin: { readonly text: Mapped; readonly heredoc: boolean } | undefined;
  /** Original index where the command's text ends. */
  readonly end: number;
}

/**
 * Reads one simple command (words and redirections between operators): its substitutions, its
 * assignments, the invocation it makes and everything that invocation runs in turn. Returns the
 * text the command prints when that is known, for a `| sh` that may follow.
 */
export function runSimple(
  reader: Reader,
  tokens: readonly WordToken[],
  redirs: readonly RedirToken[],
  frame: Frame,
  scope: Scope,
  stage: Stage,
  piped: Mapped | undefined,
  aliasing: readonly string[] = NONE,
): Mapped | undefined {
  if (reader.full) return undefined;
  if (reader.named > 0 && frame.dialect === 'posix') {
    const expanded = expandAlias(reader, tokens, redirs, frame, scope, stage, piped, aliasing);
    if (expanded !== NOT_AN_ALIAS) return expanded;
  }
  // One pass over the words and one over the redirections: what they substitute, and where the
  // command ends. Index loops (docs/performance.md, "Index loops, not for-of").
  let last = 0;
  for (let t = 0; t < tokens.length; t++) {
    const token = tokens[t] as WordToken;
    readSubstitutions(reader, token.parts, frame, scope);
    last = Math.max(last, spanEnd(token.src, token.start, token.end));
  }
  for (let r = 0; r < redirs.length; r++) {
    const redir = redirs[r] as RedirToken;
    readRedirSubstitutions(reader, redir, frame, scope);
    last = Math.max(last, spanEnd(redir.src, redir.start, redir.end));
  }

  const env: Record<string, string> = {};
  let envMaps: Record<string, Mapped> | undefined;
  const assigned: [string, string, boolean][] = [];
  let first = 0;
  for (; first < tokens.length && frame.dialect === 'posix'; first++) {
    const token = tokens[first] as WordToken;
    const name = assignmentName(token);
    if (name === undefined) break;
    const word = expandSingle(token, scope);
    const eq = word.text.indexOf('=') + 1;
    const value = word.text.slice(eq);
    env[name] = value;
    (envMaps ??= {})[name] = sliceMapped(word.map, eq, word.text.length);
    assigned.push([name, value, word.dynamic]);
  }
  // PowerShell: `$x = …` is remembered, `$env:X = …` (also in a line read as POSIX) is an export
  const envVar = isEnvVariable(tokens[first]);
  if (frame.dialect === 'powershell') {
    // `[IO.File]::Delete(x)`: read as the cmdlet that does the same
    const calls = dotnetCalls(reader, tokens);
    for (let c = 0; c < calls.length; c++) readSource(reader, calls[c] as Mapped, frame, childScope(scope, false));
    // `foreach ($f in Get-ChildItem)`: the list is what the command prints
    const keyword = tokens[first + 1];
    const listed = tokens[first + 2];
    if (
      tokens[first]?.parts[0]?.kind === 'var' &&
      keyword !== undefined &&
      plainText(keyword)?.toLowerCase() === 'in' &&
      listed !== undefined &&
      runsCommand(listed)
    )
      first += 2;
    // `Key = value` in a hashtable `@{…}`: data (what the value runs was read above, or is a group)
    if (
      frame.via[frame.via.length - 1]?.name === '@{' &&
      tokens[first + 1] &&
      plainText(tokens[first + 1] as WordToken) === '='
    )
      return undefined;
  }
  if (frame.dialect === 'powershell' || envVar) {
    const assigned = powershellAssignment(tokens, first, scope, envVar);
    if (assigned && envVar) pushExport(reader, tokens[first] as WordToken, assigned, frame, scope, stage);
    // `$x = Get-Content a.txt`: PowerShell runs the command and keeps what it prints
    if (
      frame.dialect === 'powershell' &&
      assigned !== undefined &&
      assigned.last === tokens[first + 2] &&
      runsCommand(assigned.last)
    ) {
      const head = (tokens[first] as WordToken).parts[0];
      if (head?.kind === 'var') setVar(scope, head.name, undefined);
      first += 2;
    } else if (assigned || (frame.dialect === 'powershell' && powershellExpression(tokens, first))) return undefined;
  }
  const words: Word[] = [];
  // the first `for` variable the words use unresolved, handed back by expandWord
  const seen: LoopSeen = { name: undefined, loop: undefined };
  for (let i = first; i < tokens.length; i++)
    words.push(...expandWord(tokens[i] as WordToken, scope, true, undefined, seen));
  // `Remove-Item .\bin, .\obj`, `a,b`: PowerShell's list of arguments, one word per item
  if (frame.dialect === 'powershell') commaItems(words);
  const loopName = seen.name;
  const loop = seen.loop;
  const redirects = redirs.map((redir) => toRedirect(redir, scope, frame.dialect));
  const heredoc = stdinOf(redirs, scope, reader.written);

  if (words.length === 0) {
    for (const [name, value, dynamic] of assigned) setVar(scope, name, value, false, dynamic);
    // a statement of only assignments: kept as a fact (it runs nothing) for rules that read exports
    for (let t = 0; t < first; t++) {
      const token = tokens[t] as WordToken;
      const [name, value] = assigned[t] as [string, string, boolean];
      reader.assigned.push({ name, value, span: spanOf(token.src, token.start, token.end), via: frame.via });
    }
    // `$(< x.sh)`: bash prints the file, here one the line wrote
    const printed =
      frame.via[frame.via.length - 1]?.kind === 'substitution' && redirs.length === 1
        ? readIn(reader, redirs[0] as RedirToken, scope)
        : undefined;
    // `> f` empties f, and `done < f` or `} < f` feeds f to the loop or group before it: visible
    // to rules as the no-op `:` with that redirection
    const start = redirects[0]?.span[0];
    if (start === undefined || !redirects.some((r) => r.write || r.op === '<' || r.op === '<>')) return undefined;
    push(
      reader,
      {
        program: ':',
        name: ':',
        args: [],
        argSpans: [],
        env,
        redirects,
        cwd: scope.cwd,
        cwdKnown: scope.cwdKnown,
        span: [start, last],
        via: frame.via,
        prefixes: [],
        pipeline: stage,
      },
      frame,
    );
    return printed;
  }
  const stdin = heredoc ? { text: heredoc, heredoc: true } : piped ? { text: piped, heredoc: false } : undefined;
  const head = words[0] as Word;
  const fn = reader.named > 0 && !head.dynamic ? functionOf(scope, head.text) : undefined;
  if (fn !== undefined) {
    callFunction(reader, fn, { words, env, redirects, stdin, end: last }, frame, scope, stage);
    return undefined;
  }
  const passes =
    loop !== undefined && loopName !== undefined ? loopPasses(tokens, first, scope, loopName, loop) : undefined;
  if (passes) {
    // `for d in build dist; do rm -rf "$d"; done`: the command as it runs for each word
    const outs: Mapped[] = [];
    for (let p = 0; p < passes.length; p++) {
      const out = command(
        reader,
        { words: passes[p] as Word[], env, redirects, stdin, end: last },
        frame,
        scope,
        stage,
        { own: true, isPackage: false },
      );
      if (out) outs.push(out);
    }
    return outs.length === passes.length ? joinMapped(outs, '\n') : undefined;
  }
  const stdout = command(
    reader,
    envMaps === undefined
      ? { words, env, redirects, stdin, end: last }
      : { words, env, envMaps, redirects, stdin, end: last },
    frame,
    scope,
    stage,
    { own: true, isPackage: false },
  );
  // `… | tee >(sh)`: tee writes its input there; `echo … > >(sh)`: the output goes there
  if (stdin !== undefined && head.text === 'tee')
    for (let t = first + 1; t < tokens.length; t++)
      readFed(reader, (tokens[t] as WordToken).parts, frame, scope, stdin.text);
  if (stdout !== undefined)
    for (const redir of redirs)
      if (redir.target !== undefined && (redir.fd === undefined || redir.fd === 1) && redir.op.startsWith('>'))
        readFed(reader, redir.target.parts, frame, scope, stdout);
  return stdout;
}

const NONE: readonly string[] = [];
const NOT_AN_ALIAS = Symbol('not an alias');

/**
 * `alias gp='git push --force'; gp`: a command whose first word names an alias set earlier in the
 * line is read with the alias's text in its place (as zsh, and bash with expand_aliases, run it).
 * An alias is not expanded again inside its own text (`alias ls='ls -la'`); expansions over one
 * line are bounded.
 */
function expandAlias(
  reader: Reader,
  tokens: readonly WordToken[],
  redirs: readonly RedirToken[],
  frame: Frame,
  scope: Scope,
  stage: Stage,
  piped: Mapped | undefined,
  aliasing: readonly string[],
): Mapped | undefined | typeof NOT_AN_ALIAS {
  let first = 0;
  while (first < tokens.length && assignmentName(tokens[first] as WordToken) !== undefined) first++;
  const head = tokens[first];
  const name = head === undefined ? undefined : plainText(head);
  const value = name === undefined || aliasing.includes(name) ? undefined : aliasOf(scope, name);
  if (value === undefined || head === undefined || name === undefined) return NOT_AN_ALIAS;
  if (reader.expansions++ >= LIMITS.expansions) {
    addOpaque(reader, 'too-deep', spanOf(head.src, head.start, head.end), 'too many aliases and functions to follow');
    return NOT_AN_ALIAS;
  }
  const lexed = lex(reader, value, frame.depth, frame.dialect);
  if (lexed.every((token) => token.kind !== 'op')) {
    const words = lexed.filter((token): token is WordToken => token.kind === 'word');
    const more = lexed.filter((token): token is RedirToken => token.kind === 'redir');
    return runSimple(
      reader,
      [...tokens.slice(0, first), ...words, ...tokens.slice(first + 1)],
      [...more, ...redirs],
      frame,
      scope,
      stage,
      piped,
      [...aliasing, name],
    );
  }
  // an alias that holds a list (`alias go='cd / && rm -rf *'`): its text, then the rest of the
  // command as written, read as commands
  const rest: Mapped[] = [value];
  for (const token of [...tokens.slice(0, first), ...tokens.slice(first + 1), ...redirs])
    rest.push(sliceMapped(token.src, token.start, token.end));
  readSource(reader, joinMapped(rest), frame, scope);
  return undefined;
}

/**
 * A call of a function defined earlier in the line: the call itself (an invocation of the name,
 * which changes nothing here), then the body, read with `$1`…, `$#`, `$@` bound to the call's
 * words. A function that calls itself is not read again at the inner call (the call is kept: a
 * rule may judge the recursion); calls over one line are bounded.
 */
function callFunction(reader: Reader, fn: FunctionDef, simple: Simple, frame: Frame, scope: Scope, stage: Stage): void {
  fn.called = true;
  command(reader, simple, frame, scope, stage, { own: false, isPackage: false, called: true });
  const calling = (reader.calling ??= []);
  if (calling.includes(fn.name) || reader.full) return;
  const head = simple.words[0] as Word;
  if (reader.expansions++ >= LIMITS.expansions) {
    addOpaque(reader, 'too-deep', head.span, 'too many aliases and functions to follow');
    return;
  }
  const inner = enter(reader, frame, { kind: 'function', name: fn.name }, head.span);
  if (!inner) return;
  const callScope = childScope(scope, false);
  setPositional(
    callScope,
    simple.words.slice(1).map((w) => w.text),
  );
  calling.push(fn.name);
  readBody(reader, fn.body, inner, callScope);
  calling.pop();
  // the body runs in the caller's shell: where it moved to, the commands after the call run
  scope.cwd = callScope.cwd;
  scope.cwdKnown = callScope.cwdKnown;
  scope.oldCwd = callScope.oldCwd;
}

/**
 * The words of a command that uses a `for` loop variable, once per word the loop takes; undefined
 * (the variable stays unresolved) when its budget is spent, or when the command changes what
 * follows it (`cd "$d"`, `export X=$d`, `git -C "$d"`, `env -C "$d"`): the commands after it
 * would then depend on which pass ran last.
 */
function loopPasses(
  tokens: readonly WordToken[],
  first: number,
  scope: Scope,
  name: string,
  loop: LoopValues,
): Word[][] | undefined {
  if (loop.left < loop.values.length) return undefined;
  const passes: Word[][] = [];
  for (let v = 0; v < loop.values.length; v++) {
    const pick = { name, value: { text: loop.values[v] as string, dynamic: false } };
    const words: Word[] = [];
    for (let i = first; i < tokens.length; i++) words.push(...expandWord(tokens[i] as WordToken, scope, true, pick));
    if (words.length === 0 || changesWhatFollows(words)) return undefined;
    passes.push(words);
  }
  loop.left -= loop.values.length;
  return passes;
}

/** The command (after its prefixes) changes the scope or runs in a folder of its own. */
function changesWhatFollows(words: readonly Word[]): boolean {
  const texts = words.map((w) => w.text);
  let at = 0;
  let name = programName(texts[0] ?? '');
  while (isPrefix(name)) {
    const match = matchPrefix(name, texts, at);
    if (!match) break;
    if (match.cwd) return true;
    at = match.next;
    name = programName(texts[at] ?? '');
  }
  return EFFECTS.has(name) || cmdletWith(name, 'location-changer') || program(name)?.cwd !== undefined;
}

/** A substitution that asks the shell where a program is (`$(which rm)`, `` `command -v git` ``): that name. */
const LOCATED = /^(?:\$\(|`)\s*(?:command\s+-v|which|type\s+-[pP]|whence\s+-p)\s+([A-Za-z0-9_][\w.+-]*)\s*(?:\)|`)$/;

interface CommandOptions {
  /** The command belongs to this scope (not run by a runner), so `cd`, `export`, … change it. */
  readonly own: boolean;
  /** The program is a package a runner fetches (`npx rimraf@5`). */
  readonly isPackage: boolean;
  /** The name the program is read as, when its word is a pattern (`/usr/bin/g?t` as git). */
  readonly as?: string;
  /** A function defined in the line is called: its body is read, not its words as a command. */
  readonly called?: boolean;
}

function command(
  reader: Reader,
  simple: Simple,
  frame: Frame,
  scope: Scope,
  stage: Stage,
  options: CommandOptions,
): Mapped | undefined {
  const { words } = simple;
  const env: Record<string, string> = { ...simple.env };
  let envMaps = simple.envMaps;
  const prefixes: { name: string; args: string[] }[] = [];
  let via = frame.via;
  let cwd = scope.cwd;
  let cwdKnown = scope.cwdKnown;
  let at = 0;
  let texts: string[] | undefined;
  for (;;) {
    const word = words[at];
    const name = word && !word.dynamic ? programName(word.text) : '';
    if (!word || !isPrefix(name)) break;
    texts ??= words.map((w) => w.text);
    const match = matchPrefix(name, texts, at);
    if (!match) break;
    if (prefixes.length >= LIMITS.depth) {
      addOpaque(reader, 'too-deep', word.span);
      break;
    }
    for (const index of match.env) {
      const text = texts[index] ?? '';
      const eq = text.indexOf('=');
      env[text.slice(0, eq)] = text.slice(eq + 1);
      const word = words[index];
      if (word !== undefined) envMaps = { ...envMaps, [text.slice(0, eq)]: sliceMapped(word.map, eq + 1, text.length) };
    }
    if (match.cwd) {
      const dir = words[match.cwd.index];
      const path = (texts[match.cwd.index] ?? '').slice(match.cwd.offset);
      cwd = resolvePath(cwd, path);
      cwdKnown = !dir?.dynamic && (isAbsolute(path) || cwdKnown);
    }
    // the prefix's own options; `NAME=value` words after them went into env
    prefixes.push({ name, args: texts.slice(at + 1, match.env[0] ?? match.next) });
    via = [...via, { kind: 'prefix', name }];
    at = match.next;
  }
  const program = words[at] as Word;
  // `$(which rm) -rf …`, `"$(command -v git)" push`: the program found under that name
  const located = program.dynamic && options.as === undefined ? LOCATED.exec(program.text)?.[1] : undefined;
  if (located !== undefined)
    return command(reader, simple, frame, scope, stage, { ...options, as: programName(located) });
  if (program.pattern === true && !program.dynamic && frame.dialect === 'posix')
    return patternProgram(reader, simple, at, frame, scope, stage, options);
  let args = words.slice(at + 1);
  // `cp /bin/rm ./ls; ./ls -rf ~`: a copy of a program the line made runs that program
  const copy =
    reader.programs === undefined || program.dynamic || options.as !== undefined
      ? undefined
      : reader.programs.get(resolvePath(cwd, program.text));
  const name = options.as ?? copy ?? programName(program.text, options.isPackage && at === 0);
  ({ cwd, cwdKnown } = ownDirectory(name, args, cwd, cwdKnown));
  // `cat > x.sh <<'EOF' … EOF; bash x.sh`: the script is the text written to it earlier in the line
  if (reader.written !== undefined) args = withWrittenScript(reader.written, name, args, cwd);
  const end = Math.max(simple.end, program.span[1]);
  // made apart from the draft: a literal nested in a literal takes a runtime call
  const span: Span = [program.span[0], end];
  const draft: Draft = {
    program: program.text,
    name,
    args: args.map((w) => w.text),
    argSpans: args.map((w) => w.span),
    env,
    redirects: simple.redirects,
    cwd,
    cwdKnown,
    span,
    via,
    prefixes,
    pipeline: stage,
  };
  if (program.dynamic && options.as === undefined) addOpaque(reader, 'dynamic-program', program.span, program.text);
  if (!push(reader, draft, frame)) return undefined;
  if (options.own) applyEffects(reader, name, args, scope, frame.dialect);
  if (args.length > 1 && programEntry(name)?.files !== undefined) rememberPrograms(reader, name, args, cwd);

  const inner = innerFrame(frame, via, frame.depth, frame.dialect);
  let stdinUsed = false;
  const envOf = (key: string): Mapped | undefined => {
    const own = envMaps?.[key];
    if (own !== undefined) return own;
    const value = env[key] ?? exportedValue(scope, key);
    if (value === undefined) return undefined;
    const map = mappedBuilder();
    map.spread(value, program.span[0], program.span[1] - 1);
    return map.build(program.span[1]);
  };
  const ownEnv = (key: string): Mapped | undefined => (env[key] === undefined ? undefined : envOf(key));
  const guess = options.called !== true && frame.dialect === 'posix';
  const around = { program, env: envOf, own: ownEnv, owned: Object.keys(env), gitConfig: reader.gitConfig, guess };
  if (name === 'git' && args[0]?.text === 'config') {
    // `git config alias.pf 'push -f'`: later git commands in the line read it
    const write = gitConfigWrite(args.slice(1));
    if (write !== undefined) (reader.gitConfig ??= new Map()).set(write.key, write.value);
  }
  for (const nested of nestedCommands(name, args, around)) {
    if (nested.kind === 'words') {
      // a git alias: the words it stands for, run as git runs them
      const runner = enter(reader, inner, nested.via, draft.span);
      const last = nested.words[nested.words.length - 1];
      if (!runner || !last) continue;
      command(
        reader,
        { words: nested.words, env, redirects: [], stdin: undefined, end: Math.max(last.span[1], draft.span[1]) },
        runner,
        withCwd(scope, cwd, cwdKnown),
        stage,
        { own: false, isPackage: false },
      );
      continue;
    }
    if (nested.kind === 'code') {
      const target = enter(reader, inner, nested.via, draft.span);
      if (target)
        readCode(reader, nested.language, nested.text, target, withCwd(scope, cwd, cwdKnown), stage, name, draft.span);
      continue;
    }
    if (nested.kind === 'argv') {
      const slice = args.slice(nested.from, nested.to);
      const runner = enter(reader, inner, nested.via, draft.span, inner.dialect, nested.remoteHost ?? inner.remoteHost);
      const last = slice[slice.length - 1];
      if (!runner || !last) continue;
      // the runner's child inherits the environment the line gave the runner (not in a container)
      command(
        reader,
        {
          words: slice,
          env: nested.remoteHost === undefined ? env : {},
          redirects: nested.stdio === true ? simple.redirects : [],
          stdin: nested.stdinTaken === true ? undefined : simple.stdin,
          end: last.span[1],
        },
        runner,
        nested.remoteHost === undefined ? withCwd(scope, cwd, cwdKnown) : remoteScope(scope.printed),
        stage,
        { own: false, isPackage: nested.isPackage ?? false },
      );
      // `… | xargs -I{} sh -c {}`: each line it reads is the shell's text, when the reader knows them
      const fed = simple.stdin === undefined ? undefined : linesAsText(args, slice);
      const shell = fed === undefined ? undefined : enter(reader, runner, { kind: 'shell-c', name: fed }, draft.span);
      if (shell !== undefined && simple.stdin !== undefined)
        readSource(reader, simple.stdin.text, shell, childScope(scope, true, cwd, cwdKnown));
      continue;
    }
    let text = nested.kind === 'text' ? nested.text : simple.stdin?.text;
    if (!text) continue;
    stdinUsed ||= nested.kind === 'stdin' && nested.keys === undefined;
    if (nested.kind === 'stdin' && nested.keys !== undefined) {
      // `psql <<EOF` with a `\! cmd` line: only those commands run, the rest is the program's input
      const commands = commandsIn(text, nested.keys);
      if (commands.length === 0) continue;
      text = joinMapped(commands, '\n');
    }
    if (nested.kind === 'stdin' && nested.as !== undefined) {
      // a Makefile's recipes, or Ex commands (`vim -es <<EOF`), are what runs
      if (nested.as === 'makefile') text = makefileRecipes(text);
      else {
        for (const found of exScript(text)) {
          const target = enter(reader, inner, nested.via, draft.span);
          if (!target) break;
          if (found.kind === 'code')
            readCode(
              reader,
              found.language,
              found.text,
              target,
              withCwd(scope, cwd, cwdKnown),
              stage,
              name,
              draft.span,
            );
          else readSource(reader, found.text, target, childScope(scope, true, cwd, cwdKnown));
        }
        continue;
      }
      if (!text) continue;
    }
    // `iex $code`: PowerShell runs what the variable holds, which the reader does not know
    if (nested.kind === 'text' && nested.dialect === 'powershell' && nested.via.kind === 'shell-c') {
      const unknown = args.find((w) => w.dynamic);
      if (unknown !== undefined && programEntry(name)?.source === 'eval')
        addOpaque(reader, 'dynamic-program', unknown.span, unknown.text);
    }
    const target = enter(reader, inner, nested.via, draft.span, nested.dialect, nested.remoteHost);
    if (!target) continue;
    // `eval TEXT` and `trap TEXT` run in this shell: its variables are theirs
    const innerScope =
      nested.remoteHost !== undefined
        ? remoteScope(scope.printed)
        : childScope(scope, nested.via.kind !== 'eval', cwd, cwdKnown);
    for (const [key, value] of Object.entries(env)) setVar(innerScope, key, value, true);
    // the editor git runs does not run `$EDITOR` in turn (the reader would go round)
    if (nested.kind === 'text' && nested.variable !== undefined) setVar(innerScope, nested.variable, undefined);
    // `sh -c "$1" _ x`: the outer shell fills in "$1" (unknown here), not the inner one
    if (nested.kind === 'text' && nested.positional !== undefined && args[nested.positional - 1]?.dynamic !== true)
      setPositional(
        innerScope,
        args.slice(nested.positional + 1).map((w) => w.text),
      );
    readSource(reader, text, target, innerScope);
  }

  // `./x.sh` where the line wrote x.sh: run by the interpreter its first line names (sh without one)
  const pieces =
    reader.written === undefined || program.dynamic || !/[\\/]/.test(program.text)
      ? undefined
      : reader.written.get(resolvePath(cwd, program.text));
  if (pieces !== undefined) {
    const own = joinMapped(pieces, '\n');
    const runner = enter(reader, inner, { kind: 'runner', name }, draft.span);
    if (runner)
      command(
        reader,
        {
          words: [...shebangWords(own, program), { ...program, printed: own }, ...args],
          env,
          redirects: [],
          stdin: undefined,
          end: draft.span[1],
        },
        runner,
        withCwd(scope, cwd, cwdKnown),
        stage,
        { own: false, isPackage: false },
      );
  }

  const source = codeSource(name, args);
  const code =
    source.kind === 'inline'
      ? codeText(source.words)
      : source.kind === 'stdin' && simple.stdin
        ? simple.stdin.text
        : undefined;
  if (code && source.kind !== 'none') {
    stdinUsed ||= source.kind === 'stdin';
    draft.code = { language: source.language, text: code.text, span: spanOf(code, 0, code.text.length) };
    readCode(reader, source.language, code, inner, withCwd(scope, cwd, cwdKnown), stage, name, draft.span);
  }
  if (simple.stdin?.heredoc && !stdinUsed) draft.stdinText = simple.stdin.text.text;
  // `cat x.sh`, where the line wrote x.sh: that text
  const stdout =
    printedBy(name, args, simple.stdin) ??
    (name === 'cat' && args.length > 0 ? writtenText(reader.written, args, cwd) : undefined);
  // most commands write no file and run in a line that wrote none: nothing to remember or forget
  if (simple.redirects.length > 0 || name === 'tee' || (reader.written !== undefined && reader.written.size > 0))
    rememberWrites(reader, name, args, simple, stdout, cwd);
  return stdout;
}

/**
 * A program that leaves the text of the files its words name as it is: one that only looks and
 * writes no file (`cat`, `grep`, `ls`, `test`; not `sort`, which writes with `-o`), or one that
 * changes only a file's mode or owner (`chmod`).
 */
function keepsText(name: string): boolean {
  return isA(name, 'attribute-changer') || (isA(name, 'looker') && !writesFiles(name));
}

/** At most this many files written in one line are remembered with their text. */
const MAX_WRITTEN = 64;

/**
 * Files this command writes, with the text when the line spells it out (`cat > x.sh <<'EOF'`,
 * `echo … > x.sh`, `tee x.sh <<'EOF'`); a file written with text the reader does not know is
 * forgotten, so an earlier text is never taken for what it holds now.
 */
function rememberWrites(
  reader: Reader,
  name: string,
  args: readonly Word[],
  simple: Simple,
  stdout: Mapped | undefined,
  cwd: string,
): void {
  const put = (target: string, text: Mapped | undefined, append: boolean): void => {
    const path = resolvePath(cwd, target);
    const written = (reader.written ??= new Map<string, Mapped[]>());
    const before = written.get(path);
    // the pieces are joined only when the file runs: appends many times over cost no copies
    if (text === undefined) written.delete(path);
    else if (append && before !== undefined) before.push(text);
    else if (before !== undefined || written.size < MAX_WRITTEN) written.set(path, [text]);
  };
  // `cp x.sh y.sh`, `mv x.sh /tmp/`: the text goes where the copy lands (and stays, for a copy)
  const copies =
    reader.written !== undefined && reader.written.size > 0 ? copiedTexts(reader.written, name, args, cwd) : [];
  // `cp other.sh x.sh`, `curl -o x.sh …`, `sed -i … x.sh`: another text may be in it now
  if (
    reader.written !== undefined &&
    reader.written.size > 0 &&
    !keepsText(name) &&
    program(name)?.source === undefined
  )
    for (const word of args)
      if (!word.dynamic) reader.written.delete(resolvePath(cwd, word.text.replace(/^-[^=]*=/, '')));
  for (const [path, text] of copies) put(path, joinMapped(text, '\n'), false);
  for (const redirect of simple.redirects)
    if (redirect.write && (redirect.fd === undefined || redirect.fd === 1))
      put(redirect.target, stdout, redirect.append);
  if (name === 'tee') {
    const append = args.some((w) => w.text === '-a' || w.text === '--append');
    for (const word of args)
      if (!word.text.startsWith('-') || word.text === '-') {
        if (word.text !== '-') put(word.text, word.dynamic ? undefined : simple.stdin?.text, append);
      }
  }
}

/**
 * The shell a runner hands each line it reads to as the whole text (`xargs -I{} sh -c {}`,
 * `xargs -I % bash -c '%'`): its name, when the runner's placeholder (`-I R`, `--replace=R`, `-i`)
 * is the shell's text.
 */
function linesAsText(runnerArgs: readonly Word[], command: readonly Word[]): string | undefined {
  const shell = command[0];
  if (shell === undefined || shell.dynamic || programEntry(programName(shell.text))?.source !== 'shell')
    return undefined;
  let placeholder: string | undefined;
  for (let i = 0; i < runnerArgs.length; i++) {
    const text = (runnerArgs[i] as Word).text;
    if (text === '-I' || text === '--replace') placeholder = runnerArgs[i + 1]?.text;
    else if (/^-I./.test(text)) placeholder = text.slice(2);
    else if (/^(?:--replace|-i)=?$/.test(text)) placeholder = '{}';
    else if (text.startsWith('--replace=') || text.startsWith('-i'))
      placeholder = text.slice(text.indexOf('=') + 1) || '{}';
    if (placeholder !== undefined) break;
  }
  const at = command.findIndex((w) => w.text === '-c');
  return placeholder !== undefined && at > 0 && command[at + 1]?.text === placeholder
    ? programName(shell.text)
    : undefined;
}

/** The text the line wrote to the file a `<` redirection reads. */
function readIn(reader: Reader, redir: RedirToken, scope: Scope): Mapped | undefined {
  if (redir.op !== '<' || redir.target === undefined || (redir.fd !== undefined && redir.fd !== 0)) return undefined;
  return writtenText(reader.written, [expandSingle(redir.target, scope)], scope.cwd);
}

/** The text the line wrote to the files these words name, one after the other; undefined unless it wrote every one. */
function writtenText(
  written: ReadonlyMap<string, readonly Mapped[]> | undefined,
  words: readonly Word[],
  cwd: string,
): Mapped | undefined {
  if (written === undefined || written.size === 0) return undefined;
  const out: Mapped[] = [];
  for (const word of words) {
    const text = word.dynamic || word.text.startsWith('-') ? undefined : written.get(resolvePath(cwd, word.text));
    if (text === undefined) return undefined;
    out.push(...text);
  }
  return out.length === 0 ? undefined : joinMapped(out, '\n');
}

/** One source of a copy, a move or a link, and the paths it lands at. */
interface Landing {
  readonly source: Word;
  readonly at: readonly string[];
  readonly moved: boolean;
}

/**
 * Where a copy, a move or a link (by its entry's file uses: `cp`, `mv`, `install`, `ln`) puts each
 * source: the destination, and, into a folder, the file it makes there (both, when the words do
 * not say whether the destination is a folder).
 */
function landings(name: string, args: readonly Word[], cwd: string): Landing[] {
  const entry = program(name);
  const uses = entry?.files;
  const use = uses?.find((u) => !('language' in u) && u.operands === 'destination' && u.target !== undefined);
  if (entry === undefined || use === undefined || 'language' in use || use.target === undefined) return [];
  const moved = uses?.some((u) => !('language' in u) && u.how === 'move' && u.when === undefined) === true;
  const parsed = parseArgv(
    args.map((w) => w.text),
    readsWith(entry),
  );
  const target = optionsNamed(parsed, use.target)[0];
  const operands = parsed.operands.map((i) => args[i] as Word);
  const to =
    target?.valueIndex === undefined
      ? operands[operands.length - 1]?.text
      : args[target.valueIndex]?.text.slice(target.valueOffset ?? 0);
  const sources = target === undefined ? operands.slice(0, -1) : operands;
  if (to === undefined || sources.length === 0) return [];
  const dest = resolvePath(cwd, to);
  const folder = target !== undefined || sources.length > 1 || /[\\/]$/.test(to);
  return sources.map((source) => {
    const inFolder = resolvePath(dest, source.text.replace(/[\\/]+$/, '').replace(/^.*[\\/]/, ''));
    return { source, at: folder ? [inFolder] : [dest, inFolder], moved };
  });
}

/** Where a copy or a move puts the text the line wrote to its sources (a copy's source keeps it). */
function copiedTexts(
  written: ReadonlyMap<string, readonly Mapped[]>,
  name: string,
  args: readonly Word[],
  cwd: string,
): [string, readonly Mapped[]][] {
  const out: [string, readonly Mapped[]][] = [];
  for (const { source, at, moved } of landings(name, args, cwd)) {
    const from = resolvePath(cwd, source.text);
    const text = source.dynamic ? undefined : written.get(from);
    if (text === undefined) continue;
    for (const path of at) out.push([path, text]);
    if (!moved) out.push([from, text]);
  }
  return out;
}

/** A program's own file: in a system program folder (`/bin/rm`, `/usr/local/bin/git`). */
const PROGRAM_FILE = /^\/(?:usr\/(?:local\/)?|opt\/homebrew\/)?s?bin\/([\w.+-]+)$/;

/**
 * `cp /bin/rm ./ls`, `ln -s "$(which git)" g`, `install $(command -v guard) /tmp/g`: a program's own
 * file copied or linked elsewhere in the line; running the copy (`./ls -rf ~`) runs that program.
 */
function rememberPrograms(reader: Reader, name: string, args: readonly Word[], cwd: string): void {
  for (const { source, at } of landings(name, args, cwd)) {
    const found = source.dynamic ? LOCATED.exec(source.text)?.[1] : PROGRAM_FILE.exec(source.text)?.[1];
    if (found === undefined) continue;
    const programs = (reader.programs ??= new Map());
    for (const path of at) if (programs.size < MAX_WRITTEN) programs.set(path, programName(found));
  }
}

/**
 * The arguments with the script a shell or interpreter runs (`bash x.sh`, `python3 x.py`,
 * `source x.sh`) marked with the text the line wrote to it, as `bash <(…)` marks what it prints.
 */
function withWrittenScript(
  written: ReadonlyMap<string, readonly Mapped[]>,
  name: string,
  args: readonly Word[],
  cwd: string,
): Word[] {
  if (programEntry(name)?.source === undefined) return args as Word[];
  const source = sourceOf(
    name,
    args.map((w) => w.text),
  );
  if (source.kind !== 'script') return args as Word[];
  const word = args[source.index];
  if (word === undefined || word.dynamic || word.printed !== undefined) return args as Word[];
  const text = written.get(resolvePath(cwd, word.text));
  if (text === undefined) return args as Word[];
  const out = [...args];
  out[source.index] = { ...word, printed: joinMapped(text, '\n') };
  return out;
}

/** The interpreter a script's `#!` line names (`#!/usr/bin/env python3` → python3), as words; `sh` without one. */
function shebangWords(text: Mapped, at: Word): Word[] {
  const word = (value: string): Word => {
    const map = mappedBuilder();
    map.spread(value, at.span[0], Math.max(at.span[0], at.span[1] - 1));
    return { text: value, map: map.build(at.span[1]), span: at.span, quoted: false, dynamic: false };
  };
  const line = /^#!\s*(\S+)(?:[ \t]+(?:-S[ \t]+)?(\S+))?/.exec(text.text.slice(0, 256));
  if (!line) return [word('sh')];
  const first = (line[1] ?? '').replace(/^.*\//, '');
  return [word(first === 'env' && line[2] !== undefined ? line[2] : first)];
}

/**
 * A pathname pattern where the program goes (`/usr/bin/g?t`, `/bin/r[m]`): the shell runs the
 * first file it matches, which the reader cannot list. Read as each program the knowledge base
 * knows that the pattern's last part matches (the worst of them is judged); a pattern that
 * matches none of them, or too many, leaves the program unknown.
 */
function patternProgram(
  reader: Reader,
  simple: Simple,
  at: number,
  frame: Frame,
  scope: Scope,
  stage: Stage,
  options: CommandOptions,
): Mapped | undefined {
  const word = simple.words[at] as Word;
  const text = word.text;
  const base = text.slice(Math.max(text.lastIndexOf('/'), text.lastIndexOf('\\')) + 1);
  const names = isPattern(base) ? programsMatching(base.replace(/\.exe$/i, '')) : undefined;
  if (names === undefined || names.length === 0) {
    // only the folder is a pattern (`/???/rm`): the program is known by its name
    if (isPattern(base))
      addOpaque(reader, 'dynamic-program', word.span, `${text}, a pattern that names no program guard knows`);
    const plain: Word = { text, map: word.map, span: word.span, quoted: word.quoted, dynamic: false };
    return command(reader, { ...simple, words: replaced(simple.words, at, plain) }, frame, scope, stage, options);
  }
  let out: Mapped | undefined;
  const plain: Word = { text, map: word.map, span: word.span, quoted: word.quoted, dynamic: false };
  for (const name of names) {
    if (isPrefix(name)) {
      // `/usr/bin/su?o rm …`: the prefix is taken off as it would be when written out
      const map = mappedBuilder();
      map.spread(name, word.span[0], word.span[1] - 1);
      const one: Word = { text: name, map: map.build(word.span[1]), span: word.span, quoted: false, dynamic: false };
      out = command(reader, { ...simple, words: replaced(simple.words, at, one) }, frame, scope, stage, options);
    } else {
      const words = replaced(simple.words, at, plain);
      out = command(reader, { ...simple, words }, frame, scope, stage, { ...options, as: name });
    }
  }
  return names.length === 1 ? out : undefined;
}

function replaced(words: readonly Word[], at: number, word: Word): Word[] {
  const out = words.slice();
  out[at] = word;
  return out;
}

/**
 * A program's own text (a script file's) read as inline code: the interpreter `name` as one
 * invocation that carries the code, then the commands the code runs, as for `python -c TEXT`.
 */
export function runProgramText(
  reader: Reader,
  name: string,
  language: Parameters<typeof commandsInCode>[0],
  code: Mapped,
  frame: Frame,
  scope: Scope,
): void {
  const span = spanOf(code, 0, code.text.length);
  const stage: Stage = { id: reader.pipelines++, index: 0, length: 1 };
  const draft: Draft = {
    program: name,
    name,
    args: [],
    argSpans: [],
    env: {},
    redirects: [],
    cwd: scope.cwd,
    cwdKnown: scope.cwdKnown,
    span,
    via: frame.via,
    prefixes: [],
    pipeline: stage,
    code: { language, text: code.text, span },
  };
  if (push(reader, draft, frame)) readCode(reader, language, code, frame, scope, stage, name, span);
}

/** Commands found in inline code run as the interpreter's children, each reached via `inline-code`. */
function readCode(
  reader: Reader,
  language: Parameters<typeof commandsInCode>[0],
  code: Mapped,
  frame: Frame,
  scope: Scope,
  stage: Stage,
  name: string,
  span: Span,
): void {
  const via: Via = { kind: 'inline-code', name };
  for (const found of commandsInCode(language, code)) {
    const inner = enter(reader, frame, via, span);
    if (!inner) return;
    if (found.kind === 'text') {
      readSource(reader, found.text, inner, childScope(scope, true));
      continue;
    }
    const words = found.words.map(literalWord);
    const last = words[words.length - 1];
    if (last)
      command(reader, { words, env: {}, redirects: [], stdin: undefined, end: last.span[1] }, inner, scope, stage, {
        own: false,
        isPackage: false,
      });
  }
}

/** One more level of nesting, or undefined (and an opaque entry) past the bound. */
function enter(
  reader: Reader,
  frame: Frame,
  via: Via,
  span: Span,
  dialect: Dialect = frame.dialect,
  remoteHost = frame.remoteHost,
): Frame | undefined {
  if (frame.depth + 1 > LIMITS.depth) {
    addOpaque(reader, 'too-deep', span);
    return undefined;
  }
  return {
    via: [...frame.via, via],
    depth: frame.depth + 1,
    dialect,
    ...(remoteHost === undefined ? {} : { remoteHost }),
  };
}

function push(reader: Reader, draft: Draft, frame: Frame): boolean {
  if (reader.invocations.length >= LIMITS.invocations) {
    if (!reader.full)
      addOpaque(
        reader,
        'too-many-stages',
        [draft.span[0], reader.line.length],
        `more than ${LIMITS.invocations} commands`,
      );
    reader.full = true;
    return false;
  }
  // set here rather than spread into every draft: most commands run on this computer
  if (frame.remoteHost !== undefined) draft.remoteHost = frame.remoteHost;
  reader.invocations.push(draft);
  return true;
}

/** `NAME=value` as the shell sees it: the name and `=` unquoted at the start of the word. */
function assignmentName(token: WordToken): string | undefined {
  const first = token.parts[0];
  if (first?.kind !== 'lit' || first.quoted || !first.text.text.includes('=')) return undefined;
  return /^([A-Za-z_][A-Za-z0-9_]*)\+?=/.exec(first.text.text)?.[1];
}

/**
 * PowerShell statements that are expressions, not commands: `$x …`, `"text" | …`, `$obj.Method()`,
 * `[Type]::Call()`, numbers.
 */
function powershellExpression(tokens: readonly WordToken[], first: number): boolean {
  const part = tokens[first]?.parts[0];
  if (!part) return false;
  if (part.kind === 'var' || part.kind === 'sub') return true;
  return (
    part.kind === 'lit' && (part.quoted || /^[[\d]/.test(part.text.text) || POWERSHELL_OPERATOR.test(part.text.text))
  );
}

/**
 * PowerShell's operators: `$x -ne 0` is an expression rather than a program run, and a statement
 * an operator opens (`-not (Test-Path x)`) is one too.
 */
export const POWERSHELL_OPERATOR =
  /^-(?:[ci]?(?:eq|ne|gt|ge|lt|le|like|notlike|match|notmatch|contains|notcontains|in|notin|replace|split)|join|and|or|xor|not|is|isnot|as|band|bor|bxor|bnot|shl|shr|f)$/i;

/** Splits, in place, the unquoted words after the program at their commas (`a,b` and `a,` `b`). */
function commaItems(words: Word[]): void {
  for (let w = words.length - 1; w > 0; w--) {
    const word = words[w] as Word;
    if (word.quoted || word.dynamic || !word.text.includes(',')) continue;
    const items: Word[] = [];
    let from = 0;
    for (let i = 0; i <= word.text.length; i++) {
      if (i < word.text.length && word.text[i] !== ',') continue;
      if (i > from) {
        const text = word.text.slice(from, i);
        items.push({
          text,
          map: sliceMapped(word.map, from, i),
          span: spanOf(word.map, from, i),
          quoted: false,
          dynamic: false,
          ...(isPattern(text) ? { pattern: true } : {}),
        });
      }
      from = i + 1;
    }
    words.splice(w, 1, ...items);
  }
}

/** How many words all uses of one PowerShell list may become (as a shell loop's variable). */
const LIST_BUDGET = 256;
const LIST_ITEMS = 64;

/**
 * The items of a PowerShell list written out (`"a","b"`, `@("a", "b")`, `$files` holding one),
 * or undefined when one of them is not plain text the reader knows.
 */
export function powershellList(tokens: readonly Token[], scope: Scope): string[] | undefined {
  const items: string[] = [];
  for (let t = 0; t < tokens.length; t++) {
    const token = tokens[t] as Token;
    if (token.kind === 'op' && token.op === '\n') continue;
    if (token.kind !== 'word') return undefined;
    const only = token.parts.length === 1 ? token.parts[0] : undefined;
    if (only?.kind === 'sub' && only.open === '@(') {
      const inner = powershellList(only.tokens, scope);
      if (inner === undefined) return undefined;
      items.push(...inner);
      continue;
    }
    let item = '';
    let known = true;
    let parts = 0;
    const close = (): boolean => {
      if (parts > 0) {
        if (!known) return false;
        items.push(item);
      }
      item = '';
      known = true;
      parts = 0;
      return true;
    };
    for (let p = 0; p < token.parts.length; p++) {
      const part = token.parts[p] as Part;
      if (part.kind === 'lit') {
        const pieces = part.quoted ? [part.text.text] : part.text.text.split(',');
        for (let i = 0; i < pieces.length; i++) {
          if (i > 0 && !close()) return undefined;
          // an unquoted word that is not a number is a command PowerShell runs (`Get-ChildItem`)
          if (!part.quoted && !/^[\d.]*$/.test(pieces[i] as string)) return undefined;
          if ((pieces[i] as string) !== '' || part.quoted) {
            item += pieces[i] as string;
            parts++;
          }
        }
      } else if (part.kind === 'var' && parts === 0 && part.op === undefined && part.complex !== true) {
        const loop = loopValues(scope, part.name, part.caseless ?? false);
        const value = lookupVar(scope, part.name, part.caseless ?? false);
        if (loop !== undefined && (token.parts[p + 1] === undefined || isComma(token.parts[p + 1] as Part))) {
          items.push(...loop.values);
          continue;
        }
        if (value === undefined || value.dynamic) return undefined;
        item += value.text;
        parts++;
      } else return undefined;
    }
    if (!close()) return undefined;
    if (items.length > LIST_ITEMS) return undefined;
  }
  return items;
}

const isComma = (part: Part): boolean => part.kind === 'lit' && !part.quoted && part.text.text.startsWith(',');

/** A PowerShell value that is a command run for what it prints (`Get-Content a.txt`), not a literal. */
function runsCommand(token: WordToken): boolean {
  const text = plainText(token);
  return text !== undefined && /^[A-Za-z_][\w.-]*$/.test(text) && !/^(?:true|false|null)$/i.test(text);
}

/** A PowerShell assignment at the head of a statement: `NAME=value` as `export` would take it, and its last token. */
interface Assignment {
  readonly text: string;
  readonly last: WordToken;
}

/** `$x = value`, `$x=value` or `$x += value` at the head of a PowerShell statement: remembered. */
function powershellAssignment(
  tokens: readonly WordToken[],
  first: number,
  scope: Scope,
  exported: boolean,
): Assignment | undefined {
  const head = tokens[first];
  const part = head?.parts[0];
  if (head === undefined || part?.kind !== 'var') return undefined;
  const rest = head.parts
    .slice(1)
    .map((p) => (p.kind === 'lit' ? p.text.text : '?'))
    .join('');
  const next = tokens[first + 1];
  const nextText = next?.parts.map((p) => (p.kind === 'lit' ? p.text.text : '?')).join('');
  const valueToken = tokens[first + 2];
  if (rest === '' && nextText === '=' && valueToken) {
    const value = expandSingle(valueToken, scope);
    // `$files = "a.txt","b.txt"` or `@("a.txt","b.txt")`: a list, taken one item at a time
    const list = exported ? undefined : powershellList([valueToken], scope);
    if (list !== undefined && list.length > 1) setLoopVar(scope, part.name, list, LIST_BUDGET);
    else setVar(scope, part.name, value.text, exported, value.dynamic);
    return { text: `${part.name}=${value.text}`, last: valueToken };
  }
  if (rest.startsWith('=')) {
    setVar(scope, part.name, rest.slice(1), exported, rest.includes('?'));
    return { text: `${part.name}${rest}`, last: head };
  }
  // `$env:Path += ";C:\x"`: added to a value the reader does not know
  if (rest === '' && nextText === '+=' && valueToken) {
    setVar(scope, part.name, undefined, exported);
    return { text: `${part.name}+=${expandSingle(valueToken, scope).text}`, last: valueToken };
  }
  if (rest.startsWith('+=')) {
    setVar(scope, part.name, undefined, exported);
    return { text: `${part.name}${rest}`, last: head };
  }
  return undefined;
}

/** `$env:NAME` (or `${env:NAME}`) at the head of a word, unquoted. */
function isEnvVariable(token: WordToken | undefined): boolean {
  const part = token?.parts[0];
  return part?.kind === 'var' && part.caseless === true && !part.quoted && ENV_VARIABLE.test(part.raw.text);
}

const ENV_VARIABLE = /^\$\{?env:/i;

/**
 * `$env:NAME = value` sets an environment variable for every later command, as `export` does:
 * kept as an invocation named `export` (program as written), so rules that read exports see it.
 */
function pushExport(
  reader: Reader,
  head: WordToken,
  assigned: Assignment,
  frame: Frame,
  scope: Scope,
  stage: Stage,
): void {
  const span = spanOf(head.src, head.start, assigned.last.end);
  const part = head.parts[0];
  const program = part?.kind === 'var' ? part.raw.text : '';
  push(
    reader,
    {
      program,
      name: 'export',
      args: [assigned.text],
      argSpans: [span],
      env: {},
      redirects: [],
      cwd: scope.cwd,
      cwdKnown: scope.cwdKnown,
      span,
      via: frame.via,
      prefixes: [],
      pipeline: stage,
    },
    frame,
  );
}

const NO_FILE = /^\/dev\/(?:null|stdout|stderr|tty|fd\/[0-2])$/;

function toRedirect(redir: RedirToken, scope: Scope, dialect: Dialect): Redirect {
  const span = spanOf(redir.src, redir.start, redir.end);
  // field by field, not `{ ...base, … }`: see innerFrame
  const made = (target: string, write: boolean, append: boolean): Redirect => ({
    op: redir.op,
    ...(redir.fd === undefined ? {} : { fd: redir.fd }),
    span,
    target,
    write,
    append,
  });
  if (redir.heredoc) return made(redir.heredoc.delimiter, false, false);
  const target = redir.target ? expandSingle(redir.target, scope).text : '';
  const duplicate = (redir.op === '>&' || redir.op === '<&') && /^(?:\d+|-)$/.test(target);
  if (duplicate) return made(`&${target}`, false, false);
  const discarded =
    NO_FILE.test(target) ||
    (dialect === 'cmd' && /^nul:?$/i.test(target)) ||
    (dialect === 'powershell' && /^\$null$/i.test(target));
  // `> >(tee x)` writes into a pipe, not a file
  const pipe = target.startsWith('>(') || target.startsWith('<(');
  const write = redir.op.includes('>') && target !== '' && !discarded && !pipe;
  return made(target, write, redir.op.endsWith('>>'));
}

/** The text a heredoc or here-string feeds to the command (the last stdin redirection wins). */
function stdinOf(
  redirs: readonly RedirToken[],
  scope: Scope,
  written: ReadonlyMap<string, readonly Mapped[]> | undefined,
): Mapped | undefined {
  let text: Mapped | undefined;
  for (const redir of redirs) {
    if (redir.fd !== undefined && redir.fd !== 0) continue;
    if (redir.heredoc) text = redir.heredoc.body;
    else if (redir.op === '<<<' && redir.target) {
      const word = expandSingle(redir.target, scope);
      const out = mappedBuilder();
      out.piece(word.map, 0, word.text.length);
      // the shell adds a newline; it belongs to the word's last character
      out.char('\n', Math.max(word.span[0], word.span[1] - 1));
      text = out.build(word.span[1]);
    } else if (redir.op === '<') {
      // `bash < <(echo …)`: what the process substitution prints, when known; `sh < x.sh`, the
      // text the line wrote to x.sh
      const word = redir.target ? expandSingle(redir.target, scope) : undefined;
      text = word?.printed ?? (word === undefined ? undefined : writtenText(written, [word], scope.cwd));
    }
  }
  return text;
}

/**
 * The folder one command runs in when an option of its own moves it (`git -C dir`, `make -C dir`,
 * `npm --prefix dir`: the knowledge base's `cwd`). Several `git -C` add up; elsewhere the last wins.
 */
function ownDirectory(
  name: string,
  args: readonly Word[],
  cwd: string,
  cwdKnown: boolean,
): { cwd: string; cwdKnown: boolean } {
  const found = program(name);
  const names = found?.cwd;
  if (found === undefined || names === undefined) return { cwd, cwdKnown };
  const texts = args.map((w) => w.text);
  const change = (option: ParsedArgv['options'][number]): void => {
    if (option.valueIndex === undefined) return;
    const path = (texts[option.valueIndex] ?? '').slice(option.valueOffset ?? 0);
    cwd = resolvePath(cwd, path);
    cwdKnown = !args[option.valueIndex]?.dynamic && (isAbsolute(path) || cwdKnown);
  };
  const moves = optionsNamed(parseArgv(texts, readsWith(found)), names);
  if (entryName(found) === 'git') for (const option of moves) change(option);
  else if (moves.length > 0) change(moves[moves.length - 1] as ParsedArgv['options'][number]);
  return { cwd, cwdKnown };
}

/** Builtins that change the scope for the commands after them (and the `location-changer` cmdlets). */
const EFFECTS = new Set([
  'alias',
  'unalias',
  'export',
  'declare',
  'typeset',
  'local',
  'readonly',
  'unset',
  'read',
  'mapfile',
  'readarray',
  'set',
  'hash',
]);

/**
 * The names `hash` binds to a file, with the file's word as the alias text it amounts to: quoted
 * when the reader knows it (`hash -p '/bin/rm' ls`), as written when it does not (`$TOOL`).
 */
function hashedPaths(args: readonly Word[]): [string, Mapped][] {
  const out: [string, Mapped][] = [];
  const at = args.findIndex((w) => w.text === '-p');
  const file = at < 0 ? undefined : args[at + 1];
  const name = /^[\w.+-]+$/;
  const asWritten = (word: Word, from: number): Mapped =>
    word.dynamic
      ? sliceMapped(word.map, from, word.text.length)
      : quotedText(sliceMapped(word.map, from, word.text.length));
  if (file !== undefined)
    for (const word of args.slice(at + 2)) if (name.test(word.text)) out.push([word.text, asWritten(file, 0)]);
  for (const word of args) {
    const eq = word.text.indexOf('=');
    if (eq > 0 && name.test(word.text.slice(0, eq))) out.push([word.text.slice(0, eq), asWritten(word, eq + 1)]);
  }
  return out;
}

/** The text in single quotes (`'` inside written as `'\''`), each character where it stood. */
function quotedText(text: Mapped): Mapped {
  const b = mappedBuilder();
  const start = text.at(0);
  b.char("'", start);
  for (let i = 0; i < text.text.length; i++) {
    if (text.text[i] === "'") b.spread("'\\''", text.at(i), text.at(i));
    else b.piece(text, i, i + 1);
  }
  b.char("'", text.at(Math.max(0, text.text.length - 1)));
  return b.build(text.at(text.text.length));
}

/** What `cd`, `pushd`, `export`, `unset`, … change for the commands after them. */
function applyEffects(reader: Reader, name: string, args: readonly Word[], scope: Scope, dialect: Dialect): void {
  // `cd` and its spellings (`chdir`, `sl`, Set-Location), `pushd`, `popd`: the cmdlets they stand for
  const cmdlet = cmdletOf(name);
  const kind = cmdlet !== undefined && isA(cmdlet, 'location-changer') ? cmdlet : name;
  if (kind === name && !EFFECTS.has(name)) return;
  const texts = args.map((w) => w.text);
  // the directory: `-Path dir`, or the first operand (`cd -P dir`, cmd's `cd /d dir`)
  const target = (): Word | undefined => {
    const parsed = parseArgv(texts, grammarOf(name));
    const path = optionsNamed(parsed, ['-Path', '-LiteralPath'])[0];
    if (path?.valueIndex !== undefined) return args[path.valueIndex];
    return args.slice(parsed.rest).find((w) => !/^\/d$/i.test(w.text));
  };
  switch (kind) {
    case 'set-location': {
      const dir = target();
      if (dir || dialect === 'posix') changeDirectory(scope, dir);
      return;
    }
    case 'push-location': {
      const dir = target();
      if (!dir) {
        scope.cwdKnown = false;
        return;
      }
      scope.dirs.push(scope.cwd);
      changeDirectory(
        scope,
        dir.text.startsWith('+') || dir.text.startsWith('-') ? { text: dir.text, dynamic: true } : dir,
      );
      return;
    }
    case 'pop-location': {
      const previous = scope.dirs.pop();
      if (previous === undefined) scope.cwdKnown = false;
      else changeDirectory(scope, { text: previous, dynamic: false });
      return;
    }
    case 'export':
    case 'declare':
    case 'typeset':
    case 'local':
    case 'readonly': {
      const exported = name === 'export' || texts.some((t) => /^-[a-zA-Z]*x/.test(t));
      // `declare -n ref=name`: `$ref` is whatever `name` holds when it is used, which may change
      // after this: unknown
      const reference = name !== 'export' && texts.some((t) => /^-[a-zA-Z]*n/.test(t));
      for (const word of args) {
        const text = word.text;
        if (text.startsWith('-')) continue;
        const eq = text.indexOf('=');
        const key = eq < 0 ? text : text.slice(0, eq).replace(/\+$/, '');
        if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(key)) continue;
        if (reference) setVar(scope, key, undefined, exported);
        else if (eq >= 0) setVar(scope, key, text.slice(eq + 1), exported, word.dynamic);
        else if (exported) exportVar(scope, key);
      }
      return;
    }
    case 'unset':
    case 'read':
    case 'mapfile':
    case 'readarray':
      for (const index of parseArgv(texts, grammarOf(name)).operands) {
        const text = texts[index] as string;
        if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(text)) setVar(scope, text, undefined);
      }
      return;
    case 'alias':
      if (dialect !== 'posix') return;
      // a value the reader does not know keeps its variables and substitutions as written, so
      // the command that uses the alias is read as one whose program is unknown
      for (const word of args) {
        const eq = word.text.indexOf('=');
        if (eq <= 0) continue;
        setAlias(scope, word.text.slice(0, eq), sliceMapped(word.map, eq + 1, word.text.length));
        reader.named++;
      }
      return;
    case 'hash':
      // `hash -p /bin/rm ls` (bash), `hash ls=/bin/rm` (zsh): `ls` then runs that file
      if (dialect !== 'posix') return;
      for (const [key, file] of hashedPaths(args)) {
        setAlias(scope, key, file);
        reader.named++;
      }
      return;
    case 'unalias':
      for (const word of args) if (!word.text.startsWith('-')) setAlias(scope, word.text, undefined);
      return;
    case 'set':
      if (dialect === 'cmd') {
        const text = texts.join(' ');
        const eq = text.indexOf('=');
        if (eq > 0 && !text.startsWith('/')) setVar(scope, text.slice(0, eq), text.slice(eq + 1));
      }
      return;
    default:
  }
}
