import { describe, expect, it } from 'vitest';
import { findKeys, isSecretVariableName, redact } from '../../src/facts/keys.js';

// Fake values are built from pieces so that no whole key-shaped literal sits in the repository.
const rep = (unit: string, n: number): string => unit.repeat(n);
const AWS = `AKIA${rep('Q7', 8)}`;
const GHP = `ghp_${rep('aB3d', 9)}`;
const GH_PAT = `github_pat_${rep('X1y', 8)}_${rep('Zq9', 20)}`;
const OPENAI = `sk-${rep('Ab1', 16)}`;
const OPENAI_PROJ = `sk-proj-${rep('Xy2_', 30)}`;
const ANTHROPIC = `sk-ant-api03-${rep('Qw3-', 23)}AA`;
const SLACK = `xoxb-${rep('1234', 3)}-${rep('5678', 3)}-${rep('aBc', 8)}`;
const SLACK_HOOK = `https://hooks.slack.com/services/T${rep('0A', 4)}/B${rep('1C', 4)}/${rep('xY', 12)}`;
const STRIPE = `sk_live_${rep('4eC3', 6)}`;
const GOOGLE = `AIza${rep('Sy', 17)}X`;
const GITLAB = `glpat-${rep('a1B2', 5)}`;
const NPM = `npm_${rep('k9Z', 12)}`;
const PYPI = `pypi-AgEIcHlwaS5vcmc${rep('Cj', 40)}`;
const TWILIO = `SK${rep('0f', 16)}`;
const SENDGRID = `SG.${rep('ab', 11)}.${rep('Cd', 21)}e`;
const JWT = `eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.${rep('dBjf', 8)}`;
const PEM_BODY = `${rep('MIIEv', 12)}\n${rep('QIBAD', 12)}\n`;
const PEM = `-----BEGIN RSA PRIVATE KEY-----\n${PEM_BODY}-----END RSA PRIVATE KEY-----`;
const BASIC = btoa('admin:hunter22');
const AWS_SECRET = rep('wJalrXUtnFEMI/K7MDENG+bPxRfiCY', 2).slice(0, 40);

describe('findKeys: key-shaped values', () => {
  it.for([
    { name: 'AWS access key', text: `export AWS_ACCESS_KEY_ID=${AWS}`, kinds: ['aws-access-key'] },
    { name: 'AWS session key', text: `ASIA${rep('Z9', 8)}`, kinds: ['aws-access-key'] },
    { name: 'AWS secret with its name', text: `aws_secret_access_key = ${AWS_SECRET}`, kinds: ['aws-secret-key'] },
    { name: 'GitHub classic token', text: `git clone https://${GHP}@github.com/o/r`, kinds: ['github-token'] },
    { name: 'GitHub app token', text: `token ghs_${rep('aB3d', 9)}`, kinds: ['github-token'] },
    { name: 'GitHub fine-grained token', text: `GH=${GH_PAT}`, kinds: ['github-token'] },
    { name: 'OpenAI key', text: `OPENAI_API_KEY=${OPENAI}`, kinds: ['openai-key'] },
    { name: 'OpenAI project key', text: `"${OPENAI_PROJ}"`, kinds: ['openai-key'] },
    { name: 'Anthropic key', text: `x-api-key: ${ANTHROPIC}`, kinds: ['anthropic-key'] },
    { name: 'Slack bot token', text: `SLACK=${SLACK}`, kinds: ['slack-token'] },
    { name: 'Slack webhook', text: `curl -X POST ${SLACK_HOOK}`, kinds: ['slack-webhook'] },
    { name: 'Stripe live key', text: `stripe.api_key = "${STRIPE}"`, kinds: ['stripe-key'] },
    { name: 'Stripe restricted key', text: `rk_live_${rep('4eC3', 6)}`, kinds: ['stripe-key'] },
    { name: 'Google API key', text: `?key=${GOOGLE}`, kinds: ['google-api-key'] },
    { name: 'GitLab token', text: `PRIVATE-TOKEN: ${GITLAB}`, kinds: ['gitlab-token'] },
    { name: 'npm token', text: `//registry/:_authToken=${NPM}`, kinds: ['npm-token'] },
    { name: 'PyPI token', text: `password = ${PYPI}`, kinds: ['pypi-token'] },
    { name: 'Twilio key', text: `TWILIO=${TWILIO}`, kinds: ['twilio-key'] },
    { name: 'SendGrid key', text: `SENDGRID_API_KEY=${SENDGRID}`, kinds: ['sendgrid-key'] },
    { name: 'PEM private key', text: `key: |\n${PEM}\n`, kinds: ['private-key'] },
    { name: 'OpenSSH private key', text: `-----BEGIN OPENSSH PRIVATE KEY-----\n${PEM_BODY}`, kinds: ['private-key'] },
    {
      name: 'encrypted private key',
      text: `-----BEGIN ENCRYPTED PRIVATE KEY-----\n${PEM_BODY}`,
      kinds: ['private-key'],
    },
    { name: 'PGP private key', text: `-----BEGIN PGP PRIVATE KEY BLOCK-----\n\n${PEM_BODY}`, kinds: ['private-key'] },
    { name: 'JWT', text: `Cookie: session=${JWT}`, kinds: ['jwt'] },
    { name: 'Bearer JWT is a JWT', text: `-H "Authorization: Bearer ${JWT}"`, kinds: ['jwt'] },
    { name: 'Bearer token', text: `-H 'Authorization: Bearer ${rep('f00dBa5e', 4)}'`, kinds: ['bearer-token'] },
    { name: 'Bearer, lower case', text: `authorization: bearer ${rep('Ab9', 10)}`, kinds: ['bearer-token'] },
    { name: 'Basic credentials', text: `-H "Authorization: Basic ${BASIC}"`, kinds: ['basic-auth'] },
    {
      name: 'password in a URL',
      text: 'git clone https://dev:Tr0ub4dor@git.example.com/r.git',
      kinds: ['url-password'],
    },
    {
      name: 'password in a database URL',
      text: 'DATABASE_URL=postgres://app:s3cr3t-pw@db:5432/app',
      kinds: ['url-password'],
    },
    {
      name: 'a stock name inside a real password',
      text: 'psql postgres://postgres:postgres2024!@localhost/app',
      kinds: ['url-password'],
    },
    {
      name: 'several values in one line',
      text: `A=${AWS} B=${GHP} C=${OPENAI}`,
      kinds: ['aws-access-key', 'github-token', 'openai-key'],
    },
  ])('$name', ({ text, kinds }) => {
    const hits = findKeys(text);
    expect(hits.map((h) => h.kind)).toEqual(kinds);
    for (const hit of hits) {
      expect(hit.span[0]).toBeGreaterThanOrEqual(0);
      expect(hit.span[1]).toBeGreaterThan(hit.span[0]);
      expect(hit.span[1]).toBeLessThanOrEqual(text.length);
    }
  });

  it('spans exactly the value', () => {
    const text = `token=${GHP};`;
    const [hit] = findKeys(text);
    expect(hit && text.slice(...hit.span)).toBe(GHP);
    const url = 'https://dev:Tr0ub4dor@git.example.com';
    const [pw] = findKeys(url);
    expect(pw && url.slice(...pw.span)).toBe('Tr0ub4dor');
    const pem = `x=${PEM} y`;
    const [block] = findKeys(pem);
    expect(block && pem.slice(...block.span)).toBe(PEM);
  });

  it('covers a private key block without its END line, in a JSON string too', () => {
    const text = `-----BEGIN PRIVATE KEY-----\n${PEM_BODY}\nnext: value`;
    const [hit] = findKeys(text);
    expect(hit && text.slice(...hit.span)).toBe(`-----BEGIN PRIVATE KEY-----\n${PEM_BODY.trimEnd()}`);
    const json = `{"key":"-----BEGIN PRIVATE KEY-----\\n${rep('MIIEv', 12)}\\n${rep('QIBAD', 5)}\\n","x":1}`;
    const [inJson] = findKeys(json);
    expect(inJson && json.slice(...inJson.span)).toBe(
      `-----BEGIN PRIVATE KEY-----\\n${rep('MIIEv', 12)}\\n${rep('QIBAD', 5)}`,
    );
  });

  it.for([
    { name: 'sk-learn', text: 'pip install sk-learn scikit-learn' },
    { name: 'a kebab-case name after sk-', text: 'sk-button-primary-large-variant-outline' },
    { name: 'a task id', text: 'task-1234 and disk-encryption-key-rotation-2024' },
    { name: 'AKIA alone', text: 'the prefix AKIA marks access keys' },
    { name: 'AKIA too short', text: `AKIA${rep('Q7', 6)}` },
    { name: 'AKIA inside a longer word', text: `XAKIA${rep('Q7', 8)}` },
    { name: 'a git SHA', text: 'commit 9fceb02d0ae598e95dc970b74767f19372d61af8' },
    { name: 'a UUID', text: 'id: 123e4567-e89b-12d3-a456-426614174000' },
    { name: 'ghp_ alone', text: 'tokens start with ghp_ or gho_' },
    { name: 'ghp_ too short', text: `ghp_${rep('aB3d', 5)}` },
    { name: 'a public key', text: `-----BEGIN PUBLIC KEY-----\n${PEM_BODY}-----END PUBLIC KEY-----` },
    { name: 'a certificate', text: `-----BEGIN CERTIFICATE-----\n${PEM_BODY}-----END CERTIFICATE-----` },
    { name: 'an SSH public key', text: `ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI${rep('Kq', 20)} dev@host` },
    { name: 'a data URL', text: `<img src="data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAA${rep('Ab', 30)}">` },
    { name: 'an npm integrity hash', text: `"integrity": "sha512-${rep('z4PhNX', 14)}=="` },
    { name: 'Bearer with a variable', text: 'curl -H "Authorization: Bearer $TOKEN" https://api.example.com' },
    { name: 'Bearer with a braced variable', text: 'Authorization: Bearer ${GITHUB_TOKEN}' },
    { name: 'Bearer with a placeholder', text: 'Authorization: Bearer YOUR_ACCESS_TOKEN_GOES_HERE' },
    { name: 'Bearer with an angle placeholder', text: 'Authorization: Bearer <token>' },
    { name: 'Basic in prose', text: 'Basic authentication is supported. Basic usage follows.' },
    { name: 'password from a variable', text: 'password=${PASSWORD}' },
    { name: 'URL password from a variable', text: 'postgres://app:${DB_PASSWORD}@db/app' },
    { name: 'URL password placeholder', text: 'https://user:password@example.com and ftp://u:****@h' },
    {
      name: 'stock local passwords',
      text: 'psql postgres://postgres:postgres@localhost:5432/app_dev; amqp://guest:guest@localhost:5672',
    },
    { name: 'the user name again, on this machine', text: 'postgresql://app:app@localhost:5432/app_dev' },
    { name: 'a word for local use, on a compose service', text: 'mysql://root:devpass@db:3306/app' },
    { name: 'URL with a user only', text: 'ssh://git@github.com/o/r.git' },
    { name: 'URL with a port', text: 'http://localhost:8080/path@x' },
    { name: 'a JWT-like word without parts', text: 'eyJhbGciOiJIUzI1NiJ9 alone' },
    { name: 'JSON in base64 inside a longer token', text: `x${JWT}` },
    { name: 'Slack prefix without digits', text: 'xoxb-not-a-real-token-here' },
    { name: 'SK followed by non-hex', text: `SK${rep('zz', 16)}` },
    { name: 'an ordinary README', text: 'Set OPENAI_API_KEY in your shell, then run `npm start`. See docs/keys.md.' },
  ])('not a key: $name', ({ text }) => {
    expect(findKeys(text)).toEqual([]);
  });
});

describe('redact', () => {
  it.for([
    {
      text: `curl -H "Authorization: Bearer ${GHP}" x`,
      out: 'curl -H "Authorization: Bearer [redacted:github-token]" x',
    },
    { text: `A=${AWS} B=${OPENAI}`, out: 'A=[redacted:aws-access-key] B=[redacted:openai-key]' },
    { text: 'https://dev:Tr0ub4dor@host/x', out: 'https://dev:[redacted:url-password]@host/x' },
    { text: `${PEM}\nrest`, out: '[redacted:private-key]\nrest' },
    { text: 'nothing to hide', out: 'nothing to hide' },
    { text: '', out: '' },
  ])('$out', ({ text, out }) => {
    expect(redact(text)).toBe(out);
  });

  it('takes hits from the caller, in any order, ignoring overlaps and spans past the end', () => {
    const text = 'abcdefghij';
    expect(
      redact(text, [
        { kind: 'b', span: [6, 8] },
        { kind: 'a', span: [1, 3] },
        { kind: 'c', span: [2, 4] },
        { kind: 'd', span: [9, 50] },
      ]),
    ).toBe('a[redacted:a]def[redacted:b]i[redacted:d]');
    expect(redact(text, [])).toBe(text);
  });
});

describe('isSecretVariableName', () => {
  it.for([
    'OPENAI_API_KEY',
    'AWS_SECRET_ACCESS_KEY',
    'AWS_ACCESS_KEY_ID',
    'GITHUB_TOKEN',
    'NPM_TOKEN',
    'GH_TOKEN',
    'SLACK_BOT_TOKEN',
    'DB_PASSWORD',
    'PGPASSWORD',
    'MYSQL_PWD',
    'SMTP_PASSWD',
    'JWT_SECRET',
    'NEXTAUTH_SECRET',
    'CLIENT_SECRETS',
    'GOOGLE_APPLICATION_CREDENTIALS_JSON',
    'AZURE_CREDENTIAL',
    'DOCKER_CREDS',
    'API_KEY',
    'APIKEY',
    'apiKey',
    'githubToken',
    'SECRET_KEY_BASE',
    'PRIVATE_KEY',
    'ACCESS_TOKEN',
  ])('%s is a secret name', (name) => {
    expect(isSecretVariableName(name)).toBe(true);
  });

  it.for([
    'KEYBOARD_LAYOUT',
    'MONKEY',
    'TURKEY_MODE',
    'TOKENIZER_PATH',
    'TOKENIZERS_PARALLELISM',
    'PWD',
    'OLDPWD',
    'HOME',
    'PATH',
    'SSH_KEY_PATH',
    'GOOGLE_APPLICATION_CREDENTIALS_FILE',
    'PASSWORD_MIN_LENGTH',
    'TOKEN_URL',
    'HOTKEYS',
    'PRIVATE_REGISTRY',
    'AUTH_DOMAIN',
    'NODE_ENV',
    'keyboardLayout',
    '',
    '___',
  ])('%s is not', (name) => {
    expect(isSecretVariableName(name)).toBe(false);
  });
});

describe('findKeys: 100 KB adversarial input finishes with the right answer', () => {
  const N = 100_000;
  it.for([
    { name: 'sk- repeated', text: rep('sk-', N / 3), hits: 0 },
    { name: 'sk- then a long run', text: `sk-${rep('a', N)}`, hits: 0 },
    { name: 'eyJ repeated', text: rep('eyJ', N / 3), hits: 0 },
    { name: 'eyJ runs with a short payload', text: rep('eyJaaaaaaaaaaa.eyJb.', N / 20), hits: 0 },
    { name: 'eyJ.eyJ without a signature', text: rep('eyJaaaaaaaaaaa.eyJbbbbbbbbbbb. ', N / 31), hits: 0 },
    { name: 'eyJ runs with dots (each three make a JWT)', text: rep('eyJaaaaaaaaaaa.', 6_666), hits: 2_222 },
    { name: 'one long base64url run', text: rep('A', N), hits: 0 },
    { name: 'BEGIN headers without END', text: rep('-----BEGIN RSA PRIVATE KEY-----', 3_225), hits: 3_225 },
    { name: 'BEGIN headers on lines', text: rep('-----BEGIN RSA PRIVATE KEY-----\nAAAA\n', 2_702), hits: 2_702 },
    { name: 'BEGIN header then one long line', text: `-----BEGIN RSA PRIVATE KEY-----\n${rep('A', N)}-`, hits: 1 },
    { name: 'BEGIN almost', text: rep('-----BEGIN AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', N / 56), hits: 0 },
    { name: 'many schemes', text: rep('://a:', N / 5), hits: 0 },
    { name: 'many schemes with long parts', text: rep(`://${rep('u', 120)}:${rep('p', 250)}`, N / 375), hits: 0 },
    { name: 'bearer repeated', text: rep('Bearer ', N / 7), hits: 0 },
    { name: 'bearer then a long run', text: `Bearer ${rep('a', N)}`, hits: 0 },
    { name: 'basic then a long run', text: `Basic ${rep('QUFB', N / 4)}`, hits: 0 },
    { name: 'ghp_ then a long run', text: `ghp_${rep('a', N)}`, hits: 0 },
    { name: 'ghp_ repeated', text: rep('ghp_', N / 4), hits: 0 },
    { name: 'AKIA repeated', text: rep('AKIA', N / 4), hits: 0 },
    { name: 'aws secret name with spaces', text: rep('aws_secret_access_key         ', N / 30), hits: 0 },
    { name: 'xoxb- repeated', text: rep('xoxb-', N / 5), hits: 0 },
    { name: 'hooks.slack.com repeated', text: rep('hooks.slack.com/services/', N / 25), hits: 0 },
    { name: 'many real keys', text: rep(`${GHP} `, N / 41), hits: Math.floor(N / 41) },
  ])('$name', ({ text, hits }) => {
    expect(findKeys(text)).toHaveLength(hits);
    expect(redact(text).length).toBeGreaterThan(0);
  });
});
