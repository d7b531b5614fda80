import type { Grammar, Language, OptionText, Program, ProgramSource, Runs } from '../programs/index.js';
import {
  aliasWords,
  exCommands,
  extWords,
  gitConfigWrite,
  gitEnvSettings,
  gitSetting,
  gitSettingCommand,
  GIT_COMMAND_ENV,
  isGitCommandSetting,
  lessCommand,
  linesOf,
  makefileRecipes,
  sedCommands,
  substitutionsIn,
} from './embedded.js';
import {
  optionsNamed,
  parseArgv,
  PLAIN,
  program,
  readsWith,
  sourceOf,
  subcommandOf,
  UNKNOWN_RUNS,
} from '../programs/index.js';
import type { Dialect } from './context.js';
import type { Word } from './expand.js';
import { fromBase64Utf16 } from './fold.js';
import { joinMapped, mappedBuilder, sliceMapped } from './mapped.js';
import type { Mapped } from './mapped.js';
import { programName } from './paths.js';
import type { Via } from './types.js';

/** A command that another command runs: as text for a shell, as an argv, or from its stdin. */
export type Nested =
  | {
      readonly kind: 'text';
      readonly via: Via;
      readonly text: Mapped;
      readonly dialect: Dialect;
      readonly remoteHost?: string;
      /** `sh -c TEXT name args…`: the words from here on are `$0`, `$1`, … of the text. */
      readonly positional?: number;
      /** The environment variable the text is the value of (`EDITOR`): the command it runs does not run it again. */
      readonly variable?: string;
    }
  | {
      readonly kind: 'argv';
      readonly via: Via;
      readonly from: number;
      readonly to: number;
      readonly isPackage?: boolean;
      readonly remoteHost?: string;
      /** The command runs in the runner's place and takes its redirections (`busybox sh >& …`). */
      readonly stdio?: boolean;
      /**
       * The runner reads its stdin itself (`xargs`: its list of arguments), so the command gets none;
       * any other runner's command reads what the runner is fed (`poetry run bash <<EOF`).
       */
      readonly stdinTaken?: boolean;
    }
  | {
      readonly kind: 'stdin';
      readonly via: Via;
      readonly dialect: Dialect;
      readonly remoteHost?: string;
      /** What is on stdin is a Makefile (its recipes run) or Ex commands (`vim -es`), not shell text. */
      readonly as?: 'makefile' | 'ex';
      /** Only the commands written after these keys in it run (`psql <<EOF` with a `\! cmd` line); it stays the program's input. */
      readonly keys?: OptionText;
    }
  /** Words that run as a command, made from the program's own text (a git alias). */
  | { readonly kind: 'words'; readonly via: Via; readonly words: readonly Word[] }
  /** Code in a language another program hands to its interpreter (`vim -c 'py3 …'`). */
  | { readonly kind: 'code'; readonly via: Via; readonly language: Language; readonly text: Mapped };

/** What a runner may ask beyond its words. */
export interface Around {
  /** The program word as written. */
  readonly program: Word;
  /** The value of an environment variable the command gets (its own assignments, or exported earlier). */
  env(name: string): Mapped | undefined;
  /** The value of one of the command's own assignments (`NAME=value cmd`). */
  own(name: string): Mapped | undefined;
  /** The names the command's own assignments set. */
  readonly owned: readonly string[];
  /** Settings `git config` wrote earlier in the line (lower-case keys). */
  readonly gitConfig: ReadonlyMap<string, Mapped> | undefined;
  /** A program guard does not know may be read as running the command its words start (`guessed`). */
  readonly guess: boolean;
}

/**
 * The commands `name` runs (inner shells, `eval`, `ssh`, runners), as the program knowledge base
 * describes it (`source` and `runs`); empty for an ordinary program.
 */
export function nestedCommands(name: string, args: readonly Word[], around: Around): Nested[] {
  const found = program(name);
  // a program guard does not know may still run the editor or pager it is handed, and may run its words
  if (found === undefined)
    return [
      ...UNKNOWN_RUNS.flatMap((how) => optionText(how, args, [], name, PLAIN, around)),
      ...(around.guess ? guessed(name, args) : []),
    ];
  if (found.runs === undefined && found.subcommands === undefined && !readsText(found)) return [];
  const texts = args.map((w) => w.text);
  const out = readsText(found) ? fromSource(name, args, sourceOf(name, texts)) : [];
  const runs = found.runs;
  if (runs !== undefined)
    for (const how of runs) out.push(...RUNNERS[how.kind](how as never, args, texts, name, found, around));
  if (found.subcommands !== undefined) out.push(...subcommandRuns(found, args, texts, name, around));
  return out;
}

/** A subcommand's options whose value is a command line (`git rebase --exec CMD`), read with its own grammar. */
function subcommandRuns(found: Program, args: readonly Word[], texts: readonly string[], name: string, around: Around) {
  const at = parseArgv(texts, readsWith(found)).operands[0];
  const spec = at === undefined ? undefined : subcommandOf(found, texts[at]);
  if (at === undefined || spec?.runs === undefined) return [];
  const words = args.slice(at + 1);
  const grammar = readsWith(spec);
  return spec.runs.flatMap((how) => optionText(how, words, texts.slice(at + 1), name, grammar, around));
}

/** Shells, `eval` and `source`: what they read is command text (interpreters' code is read by ./inline-code.ts). */
function readsText(found: Program): boolean {
  const source = found.source;
  return source === 'shell' || source === 'powershell' || source === 'cmd' || source === 'eval' || source === 'source';
}

/** The command text or stdin a shell reads, as the reader follows it. */
function fromSource(name: string, args: readonly Word[], source: ProgramSource): Nested[] {
  const via: Via = { kind: name === 'eval' ? 'eval' : 'shell-c', name };
  switch (source.kind) {
    case 'text': {
      const { index, offset } = source.at;
      if (source.joined) return text(via, args, index, source.dialect);
      const found = attached(via, args[index], offset, source.dialect);
      return found.length === 1 && index + 1 < args.length && source.dialect === 'posix'
        ? [{ ...(found[0] as Extract<Nested, { kind: 'text' }>), positional: index + 1 }]
        : found;
    }
    case 'stdin':
      return [{ kind: 'stdin', via: { kind: 'heredoc', name }, dialect: source.dialect }];
    case 'script': {
      // `bash <(echo …)`, `source <(printf …)`: the script is what the substitution prints
      const printed = args[source.index]?.printed;
      const dialect = source.language === 'powershell' ? 'powershell' : 'posix';
      return printed === undefined || (source.language !== 'shell' && source.language !== 'powershell')
        ? []
        : [{ kind: 'text', via: { kind: 'shell-c', name }, text: printed, dialect }];
    }
    case 'encoded': {
      // `pwsh -EncodedCommand …`: the text, once decoded, is read as PowerShell (it stays hidden
      // from a person, which exec.hidden says); every character of it maps to the encoded word
      const word = args[source.index + 1];
      const decoded = word === undefined || word.dynamic ? undefined : fromBase64Utf16(word.text);
      if (word === undefined || decoded === undefined) return [];
      const map = mappedBuilder();
      map.spread(decoded, word.span[0], word.span[1] - 1);
      return [{ kind: 'text', via, text: map.build(word.span[1]), dialect: 'powershell' }];
    }
    default:
      return [];
  }
}

const text = (
  via: Via,
  args: readonly Word[],
  from: number,
  dialect: Dialect = 'posix',
  remoteHost?: string,
): Nested[] =>
  from < args.length
    ? [
        {
          kind: 'text',
          via,
          text: joinMapped(args.slice(from).map((w) => w.map)),
          dialect,
          ...(remoteHost === undefined ? {} : { remoteHost }),
        },
      ]
    : [];
const attached = (via: Via, word: Word | undefined, offset: number, dialect: Dialect = 'posix'): Nested[] =>
  word ? [{ kind: 'text', via, text: sliceMapped(word.map, offset, word.text.length), dialect }] : [];
const argv = (via: Via, from: number, to: number, isPackage = false): Nested[] =>
  from < to ? [{ kind: 'argv', via, from, to, ...(isPackage ? { isPackage } : {}) }] : [];
const remoteArgv = (via: Via, from: number, to: number, remoteHost: string): Nested[] =>
  from < to ? [{ kind: 'argv', via, from, to, remoteHost }] : [];

/** A program guard does not know may have this many operands of its own before the command it runs (`run`, a profile). */
const OWN_OPERANDS = 2;
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

/**
 * A program guard does not know whose words start a program it knows (`mytool git push --force`,
 * `./with-env prod -- rm -rf ~`, `acme exec api -- …`): it may run them as a command, so they are
 * read as one, through a `runner` step marked `guessed` (the rules judge it as a command that may
 * run). Its own options and `NAME=value` words, and at most OWN_OPERANDS other words of its own
 * (a subcommand, a profile, a host, an option's value), may come first; a word with blanks in it (a
 * message, a query) ends the search, and after `--` only the next word may start the command.
 */
function guessed(name: string, args: readonly Word[]): Nested[] {
  const via: Via = { kind: 'runner', name, guessed: true };
  const out: Nested[] = [];
  let own = 0;
  for (let i = 0; i < args.length; i++) {
    const word = args[i] as Word;
    const text = word.text;
    if (/\s/.test(text)) break;
    if (text === '--') return knownProgram(args[i + 1]) ? [...out, ...argv(via, i + 1, args.length)] : out;
    if (knownProgram(word)) {
      out.push(...argv(via, i, args.length));
      // right after an option it may be that option's value (`-C dir git …`, `--shell bash …`): look on
      if (!optionBefore(args, i)) break;
    } else if ((text.startsWith('-') && text.length > 1) || ASSIGNMENT.test(text)) continue;
    if (++own > OWN_OPERANDS) break;
  }
  return out;
}

/** The word before `i` is an option written without its value (`-C`, `--shell`; not `--shell=bash`, not `--`). */
function optionBefore(args: readonly Word[], i: number): boolean {
  const before = args[i - 1]?.text ?? '';
  return before.length > 1 && before.startsWith('-') && before !== '--' && !before.includes('=');
}

/** A word that names a program guard knows, by its name or its absolute path (`git`, `/bin/rm`); not `src/test`. */
function knownProgram(word: Word | undefined): boolean {
  if (word === undefined || word.dynamic || word.pattern === true) return false;
  const text = word.text;
  // a name starts with a letter, a digit or `_` (not `.`, `[` or `:`), or is an absolute path
  if (!/^[\w/]/.test(text) || (/[\\/]/.test(text) && !text.startsWith('/'))) return false;
  return program(programName(text)) !== undefined;
}

type Runner<K extends Runs['kind']> = (
  how: Extract<Runs, { kind: K }>,
  args: readonly Word[],
  texts: readonly string[],
  name: string,
  found: Program,
  around: Around,
) => Nested[];

/** Where `parallel`'s command ends and the words it hands that command begin (`:::`, its files `::::`, …). */
export const ARG_SEPARATORS: ReadonlySet<string> = new Set([':::', '::::', ':::+', '::::+']);
/** A runner's own options come before the command it runs. */
const LEADING: Grammar = { leading: true };
const FIND_EXEC = new Set(['-exec', '-execdir', '-ok', '-okdir']);

/** How each kind of runner in the knowledge base hands over the command it runs. */
const RUNNERS: { readonly [K in Runs['kind']]: Runner<K> } = {
  /** `xargs [options] command…`, `busybox applet …`. */
  argv: (how, _args, texts, name, found) => {
    const from = parseArgv(texts, readsWith(found)).rest;
    if (from >= texts.length) return [];
    const via: Via = { kind: 'runner', name };
    return [
      how.stdio === true
        ? { kind: 'argv', via, from, to: texts.length, stdio: true }
        : { kind: 'argv', via, from, to: texts.length, stdinTaken: true },
    ];
  },

  /** Every `-exec`/`-execdir`/`-ok`/`-okdir` command of a `find`, up to its `;` or `{} +`. */
  find: (_how, _args, texts) => {
    const via: Via = { kind: 'runner', name: 'find' };
    const found: Nested[] = [];
    for (let i = 0; i < texts.length; i++) {
      if (!FIND_EXEC.has(texts[i] ?? '')) continue;
      let end = i + 1;
      while (end < texts.length && texts[end] !== ';' && !(texts[end] === '+' && texts[end - 1] === '{}')) end++;
      found.push(...argv(via, i + 1, end));
      i = end;
    }
    return found;
  },

  /** `parallel [options] command… ::: args` composes a shell line; with no command, each argument is one. */
  parallel: (_how, args, texts, _name, found) => {
    const via: Via = { kind: 'runner', name: 'parallel' };
    const from = parseArgv(texts, readsWith(found)).rest;
    let to = from;
    while (to < texts.length && !ARG_SEPARATORS.has(texts[to] ?? '')) to++;
    if (to > from) return text(via, args.slice(0, to), from);
    return args.slice(to + 1).flatMap((word) => (ARG_SEPARATORS.has(word.text) ? [] : attached(via, word, 0)));
  },

  /** `watch [-n N] command…`: watch hands the joined words to `sh -c`. */
  watch: (_how, args, texts, _name, found) =>
    text({ kind: 'shell-c', name: 'watch' }, args, parseArgv(texts, readsWith(found)).rest),

  /** `script -c text [file]`, or the BSD form `script [-q] file command…`. */
  script: (_how, args, texts, _name, found) => {
    const via: Via = { kind: 'shell-c', name: 'script' };
    const parsed = parseArgv(texts, readsWith(found));
    const command = optionsNamed(parsed, ['-c', '--command']).pop();
    if (command?.valueIndex !== undefined) return attached(via, args[command.valueIndex], command.valueOffset ?? 0);
    return argv(via, parsed.rest + 1, texts.length);
  },

  /** `su [-] [user] -c text`. */
  su: (_how, args, texts, _name, found) => {
    const command = optionsNamed(parseArgv(texts, readsWith(found)), ['-c', '--command'])[0];
    return command?.valueIndex === undefined
      ? []
      : attached({ kind: 'shell-c', name: 'su' }, args[command.valueIndex], command.valueOffset ?? 0);
  },

  /** `ssh [options] host command…`: the command runs on that host; without one, stdin does. */
  ssh: (_how, args, texts, _name, found) => {
    const i = parseArgv(texts, readsWith(found)).rest;
    const host = texts[i];
    if (host === undefined) return [];
    const remoteHost = host
      .replace(/^ssh:\/\//, '')
      .replace(/^.*@/, '')
      .replace(/:\d+$/, '');
    const via: Via = { kind: 'remote', name: 'ssh' };
    if (i + 1 >= texts.length) return [{ kind: 'stdin', via, dialect: 'posix', remoteHost }];
    return text(via, args, i + 1, 'posix', remoteHost);
  },

  /**
   * `docker exec [options] CONTAINER command…` (also `docker container exec`, `docker compose exec
   * SERVICE …`, podman): the command runs inside the container, so it is read as run elsewhere.
   */
  'container-exec': (_how, _args, texts, name, found) => {
    let at = parseArgv(texts, readsWith(found)).rest;
    let parent: Parameters<typeof subcommandOf>[0] = found;
    for (let depth = 0; depth < 3; depth++) {
      const sub = subcommandOf(parent, texts[at]);
      if (sub === undefined) return [];
      const target = parseArgv(texts, readsWith(sub), at + 1).rest;
      if (texts[at] === 'exec') {
        const container = texts[target];
        if (container === undefined) return [];
        return remoteArgv({ kind: 'remote', name }, target + 1, texts.length, `container ${container}`);
      }
      at = target;
      parent = sub;
    }
    return [];
  },

  /** `kubectl exec [options] POD [options] -- command…`: the command runs in the pod. */
  'kubectl-exec': (_how, _args, texts, name, found) => {
    const parsed = parseArgv(texts, readsWith(found));
    const [verb, pod, first] = parsed.operands;
    if (verb === undefined || texts[verb] !== 'exec' || pod === undefined) return [];
    // the pod is named before `--`; the command is what follows `--` (or the operands after the pod)
    if (parsed.dashdash >= 0 && pod > parsed.dashdash) return [];
    const from = parsed.dashdash > pod ? parsed.dashdash + 1 : (first ?? texts.length);
    return remoteArgv(
      { kind: 'remote', name },
      from,
      texts.length,
      `pod ${(texts[pod] as string).replace(/^pods?\//, '')}`,
    );
  },

  /** A runner that fetches a package and runs it (`npx`, `bunx`, `uvx`, `pnpm dlx`, `pipx run`, …). */
  'package-runner': (how, args, texts, name, found) => {
    const from = afterPath(how.path, texts, found);
    if (from < 0) return [];
    const via: Via = { kind: 'runner', name };
    const parsed = parseArgv(texts, how.argv ?? LEADING, from);
    const end = parsed.rest;
    const call = how.call ? optionsNamed(parsed, how.call).pop() : undefined;
    if (call?.valueIndex !== undefined) return attached(via, args[call.valueIndex], call.valueOffset ?? 0);
    if (how.flag?.some((flag: string) => parsed.options.some((option) => option.name === flag)))
      return text(via, args, end);
    return argv(via, end, texts.length, true);
  },

  /** An option, operand or variable whose value is a command line (see optionText). */
  'option-text': (how, args, texts, name, found, around) =>
    optionText(how, args, texts, name, readsWith(found), around, found),

  /**
   * git: an alias for the subcommand (`-c alias.pf='push --force' pf`, `git config alias.pf …` earlier
   * in the line) is read as what it stands for (a `!` alias as shell text); every setting whose value
   * is a command (`-c core.sshCommand=…`, `core.pager`, GIT_CONFIG_COUNT/KEY/VALUE, …), the
   * environment's (`GIT_SSH_COMMAND`, `GIT_PAGER`, `EDITOR`, …) and the one `git config` writes is
   * read as shell text; an `ext::CMD` remote as the command it is.
   */
  git: (_how, args, texts, _name, found, around) => {
    const parsed = parseArgv(texts, readsWith(found));
    const settings = new Map<string, Mapped>(around.gitConfig ?? []);
    for (const setting of gitEnvSettings((key) => around.env(key))) settings.set(setting.key, setting.value);
    for (const option of optionsNamed(parsed, ['-c'])) {
      const word = option.valueIndex === undefined ? undefined : args[option.valueIndex];
      const setting = word === undefined ? undefined : gitSetting(word, option.valueOffset ?? 0);
      if (setting !== undefined) settings.set(setting.key, setting.value);
    }
    const out: Nested[] = [];
    const shell: Via = { kind: 'shell-c', name: 'git' };
    for (const [key, value] of settings) {
      const command = isGitCommandSetting(key) ? gitSettingCommand(key, value) : undefined;
      if (command !== undefined) out.push({ kind: 'text', via: shell, text: command, dialect: 'posix' });
    }
    for (const variable of GIT_COMMAND_ENV) {
      const value = around.env(variable);
      if (value !== undefined && value.text.trim() !== '')
        out.push({ kind: 'text', via: shell, text: value, dialect: 'posix', variable });
    }
    const sub = parsed.rest;
    // `git config core.pager CMD`: a command the git commands after it run (an alias runs only when
    // it is called, and is read there)
    const write = texts[sub] === 'config' ? gitConfigWrite(args.slice(sub + 1)) : undefined;
    const kept =
      write !== undefined && isGitCommandSetting(write.key) ? gitSettingCommand(write.key, write.value) : undefined;
    if (kept !== undefined) out.push({ kind: 'text', via: shell, text: kept, dialect: 'posix' });
    // `git clone 'ext::sh -c cmd'`: the remote is a command git runs
    for (const word of args.slice(sub + 1)) {
      const words = extWords(word);
      if (words !== undefined) out.push({ kind: 'words', via: { kind: 'runner', name: 'git' }, words });
    }
    const alias = texts[sub] === undefined ? undefined : settings.get(`alias.${texts[sub].toLowerCase()}`);
    if (alias !== undefined && subcommandOf(found, texts[sub]) === undefined) {
      const rest = args.slice(sub + 1);
      const value = alias.text.trimStart();
      if (value.startsWith('!')) {
        const text = sliceMapped(alias, alias.text.indexOf('!') + 1, alias.text.length);
        out.push({
          kind: 'text',
          via: shell,
          text: rest.length > 0 ? joinMapped([text, ...rest.map((w) => w.map)]) : text,
          dialect: 'posix',
        });
      } else {
        const words = [around.program, ...args.slice(0, sub), ...aliasWords(alias), ...rest];
        out.push({ kind: 'words', via: { kind: 'runner', name: 'git' }, words });
      }
    }
    return out;
  },

  /** vim, nvim, ex: the Ex commands of `-c`, `--cmd` and `+cmd`, and of stdin in Ex mode (`-es`, `-e`, `ex`). */
  vim: (how, args, texts, name, found) => {
    const parsed = parseArgv(texts, readsWith(found));
    const via: Via = { kind: 'shell-c', name };
    const out: Nested[] = [];
    const take = (line: Mapped): void => {
      for (const found of exCommands(line))
        out.push(
          found.kind === 'text'
            ? { kind: 'text', via, text: found.text, dialect: 'posix' }
            : { kind: 'code', via: { kind: 'inline-code', name }, language: found.language, text: found.text },
        );
    };
    for (const option of optionsNamed(parsed, ['-c', '--cmd'])) {
      const word = option.valueIndex === undefined ? undefined : args[option.valueIndex];
      if (word !== undefined)
        take(option.valueOffset ? sliceMapped(word.map, option.valueOffset, word.text.length) : word.map);
    }
    for (const operand of parsed.operands) {
      const word = args[operand];
      if (word !== undefined && word.text.startsWith('+') && word.text.length > 1)
        take(sliceMapped(word.map, 1, word.text.length));
    }
    const exMode =
      how.ex === true ||
      parsed.options.some(
        (option) => option.name === '-e' || option.name === '-E' || option.name === '-es' || option.name === '-Es',
      );
    if (exMode) out.push({ kind: 'stdin', via: { kind: 'heredoc', name }, dialect: 'posix', as: 'ex' });
    return out;
  },

  /** sed: the commands of its script (`-e`, `--expression`, or the first operand). */
  sed: (_how, args, texts, name, found) => {
    const parsed = parseArgv(texts, readsWith(found));
    const scripts = optionsNamed(parsed, ['-e', '--expression']);
    const words: Mapped[] = [];
    for (const option of scripts) {
      const word = option.valueIndex === undefined ? undefined : args[option.valueIndex];
      if (word !== undefined)
        words.push(option.valueOffset ? sliceMapped(word.map, option.valueOffset, word.text.length) : word.map);
    }
    const first = parsed.operands[0];
    if (
      scripts.length === 0 &&
      !parsed.options.some((o) => o.name === '-f' || o.name === '--file') &&
      first !== undefined
    ) {
      const word = args[first];
      if (word !== undefined) words.push(word.map);
    }
    const via: Via = { kind: 'shell-c', name };
    return words.flatMap((script) =>
      sedCommands(script).map((text): Nested => ({ kind: 'text', via, text, dialect: 'posix' })),
    );
  },

  /** make: `-f -` (the Makefile on stdin), `-f <(…)`, `--eval TEXT`: their recipes. */
  make: (_how, args, texts, name, found) => {
    const parsed = parseArgv(texts, readsWith(found));
    const via: Via = { kind: 'shell-c', name };
    const out: Nested[] = [];
    for (const option of optionsNamed(parsed, ['-f', '--file', '--makefile'])) {
      const word = option.valueIndex === undefined ? undefined : args[option.valueIndex];
      const value = word?.text.slice(option.valueOffset ?? 0);
      if (value === '-' || value === '/dev/stdin')
        out.push({ kind: 'stdin', via: { kind: 'heredoc', name }, dialect: 'posix', as: 'makefile' });
      const recipes = word?.printed === undefined ? undefined : makefileRecipes(word.printed);
      if (recipes !== undefined) out.push({ kind: 'text', via, text: recipes, dialect: 'posix' });
    }
    for (const option of optionsNamed(parsed, ['-E', '--eval'])) {
      const word = option.valueIndex === undefined ? undefined : args[option.valueIndex];
      const recipes =
        word === undefined
          ? undefined
          : makefileRecipes(
              option.valueOffset ? sliceMapped(word.map, option.valueOffset, word.text.length) : word.map,
            );
      if (recipes !== undefined) out.push({ kind: 'text', via, text: recipes, dialect: 'posix' });
    }
    return out;
  },

  /** less: `+!cmd` (and `++!cmd`) runs a command as it starts. */
  pager: (_how, args, _texts, name) => {
    const via: Via = { kind: 'shell-c', name };
    const out: Nested[] = [];
    for (const word of args) {
      const command = lessCommand(word);
      if (command !== undefined) out.push({ kind: 'text', via, text: command, dialect: 'posix' });
    }
    return out;
  },

  /**
   * `Start-Process FILE [-ArgumentList] ARGS` (`saps`, `start`): FILE and ARGS, a string or an
   * array PowerShell joins with blanks, make one Windows command line that the started program
   * reads itself (`powershell -Command …`, `cmd /c …`). cmd's `start ["title"] [/switches] cmd args`
   * is read the same way, the title and switches passed over.
   */
  'start-process': (_how, args, texts, name, found) => {
    const parsed = parseArgv(texts, readsWith(found));
    const valueOf = (names: readonly string[]): Mapped | undefined => {
      const option = optionsNamed(parsed, names).pop();
      const word = option?.valueIndex === undefined ? undefined : args[option.valueIndex];
      return word === undefined ? undefined : sliceMapped(word.map, option?.valueOffset ?? 0, word.text.length);
    };
    // a quoted word is never a parameter's name in PowerShell (`Start-Process pwsh "-enc …"`)
    const candidates = [
      ...parsed.operands,
      ...parsed.options.flatMap((o) => (o.value === undefined && args[o.index]?.quoted === true ? [o.index] : [])),
    ].sort((a, b) => a - b);
    const operands = candidates;
    const fileOption = optionsNamed(parsed, ['-FilePath', '-PSPath', '-Path']).pop();
    const file = valueOf(['-FilePath', '-PSPath', '-Path']);
    const listed = optionsNamed(parsed, ARGUMENT_LIST).flatMap((option) => {
      const word = option.valueIndex === undefined ? undefined : args[option.valueIndex];
      return word === undefined ? [] : [sliceMapped(word.map, option.valueOffset ?? 0, word.text.length)];
    });
    const positional = operands.map((i) => (args[i] as Word).map);
    const via: Via = { kind: 'runner', name };
    const out: Nested[] = [];
    const first = file ?? positional[0];
    // a program named by what the line does not know (`Start-Process $exe`): run as the word it is
    const at = file !== undefined ? fileOption?.valueIndex : operands[0];
    if (at !== undefined && args[at]?.dynamic === true) return [{ kind: 'argv', via, from: at, to: at + 1 }];
    const lead = first?.text.toLowerCase() ?? '';
    // `start /wait …` is cmd's, read below
    if (first !== undefined && !(name === 'start' && (CMD_START_SWITCHES.has(lead) || CMD_START_VALUED.has(lead)))) {
      const rest = [...(file === undefined ? positional.slice(1) : positional), ...listed].flatMap(arrayItems);
      out.push({ kind: 'text', via, text: joinMapped([first, ...rest]), dialect: 'cmd' });
      // `a,b` written without quotes is an array too; `'a,b'` is one string: both are read
      if (rest.some((piece) => piece.text.includes(',')))
        out.push({
          kind: 'text',
          via,
          text: joinMapped([first, ...rest.flatMap((piece) => splitAt(piece, () => true))]),
          dialect: 'cmd',
        });
    }
    if (name === 'start') {
      // cmd's `start [/switches] ["title"] program args…`: every word after the program is its own
      let k = 0;
      while (k < texts.length) {
        const lower = (texts[k] ?? '').toLowerCase();
        if (CMD_START_VALUED.has(lower)) k += 2;
        else if (CMD_START_SWITCHES.has(lower)) k++;
        else break;
      }
      const title = args[k];
      const from = title?.quoted === true && k + 1 < args.length ? k + 1 : k;
      if (from < args.length)
        out.push({ kind: 'text', via, text: joinMapped(args.slice(from).map((w) => w.map)), dialect: 'cmd' });
    }
    return out;
  },

  /** A tool that runs a command in its environment or on a change (`poetry run`, `nix develop -c`, `watchexec`, …). */
  'env-runner': (how, args, texts, name, found) => {
    const at = afterPath(how.path, texts, found);
    if (at < 0) return [];
    if (how.stdin === true) return [{ kind: 'stdin', via: { kind: 'heredoc', name }, dialect: 'posix' }];
    const parsed = parseArgv(texts, how.argv ?? (how.path === undefined ? readsWith(found) : LEADING), at);
    if (how.each === true) return parsed.operands.flatMap((i) => attached({ kind: 'shell-c', name }, args[i], 0));
    let from = parsed.rest + (how.skip ?? 0);
    if (how.after !== undefined) {
      const after = how.after;
      const option = parsed.options.find((o) => after.includes(o.name));
      if (option === undefined) return [];
      from = option.index + 1;
    } else if (how.dashdash === true) {
      from = texts.indexOf('--', at) + 1;
      if (from === 0) return [];
    } else if (how.skip !== undefined && texts[from] === '--') from++;
    return how.shell === true
      ? text({ kind: 'shell-c', name }, args, from)
      : argv({ kind: 'runner', name }, from, texts.length);
  },
};

/**
 * An option, operand or environment variable whose value is a command line the program hands to a
 * shell: `env -S 'cmd args' more`, `tar --to-command=CMD`, `--checkpoint-action=exec=CMD`,
 * `rsync -e CMD`, `ssh -o ProxyCommand=CMD`, `man -P CMD`, `MANPAGER=CMD man x`, `trap CMD EXIT`,
 * `make SHELL=CMD`, `psql -c '\! CMD'`, `PS4='$(CMD)' bash -x`.
 */
function optionText(
  how: OptionText,
  args: readonly Word[],
  texts: readonly string[],
  name: string,
  grammar: Grammar,
  around: Around,
  found?: Program,
): Nested[] {
  // an option of one subcommand (`git rebase -x`, `cargo watch -s`): read after its words, in its grammar
  const start = how.path === undefined || found === undefined ? 0 : afterPath(how.path, texts, found);
  if (start < 0) return [];
  const via: Via = { kind: how.same === true ? 'eval' : 'shell-c', name };
  const out: Nested[] = [];
  const add = (value: Mapped, more: readonly Word[] = [], variable?: string): void => {
    for (const command of commandsIn(value, how)) {
      const text = command.text.trim();
      // `trap - INT` resets a signal; `trap '' INT` ignores it
      if (text === '' || text === '-') continue;
      out.push({
        kind: 'text',
        via,
        text: more.length > 0 ? joinMapped([command, ...more.map((w) => w.map)]) : command,
        dialect: 'posix',
        ...(variable === undefined ? {} : { variable }),
      });
    }
  };
  const parsed =
    how.options === undefined && how.operand === undefined && how.assigned === undefined
      ? undefined
      : parseArgv(texts, how.path === undefined ? grammar : (how.argv ?? LEADING), start);
  if (parsed !== undefined && how.options !== undefined)
    for (const option of optionsNamed(parsed, how.options)) {
      const word = option.valueIndex === undefined ? undefined : args[option.valueIndex];
      if (word === undefined) continue;
      const value = option.valueOffset ? sliceMapped(word.map, option.valueOffset, word.text.length) : word.map;
      add(value, how.rest === true ? args.slice(parsed.rest) : []);
    }
  if (parsed !== undefined && how.operand !== undefined) {
    const word = args[parsed.operands[how.operand] ?? -1];
    if (word !== undefined) add(word.map);
  }
  if (parsed !== undefined && how.assigned !== undefined)
    for (const at of parsed.operands) {
      const word = args[at] as Word;
      const eq = word.text.indexOf('=');
      if (eq > 0 && how.assigned.includes(word.text.slice(0, eq))) add(sliceMapped(word.map, eq + 1, word.text.length));
    }
  const suffixes = how.suffixes;
  const variables =
    suffixes === undefined
      ? (how.env ?? [])
      : [...new Set([...(how.env ?? []), ...around.owned.filter((n) => suffixes.some((s) => n.endsWith(s)))])];
  for (const variable of variables) {
    const value = how.own === true ? around.own(variable) : around.env(variable);
    if (value !== undefined) add(value, [], variable);
  }
  if (how.stdin === true) out.push({ kind: 'stdin', via: { kind: 'heredoc', name }, dialect: 'posix', keys: how });
  return out;
}

/** The command lines in an option's value (or its stdin), as the entry says they are written there. */
export function commandsIn(value: Mapped, how: OptionText): Mapped[] {
  if (how.substitutions === true) return substitutionsIn(value);
  if (how.lines !== true) {
    const command = commandIn(value, how.keys, how.strip);
    return command === undefined ? [] : [command];
  }
  const out: Mapped[] = [];
  for (const line of linesOf(value)) {
    // a statement starts the line or follows a `;`; the first that names a key takes the rest of the line
    const text = line.text;
    for (let at = 0; at >= 0 && at < text.length;) {
      while (at < text.length && /\s/.test(text[at] as string)) at++;
      // only the statement's head is looked at here (a line of many statements stays linear)
      const head = how.keys?.some((k) =>
        text
          .slice(at, at + k.length + 1)
          .toLowerCase()
          .startsWith(k.toLowerCase()),
      );
      const command = head === true ? commandIn(sliceMapped(line, at, text.length), how.keys, how.strip) : undefined;
      if (command !== undefined) {
        out.push(command);
        break;
      }
      const semicolon = text.indexOf(';', at);
      at = semicolon < 0 ? -1 : semicolon + 1;
    }
  }
  return out;
}

/**
 * Where a runner's words start after the subcommand words of its `path` (`poetry run …`,
 * `git submodule foreach …`), each the first operand after the options before it; 0 without a
 * path, -1 when the words do not take it.
 */
function afterPath(path: readonly string[] | undefined, texts: readonly string[], found: Program): number {
  let at = 0;
  let grammar = readsWith(found);
  let parent: Parameters<typeof subcommandOf>[0] = found;
  for (const word of path ?? []) {
    const first = parseArgv(texts, grammar, at).operands[0];
    if (first === undefined || texts[first] !== word) return -1;
    at = first + 1;
    const sub: ReturnType<typeof subcommandOf> = subcommandOf(parent, word);
    parent = sub;
    grammar = sub?.argv ?? LEADING;
  }
  return at;
}

/**
 * The command line in an option's value: all of it, or what follows one of `keys` and `=` or a
 * blank (`exec=CMD`, `ProxyCommand CMD`), after the characters in `strip` (`|` of `LESSOPEN`).
 */
function commandIn(value: Mapped, keys: readonly string[] | undefined, strip: string | undefined): Mapped | undefined {
  let start = 0;
  const text = value.text;
  if (keys !== undefined) {
    const lower = text.toLowerCase();
    const key = keys.find((k) => lower.startsWith(k.toLowerCase()) && /[=\s]/.test(text[k.length] ?? ''));
    if (key === undefined) return undefined;
    start = key.length + 1;
  }
  while (strip !== undefined && start < text.length && strip.includes(text[start] as string)) start++;
  return sliceMapped(value, start, text.length);
}

/** Start-Process's argument list, under each spelling PowerShell accepts. */
const ARGUMENT_LIST = ['-ArgumentList', '-Args', '-A', '-Ar', '-Arg', '-Argu', '-Argum', '-Argume', '-Argumen'];
/** cmd's `start` switches before the program, and those that take a value. */
const CMD_START_SWITCHES = new Set(
  [
    'b',
    'i',
    'min',
    'max',
    'wait',
    'low',
    'normal',
    'high',
    'realtime',
    'abovenormal',
    'belownormal',
    'separate',
    'shared',
    'unblocked',
  ].map((s) => `/${s}`),
);
const CMD_START_VALUED = new Set(['/d', '/node', '/affinity']);

/**
 * The items of a PowerShell array as the reader joined them (`'-Command','x y'` is read as
 * `-Command,x y`): split at each comma written between two quoted items (beside a quote, so its
 * neighbours do not sit next to it in the original line).
 */
function arrayItems(piece: Mapped): Mapped[] {
  return splitAt(piece, (i) => piece.at(i - 1) + 1 !== piece.at(i) || piece.at(i + 1) - 1 !== piece.at(i));
}

function splitAt(piece: Mapped, where: (i: number) => boolean): Mapped[] {
  const out: Mapped[] = [];
  let start = 0;
  const text = piece.text;
  for (let i = text.indexOf(','); i >= 0 && out.length < 256; i = text.indexOf(',', i + 1)) {
    if (!where(i)) continue;
    if (i > start) out.push(sliceMapped(piece, start, i));
    start = i + 1;
  }
  if (start < text.length) out.push(sliceMapped(piece, start, text.length));
  return out;
}
