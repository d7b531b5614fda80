import { unresolvedCodeChange } from '../analysis/code-paths.js';
import type { Hit, Rule } from '../rule.js';
import type { Opaque } from '../shell/index.js';
import { READ_LIMITS } from '../shell/index.js';

const SPLIT = 'split it into plain commands';
/** How the reader ends the detail of a program word that is a file name pattern (`/???/rm`). */
const PATTERN = ', a pattern that names no program guard knows';

/** What guard tells about each kind of part it could not read. */
function reasonOf(part: Opaque): string {
  const detail = part.detail === undefined ? '' : shorten(part.detail);
  switch (part.reason) {
    case 'dynamic-program': {
      const raw = part.detail ?? '';
      if (raw.endsWith(PATTERN)) {
        const word = raw.slice(0, -PATTERN.length);
        // `?{ $_.x }`: PowerShell's `?` with a script block, which a POSIX shell reads as a pattern
        const what = /[{}]/.test(word)
          ? 'names no program guard knows (a POSIX shell reads it as a file name pattern, PowerShell as a command with a script block)'
          : 'is a file name pattern that names no program guard knows';
        return `guard cannot tell which program this runs: ${shorten(word)} ${what}, so what runs depends on the shell and the files present; write the program's name out.`;
      }
      const by = /^"?\$[@*]"?$/.test(raw)
        ? `the arguments the script or function is called with (${raw})`
        : detail || 'a variable or a substitution';
      return `guard cannot tell which program this runs: it is decided by ${by} when the command runs; write the program's name out.`;
    }
    case 'dotnet-call':
      return `guard cannot tell what the .NET call ${detail || 'here'} does (it can read, delete or start anything); use a command or cmdlet guard can read instead.`;
    case 'unbalanced-quote':
      return `guard could not read this command: a quote opens and never closes, so it cannot tell where the words end or what would run; close the quote or ${SPLIT}.`;
    case 'unterminated-substitution':
      return `guard could not read this command: a substitution ($(…), backticks or \${…}) opens and never closes, so it cannot tell what would run; close it or ${SPLIT}.`;
    case 'unfinished':
      return `guard could not read this command: it is unfinished (${detail || 'a part left open'}), so a shell would reject it or wait for the rest, and guard cannot tell what was meant to run; finish it or ${SPLIT}.`;
    case 'unterminated-heredoc':
      return `guard could not read this command: a heredoc's end marker never comes, so it cannot tell where the text ends and the commands start again; end the heredoc or ${SPLIT}.`;
    case 'too-deep':
      return `guard could not read all of this command: it nests shells, substitutions, groups or functions deeper than guard follows (${READ_LIMITS.depth} levels), so it cannot tell what the inner part would do; ${SPLIT}.`;
    case 'too-long':
    case 'too-many-stages':
      return `guard could not read all of this command: it is longer than guard reads (${detail || 'too long'}), so it cannot tell what the rest would do; ${SPLIT}.`;
    default:
      return `guard could not read this command (a redirection or an operator with nothing it applies to), so it cannot tell what it would do; ${SPLIT}.`;
  }
}

/** Code that changes files whose names it works out when it runs, where guard's and the agents' files are. */
const CODE_TARGET =
  "guard cannot tell which files this code changes: it works the path out when it runs (from a listing, a loop or a value it reads) in the home folder or guard's own folders, where guard's and the agents' files are; name the files in the code, or run it on a folder of the project.";

function shorten(text: string): string {
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** SPEC 4.3: what the reader cannot read is not allowed silently. */
export const shellOpaque = {
  meta: {
    id: 'shell.opaque',
    decision: 'ask',
    remember: 'every-time',
    concern: 'destructive',
    asksInEveryMode: 'worst-case',
    title: 'a command guard cannot read',
    reason:
      'guard could not read this command (a quote or substitution left open, a program chosen when it runs, or too deep or too long), so it cannot tell what it would do; split it into plain commands.',
    owasp: [],
    examples: {
      match: [
        'echo "unterminated',
        'ls && rm -rf "$(echo',
        '$CMD --version',
        `python3 -c "import os; h = os.path.expanduser('~'); [os.remove(os.path.join(h, f)) for f in os.listdir(h)]"`,
      ],
      noMatch: [
        'echo "balanced"',
        "git commit -m 'it''s fine'",
        `python3 -c "import os; print(os.listdir(os.path.expanduser('~')))"`,
        `python3 -c "import glob, os; [os.remove(f) for f in glob.glob('build/*.o')]"`,
      ],
    },
  },
  check(context) {
    const hits: Hit[] = context.opaque.map((part) => ({ span: part.span, reason: reasonOf(part) }));
    // code this chat wrote that the step runs, and that guard could not read (../context/chat-code.ts)
    for (const code of context.chatCode())
      if (code.unread !== undefined)
        hits.push({
          span: code.invocation.span,
          reason: `This step runs ${code.label}, which this chat wrote, and ${code.unread}, so guard cannot tell what it would do; read it first, or run what you need directly.`,
        });
    for (const inv of context.invocations) {
      const change = inv.code === undefined ? undefined : unresolvedCodeChange(inv, context);
      if (change !== undefined) hits.push({ span: change.span, reason: CODE_TARGET, detail: change.detail });
    }
    return hits;
  },
} as const satisfies Rule;
