import { shellOpaque } from '../../src/rules/shell-opaque.js';
import { runRuleTests } from '../rule-tester.js';

runRuleTests(shellOpaque, {
  valid: [
    'echo "balanced"',
    "echo 'single' \"double\" $'ansi'",
    'git commit -m "a (b) c"',
    // a quote inside another kind of quote is data
    `echo "it's fine"`,
  ],
  invalid: ['echo "unterminated', "ls && echo 'open", 'echo $(date', 'echo `date'],
});
