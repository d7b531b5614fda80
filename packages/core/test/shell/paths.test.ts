import { describe, expect, it } from 'vitest';
import { programName, resolvePath } from '../../src/shell/paths.js';

describe('resolvePath', () => {
  it.for([
    { base: '/home/dev/project', path: 'build', want: '/home/dev/project/build' },
    { base: '/home/dev/project', path: '../x/./y', want: '/home/dev/x/y' },
    { base: '/home/dev/project', path: '/a/../b', want: '/b' },
    { base: '/', path: '../..', want: '/' },
    { base: '/home/dev/project', path: '.', want: '/home/dev/project' },
    { base: 'C:\\Users\\dev\\app', path: '..\\lib', want: 'C:\\Users\\dev\\lib' },
    { base: 'C:\\Users\\dev', path: 'sub/x', want: 'C:\\Users\\dev\\sub\\x' },
    { base: 'C:\\', path: '..', want: 'C:\\' },
    { base: '/home/dev', path: 'D:\\data', want: 'D:\\data' },
    { base: '\\\\server\\share', path: 'x', want: '\\\\server\\share\\x' },
    // a base that is not absolute is only joined: `~` of another computer, or no cwd at all
    { base: '~', path: 'x', want: '~/x' },
    { base: '', path: 'x', want: 'x' },
  ])('$base + $path', ({ base, path, want }) => {
    expect(resolvePath(base, path)).toBe(want);
  });
});

describe('programName', () => {
  it.for([
    { program: 'git', want: 'git' },
    { program: '/usr/bin/git', want: 'git' },
    { program: 'GIT.EXE', want: 'git' },
    { program: 'C:\\Windows\\System32\\cmd.exe', want: 'cmd' },
    { program: 'npm.cmd', want: 'npm' },
    { program: 'build.bat', want: 'build' },
    { program: 'Remove-Item', want: 'remove-item' },
    // near misses: other suffixes stay, so `rm.sh` is not `rm` and a script keeps its .ps1
    { program: './rm.sh', want: 'rm.sh' },
    { program: 'deploy.ps1', want: 'deploy.ps1' },
    { program: 'git.exe.bak', want: 'git.exe.bak' },
    { program: 'rimraf@5', want: 'rimraf@5' },
  ])('$program', ({ program, want }) => {
    expect(programName(program)).toBe(want);
  });

  it.for([
    { program: 'rimraf@5', want: 'rimraf' },
    { program: '@scope/cli@1.2.3', want: 'cli' },
    { program: 'ruff==0.6', want: 'ruff' },
    { program: 'create-vite', want: 'create-vite' },
  ])('package $program', ({ program, want }) => {
    expect(programName(program, true)).toBe(want);
  });
});
