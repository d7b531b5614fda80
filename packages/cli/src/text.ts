/** The width of guard's text output in a terminal. */
export const WIDTH = 80;

/** Words of `text` filled into lines of at most WIDTH columns, each starting with `indent`. */
export function wrap(text: string, indent: string): string[] {
  const lines: string[] = [];
  let current = indent;
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (current !== indent && current.length + 1 + word.length > WIDTH) {
      lines.push(current);
      current = indent;
    }
    current += current === indent ? word : ` ${word}`;
  }
  if (current !== indent) lines.push(current);
  return lines;
}
