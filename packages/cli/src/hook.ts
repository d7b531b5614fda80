/**
 * PLACEHOLDER for the hook runtime (`guard hook <agent>`): answers nothing and exits 0, which every
 * agent reads as "no objection". The real runtime replaces this file. `bin.ts` imports it directly,
 * without commander, because agents run it on every tool call.
 */
export async function runHook(argv: readonly string[]): Promise<number> {
  void argv;
  return 0;
}
