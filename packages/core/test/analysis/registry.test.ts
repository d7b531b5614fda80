import { describe, expect, it } from 'vitest';
import { registryChanges, registryKey } from '../../src/analysis/registry.js';
import { readCommand } from '../../src/shell/index.js';

const OPTIONS = { cwd: '/home/dev/project', home: '/home/dev', tmp: '/tmp' } as const;

describe('registryKey', () => {
  it.for([
    ['HKCU\\Software\\Microsoft\\Windows\\CurrentVersion\\Run', 'hkcu', 'softwaremicrosoftwindowscurrentversionrun'],
    ['HKCUSoftwareMicrosoftWindowsCurrentVersionRun', 'hkcu', 'softwaremicrosoftwindowscurrentversionrun'],
    ['HKLM:\\SOFTWARE\\Policies\\Microsoft\\Windows Defender', 'hklm', 'softwarepoliciesmicrosoftwindowsdefender'],
    ['Registry::HKEY_LOCAL_MACHINE\\SYSTEM', 'hklm', 'system'],
    ['HKEY_USERS\\S-1-5-18', 'hku', 's-1-5-18'],
    ['hkcr:/.txt', 'hkcr', '.txt'],
  ] as const)('%s → %s %s', ([raw, hive, key]) => {
    expect(registryKey(raw)).toEqual({ hive, key });
  });

  it.for(['C:\\Windows', 'Software\\Microsoft', 'hk', './hkcu-notes.txt'])('%s is no registry key', (raw) => {
    expect(registryKey(raw)).toBeUndefined();
  });
});

describe('registryChanges', () => {
  it.for([
    ['reg add "HKCU\\Software\\X" /v Name /d 1', [{ hive: 'hkcu', key: 'softwarex', value: 'Name' }]],
    ['reg delete HKLM\\Software\\X /f', [{ hive: 'hklm', key: 'softwarex' }]],
    ['reg import settings.reg', [{ hive: 'unknown', key: '' }]],
    ['Set-ItemProperty -Path "HKLM:\\Software\\X" -Name Y -Value 1', [{ hive: 'hklm', key: 'softwarex', value: 'Y' }]],
    ['New-Item -Path HKCU:\\Software\\X', [{ hive: 'hkcu', key: 'softwarex' }]],
    // looking is not changing; a file path is not a key
    ['reg query HKLM\\Software\\X', []],
    ['Get-ItemProperty -Path HKLM:\\Software\\X', []],
    ['New-Item -Path hkcu-notes.txt', []],
    ['Remove-Item ./HKLM', []],
  ] as const)('%s', ([line, expected]) => {
    const changes = readCommand(line, OPTIONS).invocations.flatMap((inv) =>
      registryChanges(inv).map(({ span: _span, ...rest }) => rest),
    );
    expect(changes).toEqual(expected);
  });
});
