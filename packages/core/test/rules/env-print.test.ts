import { describe, it } from 'vitest';
import { envPrint } from '../../src/rules/env-print.js';
import { runRuleTests } from '../rule-tester.js';

runRuleTests(envPrint, {
  valid: [
    // ps: every process (-e), not their environment (BSD's e)
    'ps aux',
    'ps -ef',
    'ps -e -o pid,comm',
    'ps -o user,pid',
    // the names alone, with no value read by a worked-out name
    `node -e "console.log(Object.keys(process.env).filter(k => k.startsWith('VITE_')).length)"`,
    `python -c "import os, json; print(json.dumps(sorted(k for k in os.environ if k.startswith('npm_'))))"`,
    `node -e "for (const k in process.env) console.log(k)"`,
    // env as a prefix, not a print
    'env NODE_ENV=test npm test',
    'env -i PATH=/usr/bin make',
    'sudo env FOO=1 ./configure',
    // harmless variables, by name
    'echo $HOME',
    'echo $PATH',
    'echo "$PWD"',
    'printenv NODE_ENV',
    'printenv HOME PATH',
    'echo $SSH_AUTH_SOCK',
    'echo $KEYBOARD_LAYOUT',
    'echo $TOKENIZER_PATH',
    'Write-Output $env:PATH',
    'gci env:PATH',
    // only whether it is set, or its length
    'echo ${#OPENAI_API_KEY}',
    'echo ${OPENAI_API_KEY:+set}',
    '[ -n "$OPENAI_API_KEY" ] && echo set',
    'test -z "$GITHUB_TOKEN" || echo present',
    // printed as written, not expanded
    "echo '$OPENAI_API_KEY'",
    'git commit -m "print $OPENAI_API_KEY in debug mode"',
    // handed to a program that takes it from stdin and shows nothing
    'echo "$DOCKER_PASSWORD" | docker login -u me --password-stdin',
    'printf %s "$GH_TOKEN" | gh auth login --with-token',
    'echo -n "$API_KEY" | sha256sum',
    // shell options, not a dump
    'set -euo pipefail',
    'set -x',
    'export NODE_ENV=production',
    'export PATH="$HOME/bin:$PATH"',
    'declare -x FOO=bar',
    'declare -p PATH',
    "node -p 'process.env.NODE_ENV'",
    // inline code reading one harmless variable, or using the env without printing it
    'python -c "import os; print(os.environ[\'HOME\'])"',
    "python -c \"import os, subprocess; subprocess.run(['make'], env=dict(os.environ, CI='1'))\"",
    'node -e "console.log(process.env.NODE_ENV)"',
    'python -c "import os; print(\'CI\' in os.environ)"',
    // everyday commands
    'npm test',
    'git status',
    'ls -la',
    'cat package.json',
  ],
  invalid: [
    // each process's environment after its command (BSD's e)
    'ps eww -o command',
    'ps auxe',
    'ps e',
    // names and then each value by name
    `node -e "Object.keys(process.env).forEach(k => console.log(k, process.env[k]))"`,
    `python -c "import os; [print(k, os.environ[k]) for k in os.environ]"`,
    `python -c "import os; [print(k, v) for k, v in os.environ.items()]"`,
    `node -e "for (const k in process.env) console.log(k, process.env[k])"`,
    // SPEC 4.1 examples
    'printenv',
    'env',
    'export -p',
    'set',
    'Get-ChildItem env:',
    'python -c "print(os.environ)"',
    'node -e "console.log(process.env)"',
    'echo $OPENAI_API_KEY',
    // more spellings of a dump
    'export',
    'declare -x',
    'declare -p',
    'typeset -x',
    'env -0',
    'gci env:',
    'ls env:',
    'dir env:',
    'Get-ChildItem -Path Env:\\',
    'Get-ChildItem env:*',
    'cat /proc/self/environ',
    'strings /proc/1/environ',
    'env | sort',
    'printenv | grep -i key',
    'env > env.txt',
    'echo "$(printenv)"',
    'python3 -c "import os, json; print(json.dumps(dict(os.environ), indent=2))"',
    'python -c "import os\nfor k, v in os.environ.items():\n    print(k, v)"',
    "node -e 'console.log(JSON.stringify(process.env, null, 2))'",
    "node -e 'Object.entries(process.env).forEach(([k, v]) => console.log(k, v))'",
    "ruby -e 'puts ENV.to_h'",
    'perl -e \'print "$_=$ENV{$_}\\n" for keys %ENV\'',
    "php -r 'print_r($_ENV);'",
    // a variable named like a secret
    'echo "$GITHUB_TOKEN"',
    'echo "key: $OPENAI_API_KEY"',
    'echo ${AWS_SECRET_ACCESS_KEY}',
    'printf "%s\\n" "$NPM_TOKEN"',
    'printenv ANTHROPIC_API_KEY',
    'declare -p GITHUB_TOKEN',
    "node -p 'process.env'",
    'Write-Output $env:OPENAI_API_KEY',
    'Write-Host $env:GITHUB_TOKEN',
    'gci env:AWS_SECRET_ACCESS_KEY',
    'echo %OPENAI_API_KEY%',
    'echo $STRIPE_SECRET | base64',
    'echo $SLACK_BOT_TOKEN > token.txt',
    // through wrappers
    'sudo printenv',
    "bash -c 'echo $OPENAI_API_KEY'",
    'cd app && env',
    'timeout 5 printenv',
  ],
});

describe('env.print rows blocked by the reader', () => {
  // reader: `${DB_PASSWORD:-unset}` with DB_PASSWORD not set on the line resolves to `unset`,
  // as if the variable were known to be empty; it comes from the environment, so it stays unknown
  it.todo('blocks echo ${DB_PASSWORD:-unset}');
});
