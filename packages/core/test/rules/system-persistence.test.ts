import { systemPersistence } from '../../src/rules/system-persistence.js';
import { runRuleTests } from '../rule-tester.js';

const PATCH_PROFILE = '*** Begin Patch\n*** Update File: /home/dev/.profile\n@@\n+export EDITOR=vim\n*** End Patch\n';
const PATCH_PROJECT = '*** Begin Patch\n*** Update File: scripts/profile.sh\n@@\n+export EDITOR=vim\n*** End Patch\n';

runRuleTests(systemPersistence, {
  valid: [
    // looking at schedules and start-up files
    'crontab -l',
    'crontab -l | grep backup',
    'sudo crontab -u www-data -l',
    // removing the table registers nothing (fs.delete asks about it)
    'crontab -r',
    'crontab -ri',
    'atq',
    'schtasks /query /fo list',
    'Get-ScheduledTask',
    // builds a trigger object; nothing is registered until Register-ScheduledTask
    'New-ScheduledTaskTrigger -AtLogOn',
    'systemctl status nginx',
    'systemctl is-enabled docker',
    'systemctl --user start dev-server',
    'sudo systemctl restart nginx',
    'launchctl list',
    'launchctl unload ~/Library/LaunchAgents/com.example.sync.plist',
    'reg query "HKCU\\Software\\Microsoft\\Windows\\CurrentVersion\\Run"',
    'Get-ItemProperty -Path "HKCU:\\Software\\Microsoft\\Windows\\CurrentVersion\\Run"',
    'reg add "HKCU\\Software\\Example\\Settings" /v Theme /d dark',
    // reading, sourcing and listing shell start-up files
    'cat ~/.bashrc',
    'grep alias ~/.zshrc',
    'source ~/.bashrc',
    '. ~/.profile',
    'cp ~/.bashrc ./backup/bashrc.txt',
    'diff ~/.zshrc dotfiles/.zshrc',
    'touch ~/.bashrc',
    'chmod 644 ~/.bashrc',
    { step: { kind: 'read', path: '~/.bashrc' } },
    // files that only look like start-up files
    'echo "alias ll=ls" >> ./dotfiles/.bashrc',
    'echo x > ~/.bashrc.bak',
    'echo "0 * * * * job" > crontab.txt',
    { step: { kind: 'write', path: 'dotfiles/.zshrc', content: 'alias ll="ls -l"\n' } },
    { step: { kind: 'write', path: 'src/cron.ts', content: 'export const every = "0 * * * *";\n' } },
    { step: { kind: 'patch', patch: PATCH_PROJECT } },
    // data, not commands
    'git commit -m "crontab -e to add the job"',
    'echo "systemctl enable foo"',
    'grep -r "schtasks /create" docs',
  ],
  invalid: [
    // SPEC 4.1 examples
    'crontab jobs.txt',
    'crontab -e',
    'crontab -',
    '(crontab -l; echo "0 * * * * ~/sync.sh") | crontab -',
    'schtasks /create /sc onlogon /tn updater /tr C:\\tools\\u.exe',
    'SCHTASKS /Create /SC DAILY /TN x /TR y',
    'Register-ScheduledTask -TaskName sync -Action $a -Trigger $t',
    'reg add HKCU\\Software\\Microsoft\\Windows\\CurrentVersion\\Run /v updater /d C:\\u.exe',
    'reg add "HKLM\\SOFTWARE\\Microsoft\\Windows\\CurrentVersion\\RunOnce" /v x /d y',
    'Set-ItemProperty -Path "HKCU:\\Software\\Microsoft\\Windows\\CurrentVersion\\Run" -Name sync -Value C:\\s.exe',
    'New-ItemProperty -Path "Registry::HKEY_CURRENT_USER\\Software\\Microsoft\\Windows\\CurrentVersion\\Run" -Name x -Value y',
    'cp sync.lnk "$APPDATA/Microsoft/Windows/Start Menu/Programs/Startup/"',
    'systemctl enable nginx',
    'sudo systemctl enable --now docker',
    'systemctl --user enable --now backup.timer',
    'launchctl load -w ~/Library/LaunchAgents/com.example.sync.plist',
    'launchctl bootstrap gui/501 ~/Library/LaunchAgents/com.example.sync.plist',
    'echo "export PATH=$PATH:~/bin" >> ~/.bashrc',
    'echo x > ~/.zshrc',
    'echo "set -x fish_greeting" >> ~/.config/fish/config.fish',
    'Add-Content $PROFILE "Set-Alias g git"',
    'cat snippet.sh | tee -a ~/.bash_profile',
    'sed -i "s/old/new/" ~/.profile',
    'cp service.plist ~/Library/LaunchAgents/',
    'echo "@reboot /opt/x" | sudo tee /etc/cron.d/x',
    'echo "./deploy.sh" | at now + 1 hour',
    'update-rc.d myservice defaults',
    'sc create updater binPath= C:\\u.exe start= auto',
    // every kind of step
    { step: { kind: 'write', path: '/home/dev/.zshrc', content: 'alias ll="ls -l"\n' } },
    { step: { kind: 'write', path: '~/.bashrc', mode: 'edit', content: 'export X=1' } },
    { step: { kind: 'write', path: 'notes.txt', mode: 'move', toPath: '/home/dev/.bashrc' } },
    { step: { kind: 'patch', patch: PATCH_PROFILE } },
    { step: { kind: 'other', toolName: 'save_file', args: { path: '/home/dev/.profile', text: 'x' } } },
    // the way there does not matter
    'bash -c "crontab -e"',
    'cd ~ && echo "alias x=y" >> .bashrc',
    'sudo sh -c "echo job > /etc/cron.d/job"',
    'powershell -Command "Register-ScheduledTask -TaskName x -Action $a"',
  ],
});
