import { changesFile } from '../analysis/effects.js';
import { printedCredential } from '../analysis/credentials.js';
import type { FileEffect } from '../context/types.js';
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
/** Whether the knowledge base knows commands of the program that print a stored credential. */
function printsCredentials(name: string): boolean {
  return program(name)?.credentials !== undefined;
}
/** The advice for a command that prints a credential: not a file to leave alone, a value to use without showing. */
const PRINTER_REASON =
  "This command prints a stored secret (a token, password or key), which then sits in the chat and the logs and cannot be taken back; use it without showing it (for example `GH_TOKEN=$(gh auth token) gh api …`, or the tool's own way of passing it to a command), or let the person run it.";
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
      // what the knowledge base says prints a stored credential (`gh auth token`, `pass show x`)
      const login = printsCredentials(inv.name) ? printedCredential(inv, context.argv(inv)) : undefined;
      if (login !== undefined && outputShown(context, inv))
        hits.push({ span: inv.span, detail: login, reason: PRINTER_REASON });
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

function baseName(path: string): string {
  return path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1);
}
