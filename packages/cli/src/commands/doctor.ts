import { randomUUID } from 'node:crypto';
import { availableParallelism, loadavg } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { AGENT_IDS, AGENTS, readFallback, withFallback } from '@guard/adapters';
import { evaluate } from '@guard/core';
import type { Adapter, AgentId, Effect, TrustReport } from '@guard/adapters';
import { adapterFor, LEVELS, locationsFrom, mentionsGuard, readBytes } from '../agents/config-io.js';
import type { CommandCheck } from '../agents/config-io.js';
import { BELOW_FLOOR, collectStatus, hooksOffFor, opinionConfig } from '../agents/inspect.js';
import type { LevelStatus, StatusJson } from '../agents/inspect.js';
import { ExitCode, GuardError } from '../errors.js';
import type { Io } from '../io.js';
import type { PinLevel } from '../state/installs.js';
import { guardHomeFrom } from '../state/settings.js';
import type { SystemWorld } from '../agents/system.js';
import { setupCommand } from '../agents/admin.js';
import { stepEnvironment } from '../world/environment.js';

/** One check: what was looked at, whether it passed, and what to do when it did not. */
export interface Check {
  readonly name: string;
  readonly ok: boolean;
  /** Passed, but worth a look (a slow answer on a busy machine). */
  readonly warning?: true;
  readonly detail: string;
  /** What to do about a failed check. */
  readonly fix?: string;
}

/** The checks of one installed config file. */
export interface AgentChecks {
  readonly agent: AgentId;
  /** The user's, the project's or the system's file (`guard setup --system`). */
  readonly level: PinLevel;
  readonly path: string;
  readonly checks: readonly Check[];
}

/** `guard doctor --json`. */
export interface DoctorJson {
  readonly ok: boolean;
  readonly guard: readonly Check[];
  readonly agents: readonly AgentChecks[];
}

/** guard's own budget for one answer (SPEC §7), wall time from spawn to exit included. */
export const BUDGET_MS = 2000;
// Longest doctor waits for one hook call (a hung hook is a finding, not a reason to hang).
const WAIT_LIMIT_MS = 10_000;
const HARMLESS = 'echo guard-doctor';
const DANGEROUS = 'git push --force origin main';

/** What one run of a hook command gave back. */
export interface HookRun {
  readonly stdout: string;
  readonly stderr: string;
  readonly exitCode: number;
  readonly ms: number;
  /** Killed after waiting too long. */
  readonly timedOut: boolean;
  /** It could not be started at all. */
  readonly startError?: string;
}

/** Runs a hook command the way `agent` would, feeding `input` on stdin. */
export type RunHook = (
  agent: AgentId,
  command: string,
  input: string,
  cwd: string,
  limitMs: number,
) => Promise<HookRun>;

/**
 * Runs the command through the shell the agent uses (its doctor kit says): a login shell
 * (`$SHELL -lc`, whose profile output would reach the agent too, as for Codex) or `sh -c`; on
 * Windows, cmd.exe.
 */
export function agentShellRunner(io: Io): RunHook {
  return async (agent, command, input, cwd, limitMs) => {
    const { execa } = await import('execa');
    const windows = process.platform === 'win32';
    const [file, ...args] = windows
      ? [command]
      : adapterFor(agent).doctor.shell === 'login'
        ? [io.env.SHELL || '/bin/sh', '-lc', command]
        : ['/bin/sh', '-c', command];
    const started = performance.now();
    const result = await execa(file, args, {
      input,
      cwd,
      env: io.env,
      extendEnv: false,
      shell: windows,
      reject: false,
      timeout: limitMs,
      forceKillAfterDelay: 500,
      stripFinalNewline: false,
    });
    const ms = Math.round(performance.now() - started);
    const startError = result.exitCode === undefined && !result.timedOut ? result.shortMessage : undefined;
    return {
      stdout: result.stdout,
      stderr: result.stderr,
      exitCode: result.exitCode ?? -1,
      ms,
      timedOut: result.timedOut,
      ...(startError === undefined ? {} : { startError }),
    };
  };
}

export interface DoctorOptions {
  readonly json: boolean;
  /** How hook commands are run (tests may pass their own). */
  readonly run?: RunHook;
  /** The system whose managed hook files are checked too (tests pass a scratch one). */
  readonly system?: SystemWorld;
}

/**
 * `guard doctor`: checks every installed agent end to end, the agents at once, printing each agent's
 * checks as they are done (all at the end with --json); exit 1 when any check fails. Nothing set up
 * is not a failure: it says so, and which agents this machine has.
 */
export async function doctor(options: DoctorOptions, io: Io): Promise<void> {
  if (!options.json) io.out(`guard (checking every agent guard is set up for)\n`);
  const report = await diagnose(
    io,
    options.run ?? agentShellRunner(io),
    (part) => {
      if (!options.json) io.out(renderPart(part));
    },
    options.system,
  );
  if (options.json) io.out(`${JSON.stringify(report, null, 2)}\n`);
  else if (report.agents.length === 0) io.out(await nothingSetUp(io));
  else
    io.out(
      `\n${report.ok ? 'All checks passed.' : 'Some checks failed: follow each fix above, then run `guard doctor` again.'}\n`,
    );
  // --json says it all in its document; the exit code still tells a script
  if (!report.ok && report.agents.length > 0) throw new GuardError('', undefined, ExitCode.Failure);
}

/** What doctor says when no agent has guard set up: how to start, naming the agents this machine has. */
async function nothingSetUp(io: Io): Promise<string> {
  const { foundAgents } = await import('../agents/found.js');
  const found = foundAgents(io);
  const names = found.map(({ agent }) => agent);
  return `\nNothing set up yet: run \`guard setup <agent>\`${
    names.length === 0
      ? ` (${AGENT_IDS.join(', ')}); no agent was found on this machine.`
      : `; found here: ${found.map(({ agent, why }) => `${agent} (${why})`).join(', ')}.`
  }\n`;
}

/**
 * Every check, without printing. The agents' checks run at once; `shown` gets guard's own checks,
 * then each agent's in order, as soon as each is done.
 */
export async function diagnose(
  io: Io,
  run: RunHook,
  shown: (part: readonly Check[] | AgentChecks) => void = () => {},
  system?: SystemWorld,
): Promise<DoctorJson> {
  const status = await collectStatus(io, system);
  const guard: Check[] = [
    status.enabled
      ? { name: 'guard is on', ok: true, detail: 'steps are checked' }
      : { name: 'guard is on', ok: false, detail: 'guard is off: every step goes ahead', fix: 'Run `guard on`.' },
    status.hookScript.exists
      ? { name: 'hook script is built', ok: true, detail: status.hookScript.path }
      : {
          name: 'hook script is built',
          ok: false,
          detail: `${status.hookScript.path} is missing`,
          fix: 'Run `npm run build` in the guard checkout.',
        },
  ];
  guard.push(...floorChecks(status.settingsFrom));
  guard.push(...(await opinionCheck(status.secondOpinion, io)));
  shown(guard);
  // every file to check, each with its checks under way (all at once: each waits on hook processes)
  const pending: {
    readonly agent: AgentId;
    readonly level: PinLevel;
    readonly path: string;
    checks: Promise<Check[]>;
  }[] = [];
  for (const agent of AGENT_IDS) {
    const levels = status.agents.find((entry) => entry.agent === agent)?.levels ?? [];
    for (const level of [...LEVELS, 'system'] as const) {
      const found = levels.find((entry) => entry.level === level);
      if (
        found === undefined ||
        !(found.installed || (found.exists && found.error !== undefined && mentionsGuardIn(found.path, agent)))
      )
        continue;
      pending.push({
        agent,
        level,
        path: found.path,
        checks: checkLevel(agent, found, status.failClosed, io, run, system),
      });
    }
  }
  for (const drift of status.agents.flatMap((entry) => entry.drift)) {
    // a hooks-off switch has its own check, on the files that are set up
    if (drift.kind === 'hooks-off' && pending.some((entry) => entry.agent === drift.agent)) continue;
    const check: Check = {
      name: "guard's entries as setup left them",
      ok: false,
      detail: drift.detail,
      fix: drift.fix,
    };
    const found = pending.find((entry) => entry.path === drift.path);
    if (found === undefined)
      pending.push({ agent: drift.agent, level: drift.level, path: drift.path, checks: Promise.resolve([check]) });
    else found.checks = found.checks.then((checks) => [...checks, check]);
  }
  const agents: AgentChecks[] = [];
  for (const { checks, ...where } of pending) {
    const entry = { ...where, checks: await checks };
    agents.push(entry);
    shown(entry);
  }
  const ok = agents.length > 0 && [...guard, ...agents.flatMap((agent) => agent.checks)].every((check) => check.ok);
  return { ok, guard, agents };
}

/** The system settings: one that cannot be used fails; user settings they overrule are noted. */
function floorChecks(from: StatusJson['settingsFrom']): Check[] {
  const { system } = from;
  const name = 'system settings';
  if (system.state === 'unreadable')
    return [
      {
        name,
        ok: false,
        detail: `${system.path} cannot be used (${system.problem}): guard works at the strictest until it is fixed`,
        fix: `Ask whoever manages guard on this machine to fix ${system.path}.`,
      },
    ];
  const ignored = from.ignored.length === 0 ? '' : `; not used from your settings: ${from.ignored.join('; ')}`;
  if (system.state === 'none' && ignored === '') return [];
  return [{ name, ok: true, detail: `${system.state === 'none' ? 'none' : system.path}${ignored}` }];
}

/** With the second opinion on: one round trip to its model, timed (nothing when it is off). */
async function opinionCheck(status: StatusJson['secondOpinion'], io: Io): Promise<Check[]> {
  if (!status.on) return [];
  const name = 'second opinion answers';
  if ('problem' in status)
    return [
      {
        name,
        ok: false,
        detail: `its settings cannot be used: ${status.problem}`,
        fix: 'Run `guard second-opinion on --url <base-url> --model <name>` again, or `guard second-opinion off`.',
      },
    ];
  const config = opinionConfig(status);
  if (config === undefined) return [];
  const { roundTrip } = await import('../hook/second-opinion.js');
  const trip = await roundTrip(config, io.env, io.cwd());
  return [
    trip.ok
      ? { name, ok: true, detail: trip.detail }
      : {
          name,
          ok: false,
          detail: trip.detail,
          fix: `Check that the server at ${config.endpoint} is running and serves ${config.model}${config.keyEnv === undefined ? '' : ` (with $${config.keyEnv} set)`}, or give it more time with \`guard second-opinion on … --timeout-ms N\`; until then each step goes ahead on the rules alone.`,
        },
  ];
}

// A file that does not parse may still be guard's: then doctor says what is wrong with it.
function mentionsGuardIn(path: string, agent: AgentId): boolean {
  const bytes = readBytesQuietly(path);
  return bytes !== undefined && mentionsGuard(bytes, agent);
}

function readBytesQuietly(path: string): string | undefined {
  try {
    return readBytes(path)?.toString('utf8');
  } catch {
    return undefined;
  }
}

/**
 * Whether guard.tamper blocks an agent's step that removes the hook file where setup put it: the
 * agents' declarations, with the variables that move their folders read from this environment.
 */
export function protectedCheck(agent: AgentId, path: string, io: Io): Check {
  const home = io.home();
  const env = stepEnvironment({
    env: io.env,
    home,
    tmp: io.tmp(),
    guardHome: guardHomeFrom(io.env, home),
    systemRoot: io.systemRoot,
  });
  const folder = dirname(path);
  const removed = evaluate(
    { kind: 'write', agent, toolName: 'doctor', chatId: '', cwd: folder, projectRoot: folder, path, mode: 'delete' },
    env,
  );
  if (removed.findings.some((finding) => finding.ruleId === 'guard.tamper' && finding.decision === 'block'))
    return { name: 'hook file is protected', ok: true, detail: 'a step that changes it is blocked (guard.tamper)' };
  const variables = AGENTS[agent].files.homes.map((home) => home.variable);
  return {
    name: 'hook file is protected',
    ok: false,
    detail: `guard does not know ${path} as this agent's hook file: a step could change it unasked`,
    fix:
      variables.length === 0
        ? 'Report this to guard; the file is not where guard expects this agent to keep its hooks.'
        : `Run \`guard doctor\` where ${variables.join(', ')} ${variables.length === 1 ? 'is' : 'are'} set as the agent has them; if it still fails, report it to guard.`,
  };
}

/** How the agent lays out the file of a level: its managed file's own way for `system`. */
function layoutOf(found: LevelStatus): { readonly system: true } | undefined {
  return found.level === 'system' ? { system: true } : undefined;
}

async function checkLevel(
  agent: AgentId,
  found: LevelStatus,
  failClosed: boolean,
  io: Io,
  run: RunHook,
  system: SystemWorld | undefined,
): Promise<Check[]> {
  const again = setupCommand(agent, found.level, system?.platform ?? process.platform);
  if (found.error !== undefined) {
    return [
      {
        name: 'config parses',
        ok: false,
        detail: found.error,
        fix: `Fix that line (or move the file aside), then run ${again}.`,
      },
    ];
  }
  const checks: Check[] = [
    { name: 'config parses', ok: true, detail: found.path },
    found.upToDate
      ? { name: 'entries match setup', ok: true, detail: 'setup would change nothing' }
      : {
          name: 'entries match setup',
          ok: false,
          detail: 'the hook command or fail-closed switch differs from what setup writes now',
          fix: `Run ${again}.`,
        },
    ...(found.belowFloor === undefined
      ? []
      : [
          {
            name: 'entries as strict as the system settings',
            ok: false,
            detail: BELOW_FLOOR[found.belowFloor],
            fix: `Run ${again}.`,
          },
        ]),
    protectedCheck(agent, found.path, io),
    ...(found.codexTrust === undefined ? [] : trustCheck(agent, found.codexTrust, io)),
    ...switchCheck(agent, io, system),
    ...(await agentOwnCheck(agent, found, io)),
    ...found.commands.map(commandCheck),
    ...(await ownAnswerCheck(agent, found, { failClosed, fix: `Run ${again}.` }, io, run)),
  ];
  if (!found.commands.every((command) => command.resolves)) return checks;

  const text = readBytesQuietly(found.path) ?? '';
  const cwd = io.tmp();
  const adapter = adapterFor(agent);
  const timeout = adapter.doctor.timeoutSeconds(text);
  const limitMs = Math.min(WAIT_LIMIT_MS, (timeout ?? Infinity) * 1000);
  const runs: { readonly name: string; readonly want: Effect; readonly run: HookRun | undefined }[] = [];
  for (const [name, command, want] of [
    ['harmless step goes ahead', HARMLESS, 'no-objection'],
    ['dangerous step is blocked', DANGEROUS, 'block'],
  ] as const) {
    const call = adapter.doctor.shellCall(command, cwd);
    const hook = adapter.installedCommand(text, call.event, layoutOf(found));
    runs.push({
      name,
      want,
      run:
        hook === undefined
          ? undefined
          : await run(agent, hook, JSON.stringify(call.payload), dirname(found.path), limitMs),
    });
  }
  for (const { name, want, run: result } of runs) {
    checks.push(answerCheck(adapter, name, want, result, found.agentFailClosed ?? false));
  }
  const slowest = Math.max(...runs.map(({ run: result }) => result?.ms ?? 0));
  const overAgent = timeout !== undefined && slowest >= timeout * 1000;
  // slower than guard's budget but within the agent's wait: the step is still answered, so a warning
  // (with how busy the machine is), not a failure; past the agent's wait the agent gives up on guard
  checks.push(
    slowest <= BUDGET_MS
      ? {
          name: 'answers in time',
          ok: true,
          detail: `slowest answer ${slowest} ms (budget ${BUDGET_MS} ms${timeout === undefined ? '' : `, agent waits ${timeout} s`})`,
        }
      : {
          name: 'answers in time',
          ok: !overAgent,
          ...(overAgent ? {} : { warning: true as const }),
          detail: `slowest answer ${slowest} ms, over guard's ${BUDGET_MS} ms budget${overAgent ? `; the agent gives up after ${timeout} s: ${adapter.capabilities.onHookTimeout}` : ` (machine load ${loadavg()[0]?.toFixed(1) ?? '?'} on ${availableParallelism()} cores)`}`,
          fix:
            adapter.doctor.shell === 'login'
              ? `${adapter.displayName} starts the hook through your login shell: make its profile faster (or quiet), and check that the machine is not overloaded.`
              : 'Check that the machine is not overloaded and that Node starts quickly (no slow NODE_OPTIONS preloads).',
        },
  );
  return checks;
}

/**
 * For an agent whose own settings or environment can switch hooks off: nothing there does. (What
 * keeps guard out of only the folder doctor runs in is for `guard status` to say, not a failure.)
 */
function switchCheck(agent: AgentId, io: Io, system: SystemWorld | undefined): Check[] {
  const adapter = adapterFor(agent);
  const variables = adapter.files.program?.hooksOff.some((item) => 'variable' in item) === true;
  if (adapter.hookSwitches === undefined && !variables) return [];
  const name = `${adapter.displayName} runs hooks`;
  const found = hooksOffFor(adapter, io, false, system);
  const off = found.filter((one) => one.scope === 'everywhere');
  // a user's switch the system settings overrule is said, and is no failure
  const tried = found.filter((one) => one.scope === 'overruled').map((one) => one.message);
  const none = 'no setting of its own switches hooks off';
  if (off.length === 0) return [{ name, ok: true, detail: tried.length === 0 ? none : `${none} (${tried.join(' ')})` }];
  return [
    {
      name,
      ok: false,
      detail: off.map((found) => found.message).join(' '),
      fix: `Change that setting in ${adapter.displayName}'s settings (or unset that variable), then run \`guard doctor\` again.`,
    },
  ];
}

function trustCheck(agent: AgentId, report: TrustReport, io: Io): Check[] {
  const adapter = adapterFor(agent);
  const trust = adapter.trust;
  if (trust === undefined) return [];
  const agentName = adapter.displayName;
  const name = `${agentName} trusts the hook`;
  if (report.state === 'trusted') return [{ name, ok: true, detail: report.detail }];
  const records = basename(trust.recordsPath(locationsFrom(io)));
  return [
    {
      name,
      ok: false,
      detail: report.detail,
      fix:
        report.state === 'unknown'
          ? `Fix ${agentName}'s ${records}, then run \`guard doctor\` again.`
          : `Run \`guard setup ${agent}\` again with \`${trust.program}\` on PATH (it asks ${agentName} to trust guard's hook), or ${trust.byHand} and trust it.`,
    },
  ];
}

/**
 * The agent's own word, for an agent with trust records whose program is on PATH (Codex): does
 * it load guard's hooks from this file and trust them? The check above reads the trust records
 * alone; this one also sees what only the agent knows (a project it does not trust, a config it
 * cannot read, a hash it computes differently).
 */
async function agentOwnCheck(agent: AgentId, found: LevelStatus, io: Io): Promise<Check[]> {
  const adapter = adapterFor(agent);
  if (adapter.trust === undefined) return [];
  const { AppServerError, findOnPath, listGuardHooks } = await import('../agents/codex-app-server.js');
  const program = findOnPath(adapter.trust.program, io.env);
  if (program === undefined) return [];
  const agentName = adapter.displayName;
  const name = `${agentName} itself runs the hook`;
  const fix = `Run \`guard setup ${agent}${found.level === 'project' ? ' --project' : ''}\` again (it asks ${agentName} to trust guard's hooks), or trust them in ${agentName} with ${adapter.trust.menu}.`;
  try {
    const hooks = await listGuardHooks(
      program,
      found.path,
      adapter.installedCommands(readBytesQuietly(found.path) ?? ''),
      io,
    );
    const running = hooks.filter((hook) => hook.enabled && hook.trustStatus === 'trusted');
    if (hooks.length > 0 && running.length === hooks.length)
      return [{ name, ok: true, detail: `${program} loads and trusts all ${hooks.length} of guard's hooks` }];
    const detail =
      hooks.length === 0
        ? `${program} does not load guard's hooks from this file${found.level === 'project' ? ` (it loads project hooks only in a project you trusted in ${agentName})` : ''}`
        : `${program} runs ${running.length} of guard's ${hooks.length} hooks (${hooks
            .filter((hook) => !running.includes(hook))
            .map(
              (hook) => `${hook.key.slice(found.path.length + 1)}: ${hook.enabled ? hook.trustStatus : 'switched off'}`,
            )
            .join(', ')})`;
    return [{ name, ok: false, detail, fix }];
  } catch (error) {
    if (!(error instanceof AppServerError)) throw error;
    return [{ name, ok: false, detail: `could not ask ${program}: ${error.message}`, fix }];
  }
}

function commandCheck(command: CommandCheck): Check {
  return command.resolves
    ? { name: 'hook command resolves', ok: true, detail: command.command }
    : {
        name: 'hook command resolves',
        ok: false,
        detail: `${command.command}: ${command.problem ?? 'does not resolve'}`,
        fix: 'Run `guard setup` again for this agent from the guard checkout you want to use (it writes the current Node and script paths).',
      };
}

/**
 * The command's own answer for when guard's files are gone (the package removed, the Node it names
 * moved): run as the agent runs it, once with its hook script and once with its Node pointed at a
 * file that does not exist, it must ask (block under fail-closed), never let the step through.
 */
async function ownAnswerCheck(
  agent: AgentId,
  found: LevelStatus,
  { failClosed, fix }: { readonly failClosed: boolean; readonly fix: string },
  io: Io,
  run: RunHook,
): Promise<Check[]> {
  const adapter = adapterFor(agent);
  const name = "answers when guard's files are gone";
  // on Windows setup writes the plain command (status says so)
  if (found.ownAnswer === undefined || found.ownAnswer === 'windows') return [];
  const onFailure = adapter.capabilities.onHookFailure.replace(/\.$/, '');
  if (found.ownAnswer === 'missing')
    return [{ name, ok: false, detail: `the command has no answer of its own for then: ${onFailure}`, fix }];
  const call = adapter.doctor.shellCall(DANGEROUS, io.tmp());
  const fallback = readFallback(
    adapter.installedCommand(readBytesQuietly(found.path) ?? '', call.event, layoutOf(found)) ?? '',
  );
  if (fallback === undefined) return [{ name, ok: false, detail: `no guard entry for ${call.event}`, fix }];
  const gone = join(io.tmp(), `guard-doctor-${randomUUID()}`);
  const { node, script } = fallback.files;
  const want = failClosed ? ['block'] : ['ask', 'block'];
  const seen: string[] = [];
  let ok = true;
  for (const [what, files] of [
    ['its hook script', { node, script: join(gone, basename(script)) }],
    ['its Node', { node: join(gone, basename(node)), script }],
  ] as const) {
    const command = withFallback(fallback.command, files, fallback.reply);
    const result = await run(agent, command, JSON.stringify(call.payload), dirname(found.path), WAIT_LIMIT_MS);
    const reply = adapter.doctor.readReply(result.stdout, result.exitCode, found.agentFailClosed ?? false);
    ok &&= result.startError === undefined && !result.timedOut && want.includes(reply.effect);
    seen.push(`with ${what} gone, ${reply.effect} (${reply.why})`);
  }
  const detail = `${seen.join('; ')}${ok ? '' : `; expected ${want.join(' or ')}`}`;
  return [ok ? { name, ok, detail } : { name, ok, detail, fix }];
}

function answerCheck(
  adapter: Adapter,
  name: string,
  want: Effect,
  run: HookRun | undefined,
  failClosedEntry: boolean,
): Check {
  if (run === undefined) {
    return {
      name,
      ok: false,
      detail: 'no guard entry for this event',
      fix: `Run \`guard setup ${adapter.id}\` again.`,
    };
  }
  if (run.startError !== undefined) {
    return {
      name,
      ok: false,
      detail: `the command did not start: ${run.startError}`,
      fix: 'Run `guard status` to see the command, and `guard setup` again.',
    };
  }
  if (run.timedOut) {
    return {
      name,
      ok: false,
      detail: `no answer after ${run.ms} ms (stopped)`,
      fix: 'Run the command from `guard status` by hand with a payload on stdin to see where it hangs.',
    };
  }
  const reply = adapter.doctor.readReply(run.stdout, run.exitCode, failClosedEntry);
  const seen = `${reply.effect} (${reply.why}) in ${run.ms} ms`;
  if (reply.effect === want) return { name, ok: true, detail: seen };
  const output = [
    run.stdout.trim() && `stdout: ${clip(run.stdout)}`,
    run.stderr.trim() && `stderr: ${clip(run.stderr)}`,
  ]
    .filter(Boolean)
    .join('; ');
  return {
    name,
    ok: false,
    detail: [
      `expected ${want}, got ${seen}`,
      reply.effect === 'failure' ? adapter.capabilities.onHookFailure.replace(/\.$/, '') : '',
      output,
    ]
      .filter(Boolean)
      .join('. '),
    fix:
      want === 'block'
        ? 'Check `guard status` (is guard on? is the hook script the built one?) and run `guard explain -- git push --force` to see what the engine decides.'
        : 'Make sure nothing else prints to stdout when the hook starts (a shell profile, NODE_OPTIONS), then run `guard doctor` again.',
  };
}

function clip(text: string): string {
  const flat = text.trim().replace(/\s+/g, ' ');
  return flat.length > 200 ? `${flat.slice(0, 199)}…` : flat;
}

/** The text form of guard's own checks or of one agent's file: one line per check, with the fix under a failed one. */
function renderPart(part: readonly Check[] | AgentChecks): string {
  const lines =
    'agent' in part
      ? ['', `${adapterFor(part.agent).displayName} (${part.level}: ${part.path})`, ...part.checks.flatMap(renderCheck)]
      : part.flatMap(renderCheck);
  return `${lines.join('\n')}\n`;
}

function renderCheck(check: Check): string[] {
  const line = `  ${check.ok ? (check.warning ? 'warn' : 'ok  ') : 'FAIL'} ${check.name}: ${check.detail}`;
  return (check.ok && !check.warning) || check.fix === undefined ? [line] : [line, `       fix: ${check.fix}`];
}
