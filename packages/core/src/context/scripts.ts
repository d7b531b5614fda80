/**
 * Script files a step runs (`sh setup.sh`, `python tool.py`, `./build.sh`, `bash < x.sh`), read
 * through the probe (bounded) and read as steps of their own, so the rules can judge what a script
 * would do: a shell script as a command line, code through the reader's inline-code entry (as
 * `python3 -c TEXT` would be read). A script is read one level deep: nothing it runs in turn is.
 */
import { program } from '../programs/index.js';
import type { ScriptLanguage } from '../programs/index.js';
import { readCommand, readProgramText } from '../shell/index.js';
import type { ReadOptions, ReadResult } from '../shell/types.js';
import type { ShellStep, ToolStep } from '../types.js';
import type { FileEffect, RuleContext, Script } from './types.js';

/** The most of a script that is read. */
export const SCRIPT_MAX_BYTES = 64 * 1024;
/** The most scripts read for one step. */
const MAX_SCRIPTS = 8;

/** File endings and the language of the script, for a file run by its path (`./x.py`). */
export const BY_EXTENSION: Readonly<Record<string, ScriptLanguage>> = {
  sh: 'shell',
  bash: 'shell',
  zsh: 'shell',
  ksh: 'shell',
  command: 'shell',
  py: 'python',
  js: 'node',
  mjs: 'node',
  cjs: 'node',
  ts: 'node',
  mts: 'node',
  cts: 'node',
  rb: 'ruby',
  pl: 'perl',
  php: 'php',
  lua: 'lua',
  ps1: 'powershell',
};
/** The interpreter that reads each language's code inline, as the reader knows it. */
const INTERPRETER: Readonly<Record<Exclude<ScriptLanguage, 'shell' | 'powershell'>, string>> = {
  python: 'python3',
  node: 'node',
  ruby: 'ruby',
  perl: 'perl',
  php: 'php',
  lua: 'lua',
};
const SHEBANG = /^#!\s*(?:\S*\/)?(?:env\s+(?:-\S+\s+)*)?([\w.+-]+)/;
const EXTENSION = /\.([A-Za-z0-9]+)$/;
/** Places whose files are not the project's scripts (system programs, devices, build output). */
const NOT_READ = new Set(['root', 'device', 'unresolved', 'regenerable']);

/** Reads the scripts a step runs (in step order, at most eight); `contextFor` makes each one's context. */
export function readScripts(
  context: RuleContext,
  contextFor: (step: ToolStep, read: ReadResult) => RuleContext,
): Script[] {
  const probe = context.probe;
  if (probe.readText === undefined || context.step.kind !== 'shell' || !runsAFile(context.files)) return [];
  const out: Script[] = [];
  const seen = new Set<string>();
  for (const effect of context.files) {
    if (out.length >= MAX_SCRIPTS) break;
    const facts = effect.path;
    if (
      effect.op !== 'exec' ||
      facts.abs === '' ||
      facts.secret !== undefined ||
      // guard's own program is judged by guard.tamper, not read as the agent's script
      facts.guardFile === 'install' ||
      NOT_READ.has(facts.place) ||
      seen.has(facts.abs)
    )
      continue;
    seen.add(facts.abs);
    const text = probe.readText(facts.abs, SCRIPT_MAX_BYTES);
    if (typeof text !== 'string' || text === '' || text.includes('\u0000')) continue;
    const language = languageOf(effect, facts.abs, text);
    if (language === undefined) continue;
    const cwd = effect.invocation?.cwd ?? context.step.cwd;
    const step: ShellStep = {
      agent: context.step.agent,
      chatId: context.step.chatId,
      cwd,
      projectRoot: context.step.projectRoot,
      toolName: context.step.toolName,
      kind: 'shell',
      command: text,
    };
    const { home, tmp } = context.pathContext;
    out.push({
      effect,
      path: facts.abs,
      text,
      language,
      hash: fnv1a(text),
      context: contextFor(step, readScript(language, text, { cwd, home, tmp })),
    });
  }
  return out;
}

/** A script's text as the reader reads it: shell text as a command line, code as inline code. */
export function readScript(language: ScriptLanguage, text: string, options: ReadOptions): ReadResult {
  switch (language) {
    case 'shell':
      return readCommand(text, options);
    case 'powershell':
      return readCommand(text, { ...options, shell: 'powershell' });
    default:
      return readProgramText(text, language, INTERPRETER[language], options);
  }
}

function runsAFile(files: readonly FileEffect[]): boolean {
  for (let f = 0; f < files.length; f++) if ((files[f] as FileEffect).op === 'exec') return true;
  return false;
}

/** The language a runner runs, by its entry in the program knowledge base. */
function runnerLanguage(name: string): ScriptLanguage | undefined {
  return program(name)?.script;
}

function languageOf(effect: FileEffect, path: string, text: string): ScriptLanguage | undefined {
  return runnerLanguage(effect.invocation?.name ?? '') ?? fileLanguage(path, text);
}

/** The language of a file's code by its `#!` line, else its ending (a file with neither is a shell script). */
export function fileLanguage(path: string, text: string): ScriptLanguage | undefined {
  const interpreter = SHEBANG.exec(text)?.[1];
  if (interpreter !== undefined) return runnerLanguage(interpreter.toLowerCase());
  const extension = EXTENSION.exec(path.slice(path.lastIndexOf('/') + 1))?.[1]?.toLowerCase();
  // a file with no extension and no `#!` line is run by the shell
  return extension === undefined ? 'shell' : BY_EXTENSION[extension];
}

/** 32-bit FNV-1a over the UTF-16 code units, as 8 hex digits. */
export function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(8, '0');
}
