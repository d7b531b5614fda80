import { changesFile } from '../analysis/effects.js';
import type { Argv, FileEffect } from '../context/types.js';
import { outputShown } from '../analysis/flow.js';
import { copiesTemplate } from '../analysis/template-copy.js';
import { requestedHosts, shownFileLiterals } from '../facts/code.js';
import { entryName, program } from '../programs/index.js';
import type { Hit, Rule, RuleContext } from '../rule.js';
import type { Invocation } from '../shell/types.js';

/** `grep -q KEY .env` says whether a line is there, not what it holds. */
const GREP_QUIET = [
  '-q',
  '--quiet',
  '--silent',
  '-c',
  '--count',
  '-l',
  '--files-with-matches',
  '-L',
  '--files-without-match',
];
/** grep under any of its names (`egrep`, `rg`, `ag`: one entry of the knowledge base). */
function isGrep(name: string): boolean {
  const found = program(name);
  return found !== undefined && entryName(found) === 'grep';
}
/** Programs that write a key they have just made. */
const KEY_MAKERS = new Set(['openssl', 'ssh-keygen', 'mkcert', 'certtool']);
/** Files in ~/.ssh that hold no secret to read. */
const SSH_PLAIN = /^(?:config|authorized_keys2?)$/;

/**
 * SPEC 4.1: reading, copying, sending, overwriting or deleting a stored secret by any tool, and
 * the commands that print a stored login.
 */
export const secretsRead = {
  meta: {
    id: 'secrets.read',
    decision: 'block',
    remember: 'never',
    title: 'reading, copying or changing a stored secret',
    reason:
      'This would read, copy, send or overwrite a stored secret (keys, tokens, passwords, logins), which then sits in the chat, the logs or elsewhere and cannot be taken back; let the person use the secret themselves, and work with a placeholder or a template (such as .env.example) instead.',
    owasp: ['LLM02:2025', 'ASI03'],
    examples: {
      match: [
        'cat .env',
        'less ~/.ssh/id_ed25519',
        'grep KEY .env.local',
        'cp ~/.aws/credentials /tmp',
        'base64 .npmrc',
        { step: { kind: 'read', path: '.env' } },
        'gh auth token',
        'git show HEAD:.env',
      ],
      noMatch: [
        'cat .env.example',
        'cat ~/.ssh/id_ed25519.pub',
        'cat src/password-reset.ts',
        'source .env && npm run dev',
        {
          step: 'cp .env.example .env',
          probe: { files: {} },
          note: 'no .env yet: a fresh copy of the template loses nothing',
        },
        'grep -q DATABASE_URL .env',
        'git show HEAD:.env.example',
        {
          step: { kind: 'mcp', server: 'docs', tool: 'search', args: { query: '.env' } },
          note: 'a search for the word, not a path',
        },
      ],
    },
  },
  check(context) {
    const hits: Hit[] = [];
    for (const file of context.files) {
      if (file.path.secret !== undefined && touchesSecret(context, file)) {
        hits.push({ span: file.span, detail: file.path.raw, ...(file.path.abs ? { path: file.path.abs } : {}) });
      }
    }
    for (const inv of context.invocations) {
      const login = LOGIN_PRINTERS.has(inv.name) ? storedLogin(inv, context.argv(inv)) : undefined;
      if (login !== undefined && outputShown(context, inv)) hits.push({ span: inv.span, detail: login });
      // the cloud's metadata service hands out this machine's credentials to whoever asks
      const metadata = context.netOf(inv).find((net) => METADATA_HOSTS.has(net.host.replace(/\$.*$/, '')));
      if (metadata !== undefined)
        hits.push({ span: metadata.span, detail: `the cloud metadata service (${metadata.host})` });
      if (inv.code) {
        const cwd = inv.cwd;
        for (const literal of shownFileLiterals(inv.code.text, (raw) => context.path(raw, cwd).secret !== undefined)) {
          hits.push({ span: inv.code.span, detail: literal.value });
        }
        // `urllib.request.urlopen("http://169.254.169.254/…")`, `requests.get("http://metadata.google.internal/…")`
        const asked = requestedHosts(inv.code.text, (host) => METADATA_HOSTS.has(host))[0];
        if (asked !== undefined)
          hits.push({ span: inv.code.span, detail: `the cloud metadata service (${asked.host})` });
      }
    }
    return hits;
  },
} as const satisfies Rule;

function touchesSecret(context: RuleContext, file: FileEffect): boolean {
  const inv = file.invocation;
  switch (file.op) {
    case 'exec':
      // `source .env` loads the values without showing them
      return false;
    case 'read':
      // ~/.ssh/config and authorized_keys name hosts and public keys; changing them still counts
      if (file.path.secret === 'ssh' && SSH_PLAIN.test(baseName(file.path.abs || file.path.raw))) return false;
      if (inv && isGrep(inv.name) && context.argv(inv).has(...GREP_QUIET)) return false;
      // `cat .env | wc -l` shows nothing of it; a copy, an upload, or a value kept in a variable
      // (`x=$(cat .env)`, for the next command to use) still takes it somewhere
      return !(inv && file.how === undefined && file.sends !== true && consumedInPipe(context, inv));
    default:
      // chmod, touch and mkdir change neither what the file holds nor whether it is there
      if (!changesFile(file)) return false;
      // `openssl genrsa -out key.pem` makes a new key; only replacing one that is there loses it
      if (
        inv &&
        KEY_MAKERS.has(inv.name) &&
        file.op === 'write' &&
        file.path.abs !== '' &&
        context.probe.exists?.(file.path.abs) !== true
      )
        return false;
      // `cp .env.example .env` reads no secret (what it may overwrite, fs.delete asks about)
      return !(inv && copiesTemplate(context, file, inv));
  }
}

/** The reader's output goes only into a later pipeline stage that shows nothing of it. */
function consumedInPipe(context: RuleContext, inv: Invocation): boolean {
  return inv.pipeline.index < inv.pipeline.length - 1 && !outputShown(context, inv);
}

/** Cloud metadata services (AWS, GCP, Azure, OpenStack; ECS tasks; AWS over IPv6; Alibaba). */
const METADATA_HOSTS = new Set([
  '169.254.169.254',
  'metadata.google.internal',
  'metadata.goog',
  '169.254.170.2',
  'fd00:ec2::254',
  '100.100.100.200',
]);

const AWS_SECRET_SETTING = /secret|token|password|key_id|access_key/i;
const CMDKEY_LIST = /^\/l(?:ist)?(?::|$)/i;
const KUBECTL_OUTPUT = /^(?:-o|--output)(?:=|$)|^-o\S/;

/** The programs storedLogin knows a printing form of. */
const LOGIN_PRINTERS = new Set([
  'gh',
  'aws',
  'az',
  'gcloud',
  'security',
  'cmdkey',
  'kubectl',
  'vault',
  'op',
  'pass',
  'gopass',
  'secret-tool',
  'git',
  'heroku',
  'bw',
  'doppler',
]);

/** The login a command prints (`gh auth token`), or undefined when it prints none. */
function storedLogin(inv: Invocation, argv: Argv): string | undefined {
  const words = argv.operands.map((a) => a.value);
  const [a, b, c] = words;
  const said = (n: number): string => [inv.name, ...words.slice(0, n)].join(' ');
  switch (inv.name) {
    case 'gh':
      if (a === 'auth' && (b === 'token' || (b === 'status' && argv.has('-t', '--show-token')))) return said(2);
      return undefined;
    case 'aws':
      if (a === 'configure' && b === 'get' && c !== undefined && AWS_SECRET_SETTING.test(c)) return said(3);
      if (a === 'configure' && b === 'export-credentials') return said(2);
      if (a === 'secretsmanager' && (b === 'get-secret-value' || b === 'batch-get-secret-value')) return said(2);
      if (a === 'ssm' && b?.startsWith('get-parameter') === true && inv.args.includes('--with-decryption'))
        return said(2);
      if ((a === 'ecr' || a === 'ecr-public') && b === 'get-login-password') return said(2);
      return undefined;
    case 'az':
      if (a === 'account' && b === 'get-access-token') return said(2);
      if (a === 'keyvault' && b === 'secret' && c === 'show') return said(3);
      return undefined;
    case 'gcloud':
      if (
        a === 'auth' &&
        (b === 'print-access-token' ||
          b === 'print-identity-token' ||
          (b === 'application-default' && c === 'print-access-token'))
      )
        return said(b === 'application-default' ? 3 : 2);
      if (a === 'secrets' && b === 'versions' && c === 'access') return said(3);
      return undefined;
    case 'security':
      if (a === 'dump-keychain') return said(1);
      if (
        (a === 'find-generic-password' || a === 'find-internet-password') &&
        inv.args.some((x) => x === '-w' || x === '-g')
      )
        return said(1);
      return undefined;
    case 'cmdkey':
      return inv.args.some((x) => CMDKEY_LIST.test(x)) ? 'cmdkey /list' : undefined;
    case 'kubectl':
      // `config view --raw` prints the kubeconfig with its client keys and tokens (without it, redacted)
      if (a === 'config' && b === 'view' && inv.args.some((x) => x === '--raw' || x === '--raw=true')) return said(2);
      return a === 'get' && (b === 'secret' || b === 'secrets') && inv.args.some((x) => KUBECTL_OUTPUT.test(x))
        ? said(2)
        : undefined;
    case 'vault':
      return (a === 'kv' && b === 'get') || a === 'read' ? said(a === 'kv' ? 2 : 1) : undefined;
    case 'op':
      return a === 'read' || (a === 'item' && b === 'get' && inv.args.includes('--reveal'))
        ? said(a === 'read' ? 1 : 2)
        : undefined;
    case 'pass':
    case 'gopass':
      return a === 'show' ? said(1) : undefined;
    case 'secret-tool':
      return a === 'lookup' ? said(1) : undefined;
    case 'git':
      return a === 'credential' && b === 'fill' ? said(2) : undefined;
    case 'heroku':
      return a === 'auth:token' ? said(1) : undefined;
    case 'bw':
      return a === 'get' && (b === 'password' || b === 'item' || b === 'totp') ? said(2) : undefined;
    case 'doppler':
      return a === 'secrets' && (b === undefined || b === 'get' || b === 'download')
        ? said(b === undefined ? 1 : 2)
        : undefined;
    default:
      return undefined;
  }
}

function baseName(path: string): string {
  return path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1);
}
