import type { Adapter, AgentId, Capabilities, HooksOff, TrustReport } from '@guard/adapters';
import { adapterFor, isInstalledPackage } from '../agents/config-io.js';
import { BELOW_FLOOR, collectStatus, opinionLine } from '../agents/inspect.js';
import type { AgentStatus, LevelStatus, OwnAnswer, SettingsFrom, StatusJson } from '../agents/inspect.js';
import type { SystemWorld } from '../agents/system.js';
import { setupCommand } from '../agents/admin.js';
import { GUARD_PACKAGE, MODE_SUMMARY, quoteWord } from '@guard/core';
import type { Io } from '../io.js';
import { readPins } from '../state/policy-pins.js';
import { guardHomeFrom } from '../state/settings.js';
import { findProjectRoot } from '../world/project-root.js';

export interface StatusOptions {
  readonly json: boolean;
  /** The system whose managed hook files are shown beside the user's (tests pass a scratch one). */
  readonly system?: SystemWorld;
}

/** `guard status`: on/off, fail-closed, and per agent where the hook is and what a failure does. */
export async function status(options: StatusOptions, io: Io): Promise<void> {
  const report = await collectStatus(io, options.system);
  const waiting = policyWaiting(guardHomeFrom(io.env, io.home()));
  const unscanned = await mcpNotScanned(io, report);
  io.out(
    options.json
      ? `${JSON.stringify({ ...report, policyWaiting: waiting, mcpNotScanned: unscanned }, null, 2)}\n`
      : `${renderStatus(report, options.system?.platform, unscanned)}${renderWaiting(waiting)}${removal(report)}`,
  );
}

/**
 * An MCP server of an agent guard is set up for that its chat-start scan does not ask for its
 * tools, by design (remote, or one guard never starts), as the agent's files declare it for the
 * folder status runs in: its calls go ahead with their arguments judged.
 */
export interface McpNotScanned {
  readonly agent: AgentId;
  readonly server: string;
  readonly why: string;
}

async function mcpNotScanned(io: Io, report: StatusJson): Promise<McpNotScanned[]> {
  const { configuredServers, notScanned } = await import('../world/start-scan.js');
  const projectRoot = findProjectRoot(io.cwd());
  const out: McpNotScanned[] = [];
  for (const { agent, levels } of report.agents) {
    if (!levels.some((level) => level.installed)) continue;
    const { servers } = await configuredServers({ agent, projectRoot, home: io.home(), env: io.env });
    for (const server of servers) {
      const why = notScanned(server);
      if (why !== undefined) out.push({ agent, server: server.name, why });
    }
  }
  return out;
}

/**
 * Where guard is set up, the order that takes it away cleanly: npm has no way to warn at `npm rm -g`,
 * which would leave the agents calling a guard that is gone.
 */
function removal(report: StatusJson): string {
  if (!report.agents.some((agent) => agent.levels.some((level) => level.installed))) return '';
  const last = isInstalledPackage(report.hookScript.path) ? `, then \`npm rm -g ${GUARD_PACKAGE}\`` : '';
  return `\nTo remove guard: \`guard uninstall --all\` first (in each project set up with --project)${last}.\n`;
}

/** A change to a project's `.guard.yaml` that loosens guard, waiting for `guard policy accept`. */
export interface PolicyWaiting {
  readonly project: string;
  readonly loosens: readonly string[];
  /** When, by which agent and in which chat it was first seen. */
  readonly time: string;
  readonly agent: string;
  readonly chat: string;
}

/** Every project whose policy change waits for the person, as the hook last saw it. */
function policyWaiting(guardHome: string): PolicyWaiting[] {
  return Object.entries(readPins(guardHome)).flatMap(([project, pin]) =>
    pin.pending === undefined
      ? []
      : [
          {
            project,
            loosens: pin.pending.loosens,
            time: pin.pending.time,
            agent: pin.pending.agent,
            chat: pin.pending.chat,
          },
        ],
  );
}

function renderWaiting(waiting: readonly PolicyWaiting[]): string {
  if (waiting.length === 0) return '';
  const lines = ['', 'project policy changes that loosen guard, waiting for you (the pinned policy applies):'];
  for (const change of waiting) {
    lines.push(`  ${change.project}: first seen ${change.time} by ${change.agent} (chat ${change.chat})`);
    lines.push(...change.loosens.map((line) => `    ${line}`));
    lines.push(`    \`guard policy accept --project ${quoteWord(change.project)}\` in a terminal takes it`);
  }
  return `${lines.join('\n')}\n`;
}

const yesNo = (value: boolean): string => (value ? 'yes' : 'no');

/** How guard learns that the person said yes to an asked step on this agent (SPEC §5), or that it cannot. */
export function howYesIsSeen(caps: Capabilities): string {
  if (caps.ask === 'block-then-chat')
    return 'your next message in the chat ("yes" or the step\'s code) lets that step run once, and it is remembered for the chat';
  if (caps.results)
    return "seen when the asked step's result comes back (you allowed it in the agent's prompt), then remembered for the chat";
  return 'cannot be seen (the agent shows guard no results), so every asked step is asked again';
}

/** The text form: a few short lines per agent. */
export function renderStatus(
  report: StatusJson,
  platform: string = process.platform,
  unscanned: readonly McpNotScanned[] = [],
): string {
  const lines = [
    `guard is ${report.enabled ? 'on' : 'off (every step goes ahead; `guard on` turns it back on)'}; fail-closed is ${report.failClosed ? 'on' : 'off'}.`,
    `mode: ${report.mode} (${MODE_SUMMARY[report.mode]}; \`guard mode\` tells more)`,
    ...renderFloor(report.settingsFrom),
    `folder: ${report.guardHome}`,
    `hook script: ${report.hookScript.path}${report.hookScript.exists ? '' : ` (missing: ${isInstalledPackage(report.hookScript.path) ? 'install guard again' : 'run `npm run build`'})`}`,
    `second opinion: ${opinionLine(report.secondOpinion)}`,
    `resident checker: ${report.resident.running > 0 ? "running (it keeps guard's hook loaded; it leaves after 10 minutes without a call)" : 'not running (one starts while an agent makes calls)'}`,
  ];
  for (const agent of report.agents) {
    lines.push('', agent.name);
    for (const level of agent.levels) lines.push(...renderLevel(agent.agent, level, platform));
    if (agent.layers !== undefined) lines.push(`  runs: ${runsLine(agent, platform)}`);
    const caps = agent.capabilities;
    const ask =
      caps.ask === 'native'
        ? `native prompt (${caps.askEvents.join(', ')})`
        : 'block, then the agent asks you in the chat';
    lines.push(`  ask: ${ask}; results seen: ${yesNo(caps.results)}; chat start seen: ${yesNo(caps.startEvent)}`);
    lines.push(`  a yes: ${howYesIsSeen(caps)}`);
    lines.push(`  if the hook fails: ${caps.onHookFailure}`, `  if it times out: ${caps.onHookTimeout}`);
    const servers = unscanned.filter((server) => server.agent === agent.agent);
    if (servers.length > 0)
      lines.push(
        `  MCP servers not scanned (their calls go ahead, their arguments judged): ${servers.map((server) => `${server.server} (${server.why})`).join(', ')}`,
      );
    for (const off of agent.hooksOff) lines.push(`  ${OFF_WORDS[off.scope]}: ${off.message}`);
    // what changed since setup pinned the agent's hook files (a hooks-off switch said above once)
    for (const drift of agent.drift) {
      if (drift.kind === 'hooks-off' && agent.hooksOff.some((off) => off.message === drift.detail)) continue;
      lines.push(
        `  CHANGED SINCE SETUP: ${drift.detail}${drift.at === undefined ? '' : ` (at ${drift.at})`} ${drift.fix}`,
      );
    }
  }
  return `${lines.join('\n')}\n`;
}

/** How status heads what keeps an agent's hooks from running, by its scope. */
const OFF_WORDS: Readonly<Record<HooksOff['scope'], string>> = {
  everywhere: 'NOT RUNNING',
  here: 'not running in this folder',
  overruled: 'tried to switch guard off, cannot',
  partly: 'not running in some chats',
};

const SETTING_WORDS: Readonly<Record<keyof SettingsFrom['from'], string>> = {
  enabled: 'on/off',
  failClosed: 'fail-closed',
  strict: 'strict',
  mode: 'mode',
  secondOpinion: 'second opinion',
};

/**
 * The system settings, when there are any: where they are, which settings come from them, the
 * user's or the defaults, and what of the user's settings they overrule. Nothing without a system file.
 */
export function renderFloor(from: SettingsFrom): string[] {
  const { system } = from;
  if (system.state === 'none' && from.ignored.length === 0) return [];
  const head =
    system.state === 'unreadable'
      ? `system settings: ${system.path} CANNOT BE USED (${system.problem}): guard works at the strictest (fail-closed, strict, standard mode, no guard off, no allow list or project yes) until it is fixed`
      : `system settings: ${system.path} (set by your organisation; your settings may only tighten them)`;
  const sources = (Object.keys(SETTING_WORDS) as (keyof SettingsFrom['from'])[]).map(
    (key) => `${SETTING_WORDS[key]} from ${from.from[key]}`,
  );
  return [
    head,
    `settings: ${sources.join('; ')}`,
    ...(from.lockedRules.length === 0
      ? []
      : [
          `locked rules (no allow list, project yes or mode lets them go ahead): ${from.lockedRules.includes('*') ? 'all' : from.lockedRules.join(', ')}`,
        ]),
    ...from.ignored.filter((note) => !note.startsWith(system.path)).map((note) => `not used: ${note}`),
  ];
}

/** Which of guard's hooks the agent runs, user or system, and which answers first. */
function runsLine(agent: AgentStatus, platform: string): string {
  const layers = agent.layers;
  if (layers === undefined) return '';
  const name = agent.name;
  switch (layers.runs) {
    case 'none':
      return "no hook of guard's";
    case 'user':
      return `your own hook only; ${setupCommand(agent.agent, 'system', platform)} adds one for every user that your files cannot switch off`;
    case 'system':
      return `the system's hook (for every user of this machine)`;
    case 'both': {
      const order =
        layers.first === 'together' ? `${name} runs them side by side` : `the ${layers.first}'s answers first`;
      return `both, the system's and yours (${order}): each step is checked twice; \`guard uninstall ${agent.agent}\` leaves the system's alone`;
    }
  }
}

/** Whether the command answers by itself when guard's files are gone, in the words of a status line. */
const OWN_ANSWER: Readonly<Record<OwnAnswer, string>> = {
  written: "answers by itself if guard's files go",
  missing: "does NOT answer by itself if guard's files go (setup adds that)",
  windows: "cannot answer by itself if guard's files go (no such command form on Windows)",
};

function trustWords(adapter: Adapter, trust: TrustReport): string {
  const name = adapter.displayName;
  if (trust.state === 'trusted') return `trusted by ${name}`;
  if (trust.state === 'unknown') return `${name} trust unknown (${trust.detail})`;
  return `NOT running: ${trust.detail} (${adapter.trust?.byHand ?? ''}, trust guard's hook)`;
}

function renderLevel(agent: AgentId, level: LevelStatus, platform: string): string[] {
  const head = `  ${level.level.padEnd(8)} ${level.path}`;
  if (level.error !== undefined) return [head, `           cannot read it: ${level.error}`];
  if (!level.installed) return [head, `           ${level.exists ? 'guard not set up in this file' : 'no file'}`];
  const facts = [
    'installed',
    level.commands.every((command) => command.resolves) ? 'command resolves' : 'command does NOT resolve',
    ...(level.ownAnswer === undefined ? [] : [OWN_ANSWER[level.ownAnswer]]),
    level.upToDate ? 'up to date' : `out of date (run ${setupCommand(agent, level.level, platform)})`,
    // the agent's own switch follows `guard fail-closed`: say what it does, not whether a key is there
    ...(level.agentFailClosed === undefined
      ? []
      : [
          level.agentFailClosed
            ? 'the agent blocks a step when the hook fails (fail-closed on)'
            : 'the agent runs a step when the hook itself fails (fail-closed off)',
        ]),
    ...(level.codexTrust === undefined ? [] : [trustWords(adapterFor(agent), level.codexTrust)]),
    ...(level.belowFloor === undefined ? [] : [`LOOSER than the system settings: ${BELOW_FLOOR[level.belowFloor]}`]),
  ];
  const lines = [head, `           ${facts.join('; ')}`];
  for (const command of level.commands) {
    lines.push(`           ${command.command}`);
    if (command.advice !== undefined) lines.push(`           ${command.advice}`);
    else if (command.problem !== undefined) lines.push(`           problem: ${command.problem}`);
  }
  return lines;
}
