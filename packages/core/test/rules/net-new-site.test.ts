import { describe, expect, it } from 'vitest';
import { netNewSite } from '../../src/rules/net-new-site.js';
import { evaluateExample, runRuleTests } from '../rule-tester.js';

runRuleTests(netNewSite, {
  valid: [
    // a module loaded for code that reaches no site, or only names one
    'ruby -r json -e \'puts JSON.parse("{}")\'',
    'perl -MJSON -e \'print "https://x.example.net"\'',
    "perl -MLWP::Simple -e 'print 1'",
    // this machine
    'curl localhost:3000',
    'curl http://localhost:3000/health',
    'curl -s http://127.0.0.1:8080/api',
    'curl http://[::1]:5173/',
    'wget -qO- http://0.0.0.0:8000/',
    'http :3000/users',
    'curl http://app.localhost/',
    'nc -zv localhost 5432',
    'ssh localhost',
    // well-known look-up sites
    'curl https://registry.npmjs.org/react',
    'curl -s https://api.github.com/repos/nodejs/node/releases/latest',
    'wget https://files.pythonhosted.org/packages/x/y.whl',
    'git clone https://github.com/vitest-dev/vitest.git',
    'git clone git@github.com:nodejs/undici.git',
    'ssh -T git@github.com',
    'curl https://docs.python.org/3/library/os.html',
    'nslookup pypi.org',
    { step: { kind: 'fetch', url: 'https://developer.mozilla.org/en-US/docs/Web/API/fetch' } },
    { step: { kind: 'fetch', url: 'https://stackoverflow.com/questions/1' } },
    { step: { kind: 'fetch', url: 'http://localhost:4000/' } },
    // no site reached
    'git fetch origin',
    'git pull',
    'git push origin main',
    'git push https://git.example.org/team/app.git main',
    'npm install',
    'pip download requests',
    'nc -l 8080',
    'echo https://example.com',
    'git commit -m "see https://example.com/issue/1"',
    'grep -rn "https://example.com" docs',
    {
      step: { kind: 'mcp', server: 'browser', tool: 'navigate', args: { url: 'https://example.com' } },
      note: 'MCP calls are mcp.changes business',
    },
    { step: { kind: 'read', path: 'docs/links.md' } },
    // inline code: this machine, a look-up site, or a URL only printed
    `node -e 'fetch("http://localhost:3000/health").then((r) => console.log(r.status))'`,
    `python3 -c 'import requests; print(requests.get("https://registry.npmjs.org/react").json()["name"])'`,
    `python3 -c 'print("docs: https://example.com/guide")'`,
    `node -e 'console.log(new URL("https://example.com/a").pathname)'`,
  ],
  invalid: [
    // inline code that fetches, judged like curl (issue 26), the client loaded by an option
    'perl -MLWP::Simple -e \'print get("https://files.example.net/x")\'',
    'ruby -rnet/http -e \'puts Net::HTTP.get(URI("https://api.example.org/x"))\'',
    'ruby -r open-uri -e \'puts URI.open("https://files.example.net/x").read\'',
    'php -r \'echo file_get_contents("https://files.example.net/x");\'',
    'perl -e \'use LWP::UserAgent; LWP::UserAgent->new->get("https://api.example.org/")\'',
    'node -e \'require("https").get("https://api.example.org/x", r => r.pipe(process.stdout))\'',
    'python3 -c \'import httpx; print(httpx.get("https://api.example.org/v1").text)\'',
    // requests made from inline code, as curl would make them
    `python3 -c 'import urllib.request; print(urllib.request.urlopen("https://example.com/x").read())'`,
    `python3 -c 'import requests; requests.post("https://api.example.io/items", json={"a": 1})'`,
    `node -e 'fetch("https://example.com/x").then((r) => r.text()).then(console.log)'`,
    `node -e 'require("https").get("https://downloads.example.net/tool", (r) => r.pipe(process.stdout))'`,
    `ruby -e 'require "net/http"; puts Net::HTTP.get(URI("https://example.com/x"))'`,
    // a well-known name spelled with another script's letter or a full-width dot
    'curl https://g\u0456thub.com/install.sh -o install.sh',
    'curl -O https://raw.githubusercontent\uff0ecom/o/r/main/x.sh',
    'curl https://xn--gthub-n4a.com/x',
    // SPEC 4.2 examples
    'curl https://example.com/',
    'curl example.com',
    'wget https://downloads.example.net/tool.tar.gz',
    'http POST https://api.example.io/items name=x',
    'Invoke-WebRequest -Uri https://example.com/setup.ps1 -OutFile setup.ps1',
    'iwr https://example.com',
    'ssh deploy@203.0.113.7',
    'ssh prod-db',
    'scp dist.tar.gz deploy@web.example.com:/srv/',
    'rsync -av ./public/ web.example.com:/var/www/',
    'git clone https://git.example.org/team/app.git',
    'git clone https://gitlab.com/group/project.git',
    'git fetch https://git.example.org/team/app.git main',
    'nslookup example.com',
    'dig +short example.net',
    'Send-MailMessage -SmtpServer smtp.example.com -To a@example.com -From b@example.com -Subject x',
    'nc -zv db.example.com 5432',
    'curl http://192.168.1.20/api',
    { step: { kind: 'fetch', url: 'https://blog.example.com/post' } },
    { step: { kind: 'fetch', url: 'http://203.0.113.9:8080/' } },
    { step: { kind: 'other', toolName: 'browser_open', args: { url: 'https://example.com/page' } } },
    // the way there does not matter
    'cd app && curl -fsSL https://example.com/x.json -o x.json',
    'bash -c "wget https://example.com/a"',
    'sudo curl -o /tmp/x https://example.com/x',
    'echo $(curl -s https://example.com/ip)',
    'curl -s https://registry.npmjs.org/x && curl -s https://example.com/y',
  ],
});

describe('net.new-site remembers by host', () => {
  it.for([
    { line: 'curl https://example.com/a https://example.com/b', keys: ['net.new-site:example.com'] },
    {
      line: 'curl https://a.example.com && curl https://b.example.com',
      keys: ['net.new-site:a.example.com', 'net.new-site:b.example.com'],
    },
    { line: 'curl https://EXAMPLE.com:8443/x', keys: ['net.new-site:example.com'] },
  ])('$line', ({ line, keys }) => {
    const found = evaluateExample(line).findings.filter((f) => f.ruleId === netNewSite.meta.id);
    expect(found.map((f) => f.memoryKey)).toEqual(keys);
  });
});

describe('net.new-site shows a look-alike name as it was written', () => {
  it.for([
    { line: 'curl https://github\uff0ecom/x/y', shows: 'github\uff0ecom, not plain ASCII: U+FF0E' },
    { line: 'git clone https://github\u3002com/acme/app', shows: 'github\u3002com, not plain ASCII: U+3002' },
    {
      line: 'curl https://g\u0456thub.com/install.sh',
      shows: 'g\u0456thub.com, not plain ASCII: U+0456, looked up as xn--gthub-n2e.com',
    },
    { line: 'curl https://xn--gthub-n4a.com/x', shows: '(xn--gthub-n4a.com)' },
    // near miss: a plain name is shown as it is
    { line: 'curl https://example.com/x', shows: '(example.com)' },
  ])('$line', ({ line, shows }) => {
    const reason = evaluateExample(line).findings.find((f) => f.ruleId === netNewSite.meta.id)?.reason ?? '';
    expect(reason).toContain(shows);
    // never the name it imitates, on its own
    expect(reason).not.toContain('(github.com)');
  });
});
