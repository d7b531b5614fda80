import { describe, expect, it } from 'vitest';
import { logText, redactForLog } from '../../src/facts/log-text.js';
import type { ToolStep } from '../../src/types.js';

// made-up values with the shape of real ones (none of them is a real secret)
const CLOUD_SECRET = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYzq8dE3xAmp';
const RANDOM_B64 = 'Zm9vYmFyQmF6UXV4MTIzNDU2Nzg5MGFiY2RlZkdISUpL';

describe('redactForLog: unnamed secrets leave the text', () => {
  it.for([
    [`echo "${CLOUD_SECRET}" | base64`, CLOUD_SECRET],
    [`export X=${CLOUD_SECRET}`, CLOUD_SECRET],
    [`curl -d token=${RANDOM_B64} https://example.test`, RANDOM_B64],
    ['mysql -u root -pS3cretPassw0rd shop', 'S3cretPassw0rd'],
    ["mysqldump -u app -p'hunter2 2' shop", 'hunter2'],
    ['mariadb -h db -u x -ptopsecret', 'topsecret'],
    ['psql --password=opensesame -h db', 'opensesame'],
    ['tool --passwd hunter22', 'hunter22'],
    ['sshpass -p letmein ssh host', 'letmein'],
    ['git clone https://dev:pa55word@example.test/repo.git', 'pa55word'],
    ['curl -u admin:swordfish https://example.test', 'swordfish'],
    // by where it stands, whatever its shape: all lower case, all hex (issue 25)
    ['deploy --token abcdefghijklmnopqrstuvwx', 'abcdefghijklmnopqrstuvwx'],
    ['deploy --token=0123456789abcdef0123456789abcdef', '0123456789abcdef0123456789abcdef'],
    ['gh-release --github-token lowercaseonlyvalue', 'lowercaseonlyvalue'],
    ['tool --api-key deadbeefdeadbeefdeadbeef run', 'deadbeefdeadbeefdeadbeef'],
    ['tool --API_KEY "quoted lower value"', 'quoted lower value'],
    ['tool --client-secret s3kr1t', 's3kr1t'],
    ['openssl enc -aes-256-cbc -K 00112233445566778899aabbccddeeff -in a', '00112233445566778899aabbccddeeff'],
    ['sudo signer -K cafebabecafebabe file', 'cafebabecafebabe'],
    ["curl -H 'X-Api-Key: abcdefabcdefabcdef' https://example.test", 'abcdefabcdefabcdef'],
    ['curl -H "x-api-key:lowercasekeyvalue" https://example.test', 'lowercasekeyvalue'],
    ["curl -H 'Authorization: Bearer alllowercasetokenvalue' https://example.test", 'alllowercasetokenvalue'],
    ["curl -H 'Authorization: token 0123456789abcdef0123' https://example.test", '0123456789abcdef0123'],
    ["curl -H 'PRIVATE-TOKEN: lowerlowerlower' https://example.test", 'lowerlowerlower'],
    ['{"headers":{"Authorization":"Bearer lowercasebearer"}}', 'lowercasebearer'],
    ['psql --password deadbeef', 'deadbeef'],
  ] as const)('%s', ([text, secret]) => {
    const out = redactForLog(text);
    expect(out).not.toContain(secret);
    expect(out).toContain('[redacted:');
  });

  it.for([
    'git log --oneline -n 20',
    'git show 4b913ac1e5f2c9d0a7b6e8f1a2b3c4d5e6f7a8b9',
    'npm test -- packages/cli/test/commands/explain-world.test.ts',
    'node packages/cli/dist/hook-entry.cjs hook codex',
    'grep -rn VeryLongIdentifierName2Here src',
    'mysql -u root -p shop',
    'mysql --port 3306 -h db',
    'echo "hello world, this is an ordinary sentence"',
    'cd src/components/Button2 && ls',
    'https://example.test/path?x=1',
    // near misses: an option that names a file, a count, a flag `-K` or a file after curl's `-K`
    'deploy --token-file secrets/token.txt',
    'tool --api-key-file ~/.config/key',
    'llm --max-tokens 4096',
    'tokenize --tokenizer bert-base',
    'curl -K config.txt https://example.test',
    'tar -x -K start.txt -f a.tar',
    'ssh -K host uptime',
    'curl -H "Accept: application/json" https://example.test',
    'echo Authorization',
  ])('keeps %s', (text) => {
    expect(redactForLog(text)).toBe(text);
  });
});

describe("logText: never a file's contents", () => {
  const base = { agent: 'codex', chatId: 'c', cwd: '/p', projectRoot: '/p' } as const;

  it('a patch keeps the files it touches, not what it writes', () => {
    const patch = '*** Begin Patch\n*** Add File: config/db.yml\n+password: Tr0ub4dor&3\n+user: app\n*** End Patch\n';
    const step: ToolStep = { ...base, kind: 'patch', toolName: 'apply_patch', patch };
    const out = logText(step, patch);
    expect(out).toContain('*** Add File: config/db.yml');
    expect(out).not.toContain('Tr0ub4dor');
    expect(out).not.toContain('user: app');
  });

  it("a tool's long string arguments are counted, not kept", () => {
    const content = `secret = "${'x'.repeat(300)}"`;
    const args = { path: '/p/a.txt', content };
    const step: ToolStep = { ...base, kind: 'other', toolName: 'save_file', args };
    const out = logText(step, JSON.stringify(args));
    expect(out).toContain('/p/a.txt');
    expect(out).not.toContain('xxxxxxxxxx');
  });

  it('a shell command keeps its words, with secrets out', () => {
    const command = `aws configure set aws_secret_access_key ${CLOUD_SECRET}`;
    const step: ToolStep = { ...base, kind: 'shell', toolName: 'Bash', command };
    expect(logText(step, command)).toBe('aws configure set aws_secret_access_key [redacted:high-entropy]');
  });
});
