/**
 * Facts about a URL or host: which host a network step reaches, and whether that host is this
 * machine (loopback), a well-known look-up site (docs, package registries' sites, GitHub, Q&A), or
 * anything else.
 */

export type HostClass = 'loopback' | 'lookup' | 'other';

export interface UrlFacts {
  readonly raw: string;
  /** Lower-case scheme; `ssh` for the `user@host:path` form. */
  readonly scheme: string;
  /** Lower-case host without brackets or a trailing dot. */
  readonly host: string;
  readonly port?: string;
  readonly hostClass: HostClass;
  /** The URL carries a user name and password (`https://user:pass@host`). */
  readonly hasPassword?: boolean;
  /**
   * The host as a person should be shown it, when it was written with other characters than
   * plain ASCII (`github．com` with a full-width dot, `gіthub.com` with a Cyrillic `і`): the name
   * as written, the characters that are not plain, and the punycode DNS is asked for.
   */
  readonly shown?: string;
}

export interface UrlOptions {
  /** Also read `host:path` (scp and rsync targets) without a user name. */
  readonly scpLike?: boolean;
  /** Also read a bare `host[:port][/path]` (curl and wget accept one). */
  readonly bare?: boolean;
}

const SCHEME = /^([A-Za-z][A-Za-z0-9+.-]{0,31}):\/\//;
// scp form: [user@]host:path, where the part before the colon holds no `/`.
const SCP = /^(?:([^@/\s]+)@)?(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?):(?!\/\/)/;
const HOST_CHARS = /^[a-z0-9._~%!$&'()*+,;={}-]+$/;

/** Reads a URL (scheme://…, `user@host:path`, and with options scp or bare forms); undefined when it is none. */
export function urlFacts(raw: string, options: UrlOptions = {}): UrlFacts | undefined {
  const text = raw.trim();
  const scheme = SCHEME.exec(text);
  if (scheme) {
    const name = (scheme[1] as string).toLowerCase();
    if (name === 'file') return undefined;
    return fromAuthority(raw, name, authorityOf(text.slice(scheme[0].length)));
  }
  const scp = SCP.exec(text);
  if (scp && (scp[1] !== undefined || options.scpLike === true)) {
    const host = scp[2] as string;
    // `C:\x` is a Windows path, not a one-letter host
    if (host.length < 2) return undefined;
    return fromAuthority(raw, 'ssh', host);
  }
  if (options.bare === true && text !== '' && !text.startsWith('/') && !text.startsWith('.')) {
    return fromAuthority(raw, 'http', authorityOf(text));
  }
  return undefined;
}

// The authority ends at the first `/`, `?`, `#` or `\` (browsers read `\` as `/`).
function authorityOf(rest: string): string {
  const end = rest.search(/[/?#\\]/);
  return end < 0 ? rest : rest.slice(0, end);
}

function fromAuthority(raw: string, scheme: string, authority: string): UrlFacts | undefined {
  const at = authority.lastIndexOf('@');
  const userinfo = at < 0 ? '' : authority.slice(0, at);
  let hostPort = authority.slice(at + 1);
  let port: string | undefined;
  let host: string;
  if (hostPort.startsWith('[')) {
    const close = hostPort.indexOf(']');
    if (close < 0) return undefined;
    host = hostPort.slice(1, close);
    const after = hostPort.slice(close + 1);
    if (after.startsWith(':') && /^\d+$/.test(after.slice(1))) port = after.slice(1);
  } else {
    const colon = hostPort.lastIndexOf(':');
    if (colon >= 0 && /^\d*$/.test(hostPort.slice(colon + 1))) {
      if (colon < hostPort.length - 1) port = hostPort.slice(colon + 1);
      hostPort = hostPort.slice(0, colon);
    }
    host = hostPort;
  }
  host = host.toLowerCase().replace(/\.$/, '');
  // a name written with letters of other scripts or full-width dots (`gіthub.com` with a Cyrillic
  // `і`, `github．com`): the name DNS is asked for, and never a well-known site
  let shown: string | undefined;
  if (/[^\x00-\x7f]/.test(host)) {
    const ascii = asciiHost(host);
    if (ascii === undefined) return undefined;
    shown = showHost(host, ascii);
    host = ascii;
  }
  if (host === '' || !(HOST_CHARS.test(host) || /^[0-9a-f:.]+$/.test(host))) return undefined;
  return {
    raw,
    scheme,
    host,
    ...(port !== undefined && { port }),
    hostClass: shown !== undefined ? 'other' : classifyHost(host),
    ...(userinfo.includes(':') && { hasPassword: true }),
    ...(shown !== undefined && { shown }),
  };
}

/** `github．com, not plain ASCII: U+FF0E`; `gіthub.com, not plain ASCII: U+0456, looked up as xn--gthub-n2e.com`. */
function showHost(written: string, ascii: string): string {
  const odd = [...new Set(written.match(/[^\x00-\x7f]/gu))]
    .slice(0, 4)
    .map((c) => `U+${(c.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`);
  const lookedUp = ascii.includes('xn--') ? `, looked up as ${ascii}` : '';
  return `${written.slice(0, 100)}, not plain ASCII: ${odd.join(' ')}${lookedUp}`;
}

/** The ASCII (punycode) form of a host name written with other characters, as a resolver asks for it. */
function asciiHost(host: string): string | undefined {
  try {
    const ascii = new URL(`http://${host.replace(/[\u3002\uff0e\uff61]/g, '.')}`).hostname;
    return ascii === '' ? undefined : ascii;
  } catch {
    return undefined;
  }
}

// ---------------------------------------------------------------------------------------------

// Sites an agent looks things up on: language and API docs, package registries' sites, GitHub,
// Read the Docs, MDN, Q&A. A `*.` entry also covers every subdomain; others match exactly.
const LOOKUP_SITES: readonly string[] = [
  // Python
  'python.org',
  'www.python.org',
  'docs.python.org',
  'peps.python.org',
  'pypi.org',
  'files.pythonhosted.org',
  // JavaScript and TypeScript
  'npmjs.com',
  'www.npmjs.com',
  'docs.npmjs.com',
  'registry.npmjs.org',
  'registry.yarnpkg.com',
  'yarnpkg.com',
  'pnpm.io',
  'nodejs.org',
  'developer.mozilla.org',
  'typescriptlang.org',
  'www.typescriptlang.org',
  'jsr.io',
  'deno.land',
  'docs.deno.com',
  'bun.sh',
  'unpkg.com',
  'cdn.jsdelivr.net',
  // GitHub
  'github.com',
  'www.github.com',
  'api.github.com',
  'docs.github.com',
  'raw.githubusercontent.com',
  'codeload.github.com',
  'objects.githubusercontent.com',
  // Read the Docs
  'readthedocs.org',
  '*.readthedocs.io',
  '*.readthedocs.org',
  // Q&A
  'stackoverflow.com',
  '*.stackexchange.com',
  'superuser.com',
  'serverfault.com',
  'askubuntu.com',
  // Rust
  'crates.io',
  'static.crates.io',
  'index.crates.io',
  'docs.rs',
  'doc.rust-lang.org',
  'rust-lang.org',
  'www.rust-lang.org',
  // Go
  'go.dev',
  'pkg.go.dev',
  'proxy.golang.org',
  'sum.golang.org',
  'golang.org',
  // Ruby, PHP, .NET, Elixir, JVM, Dart, R, Perl
  'rubygems.org',
  'ruby-doc.org',
  'docs.ruby-lang.org',
  'packagist.org',
  'repo.packagist.org',
  'php.net',
  'www.php.net',
  'nuget.org',
  'www.nuget.org',
  'api.nuget.org',
  'learn.microsoft.com',
  'docs.microsoft.com',
  'hex.pm',
  'hexdocs.pm',
  'maven.apache.org',
  'search.maven.org',
  'repo.maven.apache.org',
  'repo1.maven.org',
  'central.sonatype.com',
  'kotlinlang.org',
  'docs.oracle.com',
  'pub.dev',
  'cran.r-project.org',
  'metacpan.org',
  // Platforms and references
  'developer.apple.com',
  'cppreference.com',
  'en.cppreference.com',
  'man7.org',
  'docs.docker.com',
];

const EXACT = new Set(LOOKUP_SITES.filter((s) => !s.startsWith('*.')));
const SUFFIXES = LOOKUP_SITES.filter((s) => s.startsWith('*.')).map((s) => s.slice(1));

const LOOPBACK_NAMES = new Set(['localhost', '0.0.0.0', '::1', '::', '0:0:0:0:0:0:0:1', 'host.docker.internal']);
const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

/** Loopback (this machine), a look-up site, or other. */
export function classifyHost(host: string): HostClass {
  let h = host.trim().toLowerCase().replace(/\.$/, '');
  if (h.startsWith('[') && h.endsWith(']')) h = h.slice(1, -1);
  if (LOOPBACK_NAMES.has(h) || h.endsWith('.localhost')) return 'loopback';
  const v4 = IPV4.exec(h.startsWith('::ffff:') ? h.slice(7) : h);
  if (v4 && v4.slice(1).every((o) => Number(o) <= 255)) return v4[1] === '127' ? 'loopback' : 'other';
  // punycode (`xn--…`) spells a name in another script: never a well-known site
  if (h.startsWith('xn--') || h.includes('.xn--')) return 'other';
  if (EXACT.has(h) || SUFFIXES.some((suffix) => h.endsWith(suffix) && h.length > suffix.length)) return 'lookup';
  return 'other';
}
