/**
 * One definition of a pipeline's stages, for every rule that asks what feeds a command or where
 * its output goes. The reader gives each invocation its pipeline id and stage index; the commands
 * of a subshell or group in a pipeline are that stage (`(find …) | xargs rm`), and so are the
 * commands a prefix runs (`sudo find …`). A stage's producers are the commands whose output is the
 * stage's output: seen through subshells, groups and prefixes, not what a runner there runs in
 * turn (`xargs rm`'s `rm` prints into xargs, which prints the stage's output).
 */
import type { Invocation, Via } from '../shell/types.js';
import type { Stage } from './types.js';

/** Via steps that do not come between a command and its stage's output. */
function seeThrough(via: Via): boolean {
  return via.kind === 'prefix' || via.kind === 'subshell';
}

const NO_STAGES: readonly Stage[] = [];

/** Every pipeline of a step by id, its stages in order (built once per step, linear in the invocations). */
export function pipelines(invocations: readonly Invocation[]): ReadonlyMap<number, readonly Stage[]> {
  const members = new Map<number, Invocation[]>();
  for (let i = 0; i < invocations.length; i++) {
    const inv = invocations[i] as Invocation;
    let list = members.get(inv.pipeline.id);
    if (list === undefined) members.set(inv.pipeline.id, (list = []));
    list.push(inv);
  }
  const out = new Map<number, readonly Stage[]>();
  for (const [id, list] of members) {
    // the pipeline's own level: the shortest way any of its commands was reached
    let base = Number.POSITIVE_INFINITY;
    let length = 0;
    for (const inv of list) {
      base = Math.min(base, inv.via.length);
      length = Math.max(length, inv.pipeline.length, inv.pipeline.index + 1);
    }
    const stages: { index: number; commands: Invocation[]; producers: Invocation[] }[] = [];
    for (let s = 0; s < length; s++) stages.push({ index: s, commands: [], producers: [] });
    for (const inv of list) {
      const stage = stages[inv.pipeline.index];
      if (stage === undefined) continue;
      stage.commands.push(inv);
      if (inv.via.slice(base).every(seeThrough)) stage.producers.push(inv);
    }
    out.set(id, stages);
  }
  return out;
}

/** The stages of `inv`'s pipeline (empty when the index does not know it). */
export function stagesOf(index: ReadonlyMap<number, readonly Stage[]>, inv: Invocation): readonly Stage[] {
  return index.get(inv.pipeline.id) ?? NO_STAGES;
}
