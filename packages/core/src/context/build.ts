/**
 * Builds a rule's view of one step (RuleContext, ./types.ts): the reader's invocations, the file
 * and network effects, keys in the text, and the answers several rules share (how a program reads
 * its words, the pipeline around a command, what a listing names, the scripts a step runs), each
 * worked out when first asked and kept on this context: nothing is kept between steps.
 */
import { looseEffects } from '../analysis/loose.js';
import { listedBy, stepEffects } from '../analysis/effects.js';
import { filesRunAsCode } from '../analysis/flow.js';
import type { KeyHit } from '../facts/keys.js';
import { findKeys } from '../facts/keys.js';
import type { PathContext, PathFacts } from '../facts/paths.js';
import { pathClassifier } from '../facts/paths.js';
import { readCommand } from '../shell/index.js';
import type { Assigned, Invocation, ReadResult } from '../shell/types.js';
import type { ToolStep } from '../types.js';
import { argvOf } from './argv.js';
import { pipelines, stagesOf } from './pipeline.js';
import { readChatCode } from './chat-code.js';
import { readScripts } from './scripts.js';
import type {
  Argv,
  ChatCode,
  Environment,
  FileEffect,
  NetEffect,
  Probe,
  RuleContext,
  Script,
  SessionView,
  Stage,
} from './types.js';

/** The text every span of a step indexes into. */
export function stepText(step: ToolStep): string {
  switch (step.kind) {
    case 'shell':
      return step.command;
    case 'write':
    case 'read':
      return step.path;
    case 'patch':
      return step.patch;
    case 'fetch':
      return step.url;
    case 'mcp':
    case 'other':
      return safeJson(step.args);
  }
}

/** The keys in the rest of an unknown tool's input (ToolStep.otherArgs), each over the whole step text. */
function restKeys(otherArgs: unknown, text: string): readonly KeyHit[] {
  return findKeys(safeJson(otherArgs)).map((key) => ({ kind: key.kind, span: [0, text.length] as const }));
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return '';
  }
}

/** A chat with no memory yet. */
export const FRESH_SESSION: SessionView = {
  createdFiles: new Set(),
  untrusted: false,
  injection: false,
  keySeen: false,
  poisonedServers: new Set(),
  failuresInARow: () => 0,
};

/** The probe of a step that was given none: nothing to wrap. */
const NO_PROBE: Probe = Object.freeze({});

/** Wraps a probe so that a member that throws answers "don't know". */
function safeProbe(probe: Probe): Probe {
  // most evaluations get no probe: skip building a wrapper per step
  if (probe === NO_PROBE) return probe;
  // member by member under their own names (docs/performance.md, "Field by field, not by spread")
  const wrapped: Probe = {};
  /* eslint-disable @typescript-eslint/unbound-method -- each is called with .call(probe, …) below */
  const {
    gitIgnored,
    gitUntracked,
    gitModified,
    gitUnchecked,
    gitBranch,
    readText,
    exists,
    realpath,
    projectPackages,
  } = probe;
  /* eslint-enable @typescript-eslint/unbound-method */
  if (typeof gitIgnored === 'function')
    wrapped.gitIgnored = (cwd, paths) => attempt(() => gitIgnored.call(probe, cwd, paths));
  if (typeof gitUntracked === 'function')
    wrapped.gitUntracked = (cwd, scope) => attempt(() => gitUntracked.call(probe, cwd, scope));
  if (typeof gitModified === 'function')
    wrapped.gitModified = (cwd, scope, wanted) => attempt(() => gitModified.call(probe, cwd, scope, wanted));
  // a probe that throws while saying whether it could check has not checked
  if (typeof gitUnchecked === 'function')
    wrapped.gitUnchecked = (cwd) => {
      try {
        return gitUnchecked.call(probe, cwd);
      } catch {
        return true;
      }
    };
  if (typeof gitBranch === 'function') wrapped.gitBranch = (cwd) => attempt(() => gitBranch.call(probe, cwd));
  if (typeof readText === 'function')
    wrapped.readText = (path, maxBytes) => attempt(() => readText.call(probe, path, maxBytes));
  if (typeof exists === 'function') wrapped.exists = (path) => attempt(() => exists.call(probe, path));
  if (typeof realpath === 'function') wrapped.realpath = (path) => attempt(() => realpath.call(probe, path));
  if (typeof projectPackages === 'function')
    wrapped.projectPackages = (projectRoot) => attempt(() => projectPackages.call(probe, projectRoot));
  return wrapped;
}

/** The answer, or undefined ("don't know") when asking throws. */
function attempt<T>(ask: () => T): T | undefined {
  try {
    return ask();
  } catch {
    return undefined;
  }
}

/** Builds everything the rules read about one step. */
export function buildContext(
  step: ToolStep,
  env: Environment,
  probe: Probe = NO_PROBE,
  session: SessionView = FRESH_SESSION,
  extraSecrets: readonly string[] = [],
): RuleContext {
  const read =
    step.kind === 'shell'
      ? readCommand(step.command, {
          cwd: step.cwd,
          home: env.home,
          tmp: env.tmp,
          ...(step.shell === undefined ? {} : { shell: step.shell }),
          ...(env.guardHome === undefined ? {} : { guardHome: env.guardHome }),
        })
      : undefined;
  return contextOf(step, env, read, safeProbe(probe), session, extraSecrets, true);
}

/** Reached through a program guard does not know, read as running its words (`mytool git push`). */
function throughUnknown(inv: Invocation): boolean {
  const via = inv.via;
  for (let v = 0; v < via.length; v++) if (via[v]?.guessed === true) return true;
  return false;
}

/**
 * The context of a step whose text is already read (`read`): a shell line, or a script's text
 * read through the reader's inline-code entry. `scripts` says whether the scripts it runs are read.
 */
function contextOf(
  step: ToolStep,
  env: Environment,
  read: ReadResult | undefined,
  probe: Probe,
  session: SessionView,
  extraSecrets: readonly string[],
  scripts: boolean,
  whole = false,
): RuleContext {
  return new StepContext(step, env, read, probe, session, extraSecrets, scripts, whole);
}

/**
 * One step's context. The shared answers are fields filled in when first asked (a class: every
 * context has one shape, and its methods are not made again for each step).
 */
class StepContext implements RuleContext {
  readonly text: string;
  readonly invocations: readonly Invocation[];
  readonly opaque: ReadResult['opaque'];
  readonly assigned: readonly Assigned[];
  readonly files: readonly FileEffect[];
  readonly net: readonly NetEffect[];
  readonly keys: RuleContext['keys'];
  readonly pathContext: PathContext;
  readonly path: (raw: string, cwd?: string) => PathFacts;
  readonly argv: (inv: Invocation) => Argv;
  private stageIndex: ReadonlyMap<number, readonly Stage[]> | undefined;
  private filesBy: Map<Invocation, FileEffect[]> | undefined;
  private netBy: Map<Invocation, NetEffect[]> | undefined;
  private listings: Map<Invocation, readonly PathFacts[] | null> | undefined;
  private scriptList: readonly Script[] | undefined;
  private chatCodeList: readonly ChatCode[] | undefined;
  /** The read with the commands run through programs guard does not know, when it has any. */
  private readonly guessedRead: ReadResult | undefined;
  private wider: RuleContext | undefined;
  private derived: Map<unknown, Map<Invocation, unknown>> | undefined;

  constructor(
    readonly step: ToolStep,
    private readonly env: Environment,
    read: ReadResult | undefined,
    readonly probe: Probe,
    readonly session: SessionView,
    private readonly extraSecrets: readonly string[],
    private readonly readsScripts: boolean,
    /** The invocations are taken as read, those reached through a program guard does not know too. */
    whole: boolean,
  ) {
    const text = stepText(step);
    const guardHome = env.guardHome;
    // the optional field last: a field after a spread is defined by a runtime call
    const pathContext: PathContext = {
      cwd: step.cwd,
      projectRoot: step.projectRoot,
      home: env.home,
      tmp: env.tmp,
      extraSecrets,
      ...(guardHome === undefined ? {} : { guardHome }),
      ...(env.guardCode === undefined ? {} : { guardCode: env.guardCode }),
      ...(env.agents === undefined ? {} : { agents: env.agents }),
    };
    const path = pathsOf(pathContext);
    const all = read?.invocations ?? NONE;
    // what programs guard does not know may run is judged apart (unknownRunners()), not as the step's own
    const invocations = whole || !all.some(throughUnknown) ? all : all.filter((inv) => !throughUnknown(inv));
    this.guessedRead = invocations === all ? undefined : read;
    const argv = readingsOf();
    const effects = stepEffects(step, text, invocations, path, argv);
    const net = effects.net;
    // files whose text runs as commands (`cat cmds.txt | sh`): run like scripts
    const files =
      step.kind === 'shell' ? [...effects.files, ...filesRunAsCode(invocations, effects.files)] : effects.files;
    const args = step.kind === 'mcp' || step.kind === 'other' ? step.args : step.otherArgs;
    const loose = args === undefined ? undefined : looseEffects(step, args, text, path);
    this.text = text;
    this.invocations = invocations;
    this.opaque = read?.opaque ?? NONE;
    this.assigned = read?.assigned ?? NONE;
    this.files = loose ? [...files, ...loose.files] : files;
    this.net = loose ? [...net, ...loose.net] : net;
    this.keys = step.otherArgs === undefined ? findKeys(text) : [...findKeys(text), ...restKeys(step.otherArgs, text)];
    this.pathContext = pathContext;
    this.path = path;
    this.argv = argv;
  }

  pipeline(inv: Invocation): readonly Stage[] {
    this.stageIndex ??= pipelines(this.invocations);
    return stagesOf(this.stageIndex, inv);
  }

  stageBefore(inv: Invocation): Stage | undefined {
    return inv.pipeline.index > 0 ? this.pipeline(inv)[inv.pipeline.index - 1] : undefined;
  }

  filesOf(inv: Invocation): readonly FileEffect[] {
    this.filesBy ??= byInvocation(this.files);
    return this.filesBy.get(inv) ?? NONE;
  }

  netOf(inv: Invocation): readonly NetEffect[] {
    this.netBy ??= byInvocation(this.net);
    return this.netBy.get(inv) ?? NONE;
  }

  listed(inv: Invocation): readonly PathFacts[] | undefined {
    this.listings ??= new Map();
    let known = this.listings.get(inv);
    if (known === undefined) {
      known = listedBy(inv, this.argv(inv), this.path) ?? null;
      this.listings.set(inv, known);
    }
    return known ?? undefined;
  }

  scripts(): readonly Script[] {
    if (!this.readsScripts) return NONE;
    this.scriptList ??= readScripts(this, (script, read) => {
      // a script as a step of its own: a fresh chat, the probe without file reads (one level deep)
      // eslint-disable-next-line @typescript-eslint/unbound-method -- taken out of the copy, never called
      const { readText: _notAgain, ...probe } = this.probe;
      return contextOf(script, this.env, read, probe, FRESH_SESSION, this.extraSecrets, false);
    });
    return this.scriptList;
  }

  chatCode(): readonly ChatCode[] {
    if (!this.readsScripts) return NONE;
    this.chatCodeList ??= readChatCode(this, (code, read) => {
      // code the outer step runs: the chat as it is, nothing read further but what the walk reads
      // eslint-disable-next-line @typescript-eslint/unbound-method -- taken out of the copy, never called
      const { readText: _notAgain, ...probe } = this.probe;
      return contextOf(code, this.env, read, probe, this.session, this.extraSecrets, false);
    });
    return this.chatCodeList;
  }

  unknownRunners(): RuleContext | undefined {
    const read = this.guessedRead;
    if (read === undefined) return undefined;
    this.wider ??= contextOf(this.step, this.env, read, this.probe, this.session, this.extraSecrets, false, true);
    return this.wider;
  }

  derive<T>(inv: Invocation, of: (inv: Invocation, context: RuleContext) => T): T {
    this.derived ??= new Map();
    let answers = this.derived.get(of);
    if (answers === undefined) this.derived.set(of, (answers = new Map<Invocation, unknown>()));
    if (answers.has(inv)) return answers.get(inv) as T;
    const answer = of(inv, this);
    answers.set(inv, answer);
    return answer;
  }
}

/**
 * Classifies the step's paths, each word once: from the step's own folder by the word alone, from
 * other folders (`cd x && …`) by folder and word (a joined key is a new string to hash on every look-up).
 */
function pathsOf(pathContext: PathContext): (raw: string, cwd?: string) => PathFacts {
  const classify = pathClassifier(pathContext);
  const own = pathContext.cwd;
  const cache = new Map<string, PathFacts>();
  let elsewhere: Map<string, PathFacts> | undefined;
  return (raw, cwd = own) => {
    const here = cwd === own;
    const key = here ? raw : `${cwd}\u0000${raw}`;
    const known = here ? cache : (elsewhere ??= new Map<string, PathFacts>());
    let facts = known.get(key);
    if (facts === undefined) {
      facts = classify(raw, cwd);
      known.set(key, facts);
    }
    return facts;
  };
}

/** How each program reads its words, read once per invocation: asked by the effects and by the rules. */
function readingsOf(): (inv: Invocation) => Argv {
  let readings: Map<Invocation, Argv> | undefined;
  return (inv) => {
    readings ??= new Map();
    let reading = readings.get(inv);
    if (reading === undefined) {
      reading = argvOf(inv);
      readings.set(inv, reading);
    }
    return reading;
  };
}

const NONE: readonly never[] = [];

function byInvocation<T extends { readonly invocation?: Invocation }>(effects: readonly T[]): Map<Invocation, T[]> {
  const map = new Map<Invocation, T[]>();
  for (let e = 0; e < effects.length; e++) {
    const effect = effects[e] as T;
    const inv = effect.invocation;
    if (inv === undefined) continue;
    let list = map.get(inv);
    if (list === undefined) map.set(inv, (list = []));
    list.push(effect);
  }
  return map;
}

export { looseStrings } from '../analysis/loose.js';
