import { shellOpaque } from '../../src/rules/shell-opaque.js';
import { runRuleTests } from '../rule-tester.js';

runRuleTests(shellOpaque, {
  valid: [
    'echo "balanced"',
    "echo 'single' \"double\" $'ansi'",
    'git commit -m "a (b) c"',
    // a quote inside another kind of quote is data
    `echo "it's fine"`,
    // PowerShell setting an environment variable before the command
    '$env:NODE_ENV = "test"; npm test',
    '$env:CI="1"; npm run build',
    "$ErrorActionPreference = 'Stop'; dotnet build",
    '$PSVersionTable.PSVersion',
    'npm run build; if ($?) { npm test }',
    "dotnet test; if ($LASTEXITCODE -ne 0) { Write-Error 'tests failed' }",
  ],
  invalid: [
    'echo "unterminated',
    "ls && echo 'open",
    'echo $(date',
    'echo `date',
    '$env:TOOL --version',
    '$env:NODE_ENV; npm test',
    "$ErrorActionPreference = 'Stop'; $TOOL --version",
    'npm test; if ($?) { $TOOL --version }',
  ],
});
