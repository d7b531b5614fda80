/**
 * What the engine knows of the agents it guards: their files, the variables that move their
 * folders, the settings and the command-line switches that turn their hooks off. core names no
 * agent: each adapter declares its agent as data, the caller resolves the variables on this
 * machine and hands the lists to agentKnowledge() once (per hook call), and the engine reads the
 * result from Environment.agents on every step.
 *
 * A path pattern is a glob over `/`-separated names (`*` and `?` within one name, `**` any number
 * of them), written in one of three forms: `/…` (or `C:/…`) an absolute path; `~/…` a path in a
 * home folder (this user's, or one that looks like another user's); anything else a path that
 * ends with those names, in any folder (`.tool/hooks.json`). `dir/**` is the folder and all in it.
 */
import type { ArgvSpec } from '../programs/types.js';
import { globMatch } from './glob.js';

/** The agents' declarations, their variables resolved: the input of agentKnowledge(). */
export interface AgentLists {
  /** Files that hold guard's hook entries or can switch the hooks off, and folders of them. */
  readonly hooks: readonly string[];
  /**
   * Hook files and plugins the agent runs where guard writes none of its entries and which cannot
   * switch its hooks off (a person's own hooks folder): a change in them is held as one to the hook
   * files (what is there runs at every step), but taking such a folder away, or a folder above it,
   * leaves guard's hooks as they are.
   */
  readonly otherHooks?: readonly string[];
  /** The agents' own folders: removing one removes the hooks in it. */
  readonly folders: readonly string[];
  /** Settings that change what the agent may do (approvals, trusted folders). */
  readonly settings: readonly string[];
  /** Rules, instructions and skills the agent loads into its chats. */
  readonly rules: readonly string[];
  /** Notes the agent writes for itself and loads in later chats. */
  readonly memory: readonly string[];
  /** Files that declare the MCP servers the agent starts. */
  readonly mcp: readonly string[];
  /** Variables that name an agent's folder, with the folder they name (absolute): `$TOOL_HOME/hooks.json`. */
  readonly variables: Readonly<Record<string, string>>;
  /** Settings text that switches every hook off, as regular-expression sources. */
  readonly hooksOff: readonly string[];
  /** The agents' own programs, and the ways they start with their hooks off. */
  readonly programs: readonly AgentProgram[];
}

/** An agent's program and the arguments that start it without guard's hooks. */
export interface AgentProgram {
  readonly names: readonly string[];
  /** The npm packages that run it (`npx @scope/tool`), when it is one. */
  readonly packages?: readonly string[];
  /** How it reads its words (options that take a value), as the program knowledge base writes it. */
  readonly argv?: ArgvSpec;
  readonly hooksOff: readonly ProgramSwitch[];
}

/**
 * One way a program starts with its hooks off: a flag given as is; an option whose value matches
 * (`value` a regular-expression source, `hooksOff` any of the settings text above); leading
 * operands, each one of the words listed for its place; or a variable of its environment set to
 * anything but an empty, `0`, `false`, `no` or `off` value (`project`: it leaves out only a
 * project's hooks; `system`: only the system settings' hooks, as it names another file for them).
 */
export type ProgramSwitch =
  | { readonly flag: string }
  | { readonly variable: string; readonly project?: true; readonly system?: true }
  | { readonly option: readonly string[]; readonly value: string }
  | { readonly option: readonly string[]; readonly hooksOff: true }
  | { readonly operands: readonly (readonly string[])[] };

/** The values that leave a switch variable (a `variable` ProgramSwitch) off: empty, 0, false, no, off. */
export const SWITCH_OFF = /^(?:|0|false|no|off)$/i;

/**
 * Variables that change how guard's hook runs in a program started with them, besides the agents'
 * own home variables (AgentLists.variables): guard's own (`GUARD_*`), those guard's folder and the
 * agents' folders are found by (the home folder, the XDG and Windows profile folders), and those
 * that make Node load code before guard's. In capitals, as agentKnowledge() keeps the variables.
 */
export const GUARD_KNOBS =
  /^(?:GUARD_[A-Z0-9_]+|HOME|USERPROFILE|HOMEDRIVE|HOMEPATH|APPDATA|LOCALAPPDATA|XDG_(?:STATE|CONFIG|DATA)_HOME|NODE_OPTIONS|NODE_PATH)$/;

/** What an agent's path is, as bits: one path may be several (a settings file that holds hooks). */
export const AGENT_HOOKS = 1;
export const AGENT_FOLDER = 2;
export const AGENT_SETTINGS = 4;
export const AGENT_MEMORY = 8;
export const AGENT_RULES = 16;
export const AGENT_MCP = 32;

/** One path pattern, read. */
export interface AgentPattern {
  /** What a path it matches is (AGENT_* bits). */
  readonly kind: number;
  readonly form: 'abs' | 'home' | 'any';
  /** The glob: for `abs` the whole path, for `home` the part after `~/`, for `any` led by a `**` name. */
  readonly glob: string;
}

/** A plain hook file or folder, to match globs and listings against: in the home folder, the project, or where it is. */
export interface HookAnchor {
  readonly at: 'home' | 'project' | 'root';
  /** From `at` (for `root` the whole path). */
  readonly path: string;
  /** A folder (a `dir/**` pattern: everything in it is a hook file), not a file. */
  readonly folder: boolean;
  /** Declared in `otherHooks`: guard's hooks are not there, so taking it away leaves them as they are. */
  readonly others?: true;
}

/** What the engine reads on every step: the lists, read once into patterns looked up by name. */
export interface AgentKnowledge {
  /** The patterns by one plain name each must hold, so a path is tried only against a few. */
  readonly byName: Readonly<Record<string, readonly AgentPattern[]>>;
  /** Patterns that hold no plain name (every name a glob): tried on every path. */
  readonly always: readonly AgentPattern[];
  /** The variables naming an agent's folder or file, in capitals, with `/` as the separator. */
  readonly variables: Readonly<Record<string, string>>;
  readonly anchors: readonly HookAnchor[];
  /** Names in code that stand for the hook files (a regular-expression source), or ''. */
  readonly codeNames: string;
  /** The settings text that switches every hook off (a regular-expression source), or ''. */
  readonly hooksOff: string;
  readonly programs: readonly AgentProgram[];
}

export const NO_AGENTS: AgentKnowledge = {
  byName: {},
  always: [],
  variables: {},
  anchors: [],
  codeNames: '',
  hooksOff: '',
  programs: [],
};

const GLOB = /[*?[]/;
const ABSOLUTE = /^(?:\/|[A-Za-z]:\/)/;

/** Reads the agents' lists into what the engine looks up (pure; once per hook call). */
export function agentKnowledge(lists: AgentLists): AgentKnowledge {
  const byName: Record<string, AgentPattern[]> = {};
  const always: AgentPattern[] = [];
  const add = (kind: number, patterns: readonly string[]): void => {
    for (const raw of patterns) {
      const pattern = patternOf(kind, cleaned(raw));
      if (pattern === undefined) continue;
      const names = pattern.glob.split('/');
      let key: string | undefined;
      for (let i = names.length - 1; i >= 0 && key === undefined; i--) {
        const name = names[i] as string;
        if (name !== '' && !GLOB.test(name)) key = name;
      }
      if (key === undefined) always.push(pattern);
      else if (Object.hasOwn(byName, key)) byName[key]?.push(pattern);
      else byName[key] = [pattern];
    }
  };
  const otherHooks = lists.otherHooks ?? [];
  add(AGENT_HOOKS, lists.hooks);
  add(AGENT_HOOKS, otherHooks);
  add(AGENT_FOLDER, lists.folders);
  add(AGENT_SETTINGS, lists.settings);
  add(AGENT_MEMORY, lists.memory);
  add(AGENT_RULES, lists.rules);
  add(AGENT_MCP, lists.mcp);
  // a variable is looked up in capitals, as Windows does (elsewhere a wider net than the shell's)
  const variables: Record<string, string> = {};
  for (const [name, folder] of Object.entries(lists.variables)) variables[name.toUpperCase()] = cleaned(folder);
  return {
    byName,
    always,
    variables,
    anchors: [
      ...anchorsOf(lists.hooks),
      ...anchorsOf(otherHooks).map((anchor) => ({ ...anchor, others: true as const })),
    ],
    codeNames: codeNamesOf(lists),
    hooksOff: lists.hooksOff.join('|'),
    programs: lists.programs,
  };
}

/** `/` as the separator, no `/` at the end. */
function cleaned(path: string): string {
  const slashed = path.includes('\\') ? path.replace(/\\/g, '/') : path;
  return slashed.endsWith('/') ? slashed.replace(/\/+$/, '') : slashed;
}

function patternOf(kind: number, raw: string): AgentPattern | undefined {
  if (raw === '' || raw === '~') return undefined;
  if (ABSOLUTE.test(raw))
    return { kind, form: 'abs', glob: raw.charCodeAt(1) === 58 ? raw.charAt(0).toUpperCase() + raw.slice(1) : raw };
  if (raw.startsWith('~/')) return { kind, form: 'home', glob: raw.slice(2) };
  return { kind, form: 'any', glob: raw.startsWith('**/') ? raw : `**/${raw}` };
}

/** A path's names as the patterns are matched against them. */
export interface PathNames {
  /** All names (absolute when resolved, else what could be read). */
  readonly segs: readonly string[];
  /** Names below a home folder, when the path is in one. */
  readonly homeRel: readonly string[] | undefined;
  /** Absolute and normalised, '' when unresolved. */
  readonly abs: string;
}

/** What the path is to the agents, as AGENT_* bits (0: nothing). */
export function agentKinds(n: PathNames, agents: AgentKnowledge): number {
  let kinds = 0;
  let joined: string | undefined;
  let home: string | undefined;
  const test = (p: AgentPattern): void => {
    if ((kinds & p.kind) !== 0) return;
    let hit: boolean;
    if (p.form === 'abs') hit = n.abs !== '' && globMatch(p.glob, n.abs);
    else if (p.form === 'home') hit = n.homeRel !== undefined && globMatch(p.glob, (home ??= n.homeRel.join('/')));
    else hit = globMatch(p.glob, (joined ??= n.segs.join('/')));
    if (hit) kinds |= p.kind;
  };
  for (const p of agents.always) test(p);
  for (const seg of n.segs) {
    const patterns = Object.hasOwn(agents.byName, seg) ? agents.byName[seg] : undefined;
    if (patterns !== undefined) for (const p of patterns) test(p);
  }
  return kinds;
}

/** The plain hook files and folders (`dir/**` as the folder): where they are, or in the home folder and the project. */
function anchorsOf(hooks: readonly string[]): HookAnchor[] {
  const out: HookAnchor[] = [];
  for (const raw of hooks) {
    const path = cleaned(raw).replace(/\/\*\*$/, '');
    if (path === '' || GLOB.test(path.replace(/^\*\*\//, ''))) continue;
    const folder = path !== cleaned(raw);
    if (ABSOLUTE.test(path)) out.push({ at: 'root', path, folder });
    else if (path.startsWith('~/')) out.push({ at: 'home', path: path.slice(2), folder });
    else {
      const rel = path.replace(/^\*\*\//, '');
      out.push({ at: 'home', path: rel, folder }, { at: 'project', path: rel, folder });
    }
  }
  return out;
}

/**
 * Names in code that stand for the hook files: the folders the hook patterns name
 * (`Path.home() / '.tool'`, or `'.forge', 'hooks'` as separate words) and the variables that move them.
 */
function codeNamesOf(lists: AgentLists): string {
  const names = new Set<string>();
  const add = (raw: string, folder: boolean): void => {
    const path = cleaned(raw);
    if (ABSOLUTE.test(path)) return;
    const segs = path.replace(/^(?:~|\*\*)\//, '').split('/');
    // a file's folders, not its own name; a folder pattern (`dir/**`) is all folders
    if (segs[segs.length - 1] === '**' || !folder) segs.pop();
    const cut = segs.findIndex((seg) => GLOB.test(seg));
    const named = cut < 0 ? segs : segs.slice(0, cut);
    if (named.length > 0 && /^[._]/.test(named[0] as string))
      names.add(named.map(escape).join(String.raw`['"/\s,)]+\s*['"]?`) + String.raw`\b`);
  };
  for (const raw of [...lists.hooks, ...(lists.otherHooks ?? [])]) add(raw, false);
  for (const raw of lists.folders) add(raw, true);
  for (const variable of Object.keys(lists.variables)) names.add(String.raw`\b${escape(variable)}\b`);
  return [...names].join('|');
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
