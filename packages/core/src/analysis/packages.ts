import { argvAs } from '../context/argv.js';
import type { Arg, Argv, RuleContext } from '../context/types.js';
import type { Ecosystem } from '../programs/index.js';
import { entryName, isA, program } from '../programs/index.js';
import type { Invocation } from '../shell/types.js';
import type { Span } from '../types.js';

/**
 * What a package-manager command installs: named packages and/or the project's own lists.
 * Shared by pkg.install and pkg.unlisted.
 */
export type { Ecosystem } from '../programs/index.js';

export interface NamedPackage {
  /** The package name without version or extras (`lodash@4` → `lodash`, `requests[socks]==2` → `requests`). */
  readonly name: string;
  /** As written. */
  readonly spec: string;
  readonly span: Span;
}

export interface PackageInstall {
  readonly manager: string;
  readonly ecosystem: Ecosystem;
  /** Packages named on the line (not the project's own folders or archives). */
  readonly packages: readonly NamedPackage[];
  /** Installs what the project lists (`npm install`, `pip install -r`, `uv sync`, a local folder). */
  readonly project: boolean;
  /** Installed for the user or the system rather than the project (`npm i -g`, `cargo install`, `brew`). */
  readonly global: boolean;
}

type Mode = 'add' | 'install' | 'project';

interface Plan {
  readonly manager: string;
  readonly ecosystem: Ecosystem;
  readonly mode: Mode;
  /** The operands after the subcommand: package specs (and, for pip, what `-r`/`-e` name). */
  readonly words: readonly Arg[];
  readonly global: boolean;
  /** pip: requirement files or editable folders were given. */
  readonly lists?: boolean;
}

const NPM_INSTALL = new Set([
  'install',
  'i',
  'in',
  'ins',
  'inst',
  'insta',
  'instal',
  'isnt',
  'isnta',
  'isntal',
  'isntall',
  'add',
  'update',
  'up',
  'upgrade',
  'udpate',
]);
const NPM_PROJECT = new Set([
  'ci',
  'clean-install',
  'ic',
  'install-clean',
  'isntall-clean',
  'install-test',
  'it',
  'install-ci-test',
  'cit',
]);
const SYSTEM_INSTALL = new Set(['install', 'reinstall', 'add', 'in']);
/** python under any of its names (`python3.12`, `py`). */
function isPython(name: string): boolean {
  const found = program(name);
  return found !== undefined && entryName(found) === 'python';
}

/** `pip3.11`: pip under a versioned name. */
const PIP = /^pip(?:\d+(?:\.\d+)?)?$/;

/**
 * The install an invocation performs, if it is a package-manager install. pkg.install and
 * pkg.unlisted ask about the same invocations, so an install is read once per step (`derive`); the
 * many programs that install nothing are answered without keeping anything.
 */
export function packageInstall(inv: Invocation, context: RuleContext): PackageInstall | undefined {
  if (!isA(inv.name, 'package-manager') && !isPython(inv.name)) return undefined;
  return context.derive(inv, readInstall);
}

function readInstall(inv: Invocation, context: RuleContext): PackageInstall | undefined {
  const plan = planOf(inv, context.argv(inv));
  if (!plan) return undefined;
  const packages: NamedPackage[] = [];
  let project = plan.mode === 'project' || plan.lists === true;
  if (plan.mode !== 'project') {
    for (const word of plan.words) {
      const name = packageName(plan.ecosystem, word.value);
      if (name === undefined) project = true;
      else if (name !== '') packages.push({ name, spec: word.value, span: word.span });
    }
    if (plan.mode === 'install' && plan.words.length === 0) project = true;
  }
  if (!project && packages.length === 0) return undefined;
  return { manager: plan.manager, ecosystem: plan.ecosystem, packages, project, global: plan.global };
}

function planOf(inv: Invocation, argv: Argv): Plan | undefined {
  const name = inv.name;
  const found = argv.program;
  if (found !== undefined && entryName(found) === 'python' && inv.args[0] === '-m' && PIP.test(inv.args[1] ?? ''))
    return pipPlan('pip', argvAs(inv, 'pip', 2), false);
  if (found !== undefined && entryName(found) === 'pip') return pipPlan(name, argv, false);
  if (found?.ecosystem === 'system') return systemPlan(inv, argv);
  switch (name) {
    case 'npm':
      return nodePlan(inv, argv, (sub) =>
        NPM_PROJECT.has(sub) ? 'project' : NPM_INSTALL.has(sub) ? (sub === 'add' ? 'add' : 'install') : undefined,
      );
    case 'pnpm':
      return nodePlan(inv, argv, (sub) =>
        sub === 'add'
          ? 'add'
          : sub === 'install' || sub === 'i' || sub === 'update' || sub === 'up' || sub === 'upgrade'
            ? 'install'
            : sub === 'install-test' || sub === 'it' || sub === 'fetch'
              ? 'project'
              : undefined,
      );
    case 'bun':
      return nodePlan(inv, argv, (sub) =>
        sub === 'add' || sub === 'a'
          ? 'add'
          : sub === 'install' || sub === 'i' || sub === 'update'
            ? 'install'
            : undefined,
      );
    case 'deno':
      return nodePlan(inv, argv, (sub) =>
        sub === 'add' ? 'add' : sub === 'install' || sub === 'i' ? 'install' : undefined,
      );
    case 'yarn':
      return yarnPlan(inv, argv);
    case 'uv':
      return uvPlan(inv, argv);
    case 'poetry':
    case 'pdm':
    case 'pipenv':
    case 'rye':
      return subPlan(inv, argv, 'pypi', {
        add: 'add',
        install: 'install',
        sync: 'project',
        update: 'install',
      });
    case 'pipx':
      return subPlan(inv, argv, 'pypi', { install: 'add' }, true);
    case 'conda':
    case 'mamba':
    case 'micromamba':
      return subPlan(inv, argv, 'conda', { install: 'add' });
    case 'cargo':
      return subPlan(inv, argv, 'crates', { add: 'add', install: 'add' }, argv.operands[0]?.value === 'install');
    case 'go':
      return goPlan(argv);
    case 'gem':
      return subPlan(inv, argv, 'gems', { install: 'add' }, true);
    case 'bundle':
    case 'bundler':
      return subPlan(inv, argv, 'gems', { install: 'project', add: 'add', update: 'install' }, false, true);
    case 'composer':
      return composerPlan(argv);
    case 'mix':
      // Elixir: `mix deps.get` fetches what mix.exs lists; `mix deps.update NAME…` newer versions of those
      return subPlan(inv, argv, 'hex', { 'deps.get': 'project', 'deps.update': 'install' });
    case 'dotnet':
      return dotnetPlan(argv);
    default:
      return undefined;
  }
}

/** `-g`, `--global`, `--location=global`: before or after the subcommand. */
function isGlobal(argv: Argv): boolean {
  const global = (reading: Argv): boolean =>
    reading.has('-g', '--global') || reading.values('--location').some((arg) => arg.value === 'global');
  return global(argv) || (argv.sub !== undefined && global(argv.sub));
}

/**
 * `npm|pnpm|bun|deno <sub> [names…]`: the subcommand and the operands after it (read with the
 * subcommand's options: `bun add -D x`).
 */
function nodePlan(inv: Invocation, argv: Argv, modeOf: (sub: string) => Mode | undefined): Plan | undefined {
  const sub = argv.sub;
  const mode = sub ? modeOf(sub.name) : undefined;
  if (!sub || !mode) return undefined;
  return { manager: inv.name, ecosystem: 'npm', mode, words: sub.operands, global: isGlobal(argv) };
}

function yarnPlan(inv: Invocation, argv: Argv): Plan | undefined {
  const ops = argv.operands;
  // field by field (docs/performance.md, "Field by field, not by spread")
  const plan = (mode: Mode, words: readonly Arg[], global: boolean): Plan => ({
    manager: 'yarn',
    ecosystem: 'npm',
    global,
    mode,
    words,
  });
  // a bare `yarn` installs the project's lists; `yarn --version` does not
  if (ops.length === 0)
    return inv.args.some((a) => /^(-v|--version|-h|--help)$/.test(a)) ? undefined : plan('project', [], false);
  let [sub, ...words] = ops;
  let global = false;
  if (sub?.value === 'global') {
    global = true;
    [sub, ...words] = words;
  } else if (sub?.value === 'workspace') {
    // `yarn workspace <name> add x`: the workspace name is not a package
    [, sub, ...words] = words;
  }
  switch (sub?.value) {
    case 'add':
      return plan('add', words, global);
    case 'install':
    case 'up':
    case 'upgrade':
      return plan('install', words, global);
    default:
      return undefined;
  }
}

function pipPlan(manager: string, argv: Argv, global: boolean): Plan | undefined {
  const [sub, ...words] = argv.operands;
  if (sub?.value !== 'install' && sub?.value !== 'sync') return undefined;
  if (sub.value === 'sync') return { manager, ecosystem: 'pypi', mode: 'project', words: [], global };
  const lists = argv.words.some((a) => /^(-r|--requirement|-e|--editable)(=|$)/.test(a.value) || /^-r./.test(a.value));
  return {
    manager,
    ecosystem: 'pypi',
    mode: 'add',
    words: [...words.filter((w) => w.value !== '@'), ...editableSpecs(argv)],
    global,
    lists,
  };
}

/** `pip install -e git+https://…` names a package; `-e .` is the project's own folder. */
function editableSpecs(argv: Argv): Arg[] {
  return argv.values('-e', '--editable').filter((arg) => /^[a-z+]+:\/\//i.test(arg.value));
}

function uvPlan(inv: Invocation, argv: Argv): Plan | undefined {
  const [sub, next] = argv.operands;
  if (sub?.value === 'pip') return pipPlan('uv', argvAs(inv, 'pip', sub.index + 1), false);
  if (sub?.value === 'tool' && next?.value === 'install') {
    const words = argvAs(inv, 'pip', next.index + 1).operands;
    return { manager: 'uv', ecosystem: 'pypi', mode: 'add', words, global: true };
  }
  return subPlan(inv, argv, 'pypi', { add: 'add', sync: 'project' });
}

function goPlan(argv: Argv): Plan | undefined {
  const [sub, ...words] = argv.operands;
  if (sub?.value === 'mod')
    return words[0]?.value === 'download'
      ? { manager: 'go', ecosystem: 'go', mode: 'project', words: [], global: false }
      : undefined;
  if (sub?.value === 'get') return { manager: 'go', ecosystem: 'go', mode: 'install', words, global: false };
  // `go install` builds the module in hand; only `go install x@v` fetches one
  if (sub?.value === 'install')
    return {
      manager: 'go',
      ecosystem: 'go',
      mode: 'add',
      words: words.filter((w) => w.value.includes('@')),
      global: true,
    };
  return undefined;
}

function composerPlan(argv: Argv): Plan | undefined {
  const ops = argv.operands;
  const global = ops[0]?.value === 'global';
  const [sub, ...words] = global ? ops.slice(1) : ops;
  const mode: Mode | undefined =
    sub?.value === 'require'
      ? 'add'
      : sub?.value === 'install' || sub?.value === 'i'
        ? 'project'
        : sub?.value === 'update'
          ? 'install'
          : undefined;
  return mode ? { manager: 'composer', ecosystem: 'packagist', mode, words, global } : undefined;
}

function dotnetPlan(argv: Argv): Plan | undefined {
  const [sub, second, third, fourth] = argv.operands;
  if (sub?.value === 'restore')
    return { manager: 'dotnet', ecosystem: 'nuget', mode: 'project', words: [], global: false };
  if (sub?.value === 'add') {
    // `dotnet add package X` or `dotnet add app.csproj package X`
    const name = second?.value === 'package' ? third : third?.value === 'package' ? fourth : undefined;
    return name ? { manager: 'dotnet', ecosystem: 'nuget', mode: 'add', words: [name], global: false } : undefined;
  }
  if (sub?.value === 'tool' && second?.value === 'install' && third)
    return { manager: 'dotnet', ecosystem: 'nuget', mode: 'add', words: [third], global: isGlobal(argv) };
  return undefined;
}

function systemPlan(inv: Invocation, argv: Argv): Plan | undefined {
  const ops = argv.operands;
  if (inv.name === 'pacman') {
    // `pacman -S x`; `-Syu` alone upgrades the system and names nothing
    const sync = inv.args.some((a) => /^-S[a-z]*$/.test(a) && !/[sicgpl]/.test(a.slice(2)));
    return sync && ops.length > 0
      ? { manager: 'pacman', ecosystem: 'system', mode: 'add', words: ops, global: true }
      : undefined;
  }
  const [sub, ...words] = ops;
  if (!sub || !SYSTEM_INSTALL.has(sub.value) || words.length === 0) return undefined;
  return { manager: inv.name, ecosystem: 'system', mode: 'add', words, global: true };
}

/** Managers of the form `<tool> <sub> [names…]`. */
function subPlan(
  inv: Invocation,
  argv: Argv,
  ecosystem: Ecosystem,
  subs: Readonly<Record<string, Mode | undefined>>,
  global = false,
  bareInstalls = false,
): Plan | undefined {
  const [sub, ...words] = argv.operands;
  if (!sub)
    return bareInstalls && !inv.args.some((a) => /^(-v|--version|-h|--help)$/.test(a))
      ? { manager: inv.name, ecosystem, mode: 'project', words: [], global }
      : undefined;
  const mode = Object.hasOwn(subs, sub.value) ? subs[sub.value] : undefined;
  return mode ? { manager: inv.name, ecosystem, mode, words, global } : undefined;
}

// Versions and extras after the name, per ecosystem.
const NPM_NAME = /^(@[^/@\s]+\/[^@\s]+|[^@\s]+)/;
const PYPI_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*/;
const LOCAL =
  /^(?:\.{1,2}(?:[\\/]|$)|[\\/~]|file:|link:|workspace:|portal:)|\.(?:tgz|tar\.gz|whl|zip|gem|deb|rpm|nupkg)$/i;
const REMOTE = /^(?:[a-z+]+:\/\/|git\+|git@|github:|gitlab:|bitbucket:|gist:)/i;

/**
 * The package a spec names: its name without version; `''` when the word is no package (an
 * option value slipped through); undefined for the project's own folder or archive (`.`, `./lib`,
 * `../x.tgz`), which installs what the project already holds.
 */
export function packageName(ecosystem: Ecosystem, spec: string): string | undefined {
  if (LOCAL.test(spec)) return undefined;
  if (REMOTE.test(spec)) return spec;
  switch (ecosystem) {
    case 'npm': {
      // `alias@npm:real@1` installs `real`; Deno's `npm:x` and `jsr:@scope/x` name a registry first
      const real = spec.replace(/^[^@\s]+@npm:/, '').replace(/^npm:/, '');
      const jsr = real.startsWith('jsr:') ? 'jsr:' : '';
      const name = NPM_NAME.exec(real.slice(jsr.length))?.[1];
      return name === undefined ? '' : jsr + name;
    }
    case 'pypi':
      return normalisePypi(PYPI_NAME.exec(spec)?.[0] ?? '');
    case 'crates':
    case 'go':
      return spec.split('@')[0] ?? '';
    case 'packagist':
      return (spec.split(/[:=\s]/)[0] ?? '').toLowerCase();
    case 'gems':
    case 'nuget':
    case 'conda':
    case 'hex':
      return (spec.split(/[=<>@\s]/)[0] ?? '').toLowerCase();
    case 'system':
      return spec.split('=')[0] ?? '';
  }
}

/** PEP 503 names: case and runs of `-`, `_`, `.` do not matter. */
export function normalisePypi(name: string): string {
  return name.replace(/[-_.]+/g, '-').toLowerCase();
}
