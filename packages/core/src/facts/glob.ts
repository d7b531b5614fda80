/** Glob matching over `/`-separated names, as path patterns are written (policy globs, agents' files). */

/**
 * Matches a path against a glob: `*` and `?` stay within one segment, a `**` segment spans any
 * number of segments. Greedy matching with one resume point per level, so no exponential blowup.
 */
export function globMatch(glob: string, path: string): boolean {
  return matchSequence(glob.split('/'), path.split('/'), (p) => p === '**', segmentMatch);
}

/** One name against a glob: `*` and `?` within the name. */
export function segmentMatch(glob: string, name: string): boolean {
  return matchSequence(
    [...glob],
    [...name],
    (p) => p === '*',
    (p, c) => p === '?' || p === c,
  );
}

// The classic wildcard walk: a star remembers where it stood; on a mismatch the star swallows one
// more element. Each star only resumes from the latest star, which keeps it O(pattern × text).
function matchSequence(
  pattern: readonly string[],
  text: readonly string[],
  isStar: (p: string) => boolean,
  one: (p: string, s: string) => boolean,
): boolean {
  let p = 0;
  let t = 0;
  let starP = -1;
  let starT = 0;
  while (t < text.length) {
    const pat = pattern[p];
    const item = text[t] as string;
    if (pat !== undefined && isStar(pat)) {
      starP = p++;
      starT = t;
    } else if (pat !== undefined && one(pat, item)) {
      p++;
      t++;
    } else if (starP >= 0) {
      p = starP + 1;
      t = ++starT;
    } else {
      return false;
    }
  }
  while (p < pattern.length && isStar(pattern[p] as string)) p++;
  return p === pattern.length;
}
