import type { Invocation } from '../shell/types.js';
import type { Span } from '../types.js';
import type { Arg } from './args.js';
import { hasFlag, operands, withArgs } from './args.js';

/**
 * What a package-manager command installs: named packages and/or the project's own lists.
 * Shared by pkg.install and pkg.unlisted.
 */
export type Ecosystem = 'npm' | 'pypi' | 'crates' | 'go' | 'gems' | 'packagist' | 'nuget' | 'conda' | 'hex' | 'system';

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

const NPM_WITH_VALUE = new Set([
  '--prefix',
  '-w',
  '--workspace',
  '--registry',
  '--tag',
  '--omit',
  '--include',
  '--save-prefix',
  '--install-strategy',
  '--cache',
  '--userconfig',
  '--loglevel',
  '--before',
  '--cpu',
  '--os',
  '--libc',
]);
const PNPM_WITH_VALUE = new Set([
  '-C',
  '--dir',
  '--filter',
  '-F',
  '--workspace-dir',
  '--reporter',
  '--loglevel',
  '--store-dir',
  '--virtual-store-dir',
  '--registry',
]);
const YARN_WITH_VALUE = new Set([
  '--cwd',
  '--registry',
  '--network-timeout',
  '--modules-folder',
  '--cache-folder',
  '--mutex',
]);
const PIP_WITH_VALUE = new Set([
  '-r',
  '--requirement',
  '-c',
  '--constraint',
  '-e',
  '--editable',
  '-i',
  '--index-url',
  '--extra-index-url',
  '-f',
  '--find-links',
  '-t',
  '--target',
  '--prefix',
  '--root',
  '--python-version',
  '--platform',
  '--implementation',
  '--abi',
  '--no-binary',
  '--only-binary',
  '--progress-bar',
  '--log',
  '--proxy',
  '--retries',
  '--timeout',
  '--exists-action',
  '--trusted-host',
  '--cert',
  '--client-cert',
  '--cache-dir',
  '--src',
  '--upgrade-strategy',
  '--config-settings',
  '-C',
  '--global-option',
  '--report',
  '--python',
  '-p',
  '--group',
  '--extra',
  '--index',
  '--default-index',
  '--directory',
  '--project',
  '--package',
  '--with',
  '--from',
  '--optional',
  '--dev-group',
]);
const CARGO_WITH_VALUE = new Set([
  '-F',
  '--features',
  '-p',
  '--package',
  '--rename',
  '--path',
  '--git',
  '--branch',
  '--tag',
  '--rev',
  '--registry',
  '--manifest-path',
  '--target',
  '--version',
  '--vers',
  '--root',
  '--index',
  '-j',
  '--jobs',
  '--profile',
  '--target-dir',
]);
const GEM_WITH_VALUE = new Set([
  '-v',
  '--version',
  '-i',
  '--install-dir',
  '-n',
  '--bindir',
  '-s',
  '--source',
  '--platform',
  '-g',
  '--file',
]);
const COMPOSER_WITH_VALUE = new Set(['-d', '--working-dir']);
const DOTNET_WITH_VALUE = new Set([
  '-v',
  '--version',
  '-s',
  '--source',
  '-f',
  '--framework',
  '--package-directory',
  '--tool-path',
  '--configfile',
]);
const CONDA_WITH_VALUE = new Set(['-n', '--name', '-p', '--prefix', '-c', '--channel', '--file']);
// winget's `--id X` names the package, so `--id` is left out here and X stays an operand
const SYSTEM_WITH_VALUE = new Set([
  '-o',
  '--option',
  '-t',
  '--target-release',
  '--source',
  '-s',
  '--version',
  '-v',
  '--channel',
]);

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
const SYSTEM_MANAGERS = new Set([
  'brew',
  'apt',
  'apt-get',
  'dnf',
  'yum',
  'zypper',
  'apk',
  'choco',
  'winget',
  'scoop',
  'snap',
  'port',
]);
const SYSTEM_INSTALL = new Set(['install', 'reinstall', 'add', 'in']);
const PYTHON = /^(?:python(?:\d+(?:\.\d+)?)?|py)$/;
const PIP = /^pip(?:\d+(?:\.\d+)?)?$/;

// pkg.install and pkg.unlisted ask about the same invocations: an install is read once. Invocations
// that install nothing (most) are not kept: reading one again costs less than a WeakMap entry (an
// entry for a new object costs V8 more than the whole question does).
const installs = new WeakMap<Invocation, PackageInstall>();

/** The install an invocation performs, if it is a package-manager install. */
export function packageInstall(inv: Invocation): PackageInstall | undefined {
  const known = installs.get(inv);
  if (known !== undefined) return known;
  const install = readInstall(inv);
  if (install !== undefined) installs.set(inv, install);
  return install;
}

function readInstall(inv: Invocation): PackageInstall | undefined {
  const plan = planOf(inv);
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

function planOf(inv: Invocation): Plan | undefined {
  const name = inv.name;
  if (PYTHON.test(name) && inv.args[0] === '-m' && PIP.test(inv.args[1] ?? ''))
    return pipPlan('pip', shifted(inv, 2), false);
  if (PIP.test(name)) return pipPlan(name, inv, false);
  if (SYSTEM_MANAGERS.has(name) || name === 'pacman') return systemPlan(inv);
  switch (name) {
    case 'npm':
      return nodePlan(inv, NPM_WITH_VALUE, (sub) =>
        NPM_PROJECT.has(sub) ? 'project' : NPM_INSTALL.has(sub) ? (sub === 'add' ? 'add' : 'install') : undefined,
      );
    case 'pnpm':
      return nodePlan(inv, PNPM_WITH_VALUE, (sub) =>
        sub === 'add'
          ? 'add'
          : sub === 'install' || sub === 'i' || sub === 'update' || sub === 'up' || sub === 'upgrade'
            ? 'install'
            : sub === 'install-test' || sub === 'it' || sub === 'fetch'
              ? 'project'
              : undefined,
      );
    case 'bun':
      return nodePlan(inv, NPM_WITH_VALUE, (sub) =>
        sub === 'add' || sub === 'a'
          ? 'add'
          : sub === 'install' || sub === 'i' || sub === 'update'
            ? 'install'
            : undefined,
      );
    case 'deno':
      return nodePlan(inv, NPM_WITH_VALUE, (sub) =>
        sub === 'add' ? 'add' : sub === 'install' || sub === 'i' ? 'install' : undefined,
      );
    case 'yarn':
      return yarnPlan(inv);
    case 'uv':
      return uvPlan(inv);
    case 'poetry':
    case 'pdm':
    case 'pipenv':
    case 'rye':
      return subPlan(inv, 'pypi', PIP_WITH_VALUE, {
        add: 'add',
        install: 'install',
        sync: 'project',
        update: 'install',
      });
    case 'pipx':
      return subPlan(inv, 'pypi', PIP_WITH_VALUE, { install: 'add' }, true);
    case 'conda':
    case 'mamba':
    case 'micromamba':
      return subPlan(inv, 'conda', CONDA_WITH_VALUE, { install: 'add' });
    case 'cargo':
      return subPlan(
        inv,
        'crates',
        CARGO_WITH_VALUE,
        { add: 'add', install: 'add' },
        operands(inv, CARGO_WITH_VALUE)[0]?.value === 'install',
      );
    case 'go':
      return goPlan(inv);
    case 'gem':
      return subPlan(inv, 'gems', GEM_WITH_VALUE, { install: 'add' }, true);
    case 'bundle':
    case 'bundler':
      return subPlan(inv, 'gems', GEM_WITH_VALUE, { install: 'project', add: 'add', update: 'install' }, false, true);
    case 'composer':
      return composerPlan(inv);
    case 'mix':
      // Elixir: `mix deps.get` fetches what mix.exs lists; `mix deps.update NAME…` newer versions of those
      return subPlan(inv, 'hex', NO_VALUES, { 'deps.get': 'project', 'deps.update': 'install' });
    case 'dotnet':
      return dotnetPlan(inv);
    default:
      return undefined;
  }
}

/** The invocation with its first `count` arguments dropped (`python -m pip …` → `pip …`). */
function shifted(inv: Invocation, count: number): Invocation {
  return withArgs(inv, inv.args.slice(count), inv.argSpans.slice(count));
}

function isGlobal(inv: Invocation): boolean {
  return hasFlag(inv, 'g', ['--global', '--location=global']);
}

function nodePlan(
  inv: Invocation,
  withValue: ReadonlySet<string>,
  modeOf: (sub: string) => Mode | undefined,
): Plan | undefined {
  const [sub, ...words] = operands(inv, withValue);
  const mode = sub ? modeOf(sub.value) : undefined;
  if (!sub || !mode) return undefined;
  return { manager: inv.name, ecosystem: 'npm', mode, words, global: isGlobal(inv) };
}

function yarnPlan(inv: Invocation): Plan | undefined {
  const ops = operands(inv, YARN_WITH_VALUE);
  // field by field, not `{ ...base, … }` (which gives each plan a V8 map of its own)
  const plan = (mode: Mode, words: Arg[], global: boolean): Plan => ({
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

function pipPlan(manager: string, inv: Invocation, global: boolean): Plan | undefined {
  const [sub, ...words] = operands(inv, PIP_WITH_VALUE);
  if (sub?.value !== 'install' && sub?.value !== 'sync') return undefined;
  if (sub.value === 'sync') return { manager, ecosystem: 'pypi', mode: 'project', words: [], global };
  const lists = inv.args.some((a) => /^(-r|--requirement|-e|--editable)(=|$)/.test(a) || /^-r./.test(a));
  const editable = editableSpecs(inv);
  return {
    manager,
    ecosystem: 'pypi',
    mode: 'add',
    words: [...words.filter((w) => w.value !== '@'), ...editable],
    global,
    lists,
  };
}

/** `pip install -e git+https://…` names a package; `-e .` is the project's own folder. */
function editableSpecs(inv: Invocation): Arg[] {
  const out: Arg[] = [];
  for (let i = 0; i < inv.args.length - 1; i++) {
    if (inv.args[i] !== '-e' && inv.args[i] !== '--editable') continue;
    const value = inv.args[i + 1] ?? '';
    if (/^[a-z+]+:\/\//i.test(value)) out.push({ value, index: i + 1, span: inv.argSpans[i + 1] ?? inv.span });
  }
  return out;
}

function uvPlan(inv: Invocation): Plan | undefined {
  const [sub, next] = operands(inv, PIP_WITH_VALUE);
  if (sub?.value === 'pip') return pipPlan('uv', shifted(inv, sub.index + 1), false);
  if (sub?.value === 'tool' && next?.value === 'install') {
    const words = operands(shifted(inv, next.index + 1), PIP_WITH_VALUE);
    return { manager: 'uv', ecosystem: 'pypi', mode: 'add', words, global: true };
  }
  return subPlan(inv, 'pypi', PIP_WITH_VALUE, { add: 'add', sync: 'project' });
}

function goPlan(inv: Invocation): Plan | undefined {
  const [sub, ...words] = operands(inv, new Set(['-C', '-modfile', '-o', '-tags', '-ldflags', '-gcflags']));
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

function composerPlan(inv: Invocation): Plan | undefined {
  const ops = operands(inv, COMPOSER_WITH_VALUE);
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

function dotnetPlan(inv: Invocation): Plan | undefined {
  const ops = operands(inv, DOTNET_WITH_VALUE);
  const [sub, second, third, fourth] = ops;
  if (sub?.value === 'restore')
    return { manager: 'dotnet', ecosystem: 'nuget', mode: 'project', words: [], global: false };
  if (sub?.value === 'add') {
    // `dotnet add package X` or `dotnet add app.csproj package X`
    const name = second?.value === 'package' ? third : third?.value === 'package' ? fourth : undefined;
    return name ? { manager: 'dotnet', ecosystem: 'nuget', mode: 'add', words: [name], global: false } : undefined;
  }
  if (sub?.value === 'tool' && second?.value === 'install' && third)
    return { manager: 'dotnet', ecosystem: 'nuget', mode: 'add', words: [third], global: isGlobal(inv) };
  return undefined;
}

function systemPlan(inv: Invocation): Plan | undefined {
  const ops = operands(inv, SYSTEM_WITH_VALUE);
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

const NO_VALUES: ReadonlySet<string> = new Set();

/** Managers of the form `<tool> <sub> [names…]`. */
function subPlan(
  inv: Invocation,
  ecosystem: Ecosystem,
  withValue: ReadonlySet<string>,
  subs: Readonly<Record<string, Mode | undefined>>,
  global = false,
  bareInstalls = false,
): Plan | undefined {
  const [sub, ...words] = operands(inv, withValue);
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
