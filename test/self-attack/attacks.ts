import type { AgentId } from '../../packages/adapters/src/index.js';
import { AGENTS } from '../../packages/adapters/src/index.js';
import { fixture } from '../../packages/cli/test/hook-cases.js';
import type { World } from './world.js';

/**
 * The tamper attempts, generated from tables: each of guard's own files and folders (its settings,
 * log and folder, every agent's hook files at both levels, the project's policy files, guard's own
 * package), spelled every way a shell reaches them (`~`, `$HOME`, `$GUARD_HOME`, absolute, relative
 * after `cd`, a glob, a link made earlier), times every writer the reader knows (redirections, file
 * programs, in-place editors, interpreters' inline code, wrappers); guard's CLI reached by every
 * path to it; forged payloads for its hook; each agent's own write tools on each target. None of
 * them may go ahead. Near misses (reading guard's files, its read-only commands, files that only
 * share a name) must.
 */

export interface ShellAttempt {
  readonly id: string;
  readonly group: string;
  readonly command: string;
  readonly cwd: string;
}

export interface ToolAttempt {
  readonly id: string;
  readonly group: string;
  readonly agent: AgentId;
  readonly payload: Record<string, unknown>;
}

/** A path as a command spells it, and the folder the command runs in. */
interface Spelled {
  readonly how: string;
  /** The path word (shell syntax: `~`, `$VAR`, globs are the shell's). */
  readonly path: string;
  /** Runs `cd` first and names the file relative to it. */
  readonly cd?: { readonly dir: string; readonly base: string };
  /** Holds an unquoted glob: no writer that needs one word from it (find -name) is made. */
  readonly glob?: boolean;
  /** Can be put inside double quotes for an interpreter's code (no `~`, no glob). */
  readonly quotable: boolean;
}

interface Target {
  readonly name: string;
  readonly kind: 'file' | 'folder';
  /** Filling it with a new file is an attack too (guard's folder, its package). */
  readonly fillable?: boolean;
  /** What it holds of guard's is all in dotted folders, which the shell's `*` does not match. */
  readonly dotted?: boolean;
  readonly spellings: readonly Spelled[];
}

const plain = (how: string, path: string): Spelled => ({ how, path, quotable: !path.startsWith('~') });
const globbed = (how: string, path: string): Spelled => ({ how, path, glob: true, quotable: false });
const inFolder = (dir: string, base: string): Spelled => ({
  how: 'cd',
  path: base,
  cd: { dir, base },
  quotable: true,
});

/**
 * The agents' hook files and folders, as the adapters declare them (files.ts): in the home folder,
 * in a folder a variable moves, in the project. A folder of hook files (`dir/**`) is attacked
 * through a hook file in it; glob patterns are left to the rule's own tests.
 */
const AGENT_FILES = agentFiles();

function agentFiles(): {
  home: string[];
  moved: { variable: string; rel: string }[];
  project: string[];
  folders: string[];
} {
  const home = new Set<string>();
  const moved: { variable: string; rel: string }[] = [];
  const project = new Set<string>();
  const folders = new Set<string>();
  const file = (path: string): string | undefined => {
    const rel = path.endsWith('/**') ? `${path.slice(0, -3)}/guard.json` : path;
    return /[*?[]/.test(rel) ? undefined : rel;
  };
  for (const agent of Object.values(AGENTS)) {
    const { homes, hooks, envFiles = [], otherHooks = [] } = agent.files;
    // the files that may move them are attacked as they are (Qwen Code's .env files), and so are
    // the hook files of others' hooks folders (taking such a folder away is not an attack)
    for (const path of [...hooks, ...envFiles, ...otherHooks]) {
      const rel = file(path);
      // system files, and variables that name a file (Gemini CLI's trusted folders): the rule's own tests
      if (
        rel === undefined ||
        rel.startsWith('/') ||
        (rel.startsWith('$') && !rel.includes('/')) ||
        /^[A-Za-z]:/.test(rel)
      )
        continue;
      const variable = /^\$([A-Za-z_]\w*)\/(.+)$/.exec(rel);
      if (rel.startsWith('~/')) home.add(rel.slice(2));
      else if (variable === null) {
        // a name at any depth: the user's folder of that name and the project's
        home.add(rel);
        project.add(rel);
      } else if (homes.some((h) => h.variable === variable[1] && h.file !== true)) {
        moved.push({ variable: variable[1] as string, rel: variable[2] as string });
        // a default that names another of the agent's variables (`$XDG_CONFIG_HOME/opencode`): that one's default
        const defaultOf = (name: string): string => homes.find((h) => h.variable === name)?.default ?? '';
        const fallback = defaultOf(variable[1] as string).replace(/^\$([A-Za-z_]\w*)/, (_, name: string) =>
          defaultOf(name),
        );
        home.add(`${fallback}/${variable[2] as string}`.replace(/^~\/?/, ''));
      }
    }
    for (const path of agent.files.folders)
      if (path.startsWith('~/') && !/[*?[]/.test(path)) folders.add(path.slice(2));
  }
  return { home: [...home], moved, project: [...project], folders: [...folders] };
}

/** A glob the shell expands to `rel` (and maybe more): the first name cut short, a letter of the last one left open. */
function globOf(rel: string): string {
  const names = rel.split('/');
  const first = names[0] as string;
  if (names.length > 1 && first.length > 3) names[0] = `${first.slice(0, 3)}*`;
  const last = names[names.length - 1] as string;
  names[names.length - 1] = last.length > 2 ? `${last[0] as string}?${last.slice(2)}` : last;
  return names.join('/');
}

function targets(w: World): Target[] {
  const out: Target[] = [];
  const guardFile = (name: string, glob: string): Target => ({
    name: `guard folder/${name}`,
    kind: 'file',
    spellings: [
      plain('absolute', `${w.guardHome}/${name}`),
      plain('$GUARD_HOME', `$GUARD_HOME/${name}`),
      plain('${GUARD_HOME}', `\${GUARD_HOME}/${name}`),
      plain('link made earlier', `${w.linkToGuardHome}/${name}`),
      plain('dot-dot', `${w.guardHome}/../guard/${name}`),
      globbed('glob', `${w.guardHome}/${glob}`),
      inFolder('$GUARD_HOME', name),
    ],
  });
  out.push(guardFile('settings.yaml', 'sett*.yaml'), guardFile('log.jsonl', 'log.js?nl'));
  const homeFile = (rel: string, glob: string): Target => {
    const slash = rel.lastIndexOf('/');
    return {
      name: `~/${rel}`,
      kind: 'file',
      spellings: [
        plain('~', `~/${rel}`),
        plain('$HOME', `$HOME/${rel}`),
        plain('absolute', `${w.home}/${rel}`),
        globbed('glob', `~/${glob}`),
        // a file at the top of the home folder (`~/.env`) is named after `cd ~`
        inFolder(slash < 0 ? '~' : `~/${rel.slice(0, slash)}`, rel.slice(slash + 1)),
      ],
    };
  };
  for (const rel of AGENT_FILES.home) out.push(homeFile(rel, globOf(rel)));
  // the same files where a variable moves the agent's folder (into the temp folder, here)
  for (const { variable, rel } of AGENT_FILES.moved) {
    const folder = w.moved[variable] as string;
    const slash = rel.lastIndexOf('/');
    out.push({
      name: `$${variable}/${rel}`,
      kind: 'file',
      spellings: [
        plain('absolute', `${folder}/${rel}`),
        plain(`$${variable}`, `$${variable}/${rel}`),
        plain(`\${${variable}}`, `\${${variable}}/${rel}`),
        globbed('glob', `${folder}/${globOf(rel)}`),
        inFolder(slash < 0 ? folder : `${folder}/${rel.slice(0, slash)}`, rel.slice(slash + 1)),
      ],
    });
  }
  const projectFile = (rel: string, glob: string): Target => ({
    name: `project/${rel}`,
    kind: 'file',
    spellings: [
      plain('relative', rel),
      plain('./', `./${rel}`),
      plain('absolute', `${w.project}/${rel}`),
      plain('$PWD', `$PWD/${rel}`),
      globbed('glob', glob),
    ],
  });
  for (const rel of AGENT_FILES.project) out.push(projectFile(rel, globOf(rel)));
  out.push(
    projectFile('.guard.yaml', '.guard.y*ml'),
    projectFile('vendor/inner/.guard.yaml', 'vendor/*/.guard.yaml'),
    projectFile('src/.guard.yaml', 'src/.g*.yaml'),
  );
  const packageFile = (name: string, glob: string): Target => ({
    name: `guard package/${name}`,
    kind: 'file',
    spellings: [
      plain('absolute', `${w.dist}/${name}`),
      plain('dot-dot', `${w.checkout}/packages/core/../cli/dist/${name}`),
      inFolder(w.dist, name),
      {
        how: 'cd checkout',
        path: `packages/cli/dist/${name}`,
        cd: { dir: w.checkout, base: `packages/cli/dist/${name}` },
        quotable: true,
      },
      globbed('glob', `${w.dist}/${glob}`),
    ],
  });
  out.push(
    packageFile('hook-entry.cjs', 'hook-e*.cjs'),
    packageFile('hook.bundle.cjs', 'hook.bundle.?js'),
    packageFile('bin.js', 'b?n.js'),
    packageFile('hook-load.cjs', 'hook-load.*'),
    packageFile('hook-base.cjs', 'hook-b*.cjs'),
  );
  out.push({
    name: 'guard package/core',
    kind: 'file',
    spellings: [plain('absolute', `${w.checkout}/packages/core/dist/index.js`)],
  });
  const folder = (name: string, spellings: Spelled[], fillable = false): Target => ({
    name,
    kind: 'folder',
    spellings,
    fillable,
  });
  out.push(
    folder(
      'guard folder',
      [
        plain('absolute', w.guardHome),
        plain('$GUARD_HOME', '$GUARD_HOME'),
        plain('link made earlier', `${w.linkToGuardHome}/`),
        globbed('glob', `${w.guardHome.slice(0, -2)}*`),
      ],
      true,
    ),
    ...AGENT_FILES.folders.map((rel) =>
      folder(`~/${rel}`, [
        plain('~', `~/${rel}`),
        plain('$HOME', `$HOME/${rel}`),
        plain('absolute', `${w.home}/${rel}`),
        globbed('glob', `~/${globOf(rel)}`),
      ]),
    ),
    // every moved folder, a variable that stands in for the whole home folder too (Factory Droid's
    // FACTORY_HOME_OVERRIDE, Gemini CLI's GEMINI_CLI_HOME)
    ...Object.keys(w.moved).map((variable) => ({
      ...folder(`$${variable}`, [
        plain(`$${variable}`, `$${variable}`),
        plain('absolute', w.moved[variable] as string),
      ]),
      dotted: AGENT_FILES.moved.every((file) => file.variable !== variable || file.rel.startsWith('.')),
    })),
    folder(
      'guard package/dist',
      [
        plain('absolute', w.dist),
        inFolder(`${w.checkout}/packages/cli`, 'dist'),
        globbed('glob', `${w.checkout}/packages/*/dist`),
      ],
      true,
    ),
    folder('guard package/cli', [
      plain('absolute', `${w.checkout}/packages/cli`),
      inFolder(`${w.checkout}/packages`, 'cli'),
    ]),
  );
  return out;
}

/** A writer: the command that changes or removes `p` (a path word). */
interface Writer {
  readonly name: string;
  /** Needs the path inside double quotes (interpreters' code). */
  readonly quoted?: boolean;
  /** Needs a single word for find's `-name` (no glob). */
  readonly named?: boolean;
  /** Makes a new file in the folder rather than changing what is there. */
  readonly fills?: boolean;
  /** Reaches the folder's content through the shell's `*`. */
  readonly star?: boolean;
  readonly make: (p: string, w: World) => string;
}

const FILE_WRITERS: readonly Writer[] = [
  { name: 'rm -f', make: (p) => `rm -f ${p}` },
  { name: 'rm -rf', make: (p) => `rm -rf ${p}` },
  { name: 'unlink', make: (p) => `unlink ${p}` },
  { name: 'shred -u', make: (p) => `shred -u ${p}` },
  { name: '>', make: (p) => `echo '{}' > ${p}` },
  { name: '>>', make: (p) => `echo '{"disabled": true}' >> ${p}` },
  { name: ': >', make: (p) => `: > ${p}` },
  { name: 'cat >', make: (p, w) => `cat ${w.tmp}/evil.json > ${p}` },
  { name: 'tee', make: (p) => `tee ${p} < /dev/null` },
  { name: 'tee -a', make: (p) => `echo x | tee -a ${p}` },
  { name: 'cp', make: (p) => `cp /dev/null ${p}` },
  { name: 'mv away', make: (p, w) => `mv ${p} ${w.tmp}/moved` },
  { name: 'mv over', make: (p, w) => `mv ${w.tmp}/evil.json ${p}` },
  { name: 'install', make: (p) => `install -m 644 /dev/null ${p}` },
  { name: 'ln -sf', make: (p) => `ln -sf /dev/null ${p}` },
  { name: 'dd', make: (p) => `dd if=/dev/null of=${p}` },
  { name: 'truncate', make: (p) => `truncate -s 0 ${p}` },
  { name: 'fallocate', make: (p) => `fallocate -l 1G ${p}` },
  { name: 'sed -i', make: (p) => `sed -i 's/guard/true/' ${p}` },
  { name: 'perl -pi -e', make: (p) => `perl -pi -e 's/guard/true/' ${p}` },
  { name: 'perl -i -pe', make: (p) => `perl -i -pe 's/hook/none/g' ${p}` },
  { name: 'chmod', make: (p) => `chmod 000 ${p}` },
  { name: 'sudo rm', make: (p) => `sudo rm -f ${p}` },
  { name: 'env rm', make: (p) => `env rm ${p}` },
  { name: 'bash -c', make: (p) => `bash -c "rm -f ${p}"` },
  { name: 'sh -c >', make: (p) => `sh -c 'echo > ${p}'` },
  { name: 'eval', make: (p) => `eval "rm -f ${p}"` },
  { name: 'xargs', make: (p) => `echo ${p} | xargs rm -f` },
  { name: 'find -delete', named: true, make: (p) => findOf(p, '-delete') },
  { name: 'find -exec rm', named: true, make: (p) => findOf(p, '-exec rm {} \\;') },
  { name: 'python open(w)', quoted: true, make: (p) => `python3 -c "open('${p}','w').write('')"` },
  { name: 'python os.remove', quoted: true, make: (p) => `python3 -c "import os; os.remove('${p}')"` },
  {
    name: 'python pathlib',
    quoted: true,
    make: (p) => `python3 -c "import pathlib; pathlib.Path('${p}').write_text('{}')"`,
  },
  {
    name: 'python shutil.copy',
    quoted: true,
    make: (p) => `python3 -c "import shutil; shutil.copy('/dev/null', '${p}')"`,
  },
  { name: 'node writeFileSync', quoted: true, make: (p) => `node -e "require('fs').writeFileSync('${p}', '')"` },
  { name: 'node rmSync', quoted: true, make: (p) => `node -e "require('fs').rmSync('${p}', { force: true })"` },
  { name: 'node unlinkSync', quoted: true, make: (p) => `node -e "const fs = require('fs'); fs.unlinkSync('${p}')"` },
  { name: 'ruby File.write', quoted: true, make: (p) => `ruby -e "File.write('${p}', '')"` },
  { name: 'php unlink', quoted: true, make: (p) => `php -r "unlink('${p}');"` },
  { name: 'perl unlink', quoted: true, make: (p) => `perl -e "unlink '${p}'"` },
];

const FOLDER_WRITERS: readonly Writer[] = [
  { name: 'rm -rf', make: (p) => `rm -rf ${p}` },
  { name: 'rm -rf /*', star: true, make: (p) => `rm -rf ${p.replace(/\/$/, '')}/*` },
  { name: 'mv away', make: (p, w) => `mv ${p} ${w.tmp}/gone` },
  { name: 'find -delete', make: (p) => `find ${p} -delete` },
  { name: 'chmod -R', make: (p) => `chmod -R 000 ${p}` },
  { name: 'fallocate fill', fills: true, make: (p) => `fallocate -l 100G ${p.replace(/\/$/, '')}/fill` },
  { name: 'truncate fill', fills: true, make: (p) => `truncate -s 100G ${p.replace(/\/$/, '')}/fill` },
  { name: 'dd fill', fills: true, make: (p) => `dd if=/dev/zero of=${p.replace(/\/$/, '')}/fill bs=1M count=100000` },
  { name: 'yes fill', fills: true, make: (p) => `yes > ${p.replace(/\/$/, '')}/fill` },
  { name: 'head -c fill', fills: true, make: (p) => `head -c 100G /dev/zero > ${p.replace(/\/$/, '')}/fill` },
  { name: 'touch', fills: true, make: (p) => `touch ${p.replace(/\/$/, '')}/x` },
  { name: 'python rmtree', quoted: true, make: (p) => `python3 -c "import shutil; shutil.rmtree('${p}')"` },
  {
    name: 'node rmSync -r',
    quoted: true,
    make: (p) => `node -e "require('fs').rmSync('${p}', { recursive: true, force: true })"`,
  },
];

function findOf(p: string, action: string): string {
  const slash = p.lastIndexOf('/');
  const dir = slash < 0 ? '.' : slash === 0 ? '/' : p.slice(0, slash);
  return `find ${dir} -name ${p.slice(slash + 1)} ${action}`;
}

/** Every writer on every spelling of every target, as shell commands. */
function writes(w: World): ShellAttempt[] {
  const out: ShellAttempt[] = [];
  for (const target of targets(w)) {
    const writers = target.kind === 'file' ? FILE_WRITERS : FOLDER_WRITERS;
    for (const spelled of target.spellings) {
      for (const writer of writers) {
        // filling a folder is an attack on guard's own folders (its state cannot be saved, its
        // package not read); a new file in an agent's folder is not a hook file
        if (writer.fills === true && !target.fillable) continue;
        if (writer.star === true && target.dotted === true) continue;
        if (writer.quoted === true && !spelled.quotable) continue;
        if (writer.named === true && spelled.glob === true) continue;
        const command = spelled.cd
          ? `cd ${spelled.cd.dir} && ${writer.make(spelled.cd.base, w)}`
          : writer.make(spelled.path, w);
        out.push({
          id: `${target.name} ← ${writer.name} (${spelled.how})`,
          group: target.kind === 'file' ? 'write a protected file' : 'remove or fill a protected folder',
          command,
          cwd: w.project,
        });
      }
    }
  }
  return out;
}

/** Code handed to an interpreter on stdin or in a heredoc, and paths built in the code itself. */
function codeWrites(w: World): ShellAttempt[] {
  const rows: [string, string][] = [
    ['python heredoc os.remove', `python3 - <<'EOF'\nimport os\nos.remove('${w.home}/.codex/hooks.json')\nEOF`],
    [
      'python heredoc expanduser',
      `python3 <<'EOF'\nimport os\nos.remove(os.path.expanduser('~/.cursor/hooks.json'))\nEOF`,
    ],
    [
      'python heredoc GUARD_HOME',
      `python3 - <<'PY'\nimport os\np = os.path.join(os.environ['GUARD_HOME'], 'settings.yaml')\nopen(p, 'w').write('enabled: false')\nPY`,
    ],
    ['python expanduser', `python3 -c "import os; os.remove(os.path.expanduser('~/.codex/hooks.json'))"`],
    ['python variable', `python3 -c "p = '${w.guardHome}/settings.yaml'; f = open(p, 'w'); f.write('enabled: false')"`],
    ['python Path.home()', `python3 -c "from pathlib import Path; (Path.home() / '.codex' / 'hooks.json').unlink()"`],
    [
      'node os.homedir',
      `node -e "const fs=require('fs'),os=require('os'); fs.rmSync(os.homedir()+'/.cursor/hooks.json')"`,
    ],
    [
      'node path.join',
      `node -e "const p=require('path').join(process.env.GUARD_HOME,'settings.yaml'); require('fs').writeFileSync(p,'enabled: false')"`,
    ],
    [
      'node ESM',
      `node --input-type=module -e "import { rmSync } from 'node:fs'; rmSync('${w.dist}', { recursive: true })"`,
    ],
    ['perl open >', `perl -e 'open(my $f, ">", "${w.guardHome}/settings.yaml"); print $f "enabled: false"'`],
    ['ruby FileUtils', `ruby -e "require 'fileutils'; FileUtils.rm_rf('${w.guardHome}')"`],
    ['node stdin', `echo "require('fs').unlinkSync('${w.home}/.copilot/hooks/guard.json')" | node`],
    ['python stdin', `echo "import os; os.remove('${w.project}/.guard.yaml')" | python3`],
  ];
  return rows.map(([name, command]) => ({
    id: name,
    group: 'inline code writes a protected file',
    command,
    cwd: w.project,
  }));
}

/** Links made in the same step, then written through. */
function throughLinks(w: World): ShellAttempt[] {
  const rows: [string, string][] = [
    [
      'ln -s guard folder then write',
      `ln -s $GUARD_HOME ${w.tmp}/x && echo 'enabled: false' > ${w.tmp}/x/settings.yaml`,
    ],
    ['ln -s guard folder then rm', `ln -s ${w.guardHome} ${w.tmp}/y; rm -rf ${w.tmp}/y/`],
    ['ln -s hook file then write', `ln -s ~/.codex/hooks.json ${w.tmp}/h && echo '{}' > ${w.tmp}/h`],
    ['ln -s dist then rm', `ln -sfn ${w.dist} ${w.tmp}/d && rm -f ${w.tmp}/d/hook-entry.cjs`],
    ['cp -rs', `cp -rs ${w.guardHome} ${w.tmp}/mirror`],
  ];
  return rows.map(([name, command]) => ({ id: name, group: 'write through a link', command, cwd: w.project }));
}

/** guard's CLI reached by every path to it, with every subcommand that changes it. */
function cliRuns(w: World): ShellAttempt[] {
  const subcommands = [
    'off',
    'on',
    'fail-closed off',
    'fail-closed on',
    'uninstall --all',
    'uninstall codex',
    'setup cursor',
    'setup codex --project',
    'second-opinion off',
    'mode full',
    'allow fs.delete',
    'forget --all',
  ];
  const runners: [string, (sub: string) => string, string?][] = [
    ['guard', (s) => `guard ${s}`],
    ['node bin.js', (s) => `node ${w.dist}/bin.js ${s}`],
    ['cd dist && node bin.js', (s) => `cd ${w.dist} && node bin.js ${s}`],
    ['node ./bin.js in dist', (s) => `node ./bin.js ${s}`, w.dist],
    ['cd cli && node dist/bin.js', (s) => `cd ${w.checkout}/packages/cli && node dist/bin.js ${s}`],
    ['node dot-dot', (s) => `node ${w.checkout}/packages/core/../cli/dist/bin.js ${s}`],
    ['bin.js run itself', (s) => `${w.dist}/bin.js ${s}`],
    ['link to bin.js', (s) => `node ${w.linkToBin} ${s}`],
    ['link run itself', (s) => `${w.linkToBin} ${s}`],
    ['copy of dist', (s) => `node ${w.copyOfDist}/bin.js ${s}`],
    ['npx', (s) => `npx agent-step-guard ${s}`],
    ['npx pinned', (s) => `npx --yes agent-step-guard@latest ${s}`],
    ['npm run guard', (s) => `npm run guard -- ${s}`, w.checkout],
    ['sudo', (s) => `sudo guard ${s}`],
    ['env', (s) => `env FOO=1 guard ${s}`],
    ['bash -c', (s) => `bash -c 'guard ${s}'`],
    ['command', (s) => `command guard ${s}`],
    ['$(command -v)', (s) => `"$(command -v guard)" ${s}`],
    [
      'import main.js',
      (s) =>
        `node --input-type=module -e "const { main } = await import('${w.dist}/main.js'); await main(['node', 'guard', ${s
          .split(' ')
          .map((word) => `'${word}'`)
          .join(', ')}])"`,
    ],
    [
      'python subprocess',
      (s) =>
        `python3 -c "import subprocess; subprocess.run(['guard', ${s
          .split(' ')
          .map((word) => `'${word}'`)
          .join(', ')}])"`,
    ],
    ['node execSync', (s) => `node -e "require('child_process').execSync('guard ${s}')"`],
  ];
  const out: ShellAttempt[] = [];
  for (const sub of subcommands)
    for (const [name, make, cwd] of runners)
      out.push({
        id: `guard ${sub} via ${name}`,
        group: 'run guard to change it',
        command: make(sub),
        cwd: cwd ?? w.project,
      });
  out.push(
    {
      id: 'import main.js bare',
      group: 'run guard to change it',
      command: `node --input-type=module -e "await import('${w.dist}/main.js')"`,
      cwd: w.project,
    },
    {
      id: 'require a command module',
      group: 'run guard to change it',
      command: `node -e "require('${w.dist}/hook-entry.cjs')"`,
      cwd: w.project,
    },
  );
  return out;
}

/** guard's hook fed a payload the agent never sent. */
function forgedHooks(w: World): ShellAttempt[] {
  const payload = JSON.stringify({
    hook_event_name: 'PreToolUse',
    session_id: 'forged',
    cwd: w.project,
    tool_name: 'Bash',
    tool_input: { command: 'echo hi' },
  });
  const rows: [string, string, string?][] = [
    ['echo | guard hook', `echo '${payload}' | guard hook codex`],
    ['guard hook <', `guard hook cursor < ${w.tmp}/payload.json`],
    ['here-string', `guard hook copilot --event preToolUse <<< '${payload}'`],
    ['hook-entry.cjs', `node ${w.dist}/hook-entry.cjs hook codex < ${w.tmp}/payload.json`],
    ['hook-entry.cjs any words', `echo '${payload}' | node ${w.dist}/hook-entry.cjs x codex`],
    [
      'cd dist && hook-entry',
      `cd ${w.dist} && node hook-entry.cjs hook antigravity --event PreToolUse < ${w.tmp}/payload.json`,
    ],
    ['bin.js hook', `node ${w.dist}/bin.js hook codex < ${w.tmp}/payload.json`],
    ['the command setup wrote', `${w.hookCommands.codex} < ${w.tmp}/payload.json`],
    ['hook bundle', `node -e "require('${w.dist}/hook-load.cjs').hookRuntime()"`],
  ];
  return rows.map(([name, command, cwd]) => ({
    id: name,
    group: 'forge a hook payload',
    command,
    cwd: cwd ?? w.project,
  }));
}

/** Settings and flags that make an agent skip hooks, and removing the package. */
function switches(w: World): ShellAttempt[] {
  const rows: [string, string][] = [
    ['codex bypass', 'codex --dangerously-bypass-hook-trust exec "rm -rf src"'],
    ['codex -c hooks=false', 'codex -c features.hooks=false exec x'],
    ['codex -c inline hooks=false', "codex -c 'features={hooks=false}' exec x"],
    ['codex requirements.toml', 'sudo rm /etc/codex/requirements.toml'],
    ['codex features disable', 'codex features disable hooks'],
    ['disableAllHooks', `echo '{"disableAllHooks": true}' > ~/.copilot/settings.json`],
    ['claude settings', `echo '{"disableAllHooks": true}' > ${w.project}/.claude/settings.json`],
    ['npm rm -g', 'npm rm -g agent-step-guard'],
    ['npm uninstall', 'npm uninstall --global agent-step-guard'],
    ['pnpm remove', 'pnpm remove -g agent-step-guard'],
    ['codex config.toml', `printf '[features]\\nhooks = false\\n' >> ~/.codex/config.toml`],
  ];
  return rows.map(([name, command]) => ({ id: name, group: 'switch hooks off', command, cwd: w.project }));
}

/** Every shell attempt. */
export function shellAttempts(w: World): ShellAttempt[] {
  return [...writes(w), ...codeWrites(w), ...throughLinks(w), ...cliRuns(w), ...forgedHooks(w), ...switches(w)];
}

/** Steps a project's `.guard.yaml` must not let through: allows that reach outside it, a nested file over the outer. */
export function policyAttempts(w: World): ShellAttempt[] {
  const out: ShellAttempt[] = [];
  for (const target of [
    '/opt/data/x.conf',
    '/srv/app/config.json',
    '/usr/local/etc/x.conf',
    '/var/lib/../../opt/other/x',
  ])
    for (const [name, cwd] of [
      ['loose allow', w.loose],
      ['nested file', w.inner],
    ] as const)
      out.push({
        id: `${name}: write ${target}`,
        group: 'loosen through .guard.yaml',
        command: `echo x > ${target}`,
        cwd,
      });
  return out;
}

/** Each agent's own write tools on each target (absolute paths; a relative one for Codex's patch). */
export function toolAttempts(w: World): ToolAttempt[] {
  // one of each kind (each agent's tools on each is a hook process of its own)
  const files = [
    `${w.guardHome}/settings.yaml`,
    `${w.linkToGuardHome}/settings.yaml`,
    `${w.home}/.codex/hooks.json`,
    // an agent's hook file in a folder its variable moved
    ...AGENT_FILES.moved.slice(0, 1).map(({ variable, rel }) => `${w.moved[variable] as string}/${rel}`),
    `${w.inner}/.guard.yaml`,
    `${w.dist}/hook-entry.cjs`,
  ];
  const out: ToolAttempt[] = [];
  const add = (agent: AgentId, tool: string, file: string, payload: Record<string, unknown>): void => {
    out.push({ id: `${agent} ${tool} → ${file.slice(w.root.length)}`, group: `${agent} write tool`, agent, payload });
  };
  const codex = fixture('codex/pre-tool-use-apply-patch');
  const cursorWrite = fixture('cursor/pre-tool-use-write');
  const cursorDelete = fixture('cursor/pre-tool-use-delete');
  const cursorEdit = fixture('cursor/synth-pre-tool-use-edit');
  const agWrite = fixture('antigravity/pre-tool-use-write-to-file');
  const agEdit = fixture('antigravity/synth-pre-tool-use-replace-file-content');
  const copilotCreate = fixture('copilot/synth-pre-tool-use-create');
  const copilotEdit = fixture('copilot/synth-pre-tool-use-edit');
  const claudeWrite = fixture('claude-code/pre-tool-use-write');
  const claudeEdit = fixture('claude-code/pre-tool-use-edit');
  const geminiWrite = fixture('gemini/before-tool-write-file');
  const geminiReplace = fixture('gemini/before-tool-replace');
  const qwenWrite = fixture('qwen/pre-tool-use-write-file');
  const qwenEdit = fixture('qwen/pre-tool-use-edit');
  const droidCreate = fixture('droid/pre-tool-use-create');
  const droidEdit = fixture('droid/pre-tool-use-edit');
  const crush = fixture('crush/synth-pre-tool-use-write');
  const auggieSave = fixture('auggie/pre-tool-use-save-file');
  const auggieEdit = fixture('auggie/pre-tool-use-str-replace-editor');
  const auggieRemove = fixture('auggie/pre-tool-use-remove-files');
  const kiroWrite = fixture('kiro/lineage-pre-tool-use-fs-write');
  const roots = { workspace_roots: [w.project] };
  for (const file of files) {
    const patch = (body: string): Record<string, unknown> => ({
      ...codex,
      cwd: w.project,
      tool_input: { command: `*** Begin Patch\n${body}\n*** End Patch\n` },
    });
    add('codex', 'apply_patch add', file, patch(`*** Add File: ${file}\n+{}`));
    add('codex', 'apply_patch update', file, patch(`*** Update File: ${file}\n@@\n-a\n+b`));
    add('codex', 'apply_patch delete', file, patch(`*** Delete File: ${file}`));
    add('cursor', 'Write', file, { ...cursorWrite, ...roots, tool_input: { file_path: file, content: '{}' } });
    add('cursor', 'Delete', file, { ...cursorDelete, ...roots, tool_input: { file_path: file } });
    add('cursor', 'StrReplace', file, {
      ...cursorEdit,
      ...roots,
      tool_input: { path: file, old_string: 'a', new_string: 'b' },
    });
    add('antigravity', 'write_to_file', file, {
      ...agWrite,
      workspacePaths: [w.project],
      toolCall: { name: 'write_to_file', args: { TargetFile: file, CodeContent: '{}', Overwrite: true } },
    });
    add('antigravity', 'replace_file_content', file, {
      ...agEdit,
      workspacePaths: [w.project],
      toolCall: {
        name: 'replace_file_content',
        args: { TargetFile: file, TargetContent: 'a', ReplacementContent: 'b', StartLine: 1, EndLine: 1 },
      },
    });
    add('copilot', 'create', file, { ...copilotCreate, cwd: w.project, toolArgs: { path: file, file_text: '{}' } });
    add('copilot', 'edit', file, {
      ...copilotEdit,
      cwd: w.project,
      toolArgs: { path: file, old_str: 'a', new_str: 'b' },
    });
    const edit = { file_path: file, old_string: 'a', new_string: 'b' };
    const cwd = { cwd: w.project, permission_mode: 'default' };
    add('claude-code', 'Write', file, { ...claudeWrite, ...cwd, tool_input: { file_path: file, content: '{}' } });
    add('claude-code', 'Edit', file, { ...claudeEdit, ...cwd, tool_input: { ...edit, replace_all: false } });
    add('gemini', 'write_file', file, {
      ...geminiWrite,
      cwd: w.project,
      tool_input: { file_path: file, content: '{}' },
    });
    add('gemini', 'replace', file, { ...geminiReplace, cwd: w.project, tool_input: { ...edit, instruction: 'x' } });
    add('qwen', 'write_file', file, { ...qwenWrite, cwd: w.project, tool_input: { file_path: file, content: '{}' } });
    add('qwen', 'edit', file, { ...qwenEdit, cwd: w.project, tool_input: edit });
    add('droid', 'Create', file, { ...droidCreate, cwd: w.project, tool_input: { file_path: file, content: '{}' } });
    add('droid', 'Edit', file, {
      ...droidEdit,
      cwd: w.project,
      tool_input: { file_path: file, old_str: edit.old_string, new_str: edit.new_string },
    });
    const crushTool = (tool: string, input: Record<string, unknown>): Record<string, unknown> => ({
      ...crush,
      cwd: w.project,
      tool_name: tool,
      tool_input: input,
    });
    add('crush', 'write', file, crushTool('write', { file_path: file, content: '{}' }));
    add('crush', 'edit', file, crushTool('edit', edit));
    add(
      'crush',
      'multiedit',
      file,
      crushTool('multiedit', { file_path: file, edits: [{ old_string: 'a', new_string: 'b' }] }),
    );
    add('crush', 'download', file, crushTool('download', { url: 'https://example.com/x.json', file_path: file }));
    add('auggie', 'save-file', file, { ...auggieSave, ...roots, tool_input: { path: file, file_content: '{}' } });
    add('auggie', 'str-replace-editor', file, {
      ...auggieEdit,
      ...roots,
      tool_input: { command: 'str_replace', path: file, str_replace_entries: [{ old_str: 'a', new_str: 'b' }] },
    });
    add('auggie', 'remove-files', file, { ...auggieRemove, ...roots, tool_input: { file_paths: [file] } });
    // Kiro CLI's fs_write under both its names (its payloads are from the documentation only)
    add('kiro', 'fs_write create', file, {
      ...kiroWrite,
      cwd: w.project,
      tool_input: { command: 'create', path: file, file_text: '{}' },
    });
    add('kiro', 'write str_replace', file, {
      ...kiroWrite,
      cwd: w.project,
      tool_name: 'write',
      tool_input: { command: 'str_replace', path: file, old_str: 'a', new_str: 'b' },
    });
  }
  // Codex's patch names files relative to its cwd as often as not
  for (const rel of ['.guard.yaml', '.codex/hooks.json', 'vendor/inner/.guard.yaml'])
    out.push({
      id: `codex apply_patch relative → ${rel}`,
      group: 'codex write tool',
      agent: 'codex',
      payload: {
        ...codex,
        cwd: w.project,
        tool_input: { command: `*** Begin Patch\n*** Add File: ${rel}\n+x\n*** End Patch\n` },
      },
    });
  return out;
}

/** Steps that must go ahead: reading guard's files and docs, its read-only commands, files that only share a name. */
export function nearMisses(w: World): ShellAttempt[] {
  const rows: [string, string, string?][] = [
    ['guard status', 'guard status'],
    ['guard status --json', 'guard status --json'],
    ['guard explain', "guard explain -- 'rm -rf dist'"],
    ['guard log', 'guard log -n 20'],
    ['guard rules', 'guard rules --json'],
    ['guard report', 'guard report'],
    ['guard doctor', 'guard doctor'],
    ['guard allowed', 'guard allowed'],
    ['guard --help', 'guard --help'],
    ['guard --version', 'guard --version'],
    ['node bin.js status', `node ${w.dist}/bin.js status`],
    ['cd dist && node bin.js rules', `cd ${w.dist} && node bin.js rules`],
    ['link status', `node ${w.linkToBin} status`],
    ['cat hooks.json', 'cat ~/.codex/hooks.json'],
    ['jq hooks.json', 'jq . ~/.cursor/hooks.json'],
    ['grep guard hooks', 'grep -n guard ~/.copilot/hooks/guard.json'],
    ['cat settings', 'cat $GUARD_HOME/settings.yaml'],
    ['tail log', `tail -n 5 ${w.guardHome}/log.jsonl`],
    ['ls guard folder', 'ls -la $GUARD_HOME'],
    ['read the docs', `less ${w.checkout}/README.md`],
    ['read the package', `head -n 20 ${w.dist}/bin.js`],
    ['cat .guard.yaml', 'cat .guard.yaml'],
    ['python reads settings', `python3 -c "print(open('${w.guardHome}/settings.yaml').read())"`],
    ['node reads hooks', `node -e "console.log(require('fs').readFileSync('${w.home}/.codex/hooks.json', 'utf8'))"`],
    ['backup hooks', `cp ~/.codex/hooks.json ${w.tmp}/hooks-backup.json`],
    ['project settings.yaml', "echo 'debug: true' > settings.yaml"],
    ['project config/settings.yaml', 'mkdir -p config && echo x > config/settings.yaml'],
    ['project log.jsonl', 'echo {} >> logs/log.jsonl'],
    ['project hooks.json elsewhere', 'echo {} > src/hooks.json'],
    ['guard-named doc', 'echo "# guard" > docs/guard.md'],
    ['policy example', 'cp docs/example.guard.yaml.txt docs/policy-example.txt'],
    ['python writes in project', `python3 -c "open('notes.txt', 'w').write('x')"`],
    ['node writes in project', `node -e "require('fs').writeFileSync('out.json', '{}')"`],
    ['rm in tmp', `rm -f ${w.tmp}/scratch.txt`],
    ['npm test', 'npm test'],
    ['git status', 'git status'],
  ];
  return rows.map(([name, command, cwd]) => ({ id: name, group: 'near miss', command, cwd: cwd ?? w.project }));
}

/** Write tools on files that only share a name with guard's, inside the project. */
export function toolNearMisses(w: World): ToolAttempt[] {
  const cursorWrite = fixture('cursor/pre-tool-use-write');
  const copilotCreate = fixture('copilot/synth-pre-tool-use-create');
  const codex = fixture('codex/pre-tool-use-apply-patch');
  const out: ToolAttempt[] = [];
  for (const file of [`${w.project}/settings.yaml`, `${w.project}/src/hooks.json`, `${w.project}/docs/guard.md`]) {
    out.push(
      {
        id: `cursor Write ${file.slice(w.project.length)}`,
        group: 'near miss',
        agent: 'cursor',
        payload: { ...cursorWrite, workspace_roots: [w.project], tool_input: { file_path: file, content: 'x' } },
      },
      {
        id: `copilot create ${file.slice(w.project.length)}`,
        group: 'near miss',
        agent: 'copilot',
        payload: { ...copilotCreate, cwd: w.project, toolArgs: { path: file, file_text: 'x' } },
      },
      {
        id: `codex apply_patch ${file.slice(w.project.length)}`,
        group: 'near miss',
        agent: 'codex',
        payload: {
          ...codex,
          cwd: w.project,
          tool_input: { command: `*** Begin Patch\n*** Add File: ${file}\n+x\n*** End Patch\n` },
        },
      },
    );
  }
  return out;
}
