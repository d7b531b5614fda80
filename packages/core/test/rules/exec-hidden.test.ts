import { execHidden } from '../../src/rules/exec-hidden.js';
import { runRuleTests } from '../rule-tester.js';

runRuleTests(execHidden, {
  valid: [
    // code written out in the line, piped to the interpreter
    'echo "print(1)" | python3',
    // decoding into a file or onto the screen, not into a shell
    'base64 -d cert.b64 > cert.pem',
    'echo aGVsbG8= | base64 -d',
    'echo aGVsbG8= | base64 --decode | jq .',
    'base64 image.png > image.b64',
    'xxd payload.bin | head',
    'xxd -r -p dump.hex > dump.bin',
    'gunzip -c logs.gz | grep ERROR',
    'zcat access.log.gz | wc -l',
    'tar -xzf release.tar.gz',
    'echo "hello" | rev',
    "tr 'a-z' 'A-Z' < names.txt",
    "printf '%s\\n' hello | sh",
    'printf "\\x1b[31mred\\x1b[0m\\n"',
    "echo -e '\\x41\\x42'",
    'python3 -c "import base64; print(base64.b64decode(\'aGk=\'))"',
    // PowerShell options that are not -EncodedCommand
    'pwsh -ExecutionPolicy Bypass -File build.ps1',
    'powershell -NoProfile -Command "Get-ChildItem"',
    'pwsh -File tools/run.ps1 -e staging',
    'powershell -ep Bypass -f setup.ps1',
    "Start-Process pwsh -ArgumentList '-File','build.ps1'",
    "Start-Process powershell -ArgumentList '-NoProfile','-Command','Get-ChildItem'",
    // data, not a command
    'git commit -m "echo x | base64 -d | sh"',
    'grep -r "EncodedCommand" docs',
    // everyday commands
    'npm test',
    'git log --oneline',
  ],
  invalid: [
    // the reader decodes the text (to read the paths it names), and it is still run unseen by the person
    'echo cHJpbnQoMSk= | base64 -d | python3',
    'echo ZWNobyBoaQ== | base64 --decode | node',
    // SPEC 4.1 examples
    'powershell -EncodedCommand ZQBjAGgAbwAgAGgAaQA=',
    'powershell -enc ZQBjAGgAbwA=',
    'echo cm0gLXJmIC4= | base64 -d | sh',
    'xxd -r -p payload.hex | bash',
    'eval "$(echo cm0gLXJmIC4= | base64 --decode)"',
    // every abbreviation and spelling PowerShell accepts
    'pwsh -e ZQBjAGgAbwA=',
    'pwsh -ec ZQBjAGgAbwA=',
    'powershell.exe -NoProfile -NonInteractive -encodedcommand ZQBjAGgAbwA=',
    'powershell -ExecutionPolicy Bypass -Enc ZQBjAGgAbwA=',
    'powershell /enc ZQBjAGgAbwA=',
    'cmd /c powershell -enc ZQBjAGgAbwA=',
    // handed to a started PowerShell as its argument list
    'Start-Process powershell -ArgumentList "-enc ZQBjAGgAbwA="',
    'Start-Process pwsh "-EncodedCommand ZQBjAGgAbwA="',
    "saps -FilePath powershell.exe -ArgumentList '-NoProfile','-enc','ZQBjAGgAbwA='",
    'cmd /c start "" powershell -enc ZQBjAGgAbwA=',
    // decoders that feed a shell or eval
    'echo cm0gLXJmIC4= | base64 --decode | bash',
    'base64 -D <<< cm0gLXJmIC4= | sh',
    'cat payload.b64 | base64 -d | sudo sh',
    'bash -c "$(echo cm0gLXJmIC4= | base64 -d)"',
    'sh <(base64 -d payload.b64)',
    'openssl enc -base64 -d -in payload.b64 | sh',
    'gunzip -c payload.sh.gz | bash',
    'zcat payload.gz | sh',
    "printf '\\x72\\x6d\\x20\\x2d\\x72\\x66' | sh",
    "echo -e '\\x72\\x6d -rf .' | bash",
    "echo 'sc- zr' | rev | sh",
    "echo 'ez -es .' | tr 'A-Za-z' 'N-ZA-Mn-za-m' | sh",
    'echo cm0= | base64 -d > run.sh && bash run.sh',
    'python3 -c "import base64; print(base64.b64decode(\'cm0gLXJm\').decode())" | sh',
    // code that decodes and runs in one go
    "python3 -c \"exec(__import__('base64').b64decode('cHJpbnQoMSk='))\"",
    "node -e \"eval(Buffer.from('Y29uc29sZS5sb2coMSk=', 'base64').toString())\"",
    'php -r \'eval(base64_decode("ZWNobyAxOw=="));\'',
    'pwsh -Command "iex ([Text.Encoding]::UTF8.GetString([Convert]::FromBase64String(\'ZQBjAGgAbwA=\')))"',
  ],
});
