/**
 * The paths inline code builds (`'.co' + 'dex'`, `os.path.join(home, …)`, base64), folded by
 * `foldCode()`, and guard's own files as the rules that protect them see them: its folders and the
 * agents' hook files, as absolute anchors that a listing in code may reach.
 */
import type { RuleContext } from '../context/types.js';
import { isInside } from '../facts/paths.js';
import { program } from '../programs/index.js';
import type { Language } from '../programs/index.js';
import type { Folded } from '../shell/fold.js';
import { foldCode } from '../shell/fold.js';
import type { Invocation } from '../shell/types.js';
import type { Span } from '../types.js';

/** guard's state folder and the folders of its code: every file in them is guard's. */
export function guardFolders(context: RuleContext): readonly string[] {
  const { home, guardHome, guardCode } = context.pathContext;
  return [guardHome ?? `${home}/.local/state/guard`, ...(guardCode ?? [])];
}

/**
 * guard's files and folders as absolute paths (`paths`), which of them are files, not folders, and
 * which hold only others' hooks (an agent's `otherHooks`): a change in those counts, taking them away not.
 */
export interface Anchors {
  readonly paths: readonly string[];
  readonly files: ReadonlySet<string>;
  readonly others: ReadonlySet<string>;
}

/** guard's files and folders as absolute paths, for globs and listings to be matched against. */
export function protectedAnchors(context: RuleContext): Anchors {
  const { home, projectRoot, agents } = context.pathContext;
  const project = projectRoot === '/' ? '' : projectRoot;
  const policy = `${project}/.guard.yaml`;
  const files = new Set([policy]);
  const others = new Set<string>();
  const held = new Set<string>();
  const hooks = (agents?.anchors ?? []).map(({ at, path, folder, others: theirs }) => {
    const abs = at === 'root' ? path : `${at === 'home' ? home : project}/${path}`;
    if (!folder) files.add(abs);
    (theirs === true ? others : held).add(abs);
    return abs;
  });
  // a place declared both ways holds guard's hooks
  for (const abs of held) others.delete(abs);
  return { paths: [...guardFolders(context), ...hooks, policy], files, others };
}

/** The language of code an interpreter runs: its inline code's, or the program's own. */
export function codeLanguage(inv: Invocation): Language | undefined {
  return inv.code?.language ?? program(inv.name)?.language;
}

/** The code's constant expressions, folded (nothing for a language guard does not fold). */
export function foldedCode(language: Language | undefined, code: string): Folded | undefined {
  return language === undefined ? undefined : foldCode(language, code);
}

/**
 * Names in code that stand for the home folder, or for guard's or an agent's folder by the
 * variable that moves it: code that has one can reach those files through a listing of them.
 */
const HOME_IN_CODE =
  /(?:^|[^\w$])~|\bHOME\b|\bUSERPROFILE\b|expanduser|homedir|Path\.home|Dir\.home|getpwuid|pw_dir|\bGUARD_HOME\b|\bXDG_(?:STATE|CONFIG|DATA)_HOME\b/;

/**
 * A file the code writes, deletes, moves, links or changes the mode of while it works the path out
 * at run time (a listing, a loop variable, a value it reads), in code that reaches into the home
 * folder or guard's or an agent's folders: guard cannot tell which files it changes. Code that
 * changes only paths it names, or only works in the project, is not this.
 */
export function unresolvedCodeChange(
  inv: Invocation,
  context: RuleContext,
): { span: Span; detail: string } | undefined {
  const code = inv.code;
  if (code === undefined) return undefined;
  const folded = foldedCode(code.language, code.text);
  if (folded === undefined) return undefined;
  const unresolved = folded.fileCalls.find((call) => call.targets.includes(undefined));
  // code too long to fold whole may build a path past where guard stopped reading
  if (unresolved === undefined && folded.complete) return undefined;
  if (!reachesGuardOrHome(code.text, folded, inv, context)) return undefined;
  const [start, end] = code.span;
  return {
    span: [start, end],
    detail: unresolved === undefined ? 'code too long to read whole' : `${unresolved.name}(…)`,
  };
}

function reachesGuardOrHome(text: string, folded: Folded, inv: Invocation, context: RuleContext): boolean {
  if (HOME_IN_CODE.test(text)) return true;
  const variables = Object.keys(context.pathContext.agents?.variables ?? {});
  if (variables.some((name) => new RegExp(`\\b${name}\\b`).test(text))) return true;
  const { home, projectRoot } = context.pathContext;
  const anchors = protectedAnchors(context).paths;
  const values = [...folded.strings.map((s) => s.value), ...literals(text)];
  return values.some((value) => {
    const facts = context.path(value, inv.cwd);
    if (facts.guardFile !== undefined) return true;
    const abs = facts.abs;
    if (abs === '' || (projectRoot !== '/' && isInside(abs, projectRoot) && abs !== projectRoot)) {
      // in the project: only a folder that holds one of guard's files there (`.github`)
      return abs !== '' && anchors.some((anchor) => anchor !== abs && isInside(anchor, abs));
    }
    if (abs === projectRoot) return false;
    return isInside(abs, home) || anchors.some((anchor) => isInside(anchor, abs) || isInside(abs, anchor));
  });
}

/** A string literal in code, in any of the quotes the interpreters use. */
export const LITERAL = /(['"`])((?:(?!\1)[^\\\n]|\\.){1,1024})\1/g;

/** The string literals of code, as written (a bounded number). */
function literals(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(LITERAL)) {
    if (out.length >= 512) break;
    out.push(m[2] as string);
  }
  return out;
}
