/**
 * What the engine knows of the agents it guards: their files, the variables that move their
 * folders, the settings and the command-line switches that turn their hooks off. core names no
 * agent: each adapter declares its agent as data, and the caller hands it in (Environment.agents),
 * with every variable already resolved to the folder it names on this machine.
 *
 * A path pattern is a glob over `/`-separated names (`*` and `?` within one name, `**` any number
 * of them), written in one of three forms: `/…` (or `C:/…`) an absolute path; `~/…` a path in a
 * home folder (this user's, or one that looks like another user's); anything else a path that
 * ends with those names, at any depth (`.tool/hooks.json` is `.tool/hooks.json` in any folder). `dir/**` is
 * the folder and everything in it.
 */
import type { ArgvSpec } from '../programs/types.js';
import { globMatch } from './glob.js';

export interface AgentKnowledge {
  /** Files that hold guard's hook entries or can switch the hooks off, and folders of them. */
  readonly hooks: readonly string[];
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
  /** How it reads its words (options that take a value), as the program knowledge base writes it. */
  readonly argv?: ArgvSpec;
  readonly hooksOff: readonly ProgramSwitch[];
}

/**
 * One way a program starts with its hooks off: a flag given as is; an option whose value matches
 * (`value` a regular-expression source, `hooksOff` any of the settings text above); or leading
 * operands, each one of the words listed for its place.
 */
export type ProgramSwitch =
  | { readonly flag: string }
  | { readonly option: readonly string[]; readonly value: string }
  | { readonly option: readonly string[]; readonly hooksOff: true }
  | { readonly operands: readonly (readonly string[])[] };

/** What an agent's path is, as bits: one path may be several (a settings file that holds hooks). */
export const AGENT_HOOKS = 1;
export const AGENT_FOLDER = 2;
export const AGENT_SETTINGS = 4;
export const AGENT_MEMORY = 8;
export const AGENT_RULES = 16;
export const AGENT_MCP = 32;

interface Pattern {
  readonly kind: number;
  readonly form: 'abs' | 'home' | 'any';
  /** The glob: for `abs` the whole path, for `home` the part after `~/`, for `any` led by a `**` name. */
  readonly glob: string;
}

/** The patterns, looked up by one name each must hold, so a path is tried only against a few. */
export interface AgentIndex {
  readonly byName: ReadonlyMap<string, readonly Pattern[]>;
  /** Patterns that hold no plain name (every name a glob): tried on every path. */
  readonly always: readonly Pattern[];
  /** The variables naming an agent's folder, in capitals. */
  readonly variables: ReadonlyMap<string, string>;
}

export const NO_AGENTS: AgentKnowledge = {
  hooks: [],
  folders: [],
  settings: [],
  rules: [],
  memory: [],
  mcp: [],
  variables: {},
  hooksOff: [],
  programs: [],
};

const GLOB = /[*?[]/;

/** The knowledge as patterns to look up (once per step: a few dozen patterns). */
export function agentIndex(agents: AgentKnowledge | undefined): AgentIndex {
  const byName = new Map<string, Pattern[]>();
  const always: Pattern[] = [];
  const known = agents ?? NO_AGENTS;
  const add = (kind: number, patterns: readonly string[]): void => {
    for (const raw of patterns) {
      const pattern = patternOf(kind, raw.replace(/\\/g, '/').replace(/\/+$/, ''));
      if (pattern === undefined) continue;
      const names = pattern.glob.split('/');
      let key: string | undefined;
      for (let i = names.length - 1; i >= 0 && key === undefined; i--) {
        const name = names[i] as string;
        if (name !== '' && !GLOB.test(name)) key = name;
      }
      if (key === undefined) always.push(pattern);
      else {
        const list = byName.get(key);
        if (list === undefined) byName.set(key, [pattern]);
        else list.push(pattern);
      }
    }
  };
  add(AGENT_HOOKS, known.hooks);
  add(AGENT_FOLDER, known.folders);
  add(AGENT_SETTINGS, known.settings);
  add(AGENT_MEMORY, known.memory);
  add(AGENT_RULES, known.rules);
  add(AGENT_MCP, known.mcp);
  // a variable is looked up in capitals, as Windows does (elsewhere a wider net than the shell's)
  const variables = new Map(
    Object.entries(known.variables).map(([name, folder]) => [name.toUpperCase(), folder.replace(/\\/g, '/')]),
  );
  return { byName, always, variables };
}

function patternOf(kind: number, raw: string): Pattern | undefined {
  if (raw === '' || raw === '~') return undefined;
  if (raw.startsWith('/') || /^[A-Za-z]:\//.test(raw)) {
    return { kind, form: 'abs', glob: raw.charCodeAt(1) === 58 ? raw[0]?.toUpperCase() + raw.slice(1) : raw };
  }
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
export function agentKinds(n: PathNames, index: AgentIndex): number {
  let kinds = 0;
  let joined: string | undefined;
  let home: string | undefined;
  const test = (p: Pattern): void => {
    if ((kinds & p.kind) !== 0) return;
    let hit: boolean;
    if (p.form === 'abs') hit = n.abs !== '' && globMatch(p.glob, n.abs);
    else if (p.form === 'home') hit = n.homeRel !== undefined && globMatch(p.glob, (home ??= n.homeRel.join('/')));
    else hit = globMatch(p.glob, (joined ??= n.segs.join('/')));
    if (hit) kinds |= p.kind;
  };
  for (const p of index.always) test(p);
  if (index.byName.size === 0) return kinds;
  for (const seg of n.segs) {
    const patterns = index.byName.get(seg);
    if (patterns !== undefined) for (const p of patterns) test(p);
  }
  return kinds;
}

/**
 * The files and folders of guard's hook entries as absolute paths, for globs and listings to be
 * matched against: each plain (glob-free) hook pattern in this home, this project, or where it is.
 */
export function hookAnchors(agents: AgentKnowledge | undefined, home: string, project: string): string[] {
  const out: string[] = [];
  for (const raw of agents?.hooks ?? []) {
    const path = raw.replace(/\\/g, '/').replace(/\/\*\*$/, '');
    if (GLOB.test(path) || path === '') continue;
    if (path.startsWith('/') || /^[A-Za-z]:\//.test(path)) out.push(path);
    else if (path.startsWith('~/')) out.push(`${home}${path.slice(1)}`);
    else {
      const rel = path.replace(/^\*\*\//, '');
      if (GLOB.test(rel)) continue;
      out.push(`${home}/${rel}`, `${project}/${rel}`);
    }
  }
  return out;
}

/**
 * Names in code that stand for guard's hook files: the folders the hook patterns name
 * (`Path.home() / '.tool'`, `'.forge', 'hooks'` as separate words) and the variables that move them.
 */
export function hookNamesSource(agents: AgentKnowledge | undefined): string | undefined {
  if (agents === undefined) return undefined;
  const names = new Set<string>();
  const add = (raw: string, folder: boolean): void => {
    const path = raw.replace(/\\/g, '/');
    if (path.startsWith('/') || /^[A-Za-z]:\//.test(path) || path.startsWith('$')) return;
    const segs = path.replace(/^(?:~|\*\*)\//, '').split('/');
    // a file's folders, not its own name; a folder pattern (`dir/**`) is all folders
    if (segs[segs.length - 1] === '**') segs.pop();
    else if (!folder) segs.pop();
    const cut = segs.findIndex((seg) => GLOB.test(seg));
    const named = cut < 0 ? segs : segs.slice(0, cut);
    if (named.length > 0 && /^[._]/.test(named[0] as string))
      names.add(named.map(escape).join(String.raw`['"/\s,)]+\s*['"]?`) + String.raw`\b`);
  };
  for (const raw of agents.hooks) add(raw, false);
  for (const raw of agents.folders) add(raw, true);
  for (const variable of Object.keys(agents.variables)) names.add(String.raw`\b${escape(variable)}\b`);
  return names.size === 0 ? undefined : [...names].join('|');
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
