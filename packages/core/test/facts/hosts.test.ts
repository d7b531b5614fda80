import { describe, expect, it } from 'vitest';
import { classifyHost, urlFacts } from '../../src/facts/hosts.js';

describe('urlFacts', () => {
  it.for([
    { raw: 'https://docs.python.org/3/library/os.html', scheme: 'https', host: 'docs.python.org', port: undefined },
    { raw: 'HTTP://Example.COM./x', scheme: 'http', host: 'example.com', port: undefined },
    { raw: 'http://localhost:3000/api', scheme: 'http', host: 'localhost', port: '3000' },
    { raw: 'http://[::1]:8080/', scheme: 'http', host: '::1', port: '8080' },
    { raw: 'ftp://files.example.org', scheme: 'ftp', host: 'files.example.org', port: undefined },
    { raw: 'ssh://git@github.com:22/o/r.git', scheme: 'ssh', host: 'github.com', port: '22' },
    { raw: 'git@github.com:owner/repo.git', scheme: 'ssh', host: 'github.com', port: undefined },
    { raw: 'deploy@10.0.0.5:/srv/app', scheme: 'ssh', host: '10.0.0.5', port: undefined },
    { raw: 'wss://example.com/socket', scheme: 'wss', host: 'example.com', port: undefined },
    { raw: 'https://user:pw@example.com/x', scheme: 'https', host: 'example.com', port: undefined },
    // the host is what follows the last `@`, and `\` ends the host as browsers read it
    { raw: 'https://github.com@evil.io/x', scheme: 'https', host: 'evil.io', port: undefined },
    { raw: 'https://github.com:443@evil.io/x', scheme: 'https', host: 'evil.io', port: undefined },
    { raw: 'https://evil.io\\@github.com/x', scheme: 'https', host: 'evil.io', port: undefined },
    { raw: 'https://example.com?q=a@b', scheme: 'https', host: 'example.com', port: undefined },
    { raw: 'https://$HOST/x', scheme: 'https', host: '$host', port: undefined },
    // letters of other scripts and full-width dots: the name a resolver asks for
    { raw: 'https://g\u0456thub.com/x.sh', scheme: 'https', host: 'xn--gthub-n2e.com', port: undefined },
    { raw: 'https://github\uff0ecom/x.sh', scheme: 'https', host: 'github.com', port: undefined },
  ])('$raw', ({ raw, scheme, host, port }) => {
    const u = urlFacts(raw);
    expect(u).toBeDefined();
    expect(u?.raw).toBe(raw);
    expect(u?.scheme).toBe(scheme);
    expect(u?.host).toBe(host);
    expect(u?.port).toBe(port);
  });

  it.for([
    'example.com',
    'example.com:/path',
    'src/index.ts',
    './a:b',
    '/abs/path:x',
    'C:\\Users\\dev',
    'file:///etc/passwd',
    'https://',
    'https:///path',
    'http://[::1',
    'mailto:someone@example.com',
    'not a url',
    '',
  ])('%s is not a URL by default', (raw) => {
    expect(urlFacts(raw)).toBeUndefined();
  });

  it('reads scp targets only when asked', () => {
    expect(urlFacts('backup:/srv/data')).toBeUndefined();
    expect(urlFacts('backup:/srv/data', { scpLike: true })?.host).toBe('backup');
    expect(urlFacts('host.example.com:file.txt', { scpLike: true })?.host).toBe('host.example.com');
    expect(urlFacts('C:\\x', { scpLike: true })).toBeUndefined();
    expect(urlFacts('./dir:x', { scpLike: true })).toBeUndefined();
    expect(urlFacts('src/a:b', { scpLike: true })).toBeUndefined();
  });

  it('reads bare hosts only when asked', () => {
    expect(urlFacts('example.com/x')).toBeUndefined();
    expect(urlFacts('example.com/x', { bare: true })).toMatchObject({ scheme: 'http', host: 'example.com' });
    expect(urlFacts('localhost:8080/health', { bare: true })).toMatchObject({
      host: 'localhost',
      port: '8080',
      hostClass: 'loopback',
    });
    expect(urlFacts('/etc/hosts', { bare: true })).toBeUndefined();
    expect(urlFacts('./x', { bare: true })).toBeUndefined();
  });

  it('notes a password in the URL', () => {
    expect(urlFacts('https://user:s3cret@example.com')?.hasPassword).toBe(true);
    expect(urlFacts('https://user@example.com')?.hasPassword).toBeUndefined();
    expect(urlFacts('https://example.com')?.hasPassword).toBeUndefined();
  });

  it('answers for 100 KB adversarial input', () => {
    const inputs = [
      `https://${'a'.repeat(100_000)}`,
      `${'a'.repeat(100_000)}:`,
      `${'a@'.repeat(50_000)}`,
      `${'a-'.repeat(50_000)}`,
      `https://${'@'.repeat(100_000)}x`,
      `[${':'.repeat(100_000)}`,
    ];
    for (const raw of inputs) {
      const u = urlFacts(raw, { scpLike: true, bare: true });
      expect(u === undefined || typeof u.host === 'string').toBe(true);
    }
  });
});

describe('classifyHost', () => {
  it.for([
    ['localhost', 'loopback'],
    ['LOCALHOST', 'loopback'],
    ['localhost.', 'loopback'],
    ['app.localhost', 'loopback'],
    ['127.0.0.1', 'loopback'],
    ['127.1.2.3', 'loopback'],
    ['::1', 'loopback'],
    ['[::1]', 'loopback'],
    ['0.0.0.0', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['host.docker.internal', 'loopback'],
    ['localhost.evil.io', 'other'],
    // punycode spells another script: never a well-known site, also under one's suffix
    ['xn--gthub-n4a.com', 'other'],
    ['xn--pypi-abc.github.io', 'other'],
    ['127.0.0.1.nip.io', 'other'],
    ['128.0.0.1', 'other'],
    ['127.0.0.256', 'other'],
    ['10.0.0.1', 'other'],
    ['192.168.1.1', 'other'],
    ['docs.python.org', 'lookup'],
    ['pypi.org', 'lookup'],
    ['files.pythonhosted.org', 'lookup'],
    ['npmjs.com', 'lookup'],
    ['www.npmjs.com', 'lookup'],
    ['registry.npmjs.org', 'lookup'],
    ['nodejs.org', 'lookup'],
    ['developer.mozilla.org', 'lookup'],
    ['github.com', 'lookup'],
    ['GitHub.com', 'lookup'],
    ['api.github.com', 'lookup'],
    ['raw.githubusercontent.com', 'lookup'],
    ['docs.github.com', 'lookup'],
    ['requests.readthedocs.io', 'lookup'],
    ['readthedocs.org', 'lookup'],
    ['stackoverflow.com', 'lookup'],
    ['unix.stackexchange.com', 'lookup'],
    ['crates.io', 'lookup'],
    ['docs.rs', 'lookup'],
    ['doc.rust-lang.org', 'lookup'],
    ['pkg.go.dev', 'lookup'],
    ['go.dev', 'lookup'],
    ['proxy.golang.org', 'lookup'],
    ['rubygems.org', 'lookup'],
    ['packagist.org', 'lookup'],
    ['learn.microsoft.com', 'lookup'],
    ['docs.oracle.com', 'lookup'],
    ['developer.apple.com', 'lookup'],
    ['typescriptlang.org', 'lookup'],
    ['docs.npmjs.com', 'lookup'],
    ['nuget.org', 'lookup'],
    ['hex.pm', 'lookup'],
    ['maven.apache.org', 'lookup'],
    ['search.maven.org', 'lookup'],
    ['repo.maven.apache.org', 'lookup'],
    ['kotlinlang.org', 'lookup'],
    ['cppreference.com', 'lookup'],
    ['man7.org', 'lookup'],
    // near misses: look-alikes, unlisted subdomains, bare suffixes
    ['github.com.evil.io', 'other'],
    ['evilgithub.com', 'other'],
    ['github.co', 'other'],
    ['gist.github.com', 'other'],
    ['evil.docs.python.org', 'other'],
    ['pypi.org.attacker.net', 'other'],
    ['readthedocs.io', 'other'],
    ['stackexchange.com.evil.io', 'other'],
    ['x-stackexchange.com', 'other'],
    ['example.com', 'other'],
    ['webhook.site', 'other'],
    ['', 'other'],
  ] as const)('%s → %s', ([host, cls]) => {
    expect(classifyHost(host)).toBe(cls);
  });

  it.for([
    ['https://github\uff0ecom/x.sh', 'github\uff0ecom, not plain ASCII: U+FF0E'],
    ['https://g\u0456thub.com/x.sh', 'g\u0456thub.com, not plain ASCII: U+0456, looked up as xn--gthub-n2e.com'],
    [
      'https://docs.pyth\u043fn.org/3/',
      'docs.pyth\u043fn.org, not plain ASCII: U+043F, looked up as docs.xn--pythn-sye.org',
    ],
    // near misses: plain names, and punycode as written (it is the real name), have nothing more to show
    ['https://github.com/x.sh', undefined],
    ['https://xn--gthub-n4a.com/x', undefined],
  ])('shows %s as it was written', ([raw, shown]) => {
    expect(urlFacts(raw as string)?.shown).toBe(shown);
  });

  it('classifies the host urlFacts found', () => {
    expect(urlFacts('https://github.com.evil.io/x')?.hostClass).toBe('other');
    expect(urlFacts('https://github.com@evil.io/x')?.hostClass).toBe('other');
    expect(urlFacts('git@github.com:o/r.git')?.hostClass).toBe('lookup');
    expect(urlFacts('http://127.0.0.1:5173')?.hostClass).toBe('loopback');
  });
});

describe('look-alike host names are never well-known sites', () => {
  it.for([
    ['https://g\u0456thub.com/x.sh', 'other'],
    ['https://github\uff0ecom/x.sh', 'other'],
    ['https://docs.pyth\u043fn.org/3/', 'other'],
    // near miss: the real names
    ['https://github.com/x.sh', 'lookup'],
    ['https://docs.python.org/3/', 'lookup'],
  ])('%s', ([raw, hostClass]) => {
    expect(urlFacts(raw as string)?.hostClass).toBe(hostClass);
  });
});
