import type { Ecosystem, NamedPackage } from '../analysis/packages.js';
import { normalisePypi, packageInstall } from '../analysis/packages.js';
import type { Hit, Rule } from '../rule.js';

/** Ecosystems whose packages a project lists (package.json, pyproject.toml, Cargo.toml, go.mod, …). */
const LISTED: ReadonlySet<Ecosystem> = new Set(['npm', 'pypi', 'crates', 'go', 'gems', 'packagist', 'nuget']);

/** Installer tooling that no project lists as a dependency (`pip install -U pip setuptools wheel`). */
const TOOLING: ReadonlySet<string> = new Set(['pip', 'setuptools', 'wheel']);

export const pkgUnlisted = {
  meta: {
    id: 'pkg.unlisted',
    decision: 'ask',
    remember: 'every-time',
    concern: 'rules-or-machine',
    title: 'a package the project does not list',
    reason:
      'This package is not among the ones the project lists, and a look-alike name can carry malware that runs as soon as it is installed; check the spelling and the publisher before saying yes.',
    owasp: ['LLM03:2025', 'ASI04'],
    examples: {
      match: [
        { step: 'npm install lodahs', probe: { packages: ['lodash', 'react'] }, note: 'a typo of a listed package' },
        { step: 'pip install reqeusts', probe: { packages: ['requests'] } },
        { step: 'pnpm add left-pad', probe: { packages: ['react'] } },
      ],
      noMatch: [
        { step: 'npm install lodash@4', probe: { packages: ['lodash', 'react'] } },
        { step: 'pip install Django==5.0', probe: { packages: ['django'] } },
        { step: 'npm install', probe: { packages: ['react'] }, note: 'installs the lists themselves' },
        { step: 'npm install left-pad', note: 'a folder with no list is not judged' },
      ],
    },
  },
  check(context) {
    const hits: Hit[] = [];
    let listed: ReadonlySet<string> | undefined | null = null;
    for (const inv of context.invocations) {
      const install = packageInstall(inv, context);
      // global tools (`npm i -g`, `cargo install`) are not the project's packages, and pkg.install names them
      if (!install || install.global || !LISTED.has(install.ecosystem) || install.packages.length === 0) continue;
      if (listed === null) listed = normalised(context.probe.projectPackages?.(context.pathContext.projectRoot));
      if (listed === undefined) return hits;
      for (const pkg of install.packages) {
        if (!isListed(install.ecosystem, pkg, listed)) hits.push({ span: pkg.span, detail: pkg.name });
      }
    }
    return hits;
  },
} as const satisfies Rule;

/** The lists as compared: lower-case, and in PEP 503 form for Python names. */
function normalised(names: ReadonlySet<string> | undefined): ReadonlySet<string> | undefined {
  return names && new Set([...names].flatMap((name) => [name.toLowerCase(), normalisePypi(name)]));
}

function isListed(ecosystem: Ecosystem, pkg: NamedPackage, listed: ReadonlySet<string>): boolean {
  const name = ecosystem === 'pypi' ? normalisePypi(pkg.name) : pkg.name.toLowerCase();
  if (ecosystem === 'pypi' && TOOLING.has(name)) return true;
  if (listed.has(name)) return true;
  // Go: a package inside a listed module (`github.com/x/y/sub` of `github.com/x/y`)
  if (ecosystem === 'go') for (const module of listed) if (name.startsWith(`${module}/`)) return true;
  return false;
}
