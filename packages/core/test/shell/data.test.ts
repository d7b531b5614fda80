import { describe, expect, it } from 'vitest';
import { readCommand } from '@guard/core';
import { checkRow, OPTIONS } from './read-table.js';
import type { Expected, Row } from './read-table.js';

// Must-NOT-read rows: text that looks like a command but is only data. Each row names what must not
// show up as an invocation (`absent`) and lists what does run (`program` or `program|via`).

type DataRow = readonly [line: string, absent: readonly string[], ...runs: string[]];

const row = ([line, absent, ...runs]: DataRow): Row => ({
  line,
  absent,
  expect: runs.map((run): Expected => {
    const [program = '', via = ''] = run.split('|');
    return { program, via };
  }),
});

const table = (rows: readonly DataRow[]): Row[] => rows.map(row);

describe('quoted arguments are data', () => {
  it.for(
    table([
      ['git commit -m "rm -rf /"', ['rm'], 'git'],
      ["git commit -m 'sudo rm -rf ~ && git push --force'", ['rm', 'sudo', 'git push'], 'git'],
      ['git commit -am "fix: stop running bash -c in deploy"', ['bash'], 'git'],
      ["git tag -a v1 -m 'eval $(curl x)'", ['eval', 'curl'], 'git'],
      ['git log --grep="bash -c rm" --oneline', ['bash', 'rm'], 'git'],
      ['git stash push -m "wip: rm -rf build later"', ['rm'], 'git'],
      ['echo "git push --force"', ['git'], 'echo'],
      ["echo 'rm -rf / --no-preserve-root'", ['rm'], 'echo'],
      ['echo rm -rf /', ['rm'], 'echo'],
      ['echo sudo shutdown -h now', ['sudo', 'shutdown'], 'echo'],
      ["printf 'sudo rm'", ['sudo', 'rm'], 'printf'],
      ["printf '%s\\n' \"bash -c 'rm -rf /'\"", ['bash', 'rm'], 'printf'],
      ['grep -r "DROP TABLE" src', ['drop'], 'grep'],
      ['grep -rn "rm -rf" scripts/', ['rm'], 'grep'],
      ["rg 'os\\.system\\(' -t py", ['os.system'], 'rg'],
      ["grep -E 'eval|exec' app.js", ['eval', 'exec'], 'grep'],
      ["sed -e 's/rm -rf/rm -r/' deploy.sh", ['rm'], 'sed'],
      ["sed -i 's/git push --force/git push/' README.md", ['git'], 'sed'],
      ['awk \'{ print "rm " $1 }\' files.txt', ['rm'], 'awk'],
      ['jq \'.scripts.clean = "rm -rf dist"\' package.json', ['rm'], 'jq'],
      ['curl -d "cmd=rm -rf /" https://example.com/api', ['rm'], 'curl'],
      ["curl -H 'X-Run: sudo reboot' localhost:8080", ['sudo', 'reboot'], 'curl'],
      ['psql -c "DROP TABLE users"', ['drop'], 'psql'],
      ['sqlite3 app.db "DELETE FROM sessions"', ['delete'], 'sqlite3'],
      ['mysql -e "TRUNCATE logs"', ['truncate'], 'mysql'],
      ['redis-cli FLUSHALL', ['flushall'], 'redis-cli'],
      ['ssh-keygen -t ed25519 -C "ssh root@host rm -rf /"', ['ssh', 'rm'], 'ssh-keygen'],
      ['touch "rm -rf"', ['rm'], 'touch'],
      ["mkdir 'sudo make me a sandwich'", ['sudo', 'make'], 'mkdir'],
      ['ls -- -rf', ['rm'], 'ls'],
      ['cat ./sudo.txt ./rm.log', ['sudo', 'rm'], 'cat'],
      ['npm run build -- --define "exec=rm"', ['rm', 'exec'], 'npm'],
      ['docker build --build-arg CMD="rm -rf /" .', ['rm'], 'docker'],
      ['gh pr create --title "Remove eval" --body "no more bash -c"', ['eval', 'bash'], 'gh'],
      ['gh issue comment 12 --body "please run git push --force"', ['git'], 'gh'],
      ['notify-send "Build done" "run npm publish next"', ['npm'], 'notify-send'],
      ['python manage.py shell -c "print(1)"', ['print'], 'python'],
      ['tar -czf backup.tgz --exclude="rm -rf" .', ['rm'], 'tar'],
      ['yq -i \'.run = "kubectl delete ns prod"\' ci.yml', ['kubectl'], 'yq'],
      ['say "time to git push"', ['git'], 'say'],
    ]),
  )('$line', (r) => {
    checkRow(r);
  });
});

describe('comments are not commands', () => {
  it.for(
    table([
      ['echo hi # rm -rf /', ['rm'], 'echo'],
      ['# sudo rm -rf /', ['sudo', 'rm']],
      ['ls   #git push --force', ['git'], 'ls'],
      ['make test # then: npm publish', ['npm'], 'make'],
      ['npm test\n# git push --force\necho ok', ['git'], 'npm', 'echo'],
      ['true # ; rm -rf / && reboot', ['rm', 'reboot'], 'true'],
      ['git status #$(rm -rf /)', ['rm'], 'git'],
      ["echo '#' rm", ['rm'], 'echo'],
      ['echo "# not a comment; rm"', ['rm'], 'echo'],
      ['echo a#b rm', ['rm'], 'echo'],
    ]),
  )('$line', (r) => {
    checkRow(r);
  });
});

describe('a whole-line comment in inline code is text; a line that may still be code is read', () => {
  it.for(
    table([
      ['python3 -c "# os.system(\'rm -rf x\')\nprint(1)"', ['rm'], 'python3'],
      ["python3 - <<'EOF'\n  # subprocess.run(['git', 'push', '--force'])\nprint(1)\nEOF", ['git'], 'python3'],
      ["python3 - <<'EOF'\n# import shutil; shutil.rmtree('/srv/data')\nEOF", ['rm'], 'python3'],
      ["node -e \"// require('child_process').execSync('rm -rf x')\nconsole.log(1)\"", ['rm'], 'node'],
      ['ruby -e "# system(\'rm -rf x\')\nputs 1"', ['rm'], 'ruby'],
      ['php -r \'// system("rm -rf x");\necho 1;\'', ['rm'], 'php'],
      // near misses: code before a comment, or a line that can be code after all, is read
      ['python3 -c "import os\nos.system(\'rm -rf x\')  # clean"', [], 'python3', 'rm|python3 code'],
      ["python3 - <<'EOF'\n# clean first\nimport os\nos.system('rm -rf x')\nEOF", [], 'python3', 'rm|python3 code'],
      // an f-string's braces run code on a line that starts like a comment
      [
        "python3 - <<'EOF'\nx = f'''\n# {__import__('os').system('rm -rf x')}\n'''\nEOF",
        [],
        'python3',
        'rm|python3 code',
      ],
      // the line before continues into it
      ["python3 - <<'EOF'\nimport os\nx = 1 \\\n# os.system('rm -rf x')\nEOF", [], 'python3', 'rm|python3 code'],
      // code that runs text as code: a comment line in it may be made code
      [
        "python3 - <<'EOF'\nimport os\ns = '''\n# os.system('rm -rf x')\n'''\nexec(s.replace('#', ''))\nEOF",
        [],
        'python3',
        'rm|python3 code',
      ],
      // …or writes text to a file that may run, or hands a string to a timer that runs it
      [
        "python3 - <<'EOF'\ns = '''\n# import os; os.system('rm -rf x')\n'''\nopen('m.py', 'w').write(s.replace('# ', ''))\nEOF",
        [],
        'python3',
        'rm|python3 code',
      ],
      [
        "node - <<'EOF'\nsetTimeout(`\n// require('child_process').execSync('rm -rf x')\n`.replace('//', ''))\nEOF",
        [],
        'node',
        'rm|node code',
      ],
      ["ruby <<'EOF'\ns = \"\n# #{system('rm -rf x')}\n\"\nEOF", [], 'ruby', 'rm|ruby code'],
      [
        "node - <<'EOF'\nconst s = `\n// ${require('child_process').execSync('rm -rf x')}\n`;\nEOF",
        [],
        'node',
        'rm|node code',
      ],
    ]),
  )('$line', (r) => {
    checkRow(r);
  });
});

describe('options that look like inner commands but are not', () => {
  it.for(
    table([
      ['python script.py -c "rm -rf /"', ['rm'], 'python'],
      ['python -m pytest -c "rm -rf /"', ['rm'], 'python'],
      ['python3 tool.py --exec "git push"', ['git'], 'python3'],
      ['node app.js -e "rm -rf /"', ['rm'], 'node'],
      ['node --test -- -e "git push"', ['git'], 'node'],
      ['bash script.sh -c "rm -rf /"', ['rm'], 'bash'],
      ['sh ./install.sh --exec "git push"', ['git'], 'sh'],
      ['ruby app.rb -e "system(\'rm\')"', ['rm'], 'ruby'],
      ['perl script.pl -e "rm"', ['rm'], 'perl'],
      ['php artisan -r "rm"', ['rm'], 'php'],
      ['grep -e "eval" -e "exec" src/app.ts', ['eval', 'exec'], 'grep'],
      ['git -c user.name="rm -rf" commit', ['rm'], 'git'],
      ['git -c alias.st=status log', ['status'], 'git'],
      ['git config alias.x "!rm -rf /" && git status', ['rm'], 'git', 'git'],
      ['docker run -e CMD="rm -rf /" alpine', ['rm'], 'docker'],
      ['docker exec -e CMD="rm -rf /" web', ['rm'], 'docker'],
      ['kubectl exec pod -c "rm -rf" -- ls /app', ['rm'], 'kubectl', 'ls|kubectl'],
      ['tar -C /tmp -xf a.tar', ['rm'], 'tar'],
      ['make -e CC="rm -rf"', ['rm'], 'make'],
      ['deno run -A script.ts eval', ['eval'], 'deno'],
      ['deno eval', ['eval'], 'deno'],
      ['env', ['printenv'], 'env'],
      ['sudo -l', ['l'], 'sudo'],
      ['sudo -e /etc/hosts', ['hosts'], 'sudo'],
      ['timeout 5', [], 'timeout'],
      ['xargs --help', [], 'xargs'],
      ['find . -name "*-exec*" -print', ['print'], 'find'],
      ['find . -name "*.pyc" -delete', ['rm', 'delete'], 'find'],
      ['find . -newer x -ok', [], 'find'],
      ['npx --version', [], 'npx'],
      ['pnpm add -D rimraf', ['rimraf'], 'pnpm'],
      ['pnpm run clean', ['clean'], 'pnpm'],
      ['yarn install --frozen-lockfile', [], 'yarn'],
      ['uv pip install ruff', ['ruff'], 'uv'],
      ['ssh -V', [], 'ssh'],
      ['ssh -L 8080:localhost:80 -N bastion', ['bastion'], 'ssh'],
      ['su', [], 'su'],
      ['script session.log', ['session.log'], 'script'],
      ['cmd /?', [], 'cmd'],
      ['pwsh -File build.ps1 -Command x', ['x'], 'pwsh'],
      // the encoded word is no program (what it decodes to, a comment here, is read as PowerShell)
      ['powershell -EncodedCommand IwAgAHgA', ['iwagahga', 'IwAgAHgA', 'x'], 'powershell'],
    ]),
  )('$line', (r) => {
    checkRow(r);
  });
});

describe('heredocs and here-strings fed to data readers', () => {
  it.for(
    table([
      ['cat <<EOF\nrm -rf /\nEOF', ['rm'], 'cat'],
      ["cat <<'EOF' > deploy.sh\n#!/bin/sh\ngit push --force\nEOF", ['git'], 'cat'],
      ['git commit -F - <<EOF\ngit push --force\nEOF', ['push'], 'git'],
      [
        'git commit -m "$(cat <<\'EOF\'\nfix: stop calling rm -rf / in deploy\n\nsudo make it so\nEOF\n)" && git push',
        ['rm', 'sudo', 'make'],
        'cat|$(',
        'git',
        'git',
      ],
      ['sort <<EOF\nsudo rm -rf /\nEOF', ['sudo', 'rm'], 'sort'],
      ['head -n1 <<< "sudo rm -rf /"', ['sudo', 'rm'], 'head'],
      ['tee notes.sh <<EOF\nrm -rf ~\nEOF', ['rm'], 'tee'],
      ['sudo tee /etc/motd <<EOF\nreboot now\nEOF', ['reboot'], 'tee|sudo'],
      ['kubectl apply -f - <<EOF\nkind: Pod\ncommand: ["rm", "-rf", "/"]\nEOF', ['rm'], 'kubectl'],
      ['wc -l <<< "eval evil"', ['eval'], 'wc'],
      ["cat <<'EOF'\n$(rm -rf /)\n`reboot`\nEOF", ['rm', 'reboot'], 'cat'],
      ['cat <<-EOF\n\tgit push\n\tEOF', ['git'], 'cat'],
      ['python script.py <<EOF\nimport os\nos.system("rm -rf /")\nEOF', ['rm'], 'python'],
      ['mysql db <<EOF\nDROP TABLE users;\nEOF', ['drop'], 'mysql'],
      ['gh api graphql --input - <<< "{\\"q\\": \\"rm\\"}"', ['rm'], 'gh'],
      ['jq . <<< \'{"run": "git push"}\'', ['git'], 'jq'],
    ]),
  )('$line', (r) => {
    checkRow(r);
  });
});

describe('single quotes keep substitutions as text', () => {
  it.for(
    table([
      ["echo '$(rm -rf /)'", ['rm'], 'echo'],
      ["echo '`reboot`'", ['reboot'], 'echo'],
      ["grep '$(whoami)' log", ['whoami'], 'grep'],
      ["echo '<(curl evil.sh)'", ['curl'], 'echo'],
      ['echo \\$\\(rm -rf x\\)', ['rm'], 'echo'],
      ['echo "\\$(rm -rf x)"', ['rm'], 'echo'],
      ["alias clean='rm -rf build'", ['rm'], 'alias'],
      // a trap's handler is code (./code-values.test.ts); quoted for echo it is text
      ['echo \'trap "rm -rf x" EXIT\'', ['trap', 'rm'], 'echo'],
      ["PS1='$(git branch) $ '", ['git']],
      ["git config alias.nuke '!rm -rf .'", ['rm'], 'git'],
    ]),
  )('$line', (r) => {
    checkRow(r);
  });
});

describe('look-ups and help only name a program', () => {
  it.for(
    table([
      ['which rm', ['rm'], 'which'],
      ['command -v git', ['git'], 'command'],
      ['command -V docker', ['docker'], 'command'],
      ['type -a sudo', ['sudo'], 'type'],
      ['man git-push', ['git'], 'man'],
      ['help cd', ['cd'], 'help'],
      ['git help push', ['push'], 'git'],
      ['whereis rm', ['rm'], 'whereis'],
      ['hash -r', [], 'hash'],
      ['tldr tar', ['tar'], 'tldr'],
    ]),
  )('$line', (r) => {
    checkRow(r);
  });
});

describe('assignments and definitions run nothing', () => {
  it.for(
    table([
      ['VAR="rm -rf /"', ['rm']],
      ['CMD="git push --force"; echo "$CMD"', ['git'], 'echo'],
      ['export DEPLOY="ssh prod rm -rf /srv"', ['ssh', 'rm'], 'export'],
      ['declare -a cmds=(rm mv cp)', ['rm', 'mv', 'cp'], 'declare'],
      ['arr=(rm -rf /)', ['rm']],
      ['readonly DANGER=sudo', ['sudo'], 'readonly'],
      ['local x="eval y"', ['eval'], 'local'],
      ['X=1 Y="bash -c z"', ['bash']],
    ]),
  )('$line', (r) => {
    checkRow(r);
  });
});

describe('keywords and operators inside arguments are data', () => {
  it.for(
    table([
      ['echo if then fi do done', ['if', 'then', 'fi'], 'echo'],
      ['grep -w done todo.txt', ['done'], 'grep'],
      ['echo "a && rm b"', ['rm'], 'echo'],
      ["echo 'a; rm b'", ['rm'], 'echo'],
      ['echo a\\;rm b', ['rm'], 'echo'],
      ['echo "x | sh"', ['sh'], 'echo'],
      ['echo x \\| sh', ['sh'], 'echo'],
      ['echo "(rm -rf /)"', ['rm'], 'echo'],
      ['echo "{ rm -rf /; }"', ['rm'], 'echo'],
      ['echo "> /etc/passwd"', [], 'echo'],
      ['[[ "$x" == "rm -rf /" ]] && echo same', ['rm'], 'echo'],
      ['if grep -q "rm -rf" log; then echo found; fi', ['rm'], 'grep', 'echo'],
      ['case "$x" in "rm -rf") echo hit;; esac', ['rm'], 'echo'],
      ['for w in rm sudo eval; do echo $w; done', ['rm', 'sudo', 'eval'], 'echo', 'echo', 'echo'],
      ['echo $(( 2 * 3 ))', [], 'echo'],
      ['(( count++ )) && echo ok', [], 'echo'],
    ]),
  )('$line', (r) => {
    checkRow(r);
  });
});

describe('inline code that runs no command', () => {
  it.for(
    table([
      [`python -c "print('rm -rf /')"`, ['rm'], 'python'],
      [`python3 -c "import json; print(json.dumps({'cmd': 'git push'}))"`, ['git'], 'python3'],
      [`node -e "console.log('sudo rm -rf /')"`, ['sudo', 'rm'], 'node'],
      [`node -p "'npm publish'.toUpperCase()"`, ['npm'], 'node'],
      [`ruby -e 'puts "rm -rf /"'`, ['rm'], 'ruby'],
      [`perl -ne 'print if /system/' file.txt`, ['system'], 'perl'],
      [`perl -pe 's/exec/run/' f`, ['exec', 'run'], 'perl'],
      [`php -r 'echo "git push";'`, ['git'], 'php'],
      [`deno eval 'console.log("rm -rf /")'`, ['rm'], 'deno'],
      [`python -c "import sys; sys.exit(0)"`, ['sys'], 'python'],
      [`awk '{print "rm -rf /"}' files.txt`, ['rm'], 'awk'],
      [`awk '/system\\(/ {n++} END {print n}' log.txt`, ['system'], 'awk'],
      [`awk -F, '$3 == "git push" {print $1}' runs.csv`, ['git'], 'awk'],
    ]),
  )('$line', (r) => {
    checkRow(r);
  });
});

describe('other shells: data stays data', () => {
  it.for<Row>([
    {
      line: "Write-Output 'Remove-Item -Recurse C:\\'",
      options: { shell: 'powershell' },
      absent: ['remove-item'],
      expect: [{ program: 'Write-Output' }],
    },
    {
      line: "$text = @'\nRemove-Item -Recurse C:\\x\n'@\nWrite-Host $text",
      options: { shell: 'powershell' },
      absent: ['remove-item'],
      expect: [{ program: 'Write-Host' }],
    },
    { line: '# Remove-Item C:\\x', options: { shell: 'powershell' }, absent: ['remove-item'], expect: [] },
    { line: 'echo del /q C:\\x', options: { shell: 'cmd' }, absent: ['del'], expect: [{ program: 'echo' }] },
    {
      line: 'echo "rd /s /q C:\\" > note.txt',
      options: { shell: 'cmd' },
      absent: ['rd'],
      expect: [{ program: 'echo', writes: ['note.txt'] }],
    },
    {
      line: 'pwsh -Command "Write-Output \'git push --force\'"',
      absent: ['git'],
      expect: [{ program: 'pwsh' }, { program: 'Write-Output', via: 'pwsh -c' }],
    },
    {
      line: 'cmd /c echo rd /s /q C:\\',
      absent: ['rd'],
      expect: [{ program: 'cmd' }, { program: 'echo', via: 'cmd -c' }],
    },
    {
      line: `ssh host "echo 'rm -rf /'"`,
      absent: ['rm'],
      expect: [{ program: 'ssh' }, { program: 'echo', via: 'ssh', host: 'host' }],
    },
    {
      line: `bash -c "echo 'git push --force'"`,
      absent: ['git'],
      expect: [{ program: 'bash' }, { program: 'echo', via: 'bash -c' }],
    },
    { line: `eval "echo rm -rf /"`, absent: ['rm'], expect: [{ program: 'eval' }, { program: 'echo', via: 'eval' }] },
  ])('$line', (r) => {
    checkRow(r);
  });
});

describe('wrappers and runners pass data along as data', () => {
  it.for(
    table([
      ['ls | xargs', ['rm'], 'ls', 'xargs'],
      ['echo x | xargs echo rm -rf', ['rm'], 'echo', 'xargs', 'echo|xargs'],
      [String.raw`find . -exec echo rm {} \;`, ['rm'], 'find', 'echo|find'],
      ['watch -n 1 echo rm -rf /', ['rm'], 'watch', 'echo|watch -c'],
      ['parallel echo ::: rm sudo', ['rm', 'sudo'], 'parallel', 'echo|parallel'],
      ['npx cowsay "rm -rf /"', ['rm'], 'npx', 'cowsay|npx'],
      ['ssh host echo rm -rf /', ['rm'], 'ssh', 'echo|ssh'],
      ['sudo echo rm -rf /', ['rm'], 'echo|sudo'],
      ['timeout 5 echo git push', ['git'], 'echo|timeout'],
      ['env FOO="rm -rf /" ls', ['rm'], 'ls|env'],
      ['HUSKY="git push" true', ['git'], 'true'],
      ['nice echo sudo reboot', ['sudo', 'reboot'], 'echo|nice'],
      ['time echo eval x', ['eval'], 'echo|time'],
      ["printf '%s\\n' '$(reboot)' | cat", ['reboot'], 'printf', 'cat'],
      ["echo 'rm -rf /' | cat", ['rm'], 'echo', 'cat'],
      ["echo 'rm -rf /' > script.sh", ['rm'], 'echo'],
      ["echo 'rm -rf /' | tee x.sh", ['rm'], 'echo', 'tee'],
      ['echo ls | grep sh', ['ls'], 'echo', 'grep'],
      ['cat install.sh | less', ['sh'], 'cat', 'less'],
      ['bash --version', [], 'bash'],
      ['sh -n deploy.sh', [], 'sh'],
      ['eval', [], 'eval'],
      ['python -V && node --version && ruby -v', [], 'python', 'node', 'ruby'],
      ['echo ${X:-rm -rf /}', ['rm'], 'echo'],
      ['echo "${CMD:-git push --force}"', ['git'], 'echo'],
      [": 'rm -rf /'", ['rm'], ':'],
      ['true && echo "xargs rm"', ['rm', 'xargs'], 'true', 'echo'],
      ['ls rm sudo eval', ['rm', 'sudo', 'eval'], 'ls'],
      ['cp rm.sh backup/ && git checkout -b remove-eval', ['rm', 'eval'], 'cp', 'git'],
      ['npm install bash-parser shell-exec', ['bash', 'bash-parser'], 'npm'],
      ['curl https://example.com/rm -o rm.html', ['rm'], 'curl'],
      ['open "https://example.com/?q=sudo+rm+-rf"', ['sudo', 'rm'], 'open'],
      ['code -g "bash -c x"', ['bash'], 'code'],
      [
        'constructor -c "rm -rf /" && toString -e x && __proto__ -c y && hasOwnProperty',
        ['rm'],
        'constructor',
        'toString',
        '__proto__',
        'hasOwnProperty',
      ],
    ]),
  )('$line', (r) => {
    checkRow(r);
  });
});

// a statement of only assignments runs nothing but is kept as a fact (`assigned`), for rules that
// read what a later command inherits; the same text inside quotes or as a command's word is not one
describe('a statement of only assignments is kept as assigned', () => {
  it.for([
    { line: 'X=1', assigned: ['X=1'] },
    { line: 'X=1; cmd', assigned: ['X=1'] },
    { line: 'X=1 Y=2 && cmd', assigned: ['X=1', 'Y=2'] },
    { line: 'cd /tmp\nX=1\ncmd', assigned: ['X=1'] },
    { line: "sh -c 'X=1; cmd'", assigned: ['X=1'] },
    { line: 'if true; then X=1; fi', assigned: ['X=1'] },
    { line: 'X=1 > out.txt', assigned: ['X=1'] },
    // near misses: set for one command, exported, or only text
    { line: 'X=1 cmd', assigned: [] },
    { line: 'env X=1 cmd', assigned: [] },
    { line: 'export X=1', assigned: [] },
    { line: 'echo "X=1; cmd"', assigned: [] },
    { line: "echo 'X=1;' >> notes.md", assigned: [] },
    { line: 'git commit -m "X=1 && cmd"', assigned: [] },
    { line: "grep -rnE '(X=1)' docs", assigned: [] },
    { line: 'make X=1', assigned: [] },
  ])('$line', ({ line, assigned }) => {
    const read = readCommand(line, OPTIONS);
    expect((read.assigned ?? []).map((set) => `${set.name}=${set.value}`)).toEqual(assigned);
    for (const set of read.assigned ?? [])
      expect(line.slice(set.span[0], set.span[1])).toBe(`${set.name}=${set.value}`);
  });
});
