import { describe, expect, it } from 'vitest';
import type { FileUse, ProgramSource, Role, SubcommandSpec } from '../../src/programs/index.js';
import {
  cloudChange,
  cmdletOf,
  cmdletWith,
  ENTRIES,
  entryName,
  isA,
  namesWith,
  parseArgv,
  powershellOnly,
  program,
  readsWith,
  sourceOf,
  writesFiles,
} from '../../src/programs/index.js';

// The program knowledge base: one entry per program, found by any of its names in O(1).

describe('the entries', () => {
  it('give each name to one entry only', () => {
    const owners = new Map<string, string>();
    const twice: string[] = [];
    for (const entry of ENTRIES) {
      for (const name of entry.names) {
        if (owners.has(name)) twice.push(`${name}: ${owners.get(name)} and ${entry.names[0]}`);
        owners.set(name, entry.names[0] as string);
      }
    }
    expect(twice).toEqual([]);
  });

  it('write names as Invocation.name has them (lower case, no .exe)', () => {
    const odd = ENTRIES.flatMap((entry) => [...entry.names, ...(entry.aliases ?? [])]).filter(
      (name) => name !== name.toLowerCase() || /\.(?:exe|cmd|bat|com)$/.test(name) || name.includes('/'),
    );
    expect(odd).toEqual([]);
  });

  it("read a runner's own options before the command it runs", () => {
    // not where the command is an option's value (`git rebase --exec CMD`), follows an option
    // (`nix develop … -c cmd`), or is each operand (`hyperfine CMD…`): there options come anywhere
    const runners = ENTRIES.flatMap((entry) =>
      (entry.runs ?? []).flatMap((how) =>
        'argv' in how &&
        how.argv !== undefined &&
        how.kind !== 'option-text' &&
        !(how.kind === 'env-runner' && (how.after !== undefined || how.each === true))
          ? [[entry.names[0], how.argv]]
          : [],
      ),
    );
    expect(runners.length).toBeGreaterThan(5);
    expect(runners.filter(([, argv]) => (argv as { leading?: boolean }).leading !== true)).toEqual([]);
  });

  it('say how a shell or interpreter takes what it runs, and in which syntax or language', () => {
    const missing = ENTRIES.filter(
      (entry) =>
        (entry.roles?.includes('shell') === true && (entry.source === undefined || entry.dialect === undefined)) ||
        (entry.roles?.includes('inline-code') === true && entry.language === undefined) ||
        (entry.roles?.includes('script-runner') === true && entry.script === undefined) ||
        (entry.roles?.includes('prefix') === true && entry.prefix === undefined),
    ).map((entry) => entry.names[0]);
    expect(missing).toEqual([]);
  });
});

/** What is wrong with a file use as written: it must name files one way, and say only what that way reads. */
function fileUseProblems(use: FileUse): string[] {
  const ways = [
    use.options !== undefined || use.operands !== undefined || use.here === true,
    use.assigned !== undefined,
    use.urls !== undefined,
  ].filter(Boolean).length;
  const copy = use.operands === 'sources' || use.operands === 'destination';
  const problems: string[] = [];
  if (ways !== 1) problems.push('names files in no way or in several');
  if ((use.target !== undefined || use.remote === true) && !copy) problems.push('a copy setting on no copy');
  if (use.within !== undefined && use.options === undefined && use.operands === undefined)
    problems.push('looks inside values it has none of');
  if ((use.append !== undefined || use.how === 'truncate' || use.how === 'append') && use.op !== 'write')
    problems.push('appends or truncates on no write');
  if (use.sends === true && use.op !== 'read') problems.push('sends what it does not read');
  return problems;
}

describe('file uses', () => {
  it.for([
    [{ op: 'write', options: ['-o'] }, []],
    [{ op: 'read', how: 'copy', operands: 'sources', target: ['-t'] }, []],
    [{ op: 'write', options: ['-Path'], operands: 0 }, []],
    [{ op: 'read', assigned: 'if' }, []],
    [{ op: 'write', urls: {} }, []],
    [{ op: 'write', how: 'into', here: true }, []],
    [{ op: 'write', how: 'into', options: ['-C'], here: true }, []],
    [{ op: 'write', how: 'into', here: true, assigned: 'of' }, ['names files in no way or in several']],
    [{ op: 'read' }, ['names files in no way or in several']],
    [{ op: 'read', assigned: 'if', operands: 'all' }, ['names files in no way or in several']],
    [{ op: 'write', operands: 'all', target: ['-t'] }, ['a copy setting on no copy']],
    [{ op: 'read', urls: {}, within: 'at' }, ['looks inside values it has none of']],
    [{ op: 'read', operands: 'all', append: ['-a'] }, ['appends or truncates on no write']],
    [{ op: 'write', operands: 'all', sends: true }, ['sends what it does not read']],
  ] as const)('%j: %j', ([use, want]) => {
    expect(fileUseProblems(use)).toEqual(want);
  });

  it('are written as they are read, in every entry and subcommand', () => {
    const uses: [string, FileUse][] = [];
    const fromSubcommands = (name: string, subcommands: Readonly<Record<string, SubcommandSpec>> | undefined): void => {
      for (const [word, spec] of Object.entries(subcommands ?? {})) {
        for (const use of spec.files ?? []) uses.push([`${name} ${word}`, use]);
        fromSubcommands(`${name} ${word}`, spec.subcommands);
      }
    };
    for (const entry of ENTRIES) {
      for (const use of entry.files ?? []) if (!('language' in use)) uses.push([entryName(entry), use]);
      fromSubcommands(entryName(entry), entry.subcommands);
    }
    expect(uses.length).toBeGreaterThan(30);
    expect(uses.flatMap(([name, use]) => fileUseProblems(use).map((problem) => `${name}: ${problem}`))).toEqual([]);
  });
});

describe('looking a program up', () => {
  it.for([
    ['rbash', 'sh'],
    ['python3.12', 'python'],
    ['pypy3', 'python'],
    ['py', 'python'],
    ['pip3.11', 'pip'],
    ['php8.2', 'php'],
    ['nodejs', 'node'],
    ['ri', 'remove-item'],
    ['gci', 'get-childitem'],
    ['iwr', 'invoke-webrequest'],
    ['rm', 'rm'],
    ['ls', 'ls'],
    ['curl', 'curl'],
    ['ncat', 'nc'],
  ] as const)('%s is the entry %s', ([name, entry]) => {
    const found = program(name);
    expect(found && entryName(found)).toBe(entry);
  });

  it.for(['node18x', 'git2', '3.12', '....', '', 'constructor', 'toString', '__proto__', 'hasOwnProperty'])(
    '%s is no program it knows',
    (name) => {
      expect(program(name)).toBeUndefined();
    },
  );

  it('finds a 100 KB name that ends in digits and dots in linear time', () => {
    expect(program(`x${'.'.repeat(100_000)}`)).toBeUndefined();
    expect(program(`${'.'.repeat(100_000)}x`)).toBeUndefined();
  });

  it.for([
    ['shell', ['sh', 'bash', 'dash', 'zsh', 'ksh', 'mksh', 'ash', 'rbash', 'fish', 'pwsh', 'powershell', 'cmd']],
    ['inline-code', ['python', 'python3', 'node', 'nodejs', 'bun', 'deno', 'ruby', 'perl', 'php', 'awk', 'gawk']],
    ['http-client', ['curl', 'wget', 'http', 'xh', 'fetch', 'iwr', 'irm', 'invoke-webrequest', 'start-bitstransfer']],
    ['deleter', ['rm', 'unlink', 'shred', 'srm', 'del', 'erase', 'rd', 'remove-item', 'ri', 'rmdir', 'trash']],
    ['lister', ['find', 'ls', 'get-childitem', 'gci', 'get-item', 'gi']],
    ['remote-runner', ['ssh', 'docker', 'podman', 'kubectl', 'oc']],
    ['package-manager', ['npm', 'pnpm', 'yarn', 'bun', 'pip', 'pip3', 'uv', 'cargo', 'apt-get', 'brew']],
    ['prefix', ['sudo', 'doas', 'env', 'nice', 'nohup', 'timeout', 'stdbuf', 'time', 'command', 'exec']],
  ] as const)('%s: every spelling has the role', ([role, names]) => {
    expect(names.filter((name) => !isA(name, role as Role))).toEqual([]);
    // the names a rule may be gated on: every spelling but the versioned ones (`python3`), found by program()
    const versioned = names.filter((name) => program(name)?.versioned === true && !program(name)?.names.includes(name));
    expect(names.filter((name) => !namesWith(role as Role).has(name))).toEqual(versioned);
  });

  it.for(['ls', 'echo', 'git', 'npm', 'grep'])('%s is no shell', (name) => {
    expect(isA(name, 'shell')).toBe(false);
  });

  it.for([
    ['rm', 'remove-item'],
    ['del', 'remove-item'],
    ['ri', 'remove-item'],
    ['ls', 'get-childitem'],
    ['dir', 'get-childitem'],
    ['cd', 'set-location'],
    ['sl', 'set-location'],
    ['pushd', 'push-location'],
    ['iex', 'invoke-expression'],
    ['write-host', 'write-host'],
    ['Remove-Item'.toLowerCase(), 'remove-item'],
  ] as const)('in a PowerShell line %s is %s', ([name, cmdlet]) => {
    expect(cmdletOf(name)).toBe(cmdlet);
  });

  it.for(['bash', 'git', 'grep', 'python'])('%s is no cmdlet', (name) => {
    expect(cmdletOf(name)).toBeUndefined();
  });

  it.for([
    ['gci', 'lister', true],
    ['dir', 'lister', true],
    ['Get-Item'.toLowerCase(), 'lister', true],
    ['where', 'filter', true],
    ['?', 'filter', true],
    // near misses: a POSIX program of the role, a cmdlet without it, no cmdlet at all
    ['find', 'lister', false],
    ['gc', 'lister', false],
    ['frobnicate', 'lister', false],
  ] as const)('%s stands for a cmdlet that is a %s: %s', ([name, role, want]) => {
    expect(cmdletWith(name, role)).toBe(want);
  });
});

describe('which programs may change or make the files their words name', () => {
  it.for([
    ['rm', true],
    ['touch', true],
    ['cp', true],
    ['dd', true],
    ['chmod', true],
    ['sed', true],
    ['perl', true],
    ['curl', true],
    ['sort', true],
    ['find', true],
    ['Set-Content'.toLowerCase(), true],
    // near misses: readers, a looker, a program whose subcommand writes, one it does not know
    ['cat', false],
    ['grep', false],
    ['ls', false],
    ['git', false],
    ['crontab', false],
    ['frobnicate', false],
  ] as const)('%s: %s', ([name, want]) => {
    expect(writesFiles(name)).toBe(want);
  });
});

// What a shell, an interpreter or eval runs: one definition for the reader and the analysis.
const text = (index: number, joined = false, dialect = 'posix', offset = 0): ProgramSource =>
  ({ kind: 'text', at: { index, offset }, joined, dialect }) as ProgramSource;
const code = (language: string, ...parts: readonly (readonly [number, number])[]): ProgramSource =>
  ({ kind: 'code', parts: parts.map(([index, offset]) => ({ index, offset })), language }) as ProgramSource;

describe('sourceOf', () => {
  it.for<readonly [string, ProgramSource]>([
    ['bash -c x', text(1)],
    ['rbash -o pipefail -c x', text(3)],
    ['bash -xc x', text(1)],
    ['bash --command x', text(1)],
    ['fish -c x', text(1)],
    ['busybox-awk x', code('awk', [0, 0])],
    ['bash script.sh a', { kind: 'script', index: 0, language: 'shell' }],
    ['mksh script.sh', { kind: 'script', index: 0, language: 'shell' }],
    ['bash - script.sh', { kind: 'script', index: 1, language: 'shell' }],
    ['bash', { kind: 'stdin', dialect: 'posix' }],
    ['bash -', { kind: 'stdin', dialect: 'posix' }],
    ['bash -s a b', { kind: 'stdin', dialect: 'posix' }],
    ['bash /dev/stdin', { kind: 'stdin', dialect: 'posix' }],
    ['pwsh -Command Get-Date -Format o', text(1, true, 'powershell')],
    ['pwsh -c -', { kind: 'stdin', dialect: 'powershell' }],
    ['pwsh', { kind: 'stdin', dialect: 'powershell' }],
    ['pwsh -NoProfile -File x.ps1', { kind: 'script', index: 2, language: 'powershell' }],
    ['pwsh -ExecutionPolicy Bypass x.ps1', { kind: 'script', index: 2, language: 'powershell' }],
    ['powershell Get-Date', text(0, true, 'powershell')],
    ['pwsh -enc AAAA', { kind: 'encoded', index: 0 }],
    ['powershell -ep bypass -EncodedCommand AAAA', { kind: 'encoded', index: 2 }],
    ['cmd /c del x', text(1, true, 'cmd')],
    ['cmd /s /c x', text(2, true, 'cmd')],
    ['cmd', { kind: 'stdin', dialect: 'cmd' }],
    ['cmd x', { kind: 'none' }],
    ['python -c x', code('python', [1, 0])],
    ['python3.12 -Bc x', code('python', [1, 0])],
    ['python -m pip install x', { kind: 'none' }],
    ['python tool.py', { kind: 'script', index: 0, language: 'python' }],
    ['python', { kind: 'stdin', dialect: 'posix', language: 'python' }],
    ['python -', { kind: 'stdin', dialect: 'posix', language: 'python' }],
    ['node --eval=x', code('node', [0, 7])],
    ['node -r dotenv/config app.js', { kind: 'script', index: 2, language: 'node' }],
    ['perl -ne a -e b f', code('perl', [1, 0], [3, 0])],
    ['php -r x', code('php', [1, 0])],
    ['php -f tool.php', { kind: 'script', index: 1, language: 'php' }],
    ['bun run dev', { kind: 'script', index: 1, language: 'node' }],
    ['bun install', { kind: 'none' }],
    ['deno run -A x.ts', { kind: 'script', index: 2, language: 'node' }],
    ['deno eval x', code('deno', [1, 0])],
    ['awk -F , {x} f', code('awk', [2, 0])],
    ['awk -f prog.awk f', { kind: 'none' }],
    ['eval a b', text(0, true)],
    ['source x.sh', { kind: 'script', index: 0, language: 'shell' }],
    ['. /dev/stdin', { kind: 'stdin', dialect: 'posix' }],
    ['tsx x.ts', { kind: 'script', index: 0, language: 'node' }],
    ['ls -la', { kind: 'none' }],
  ])('%s', ([line, expected]) => {
    const [name, ...args] = line.split(' ');
    expect(sourceOf(name as string, args)).toEqual(expected);
  });
});

describe("PowerShell's parameters by any unambiguous start of their name", () => {
  const named = (line: string): string[] => {
    const [name = '', ...args] = line.split(' ');
    return parseArgv(args, readsWith(program(name.toLowerCase()))).options.map((o) =>
      o.value === undefined ? o.name : `${o.name}=${o.value}`,
    );
  };
  it.for<readonly [string, readonly string[]]>([
    ['Remove-Item -Recu -Forc x', ['-Recurse', '-Force']],
    ['ri -r -fo x', ['-Recurse', '-Force']],
    ['Remove-Item -lit x -rec', ['-LiteralPath=x', '-Recurse']],
    ['Remove-Item -LITERALP x', ['-LiteralPath=x']],
    ['Stop-Process -n node', ['-Name=node']],
    ['spps -proc node', ['-ProcessName=node']],
    ['Copy-Item a -Dest b', ['-Destination=b']],
    ['Get-Content -T 5 a', ['-T']], // -TotalCount and -Tail: PowerShell refuses it, and so it stays as written
    ['Remove-Item -e Stop x', ['-e']], // -ErrorAction, -ErrorVariable, …: ambiguous
    ['Remove-Item -Recurse x', ['-Recurse']],
    ['Remove-Item -Zzz x', ['-Zzz']],
  ])('%s', ([line, options]) => {
    expect(named(line)).toEqual(options);
  });
  // near misses: programs that are no cmdlet keep their own options
  it.for<readonly [string, readonly string[]]>([
    ['rm -r x', ['-r']],
    ['find . -na x', ['-na']],
  ])('%s', ([line, options]) => {
    expect(named(line)).toEqual(options);
  });
});

describe('PowerShell-only aliases and cloud cmdlets', () => {
  it.for(['ri', 'gci', 'gc', 'iwr', 'irm', 'iex', 'spps', 'sls', 'saps', 'ni', 'cpi', 'mi', 'clc'])(
    '%s is only PowerShell’s',
    (name) => {
      expect(powershellOnly(name, cmdletOf(name))).toBe(true);
    },
  );
  it.for(['rm', 'ls', 'cat', 'echo', 'curl', 'kill', 'cp', 'del', 'dir', 'sc', 'remove-item', 'git', 'npm'])(
    '%s is not only PowerShell’s',
    (name) => {
      expect(powershellOnly(name, cmdletOf(name))).toBe(false);
    },
  );
  it.for([
    'remove-azresourcegroup',
    'remove-azvm',
    'remove-s3bucket',
    'remove-ec2instance',
    'stop-ec2instance',
    'remove-azureaduser',
    'remove-mguser',
    'remove-gcsbucket',
    'remove-azkeyvault',
    'clear-azkeyvaultsecret',
    'unregister-azresourceprovider',
  ])('%s changes a cloud', (name) => {
    expect(cloudChange(name)).toBe(true);
  });
  it.for([
    'get-azvm',
    'get-s3bucket',
    'new-azresourcegroup',
    'test-azresourcegroupdeployment',
    'clear-azcontext',
    'remove-azaccount',
    'remove-item',
    'stop-process',
    'remove-module',
    'stop-service',
    'remove-printer',
  ])('%s changes no cloud', (name) => {
    expect(cloudChange(name)).toBe(false);
  });
});
