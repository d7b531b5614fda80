import { describe, expect, it } from 'vitest';
import type { Language } from '../../src/programs/index.js';
import { foldCode, fromBase64 } from '../../src/shell/fold.js';

/** What the code computes: every folded string, and each file call's targets ('?' where unresolved). */
function folded(language: Language, code: string): { strings: string[]; calls: string[] } {
  const result = foldCode(language, code);
  return {
    strings: result.strings.map((s) => s.value),
    calls: result.fileCalls.map((call) => `${call.name}(${call.targets.map((t) => t ?? '?').join(', ')})`),
  };
}

// constant strings the code builds: each must be folded to exactly this value
const FOLDS: readonly [Language, string, string][] = [
  ['python', `p = '.co' + 'dex'`, '.codex'],
  ['python', `x = os.path.join(os.path.expanduser('~'), '.ge' + 'mini', 'settings.json')`, '~/.gemini/settings.json'],
  ['python', `import os; h = os.environ['HOME']; t = h + '/.x'`, '~/.x'],
  ['python', `t = os.getenv('HOME') + '/.y'`, '~/.y'],
  ['python', `t = os.environ.get("USERPROFILE") + "/.z"`, '~/.z'],
  ['python', `from pathlib import Path; q = Path.home() / '.re' / 'lay'`, '~/.re/lay'],
  ['python', `import pathlib; q = pathlib.Path('~').expanduser() / 'a'`, '~/a'],
  ['python', `n = chr(46) + 'relay'`, '.relay'],
  ['python', `n = ''.join(chr(c) for c in [46, 114, 101])`, '.re'],
  ['python', `n = ''.join(map(chr, [46, 103]))`, '.g'],
  ['python', `n = '\\x2erelay'`, '.relay'],
  ['python', `n = '\\u002erelay'`, '.relay'],
  ['python', `import base64; n = base64.b64decode('LnJlbGF5').decode()`, '.relay'],
  ['python', `n = bytes.fromhex('2e72656c6179').decode('utf-8')`, '.relay'],
  ['python', `n = 'yaler.'[::-1]`, '.relay'],
  ['python', `n = ''.join(reversed('yaler.'))`, '.relay'],
  ['python', `n = f"{os.path.expanduser('~')}/.relay"`, '~/.relay'],
  ['python', `h = os.path.expanduser('~')\nn = f'{h}/.relay/hooks.json'`, '~/.relay/hooks.json'],
  ['python', `n = '{}/{}'.format('a', 'b')`, 'a/b'],
  ['python', `n = '.re' 'lay'`, '.relay'],
  ['python', `n = f'{os.path.expanduser(chr(126))}/.relay'`, '~/.relay'],
  ['python', `n = '%s/.relay' % os.environ['HOME']`, '~/.relay'],
  ['python', `import codecs; n = codecs.decode('.erynl', 'rot13')`, '.relay'],
  ['python', `from os.path import join as j, expanduser as e; n = j(e('~'), '.relay')`, '~/.relay'],
  ['python', `n = os.environ['GUARD_HOME'] + '/settings.yaml'`, '$GUARD_HOME/settings.yaml'],
  ['python', `n = os.environ['RELAY_HOME'] + '/hooks.json'`, '$RELAY_HOME/hooks.json'],
  ['node', `const p = '.co' + 'dex'`, '.codex'],
  ['node', 'const p = `${require("os").homedir()}/.relay`', '~/.relay'],
  ['node', `const p = require('path').join(process.env.HOME, '.relay')`, '~/.relay'],
  [
    'node',
    `const os = require('os'), path = require('node:path'); const p = path.join(os.homedir(), '.relay')`,
    '~/.relay',
  ],
  ['node', `const { join } = require('path'); const p = join(process.env['HOME'], 'x')`, '~/x'],
  ['node', `const p = String.fromCharCode(46, 114) + 'elay'`, '.relay'],
  ['node', `const p = String.fromCharCode(...[46, 114])`, '.r'],
  ['node', `const p = [46, 114].map(c => String.fromCharCode(c)).join('')`, '.r'],
  ['node', `const p = atob('LnJlbGF5')`, '.relay'],
  ['node', `const p = Buffer.from('LnJlbGF5', 'base64').toString()`, '.relay'],
  ['node', `const p = Buffer.from('2e72656c6179', 'hex').toString('utf8')`, '.relay'],
  ['node', `const p = 'yaler.'.split('').reverse().join('')`, '.relay'],
  ['node', `const p = [...'yaler.'].reverse().join('')`, '.relay'],
  ['node', `const p = '\\x2e\\u0072\\u{65}lay'`, '.relay'],
  ['node', `const p = 'a.relay'.slice(1)`, '.relay'],
  ['node', `const p = '.RELAY'.toLowerCase()`, '.relay'],
  ['ruby', `p = File.join(Dir.home, '.re' + 'lay')`, '~/.relay'],
  ['ruby', `p = "#{Dir.home}/.relay"`, '~/.relay'],
  ['ruby', `p = 'yaler.'.reverse`, '.relay'],
  ['perl', `my $p = $ENV{HOME} . '/.re' . 'lay';`, '~/.relay'],
  ['perl', `my $p = "$ENV{HOME}/.relay";`, '~/.relay'],
  ['php', `$p = getenv('HOME') . '/' . strrev('yaler.');`, '~/.relay'],
  ['php', `$p = base64_decode('LnJlbGF5');`, '.relay'],
];

// near misses: nothing is folded from a value known only at run time
const UNKNOWN: readonly [Language, string][] = [
  ['python', `import sys; n = sys.argv[1] + '/x'`],
  ['python', `n = input() + '.relay'`],
  ['python', `for f in os.listdir('.'): n = f + '.bak'`],
  ['python', `n = 'a'\nn = 'b' + n`],
  ['node', `const p = process.argv[2] + '/x'`],
  ['node', `let p = 'a'; p += 'b'; const q = p + 'c'`],
  ['node', 'const p = `${x}/y`'],
  ['python', `n = f"{x!r}/y"`],
  // a variable that names no folder is a value read at run time
  ['python', `n = os.environ['TARGET'] + '/x'`],
  ['node', `const p = process.env.OUT + '/x'`],
];

// file calls and their targets, as far as they fold
const CALLS: readonly [Language, string, string][] = [
  [
    'python',
    `import os; os.remove(os.path.join(os.path.expanduser('~'), '.relay', 'hooks.json'))`,
    'remove(~/.relay/hooks.json)',
  ],
  ['python', `open(os.environ['HOME'] + '/.relay/x', 'w').write('')`, 'open(~/.relay/x)'],
  ['python', `import shutil; shutil.rmtree(os.path.expanduser('~') + '/.re' + 'lay')`, 'rmtree(~/.relay)'],
  [
    'python',
    `from pathlib import Path; (Path.home() / '.relay' / 'hooks.json').write_text('{}')`,
    'write_text(~/.relay/hooks.json)',
  ],
  [
    'python',
    `import os; h = os.path.expanduser('~')\nfor f in os.listdir(h): os.remove(os.path.join(h, f))`,
    'remove(?)',
  ],
  ['python', `from pathlib import Path\nfor p in Path.home().iterdir(): p.unlink()`, 'unlink(?)'],
  ['python', `import pathlib; pathlib.Path(input()).touch()`, 'touch(?)'],
  ['php', `unlink('a.txt');`, 'unlink(a.txt)'],
  ['python', `import os; os.rename('a', os.path.expanduser('~/.relay/hooks.json'))`, 'rename(a, ~/.relay/hooks.json)'],
  [
    'node',
    `require('fs').writeFileSync(require('os').homedir() + '/.re' + 'lay/hooks.json', '{}')`,
    'writeFileSync(~/.relay/hooks.json)',
  ],
  [
    'node',
    `const fs = require('fs'), h = require('os').homedir(); fs.readdirSync(h).forEach(f => fs.rmSync(h + '/' + f, { recursive: true }))`,
    'rmSync(?)',
  ],
  ['node', `const fs = require('fs'); fs.renameSync('x', atob('fi8ucmVsYXk='))`, 'renameSync(x, ~/.relay)'],
  ['ruby', `File.write(File.join(Dir.home, '.relay', 'x'), '')`, 'write(~/.relay/x)'],
  ['perl', `open(my $f, '>', $ENV{HOME} . '/.relay/x');`, 'open(~/.relay/x)'],
  ['php', `file_put_contents(getenv('HOME') . '/.relay/x', '');`, 'file_put_contents(~/.relay/x)'],
];

// not file calls: reading, a list's remove, a string's replace, opening to read
const NOT_CALLS: readonly [Language, string][] = [
  ['python', `print(open(os.path.expanduser('~/.relay/hooks.json')).read())`],
  ['python', `xs = [1, 2]; xs.remove(1)`],
  ['python', `s = name.replace('a', 'b')`],
  ['python', `open('notes.txt', 'r')`],
  ['python', `x = os.path.join('a', 'b')`],
  ['node', `console.log(require('fs').readFileSync(require('os').homedir() + '/.relay/hooks.json', 'utf8'))`],
  ['node', `const s = 'abc'.replace('a', 'b')`],
];

describe('constant folding in inline code', () => {
  it.for(FOLDS)('%s: %s folds to %s', ([language, code, value]) => {
    expect(folded(language, code).strings).toContain(value);
  });
  it.for(UNKNOWN)('%s: %s folds nothing', ([language, code]) => {
    expect(folded(language, code).strings.filter((s) => s.includes('/') || s.includes('.'))).toEqual([]);
  });
  it.for(CALLS)('%s: %s changes %s', ([language, code, call]) => {
    expect(folded(language, code).calls).toContain(call);
  });
  it.for(NOT_CALLS)('%s: %s changes no file', ([language, code]) => {
    expect(folded(language, code).calls).toEqual([]);
  });
  it('decodes base64 without Buffer, and refuses what is not base64', () => {
    expect(fromBase64('LnJlbGF5')).toBe('.relay');
    expect(fromBase64('4pyTIMOgIGxhIG1vZGU=')).toBe('✓ à la mode');
    expect(fromBase64('not base64!')).toBeUndefined();
  });
  it('stays bounded on long and nested code', () => {
    const long = `x = ${"'a' + ".repeat(20000)}'b'`;
    const nested = `x = ${'('.repeat(5000)}'a'${')'.repeat(5000)}`;
    const started = Date.now();
    foldCode('python', long);
    foldCode('python', nested);
    foldCode('node', '['.repeat(50000));
    expect(Date.now() - started).toBeLessThan(2000);
  });
});
