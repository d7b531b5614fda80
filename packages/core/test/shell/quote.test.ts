import { describe, expect, it } from 'vitest';
import { readCommand } from '../../src/shell/index.js';
import { quoteWord, type QuoteStyle } from '../../src/shell/quote.js';

const OPTIONS = { cwd: '/work/project', home: '/users/someone', tmp: '/tmp' };

/** The word a shell reads back from `printf %s <quoted>` (guard's own reader, which reads as sh does). */
function readBack(quoted: string): string | undefined {
  const result = readCommand(`printf %s ${quoted}`, OPTIONS);
  expect(result.opaque).toEqual([]);
  expect(result.invocations).toHaveLength(1);
  return result.invocations[0]?.args[1];
}

describe('quoteWord', () => {
  // want: [plain, single, double]
  it.for([
    { word: '/usr/bin/node', want: ['/usr/bin/node', "'/usr/bin/node'", '"/usr/bin/node"'] },
    { word: 'origin/main', want: ['origin/main', "'origin/main'", '"origin/main"'] },
    {
      word: '--force-with-lease=x',
      want: ['--force-with-lease=x', "'--force-with-lease=x'", '"--force-with-lease=x"'],
    },
    {
      word: 'user@host:/srv,a%b+c',
      want: ['user@host:/srv,a%b+c', "'user@host:/srv,a%b+c'", '"user@host:/srv,a%b+c"'],
    },
    { word: 'HEAD~3', want: ['HEAD~3', "'HEAD~3'", '"HEAD~3"'] },
    // near misses of the bare form: a shell would expand or split these
    { word: '~', want: ["'~'", "'~'", '"~"'] },
    { word: '~/notes', want: ["'~/notes'", "'~/notes'", '"~/notes"'] },
    { word: 'PATH=a:~/bin', want: ["'PATH=a:~/bin'", "'PATH=a:~/bin'", '"PATH=a:~/bin"'] },
    { word: 'x=~', want: ["'x=~'", "'x=~'", '"x=~"'] },
    { word: '=ls', want: ["'=ls'", "'=ls'", '"=ls"'] },
    { word: 'My Node', want: ["'My Node'", "'My Node'", '"My Node"'] },
    { word: '', want: ["''", "''", '""'] },
    { word: '*.log', want: ["'*.log'", "'*.log'", '"*.log"'] },
    { word: '#comment', want: ["'#comment'", "'#comment'", '"#comment"'] },
    { word: 'a;b|c&d', want: ["'a;b|c&d'", "'a;b|c&d'", '"a;b|c&d"'] },
    { word: '{a,b}[x]', want: ["'{a,b}[x]'", "'{a,b}[x]'", '"{a,b}[x]"'] },
    { word: "it's done!", want: ["'it'\\''s done!'", "'it'\\''s done!'", '"it\'s done!"'] },
    { word: "'", want: ["''\\'''", "''\\'''", '"\'"'] },
    { word: '$HOME/`id`/$(id)', want: ["'$HOME/`id`/$(id)'", "'$HOME/`id`/$(id)'", '"\\$HOME/\\`id\\`/\\$(id)"'] },
    { word: '"q"\\', want: ['\'"q"\\\'', '\'"q"\\\'', '"\\"q\\"\\\\"'] },
    { word: '/Ünïcødé/ノード', want: ["'/Ünïcødé/ノード'", "'/Ünïcødé/ノード'", '"/Ünïcødé/ノード"'] },
    {
      word: 'C:\\Program Files\\node.exe',
      want: ["'C:\\Program Files\\node.exe'", "'C:\\Program Files\\node.exe'", '"C:\\\\Program Files\\\\node.exe"'],
    },
    // control characters: on one visible line for a person, as they are for the reader
    { word: 'a\nb\tc\u0007', want: ["$'a\\nb\\tc\\x07'", "'a\nb\tc\u0007'", '"a\nb\tc\u0007"'] },
    { word: "it's\n\\", want: ["$'it\\'s\\n\\\\'", "'it'\\''s\n\\'", '"it\'s\n\\\\"'] },
    { word: 'x\u0085y', want: ["$'x\\u0085y'", "'x\u0085y'", '"x\u0085y"'] },
  ])('$word', ({ word, want }) => {
    const styles: readonly QuoteStyle[] = ['plain', 'single', 'double'];
    expect(styles.map((style) => quoteWord(word, style))).toEqual(want);
    expect(quoteWord(word)).toBe(want[0]);
    for (const style of styles) expect(readBack(quoteWord(word, style))).toBe(word);
  });

  it('a script quoted whole is read back byte for byte, newlines and quotes included', () => {
    const script = 'import os\nprint(\'hi there\')\nos.system("rm -rf ~/x $HOME")\n';
    expect(readBack(quoteWord(script, 'single'))).toBe(script);
  });
});
