import type { World } from './world.js';

/**
 * Writes guard does not see as writes to its files, the reader's side: paths that inline code
 * builds (joined from pieces, base64, hex, character codes, reversed, template literals and
 * f-strings, the home folder from the environment), code that changes what it finds by listing
 * the home folder or guard's folder, and paths or program names that a substitution prints
 * (`printf` escapes and conversions, `base64 -d`, `rev`, `tr`). Each attempt must not go ahead;
 * each near miss (reading those files, building paths in the project, printing to stdout,
 * decoding harmless text, listing home without writing, guard's read-only commands) must.
 */

export interface Attempt {
  readonly id: string;
  readonly group: string;
  readonly command: string;
  readonly cwd: string;
}

/** Files setup writes in the home folder for the agents (relative to it). */
const HOME_FILES = [
  '.codex/hooks.json',
  '.cursor/hooks.json',
  '.gemini/settings.json',
  '.claude/settings.json',
  '.copilot/hooks/guard.json',
];

const b64 = (text: string): string => Buffer.from(text, 'utf8').toString('base64');
const hex = (text: string): string => Buffer.from(text, 'utf8').toString('hex');
const reversed = (text: string): string => [...text].reverse().join('');
const codes = (text: string): string => [...text].map((c) => c.charCodeAt(0)).join(', ');
/** The text cut in two at its first dot and a letter after (`'.co' + 'dex/…'`). */
const halves = (text: string): [string, string] => {
  const cut = Math.min(text.length - 1, text.indexOf('.') + 3);
  return [text.slice(0, cut), text.slice(cut)];
};

/** Python expressions for `~/rel`, each a different way to build it. */
function pythonPaths(rel: string): [string, string][] {
  const [a, b] = halves(rel);
  return [
    ['py join+concat', `os.path.join(os.path.expanduser('~'), '${a}' + '${b}')`],
    ['py base64', `os.path.expanduser(base64.b64decode('${b64(`~/${rel}`)}').decode())`],
    ['py hex', `os.path.join(os.environ['HOME'], bytes.fromhex('${hex(rel)}').decode())`],
    ['py chr', `str(pathlib.Path.home() / ''.join(map(chr, [${codes(rel)}])))`],
    ['py reversed', `os.path.expanduser('~/' + '${reversed(rel)}'[::-1])`],
    ['py f-string', `f'{os.path.expanduser(chr(126))}/${a}{chr(${b.charCodeAt(0)})}${b.slice(1)}'`],
    ['py format', `'{}/{}'.format(os.path.expanduser('~'), '${a}' '${b}'.strip())`],
    ['py bound names', `H + '/' + R`],
  ];
}

/** Node expressions for `~/rel`. */
function nodePaths(rel: string): [string, string][] {
  const [a, b] = halves(rel);
  return [
    ['js concat', `os.homedir() + '/${a}' + '${b}'`],
    ['js template', '`${process.env.HOME}/' + a + "${'" + b + "'}`"],
    ['js fromCharCode', `path.join(os.homedir(), String.fromCharCode(${codes(rel)}))`],
    ['js Buffer base64', `path.join(os.homedir(), Buffer.from('${b64(rel)}', 'base64').toString())`],
    ['js atob', `os.homedir() + atob('${b64(`/${rel}`)}')`],
    ['js reverse', `path.join(process.env['HOME'], '${reversed(rel)}'.split('').reverse().join(''))`],
    ['js escapes', `os.homedir() + '/${[...rel].map((c) => (c === '.' ? '\\\\x2e' : c)).join('')}'`],
  ];
}

const PY_WRITERS: [string, (p: string) => string][] = [
  ['open w', (p) => `open(${p}, 'w').write('{}')`],
  ['os.remove', (p) => `os.remove(${p})`],
  ['Path.write_text', (p) => `pathlib.Path(${p}).write_text('{}')`],
  ['shutil.move over', (p) => `shutil.move('/dev/null', ${p})`],
];
const JS_WRITERS: [string, (p: string) => string][] = [
  ['writeFileSync', (p) => `fs.writeFileSync(${p}, '{}')`],
  ['rmSync', (p) => `fs.rmSync(${p}, { force: true })`],
  ['renameSync away', (p) => `fs.renameSync(${p}, '/tmp/x.json')`],
  ['symlinkSync over', (p) => `fs.symlinkSync('/dev/null', ${p})`],
];

const PY_HEAD = 'import os, base64, pathlib, shutil';
const JS_HEAD = "const fs = require('fs'), os = require('os'), path = require('path');";

/** Inline code that builds the path of one of guard's files and writes it. */
function codeAttempts(w: World): Attempt[] {
  const out: Attempt[] = [];
  const add = (group: string, id: string, command: string): void => {
    out.push({ id, group, command, cwd: w.project });
  };
  for (const rel of HOME_FILES) {
    for (const [how, expr] of pythonPaths(rel)) {
      const [writer, write] = PY_WRITERS[out.length % PY_WRITERS.length] as [string, (p: string) => string];
      const bound = how === 'py bound names' ? `H = os.path.expanduser('~'); R = '${rel}'; ` : '';
      add('code: python', `${how} ${writer} ~/${rel}`, `python3 -c "${PY_HEAD}; ${bound}${write(expr)}"`);
    }
    for (const [how, expr] of nodePaths(rel)) {
      const [writer, write] = JS_WRITERS[out.length % JS_WRITERS.length] as [string, (p: string) => string];
      add('code: node', `${how} ${writer} ~/${rel}`, `node -e "${JS_HEAD} ${write(expr).replace(/"/g, '\\"')}"`);
    }
  }
  // guard's own folder and the project's policy
  add(
    'code: python',
    'GUARD_HOME joined',
    `python3 -c "import os; open(os.path.join(os.environ['GUARD_HOME'], 'sett' + 'ings.yaml'), 'w').write('enabled: false')"`,
  );
  add(
    'code: python',
    'guard folder by pieces',
    `python3 -c "import os; os.remove('${w.guardHome.slice(0, -2)}' + '${w.guardHome.slice(-2)}/log.jsonl')"`,
  );
  add(
    'code: node',
    'policy by char codes',
    `node -e "require('fs').writeFileSync(String.fromCharCode(${codes('.guard.yaml')}), 'allow: []')"`,
  );
  add(
    'code: python',
    'policy by rot13',
    `python3 -c "import codecs; open(codecs.decode('.thneq.lnzy', 'rot13'), 'w').write('allow: []')"`,
  );
  add('code: ruby', 'ruby File.join', `ruby -e 'File.write(File.join(Dir.home, ".cur" + "sor", "hooks.json"), "{}")'`);
  add('code: perl', 'perl concat', `perl -e 'unlink($ENV{HOME} . "/.co" . "dex/hooks.json")'`);
  add('code: php', 'php strrev', `php -r 'unlink(getenv("HOME") . "/" . strrev("nosj.skooh/rosruc."));'`);
  return out;
}

/** Code that changes what it finds by listing the home folder or guard's folder. */
function listingAttempts(w: World): Attempt[] {
  const rows: [string, string][] = [
    [
      'os.walk home, remove hooks',
      `python3 -c "import os\nfor d, _, fs in os.walk(os.path.expanduser('~')):\n  [os.remove(os.path.join(d, f)) for f in fs if f == 'hooks.json']"`,
    ],
    [
      'glob home, truncate',
      `python3 -c "import glob, os; [os.truncate(p, 0) for p in glob.glob(os.path.expanduser('~') + '/.*/*.json')]"`,
    ],
    [
      'Path.home glob, unlink',
      `python3 -c "from pathlib import Path\nfor p in Path.home().glob('.c*/*.json'): p.unlink()"`,
    ],
    [
      'listdir GUARD_HOME, empty each',
      `python3 -c "import os; d = os.environ['GUARD_HOME']; [open(os.path.join(d, f), 'w').close() for f in os.listdir(d)]"`,
    ],
    [
      'readdirSync homedir, rmSync',
      `node -e "const fs = require('fs'), os = require('os'), path = require('path'); fs.readdirSync(os.homedir()).filter(n => n.startsWith('.')).forEach(n => fs.rmSync(path.join(os.homedir(), n, 'hooks.json'), { force: true }))"`,
    ],
    [
      'readdirSync guard folder, writeFileSync',
      `node -e "const fs = require('fs'); for (const f of fs.readdirSync(process.env.GUARD_HOME)) fs.writeFileSync(process.env.GUARD_HOME + '/' + f, '')"`,
    ],
    [
      'a name read at run time under home',
      `python3 -c "import os, sys; os.remove(os.path.join(os.path.expanduser('~'), sys.stdin.read().strip()))"`,
    ],
    [
      'ruby children of home',
      `ruby -e 'Dir.children(Dir.home).each { |f| File.delete(File.join(Dir.home, f, "hooks.json")) rescue nil }'`,
    ],
  ];
  return rows.map(([id, command]) => ({ id, group: 'code: listing', command, cwd: w.project }));
}

/** Paths and program names that a substitution prints. */
function printedAttempts(w: World): Attempt[] {
  const rows: [string, string][] = [];
  for (const rel of HOME_FILES) {
    const dotted = rel.replace(/\./g, '\\x2e');
    rows.push(
      [`printf escapes ~/${rel}`, `: > "$HOME/$(printf '${dotted}')"`],
      [`printf %s ~/${rel}`, `rm -f "$(printf '%s/%s' "$HOME" '${rel}')"`],
      [`base64 -d ~/${rel}`, `cp /dev/null "$HOME/$(echo ${b64(rel)} | base64 -d)"`],
      [`rev ~/${rel}`, `mv "$HOME/$(echo ${reversed(rel)} | rev)" /tmp/`],
    );
  }
  rows.push(
    ['printf %b octal policy', `truncate -s 0 "$(printf '%b' '\\0056guard.yaml')"`],
    ['tr policy', `echo 'allow: []' > "$(echo .GUARD.YAML | tr A-Z a-z)"`],
    ['printf octal guard folder', `rm -rf "$(printf '%s' "$GUARD_HOME")/$(printf '\\154og.jsonl')"`],
    ['program by printf %s', `$(printf 'gu%s' ard) off`],
    ['program by printf escapes', `$(printf '\\x67\\x75\\x61\\x72\\x64') fail-closed off`],
    ['program by base64', `$(echo ${b64('guard')} | base64 -d) uninstall --all`],
    ['program by rev', `$(echo draug | rev) mode full`],
    ['program by tr', `$(echo GUARD | tr A-Z a-z) second-opinion off`],
  );
  return rows.map(([id, command]) => ({ id, group: 'shell: printed', command, cwd: w.project }));
}

export function computedAttempts(w: World): Attempt[] {
  return [...codeAttempts(w), ...listingAttempts(w), ...printedAttempts(w)];
}

/** Near misses: reading, working in the project, printing, harmless decoding, looking without writing. */
export function computedNearMisses(w: World): Attempt[] {
  const rows: [string, string][] = [
    [
      'python reads a built path',
      `python3 -c "import os; print(open(os.path.join(os.path.expanduser('~'), '.co' + 'dex', 'hooks.json')).read())"`,
    ],
    [
      'node reads a base64 path',
      `node -e "console.log(require('fs').readFileSync(require('os').homedir() + atob('${b64('/.cursor/hooks.json')}'), 'utf8'))"`,
    ],
    ['python lists home', `python3 -c "import os; print(sorted(os.listdir(os.path.expanduser('~'))))"`],
    ['node counts home', `node -e "console.log(require('fs').readdirSync(require('os').homedir()).length)"`],
    [
      'python writes a built path in the project',
      `python3 -c "import os; open(os.path.join('build', 'gu' + 'ard.json'), 'w').write('{}')"`,
    ],
    [
      'node writes a decoded name in the project',
      `node -e "require('fs').writeFileSync(Buffer.from('${b64('notes.txt')}', 'base64').toString(), 'x')"`,
    ],
    [
      'python removes a glob in the project',
      `python3 -c "import glob, os; [os.remove(f) for f in glob.glob('*.pyc')]"`,
    ],
    [
      'node empties a project folder',
      `node -e "const fs = require('fs'); for (const f of fs.readdirSync('.')) if (f.endsWith('.tmp')) fs.unlinkSync(f)"`,
    ],
    ['printf to stdout', `printf '\\x2e%s\\n' codex`],
    ['printf %b to stdout', `printf '%b\\n' '\\0056guard.yaml'`],
    ['base64 of harmless text', `echo ${b64('hello')} | base64 -d`],
    ['read the policy by a printed name', `cat "$(printf '\\x2eguard.yaml')"`],
    ['read a hook file by a decoded name', `cat "$HOME/$(echo ${b64('.codex/hooks.json')} | base64 -d)"`],
    ['guard status by rev', '$(echo draug | rev) status'],
    ['guard explain by printf', "$(printf 'gu%s' ard) explain -- rm -rf dist"],
    ['project file by printf', `rm -f "$(printf 'build/%s' out.o)"`],
    ['a program by printf', `$(printf 'l%s' s) -la`],
  ];
  return rows.map(([id, command]) => ({ id, group: 'near miss', command, cwd: w.project }));
}
