const WINDOWS_ABSOLUTE = /^(?:[A-Za-z]:[\\/]|\\\\)/;

/**
 * Resolves `path` against the directory `base` with POSIX rules (`..` collapses). Relative paths
 * under a Windows drive base are joined with backslashes; an absolute Windows path is kept as
 * written; a base that is not absolute (`~` on a remote computer) is joined as text.
 */
export function resolvePath(base: string, path: string): string {
  if (path.startsWith('/')) return `/${collapse(path.split('/')).join('/')}`;
  if (WINDOWS_ABSOLUTE.test(path)) return path;
  if (/^[A-Za-z]:[\\/]/.test(base)) {
    // C:\x: the drive stays, `..` stops at it
    const [drive = '', ...rest] = `${base}\\${path}`.split(/[\\/]/);
    return `${drive}\\${collapse(rest).join('\\')}`;
  }
  if (base.startsWith('/')) return `/${collapse(`${base}/${path}`.split('/')).join('/')}`;
  if (base.startsWith('\\\\')) return `${base.replace(/\\+$/, '')}\\${path}`;
  if (base === '') return path;
  return path === '.' ? base : `${base}/${path}`;
}

/** Drops empty and `.` segments and lets `..` remove the one before it. */
function collapse(segments: readonly string[]): string[] {
  const out: string[] = [];
  for (const segment of segments) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') out.pop();
    else out.push(segment);
  }
  return out;
}

/**
 * The name rules match a program by: its basename, lower-cased, without `.exe`/`.cmd`/`.bat`/`.com`
 * (`/usr/bin/git` and `GIT.EXE` are both `git`). For a package a runner fetches (`npx rimraf@5`),
 * the version is dropped too.
 */
export function programName(program: string, isPackage = false): string {
  if (!isPackage && /^[a-z0-9_-]+$/.test(program)) return program;
  const slash = Math.max(program.lastIndexOf('/'), program.lastIndexOf('\\'));
  let name = program.slice(slash + 1).toLowerCase();
  if (isPackage) {
    if (program.startsWith('@') && slash < 0) name = program.toLowerCase();
    const at = name.indexOf('@', 1);
    if (at > 0) name = name.slice(0, at);
    name = name.split(/[=<>~!]=?/)[0] ?? name;
  }
  return name.replace(/\.(?:exe|cmd|bat|com)$/, '');
}
