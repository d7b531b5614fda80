/**
 * Script files a step runs (`sh setup.sh`, `python tool.py`, `./build.sh`, `bash < x.sh`), read
 * through the probe (bounded) and turned into steps of their own, so the rules can judge what a
 * script would do. A script is read one level deep: nothing it runs in turn is read.
 */
import type { Probe, RuleContext } from '../rule.js';
import type { ShellStep } from '../types.js';
import type { FileEffect } from './effects.js';
import { quoteWord } from '../shell/quote.js';
import { buildContext, FRESH_SESSION } from './context.js';

/** The most of a script that is read. */
export const SCRIPT_MAX_BYTES = 64 * 1024;
/** The most scripts read for one step. */
const MAX_SCRIPTS = 8;

export type ScriptLanguage = 'shell' | 'python' | 'node' | 'ruby' | 'perl' | 'php' | 'powershell';

export interface Script {
  /** The effect that runs it (its span is where the step names the script). */
  readonly effect: FileEffect;
  /** Absolute path. */
  readonly path: string;
  readonly text: string;
  readonly language: ScriptLanguage;
  /** FNV-1a of the text, as 8 hex digits: names this version of the file. */
  readonly hash: string;
  /** The script as a step of its own (a fresh chat, no further script reads). */
  readonly context: RuleContext;
}

const BY_RUNNER: readonly (readonly [RegExp, ScriptLanguage])[] = [
  [/^(?:sh|bash|zsh|dash|ksh|mksh|ash|fish|busybox|source|\.)$/, 'shell'],
  [/^(?:python[\d.]*|pypy[\d.]*|py)$/, 'python'],
  [/^(?:node|nodejs|bun|deno|tsx|ts-node)$/, 'node'],
  [/^ruby$/, 'ruby'],
  [/^perl$/, 'perl'],
  [/^php$/, 'php'],
  [/^(?:pwsh|powershell)$/, 'powershell'],
];
const BY_EXTENSION: Readonly<Record<string, ScriptLanguage>> = {
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
  ps1: 'powershell',
};
const SHEBANG = /^#!\s*(?:\S*\/)?(?:env\s+(?:-\S+\s+)*)?([\w.+-]+)/;
const EXTENSION = /\.([A-Za-z0-9]+)$/;
/** Places whose files are not the project's scripts (system programs, devices, build output). */
const NOT_READ = new Set(['root', 'device', 'unresolved', 'regenerable']);

const cache = new WeakMap<RuleContext, readonly Script[]>();

/** The scripts a step runs, read once per context (in step order, at most eight). */
export function scriptsRun(context: RuleContext): readonly Script[] {
  // a step that runs no file (most) has nothing to read and is not kept: looking again costs less
  // than a WeakMap entry (an entry for a new object costs V8 more than the look does)
  if (context.probe.readText === undefined || context.step.kind !== 'shell' || !runsAFile(context.files)) return [];
  const known = cache.get(context);
  if (known) return known;
  const scripts = readScripts(context);
  cache.set(context, scripts);
  return scripts;
}

function readScripts(context: RuleContext): Script[] {
  const read = context.probe.readText;
  if (read === undefined || context.step.kind !== 'shell') return [];
  const out: Script[] = [];
  const seen = new Set<string>();
  for (const effect of context.files) {
    if (out.length >= MAX_SCRIPTS) break;
    const facts = effect.path;
    if (
      effect.op !== 'exec' ||
      facts.abs === '' ||
      facts.secret !== undefined ||
      NOT_READ.has(facts.place) ||
      seen.has(facts.abs)
    )
      continue;
    seen.add(facts.abs);
    const text = read(facts.abs, SCRIPT_MAX_BYTES);
    if (typeof text !== 'string' || text === '' || text.includes('\u0000')) continue;
    const language = languageOf(effect, facts.abs, text);
    if (language === undefined) continue;
    const cwd = effect.invocation?.cwd ?? context.step.cwd;
    out.push({
      effect,
      path: facts.abs,
      text,
      language,
      hash: fnv1a(text),
      context: scriptContext(context, asCommand(language, text), cwd),
    });
  }
  return out;
}

function runsAFile(files: readonly FileEffect[]): boolean {
  for (let f = 0; f < files.length; f++) if ((files[f] as FileEffect).op === 'exec') return true;
  return false;
}

function languageOf(effect: FileEffect, path: string, text: string): ScriptLanguage | undefined {
  const runner = effect.invocation?.name ?? '';
  for (const [re, language] of BY_RUNNER) if (re.test(runner)) return language;
  const interpreter = SHEBANG.exec(text)?.[1];
  if (interpreter !== undefined) {
    for (const [re, language] of BY_RUNNER) if (re.test(interpreter)) return language;
    return undefined;
  }
  const extension = EXTENSION.exec(path.slice(path.lastIndexOf('/') + 1))?.[1]?.toLowerCase();
  // a file with no extension and no `#!` line is run by the shell
  return extension === undefined ? 'shell' : BY_EXTENSION[extension];
}

/** The shell line that runs this text the way the reader can read it. */
function asCommand(language: ScriptLanguage, text: string): string {
  switch (language) {
    case 'shell':
      return text;
    case 'powershell':
      return `pwsh -Command ${quoteWord(text, 'single')}`;
    case 'python':
      return `python3 -c ${quoteWord(text, 'single')}`;
    case 'node':
      return `node -e ${quoteWord(text, 'single')}`;
    case 'ruby':
      return `ruby -e ${quoteWord(text, 'single')}`;
    case 'perl':
      return `perl -e ${quoteWord(text, 'single')}`;
    case 'php':
      return `php -r ${quoteWord(text.replace(/^\s*<\?php\b/, ''), 'single')}`;
  }
}

function scriptContext(context: RuleContext, command: string, cwd: string): RuleContext {
  const step: ShellStep = {
    agent: context.step.agent,
    chatId: context.step.chatId,
    cwd,
    projectRoot: context.step.projectRoot,
    toolName: context.step.toolName,
    kind: 'shell',
    command,
  };
  const { readText: _notAgain, ...probe } = context.probe;
  const { home, tmp, guardHome, extraSecrets } = context.pathContext;
  return buildContext(
    step,
    { home, tmp, ...(guardHome === undefined ? {} : { guardHome }) },
    probe satisfies Probe,
    FRESH_SESSION,
    extraSecrets,
  );
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
