import { secretsInCommand } from '../../src/rules/secrets-in-command.js';
import { runRuleTests } from '../rule-tester.js';

// Made-up values with the shapes of real keys (none of them works anywhere).
const GITHUB = 'ghp_R2d2C3poL8kS9jT7mN4bV6cX1zQ5wE0rY3uI';
const GITHUB_PAT = 'github_pat_11ABCDEFG0R2d2C3poL8kS9jT7mN4bV6cX1zQ5wE0rY3uIaB7cD9eF1gH3iJ5kL7mN9';
const AWS = 'AKIAZ3MQ7RT4XN5LPQ2W';
const OPENAI = 'sk-proj-R2d2C3poL8kS9jT7mN4bV6cX1zQ5';
const SLACK = 'xoxb-2048-4096-R2d2C3poL8kS9jT7';
const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U';
const GOOGLE = 'AIzaSyD4kL9mN2pQ7rS1tU6vW3xY8zA5bC0dE2f';
const PEM =
  '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ\n-----END OPENSSH PRIVATE KEY-----';

runRuleTests(secretsInCommand, {
  valid: [
    // options and settings that take a password or key, given none written out (issue 26)
    'mytool --api-key $ACME_API_KEY deploy',
    'acme login --token "$ACME_TOKEN"',
    'acme login --token "$(pass show acme/token)"',
    'mysql -u root -p prod',
    'mysql -u root -p"$DB_PASSWORD" prod',
    'docker login -u acme --password-stdin registry.acme.io',
    'docker login -u acme -p "$REGISTRY_PASSWORD" registry.acme.io',
    'curl -u admin https://api.acme.io/v1/items',
    'curl -u "admin:$API_PASSWORD" https://api.acme.io/v1/items',
    'sshpass -f ~/.pw ssh admin@host',
    'mytool --password-file secrets.txt sync',
    'mytool --token-env ACME_TOKEN sync',
    'gh auth status --show-token',
    'gh auth login --with-token < token.txt',
    'mytool --api-key changeme',
    'mytool --password=password123 --help',
    'mytool --secret=xxxxxxxxxxxx',
    'mytool --private-key ./certs/key.pem',
    'aws configure set aws_secret_access_key "$AWS_SECRET_ACCESS_KEY"',
    'npm config set //registry.npmjs.org/:_authToken "${NPM_TOKEN}"',
    'git config user.signingkey ABCDEF0123456789',
    'git config --get github.token',
    'redis-cli -a "$REDIS_PASSWORD" ping',
    'mytool --key abc123def456',
    'mytool --api-key-name prod2024key',
    // a throwaway password for a database on this machine or a compose service
    'DATABASE_URL=postgresql://app:app@localhost:5432/app_dev npm run migrate',
    'psql postgresql://app:devpass@db:5432/app -c "select 1"',
    'redis-cli -u redis://default:default@cache:6379 ping',
    // the stock password of a local database, as every tutorial prints it
    "psql postgres://postgres:postgres@localhost:5432/app_dev -c '\\d users'",
    // the key stays in a variable
    'curl -H "Authorization: Bearer $GITHUB_TOKEN" https://api.github.com/user',
    'curl -H "Authorization: token ${GH_TOKEN}" https://api.github.com/repos/a/b',
    'export OPENAI_API_KEY="$(op read op://dev/openai/key)"',
    'psql "postgres://app:${DB_PASSWORD}@localhost/app"',
    'git clone https://user:<password>@example.com/repo.git',
    // documented placeholders and values too short or plain to be keys
    'aws configure set region eu-west-1',
    'echo wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
    'export API_KEY=sk-xxxxxxxxxxxxxxxxxxxxxxxx',
    'grep -r "ghp_" src',
    'echo sk-test',
    'git commit -m "fix: detect AKIA prefixes and sk- keys"',
    'curl -H "Authorization: Bearer token" https://api.example.com',
    'npm run lint -- --max-warnings=0',
    // a write tool's or a patch's content is the file's business
    { step: { kind: 'write', path: 'test/fixtures/token.txt', content: `${GITHUB}\n` } },
    { step: { kind: 'patch', patch: `*** Begin Patch\n*** Add File: test/fixtures/jwt.txt\n+${JWT}\n*** End Patch` } },
    // other kinds of step without a key
    { step: { kind: 'fetch', url: 'https://docs.github.com/en/rest' } },
    { step: { kind: 'mcp', server: 'github', tool: 'get_issue', args: { owner: 'a', repo: 'b', issue_number: 7 } } },
    'npm test',
  ],
  invalid: [
    // a password or key of any shape written as an option's value or a secret setting (issue 26)
    'mysql -u root -pXk29vLq8PzR4 prod',
    'mysql --password=Xk29vLq8PzR4 prod',
    'docker login -u acme -p Xk29vLq8PzR4mN registry.acme.io',
    "sshpass -p 'Xk29vLq8PzR4' ssh admin@host",
    'curl -u admin:Xk29vLq8PzR4 https://api.acme.io/v1/items',
    'mytool --password=Xk29vLq8PzR4mNq7 sync',
    'acme --client-secret 8Q~xR2d2C3poL8kS9jT7mN4bV6cX1zQ5wE0rY3 auth',
    'mytool deploy --api-key 7f3a9c2e41b84d0f9a6e5c3b2d1f0e9a',
    'acme login --token a1b2c3d4e5f6g7h8',
    'redis-cli -a Xk29vLq8PzR4 ping',
    'aws configure set aws_secret_access_key wJalrXUtnFEMI/K7MDENG/bPxRfiCYzEXAMPLEKEY',
    'npm config set //registry.npmjs.org/:_authToken 7f3a9c2e-41b8-4d0f-9a6e-5c3b2d1f0e9a',
    'git config --global github.token 7f3a9c2e41b84d0f9a6e5c3b2d1f0e9a',
    'sudo mysql -pXk29vLq8PzR4',
    // near misses: the same shapes on a real host, or a real password on this machine
    'psql postgresql://app:app@prod-db.acme.com/app',
    'psql postgresql://app:Xk29dLq7@localhost/app',
    'psql postgresql://app:devpass@db.internal.acme.com/app',
    // a real password, even to a tunnel on this computer
    'psql postgres://admin:Pr0d-Pass-42@localhost:5433/prod',
    // SPEC 4.1 example
    `curl -H "Authorization: Bearer ${GITHUB}" https://api.github.com/user`,
    // every kind of key-shaped value
    `export AWS_ACCESS_KEY_ID=${AWS}`,
    'AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE aws s3 ls',
    `gh auth login --with-token <<< ${GITHUB_PAT}`,
    `OPENAI_API_KEY=${OPENAI} python app.py`,
    `curl -d "token=${SLACK}" https://slack.com/api/chat.postMessage`,
    `curl -H "Authorization: Bearer ${JWT}" https://api.example.com/me`,
    `printf '%s' '${PEM}' > key`,
    'git clone https://deploy:hunter2Secret@git.example.com/app.git',
    'curl -H "Authorization: Basic dXNlcjpodW50ZXIy" https://api.example.com',
    `git commit -m "rotate ${GITHUB}"`,
    `docker login -u me -p ${GITHUB} ghcr.io`,
    // through wrappers
    `sudo -E env GITHUB_TOKEN=${GITHUB} ./deploy.sh`,
    `bash -c 'curl -H "X-Api-Key: ${OPENAI}" https://api.example.com'`,
    // a URL, an MCP call, an unknown tool
    { step: { kind: 'fetch', url: `https://maps.example.com/api?key=${GOOGLE}` } },
    { step: { kind: 'mcp', server: 'slack', tool: 'post_message', args: { token: SLACK, text: 'hi' } } },
    { step: { kind: 'mcp', server: 'github', tool: 'create_issue', args: { body: `token ${GITHUB}` } } },
    {
      step: { kind: 'mcp', server: 'docs', tool: 'search', args: { query: `why is ${GITHUB} rejected` } },
      note: 'free text is still scanned for keys',
    },
    { step: { kind: 'other', toolName: 'http_request', args: { headers: { Authorization: `Bearer ${GITHUB}` } } } },
  ],
});
