/**
 * Commands of service tools guard has no entry for (`scw instance server terminate …`,
 * `acmectl --region eu-west-1 clusters destroy main`), read by the knowledge base's vocabulary of
 * service verbs. Shared by infra.destroy (what destroys or deploys to production) and pkg.publish
 * (what publishes).
 */
import type { ServiceCommand } from '../programs/index.js';
import { program, serviceCommand } from '../programs/index.js';
import type { Invocation } from '../shell/types.js';

/**
 * What an invocation of a program guard does not know does on a service, by its words; undefined
 * for a known program (its entry says what it does) and for a file run by name (`clean.sh`,
 * `tool.py`: its text is what runs, read by script.contains-never).
 */
export function unknownServiceCommand(inv: Invocation): ServiceCommand | undefined {
  if (inv.args.length === 0 || inv.name.includes('.') || program(inv.name) !== undefined) return undefined;
  return serviceCommand(inv.args);
}
