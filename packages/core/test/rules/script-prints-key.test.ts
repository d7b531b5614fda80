import type { Example } from '../../src/rule.js';
import { scriptPrintsKey } from '../../src/rules/script-prints-key.js';
import { runRuleTests } from '../rule-tester.js';

const P = '/home/dev/project';

/** `step` run with one script on disk (the note shows its text, so rows stay distinct). */
function on(step: string, path: string, text: string): Example {
  return { step, probe: { files: { [`${P}/${path}`]: text } }, note: text.replace(/\n/g, '; ').slice(0, 70) };
}

runRuleTests(scriptPrintsKey, {
  valid: [
    // harmless variables, or only whether a secret is set
    'python -c "import os; print(os.environ[\'HOME\'])"',
    'python -c "import os; print(len(os.environ[\'OPENAI_API_KEY\']))"',
    'python -c "import os; print(bool(os.getenv(\'OPENAI_API_KEY\')))"',
    'python -c "import os; print(\'OPENAI_API_KEY\' in os.environ)"',
    'node -e "console.log(process.env.NODE_ENV)"',
    "node -p 'process.env.NODE_ENV'",
    'node -e "console.log(!!process.env.GITHUB_TOKEN)"',
    "node -e \"console.log(process.env.GITHUB_TOKEN ? 'set' : 'missing')\"",
    'node -e "console.log(process.env.GITHUB_TOKEN.length)"',
    'ruby -e \'puts ENV["RAILS_ENV"]\'',
    // read and used, not printed
    "python -c \"import os, openai; openai.api_key = os.environ['OPENAI_API_KEY']; print('ok')\"",
    'node -e "fetch(url, { headers: { authorization: process.env.API_TOKEN } }).then(() => console.log(\'sent\'))"',
    // text only mentions the name
    'python -c "print(\'set OPENAI_API_KEY first\')"',
    'git commit -m "print(os.environ[\'OPENAI_API_KEY\'])"',
    // a shell echo typed directly is env.print's
    'echo $OPENAI_API_KEY',
    // scripts that print nothing secret
    on('python check.py', 'check.py', "import os\nprint('key set' if os.getenv('STRIPE_SECRET_KEY') else 'missing')\n"),
    on('node env.js', 'env.js', "console.log('mode', process.env.NODE_ENV);\n"),
    on('sh show.sh', 'show.sh', 'echo "home is $HOME"\n[ -n "$API_KEY" ] && echo "key set"\n'),
    on(
      'sh login.sh',
      'login.sh',
      'echo "$REGISTRY_PASSWORD" | docker login -u ci --password-stdin registry.example.com\n',
    ),
    // unreadable script
    { step: 'python check.py', note: 'nothing to read' },
    'npm test',
  ],
  invalid: [
    // SPEC 4.2: inline code about to print a key, token or password variable
    'python -c "import os; print(os.environ[\'OPENAI_API_KEY\'])"',
    'python3 -c "import os; print(os.getenv(\'GITHUB_TOKEN\'))"',
    "python -c \"import os; print(f'key={os.environ.get('ANTHROPIC_API_KEY')}')\"",
    'python -c "import os; k = os.environ[\'AWS_SECRET_ACCESS_KEY\']; print(k)"',
    'node -e "console.log(process.env.GITHUB_TOKEN)"',
    "node -e 'console.log(`token: ${process.env.NPM_TOKEN}`)'",
    "node -e 'const { DB_PASSWORD } = process.env; console.log(DB_PASSWORD)'",
    "node -p 'process.env.OPENAI_API_KEY'",
    'node -p \'process.stdout.write(process.env["SLACK_BOT_TOKEN"])\'',
    'ruby -e \'puts ENV["STRIPE_SECRET_KEY"]\'',
    'ruby -e \'p ENV.fetch("GITHUB_TOKEN")\'',
    "perl -e 'print $ENV{OPENAI_API_KEY}'",
    'php -r \'echo getenv("DB_PASSWORD");\'',
    'python3 - <<EOF\nimport os\nprint(os.environ["OPENAI_API_KEY"])\nEOF',
    // through wrappers
    'cd app && python -c "import os; print(os.environ[\'SECRET_KEY\'])"',
    'bash -c "node -e \'console.log(process.env.API_TOKEN)\'"',
    // a script on disk
    on('python check.py', 'check.py', "import os\nkey = os.getenv('STRIPE_SECRET_KEY')\nprint(key)\n"),
    on('node show.js', 'show.js', 'console.log("token", process.env.GITHUB_TOKEN);\n'),
    on('sh debug.sh', 'debug.sh', '#!/bin/sh\necho "key: $OPENAI_API_KEY"\n'),
    on('./debug', 'debug', '#!/usr/bin/env bash\nprintf "%s\\n" "$AWS_SECRET_ACCESS_KEY"\n'),
    on('ruby env.rb', 'env.rb', 'puts ENV["GITHUB_TOKEN"]\n'),
  ],
});
