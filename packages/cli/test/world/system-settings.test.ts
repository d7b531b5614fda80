import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NO_FLOOR } from '../../src/state/floor.js';
import { readSystemSettings, systemSettingsPath } from '../../src/world/system-settings.js';
import { writeSystemSettings } from '../system-root.js';

// The system settings file, read under a scratch system root: what each field sets, and every file
// that cannot be used (which the floor then reads as the strictest).

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'guard-system-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('systemSettingsPath', () => {
  it.for([
    ['linux', join('R', 'etc', 'guard', 'settings.yaml')],
    ['darwin', join('R', 'etc', 'guard', 'settings.yaml')],
    ['win32', join('R', 'ProgramData', 'guard', 'settings.yaml')],
  ] as const)('%s', ([platform, want]) => {
    expect(systemSettingsPath('R', platform)).toBe(want);
  });
});

describe('readSystemSettings: files it uses', () => {
  it('no file: none', async () => {
    expect(await readSystemSettings(root)).toEqual({ state: 'none', path: systemSettingsPath(root) });
  });

  it.for([
    { name: 'empty', text: '# nothing yet\n', floor: {} },
    { name: 'fail-closed', text: 'failClosed: true\n', floor: { failClosed: true } },
    { name: 'strict', text: 'strict: yes\n', floor: { strict: true } },
    { name: 'most permissive mode', text: 'mostPermissiveMode: extended\n', floor: { mostPermissiveMode: 'extended' } },
    { name: 'no guard off', text: 'offAllowed: false\n', floor: { offAllowed: false } },
    {
      name: 'locked rules, a line',
      text: 'lockedRules: git.push, pkg.publish\n',
      floor: { lockedRules: ['git.push', 'pkg.publish'] },
    },
    {
      name: 'locked rules, a list',
      text: 'lockedRules:\n  - git.push\n  - fs.delete\n',
      floor: { lockedRules: ['git.push', 'fs.delete'] },
    },
    { name: 'every rule locked', text: "lockedRules: '*'\n", floor: { lockedRules: ['*'] } },
    {
      name: 'export with headers',
      text: 'exportOtlp: https://collector.example:4318\nexportHeader-Authorization: Bearer abc\nexportCommand: false\nexportProjectPath: true\n',
      floor: {
        export: {
          endpoint: 'https://collector.example:4318/v1/logs',
          headers: { Authorization: 'Bearer abc' },
          command: false,
          projectPath: true,
          encoding: 'json',
        },
      },
    },
    {
      name: "export with the organisation's salt for the project's hash",
      text: 'exportOtlp: https://collector.example:4318\nexportProjectSalt: acme-2026\n',
      floor: { export: expect.objectContaining({ projectSalt: 'acme-2026', projectPath: false }) as unknown },
    },
    {
      name: 'near miss: an empty salt is none',
      text: "exportOtlp: https://collector.example:4318\nexportProjectSalt: ''\n",
      floor: { export: expect.not.objectContaining({ projectSalt: expect.anything() as unknown }) as unknown },
    },
    {
      name: 'export in protobuf',
      text: 'exportOtlp: https://collector.example:4318\nexportEncoding: protobuf\n',
      floor: { export: { endpoint: 'https://collector.example:4318/v1/logs', encoding: 'protobuf' } },
    },
    {
      name: 'export in JSON, named',
      text: 'exportOtlp: https://collector.example:4318\nexportEncoding: json\n',
      floor: { export: { endpoint: 'https://collector.example:4318/v1/logs', encoding: 'json' } },
    },
    {
      name: 'second opinion',
      text: 'secondOpinion: true\nsecondOpinionUrl: https://judge.example/v1\nsecondOpinionModel: judge-1\n',
      floor: { secondOpinion: { on: true, config: { url: 'https://judge.example/v1', model: 'judge-1' } } },
    },
  ])('$name', async ({ text, floor }) => {
    writeSystemSettings(root, text);
    const read = await readSystemSettings(root);
    expect(read.state).toBe('read');
    if (read.state !== 'read') return;
    expect(read.floor).toMatchObject({ ...NO_FLOOR, ...floor });
  });
});

describe('readSystemSettings: files it cannot use are unreadable (the strictest floor), never none', () => {
  it.for([
    { name: 'not YAML', text: 'failClosed: [\n', problem: 'not valid YAML' },
    { name: 'a typo in a key', text: 'failclosed: true\n', problem: 'failclosed is not a system setting' },
    {
      name: 'a user setting that is not a floor',
      text: 'enabled: false\n',
      problem: 'enabled is not a system setting',
    },
    { name: 'not a boolean', text: 'failClosed: sometimes\n', problem: 'failClosed must be true or false' },
    {
      name: 'no such mode',
      text: 'mostPermissiveMode: paranoid\n',
      problem: 'mode must be standard, extended or full',
    },
    { name: 'a bad rule id', text: 'lockedRules: git push\n', problem: 'is not a rule id' },
    {
      name: 'a misspelt rule id',
      text: 'lockedRules: git.push, git.pussh\n',
      problem: 'git.pussh is not a rule guard knows',
    },
    { name: 'a nested value', text: 'offAllowed:\n  a: b\n', problem: 'must be a single value' },
    { name: 'export without a URL', text: 'exportCommand: false\n', problem: 'exportOtlp' },
    { name: 'an encoding without a URL', text: 'exportEncoding: protobuf\n', problem: 'exportOtlp' },
    {
      name: 'an encoding guard does not know',
      text: 'exportOtlp: https://collector.example\nexportEncoding: grpc\n',
      problem: 'exportEncoding: "grpc" is not json or protobuf',
    },
    {
      name: 'an encoding in capitals (a near miss)',
      text: 'exportOtlp: https://collector.example\nexportEncoding: Protobuf\n',
      problem: 'is not json or protobuf',
    },
    {
      name: 'a misspelt encoding key',
      text: 'exportOtlp: https://collector.example\nexportEncodng: protobuf\n',
      problem: 'exportEncodng is not a system setting',
    },
    {
      name: 'a salt without export',
      text: 'exportProjectSalt: acme\n',
      problem: 'exportProjectSalt is set, but exportOtlp',
    },
    {
      name: 'export over plain http elsewhere',
      text: 'exportOtlp: http://collector.example\n',
      problem: 'must be https://',
    },
    {
      name: 'a second opinion without a model',
      text: 'secondOpinion: true\nsecondOpinionUrl: https://judge.example/v1\n',
      problem: 'no model is named',
    },
    { name: 'not UTF-8', text: 'failClosed: \uFFFD\n', problem: 'not UTF-8' },
  ])('$name', async ({ text, problem }) => {
    writeSystemSettings(root, text);
    const read = await readSystemSettings(root);
    expect(read.state).toBe('unreadable');
    if (read.state === 'unreadable') expect(read.problem).toContain(problem);
  });

  it('a folder where the file should be', async () => {
    mkdirSync(systemSettingsPath(root), { recursive: true });
    expect((await readSystemSettings(root)).state).toBe('unreadable');
  });

  it.skipIf(process.platform === 'win32')(
    'a link whose target is gone (a near miss: no file at all is no floor)',
    async () => {
      expect((await readSystemSettings(root)).state).toBe('none');
      mkdirSync(dirname(systemSettingsPath(root)), { recursive: true });
      symlinkSync(join(root, 'gone.yaml'), systemSettingsPath(root));
      expect(await readSystemSettings(root)).toMatchObject({
        state: 'unreadable',
        problem: 'it names a file that is not there',
      });
    },
  );

  it('a file where the folder should be', async () => {
    mkdirSync(join(root, 'etc'), { recursive: true });
    writeFileSync(join(root, 'etc', 'guard'), '');
    expect((await readSystemSettings(root, 'linux')).state).toBe('unreadable');
  });
});
