import { AGENT_IDS } from '@guard/adapters/ids';
import type { AgentId } from '@guard/adapters';
import { Argument, Command, InvalidArgumentError, Option } from 'commander';
import { ExitCode, GuardError } from './errors.js';
import type { Io } from './io.js';
import { guardVersion } from './self.js';

const DECISIONS = ['block', 'ask', 'allow'] as const;

const SYSTEM_HELP = `
With --system guard's hook goes into the agent's managed file for the whole machine (its managed
settings, policy hooks or system hooks file: \`guard setup <agent> --system --dry-run\` names it and
shows the change, without rights). It needs administrator rights (\`sudo guard setup <agent> --system\`),
and the guard it points to must be installed where users cannot change it (\`sudo npm install -g
agent-step-guard\`, with npm's prefix and Node owned by root); without either it says so and writes
nothing. There is no --force: a system hook that runs code a user can change protects no more than
the user's own.
`;

/** Both --project and --system: one level at a time. */
function bothLevels(command: string): GuardError {
  return new GuardError(
    '--project and --system name two different files; give one.',
    `Run \`guard ${command} <agent> --project\` or \`guard ${command} <agent> --system\`.`,
    ExitCode.Usage,
  );
}

/** Both --json and --html: the document would be lost to the page, so one output at a time. */
function jsonOrHtml(command: string, options: { readonly json?: true; readonly html?: string }): void {
  if (options.json === undefined || options.html === undefined) return;
  throw new GuardError(
    '--json prints one document and --html writes a page; give one.',
    `Run \`guard ${command} --json\` (one document) or \`guard ${command} --html <file>\` (a page).`,
    ExitCode.Usage,
  );
}

/** Builds the commander tree. No process.exit here: main() owns exit codes. */
export function createProgram(io: Io): Command {
  const program = new Command('guard')
    .description(
      'Check each step an AI coding agent is about to take, and block or ask before it does what cannot be undone.',
    )
    .version(guardVersion())
    .exitOverride()
    // commander's own usage errors in guard's one style: `guard: <what>` then `Run … for usage.`
    .configureOutput({ writeOut: io.out, writeErr: io.err, outputError: (text, write) => write(guardStyle(text)) })
    // lets `guard explain git push --force` pass `--force` on to the explained command
    .enablePositionalOptions()
    .addHelpText('after', MAIN_EXAMPLES);

  program
    .command('setup')
    .description("register guard's hook in an agent's config (or in every agent found here, with --all)")
    .addArgument(agentArgument(false))
    .option('--project', "write the project's config instead of the user's")
    .option(
      '--system',
      "write the agent's managed, system-wide hook file (for every user): needs administrator rights, and a guard installed where users cannot change it",
    )
    .option('--dry-run', 'show what would change, write nothing (names the file; needs no rights)')
    .option(
      '--all',
      'every agent found on this machine (its program on PATH, or its folder); with --system, every agent that has a system-wide hook file',
    )
    .addHelpText('after', SYSTEM_HELP)
    .action(
      async (agent: AgentId | undefined, options: { project?: true; dryRun?: true; all?: true; system?: true }) => {
        const { setup, setupAll, systemWorld } = await import('./commands/setup.js');
        if (options.system && options.project) throw bothLevels('setup');
        const system = options.system ? systemWorld(io.systemRoot) : undefined;
        const chosen = {
          project: options.project ?? false,
          dryRun: options.dryRun ?? false,
          ...(system === undefined ? {} : { system }),
        };
        if (options.all && agent !== undefined) {
          throw new GuardError(
            '--all sets guard up in every agent found here, so it takes no agent.',
            `Run \`guard setup --all\`, or \`guard setup ${agent}\` for that one.`,
            ExitCode.Usage,
          );
        }
        if (options.all) return setupAll(chosen, io);
        if (agent === undefined) {
          throw new GuardError(
            'Name the agent to set guard up in, or pass --all.',
            `Run \`guard setup <agent>\` (${AGENT_IDS.join(', ')}), or \`guard setup --all\` for every agent found here.`,
            ExitCode.Usage,
          );
        }
        await setup(agent, chosen, io);
      },
    );

  program
    .command('uninstall')
    .description(
      "remove guard's hook from an agent's config (or every agent's, with --all), leaving the rest as it was",
    )
    .addArgument(agentArgument(false))
    .option('--project', "edit the project's config instead of the user's")
    .option('--system', "edit the agent's managed, system-wide hook file (needs administrator rights)")
    .option('--all', "every agent, in the user's config and this project's (with --system: every system-wide file)")
    .action(async (agent: AgentId | undefined, options: { project?: true; all?: true; system?: true }) => {
      const { uninstall, uninstallAll, uninstallAllSystem, systemWorld } = await import('./commands/uninstall.js');
      if (options.system && options.project) throw bothLevels('uninstall');
      if (options.system && options.all) {
        if (agent !== undefined) {
          throw new GuardError(
            '--all takes guard out of every agent, so it takes no agent.',
            'Run `guard uninstall --all --system`, or `guard uninstall <agent> --system` for one file.',
            ExitCode.Usage,
          );
        }
        await uninstallAllSystem(systemWorld(io.systemRoot), io);
        return;
      }
      if (options.all) {
        if (agent !== undefined || options.project) {
          throw new GuardError(
            `--all takes guard out of every agent at both levels, so it takes ${agent === undefined ? 'no --project' : 'no agent'}.`,
            'Run `guard uninstall --all`, or `guard uninstall <agent> [--project]` for one file.',
            ExitCode.Usage,
          );
        }
        await uninstallAll(io, systemWorld(io.systemRoot));
        return;
      }
      if (agent === undefined) {
        throw new GuardError(
          'Name the agent to take guard out of, or pass --all.',
          `Run \`guard uninstall <agent>\` (${AGENT_IDS.join(', ')}), or \`guard uninstall --all\` for every agent.`,
          ExitCode.Usage,
        );
      }
      await uninstall(
        agent,
        { project: options.project ?? false, ...(options.system ? { system: systemWorld(io.systemRoot) } : {}) },
        io,
      );
    });

  program
    .command('on')
    .description('turn guard on again')
    .action(async () => (await import('./commands/toggle.js')).toggle('on', io));
  program
    .command('off')
    .description('let every step through (logged as "guard off")')
    .action(async () => (await import('./commands/toggle.js')).toggle('off', io));

  program
    .command('fail-closed')
    .description("show or choose what happens to a step guard could not check: 'on' blocks it, 'off' asks")
    .addArgument(new Argument('[state]', 'on or off').choices(['on', 'off']))
    .option('--json', 'print JSON')
    .action(async (state: 'on' | 'off' | undefined, options: { json?: true }) =>
      (await import('./commands/fail-closed.js')).failClosed(state, io, { json: options.json ?? false }),
    );

  program
    .command('mode')
    .description('show or choose how much runs without asking: standard, extended or full')
    .addArgument(new Argument('[mode]', 'standard, extended or full').choices(['standard', 'extended', 'full']))
    .option('--json', 'print JSON')
    .action(async (wanted: 'standard' | 'extended' | 'full' | undefined, options: { json?: true }) =>
      (await import('./commands/mode.js')).mode(wanted, { json: options.json ?? false }, io),
    );

  program
    .command('allowed')
    .description('list the yeses kept for whole projects')
    .option('--json', 'print JSON')
    .action(async (options: { json?: true }) =>
      (await import('./commands/allowed.js')).listAllowed({ json: options.json ?? false }, io),
    );
  program
    .command('forget')
    .description("remove kept yeses: one by id, this project's (--project) or all (--all)")
    .argument('[id]', 'the id `guard allowed` shows')
    .option('--project', 'every yes kept for this project')
    .option('--all', 'every kept yes')
    .action(async (id: string | undefined, options: { project?: true; all?: true }) =>
      (await import('./commands/allowed.js')).forget(
        id,
        { project: options.project ?? false, all: options.all ?? false },
        io,
      ),
    );

  program
    .command('policy')
    .description(
      "show the project's .guard.yaml against the policy guard pinned for it, or take a change that loosens it: 'show' (the default), 'status' or 'accept'",
    )
    .addArgument(new Argument('[action]', 'show, status or accept').choices(['show', 'status', 'accept']))
    .option('--project <dir>', 'the project folder (default: the one around the current folder)')
    .option('--json', 'print JSON')
    .addHelpText(
      'after',
      '\n`guard policy accept` shows what changed and pins .guard.yaml as it is now (with the project folders within it\nthat the hook has seen). Run it yourself in a terminal: an agent running it is blocked (guard.tamper).\n',
    )
    .action(async (action: 'show' | 'status' | 'accept' | undefined, options: { project?: string; json?: true }) => {
      const { acceptPolicy, showPolicy } = await import('./commands/policy.js');
      const chosen = { project: options.project, json: options.json ?? false };
      if (action === 'accept') acceptPolicy(chosen, io);
      else showPolicy(chosen, io);
    });

  program
    .command('second-opinion')
    .description(
      "a local model that may raise a step the rules let through to an ask, when it looks irreversible and outside the person's request: 'on' (with --url and --model), 'off', or 'status' (the default)",
    )
    .addArgument(new Argument('[state]', 'on, off or status').choices(['on', 'off', 'status']))
    .option('--url <base-url>', 'an OpenAI-compatible server: https://, or http:// to 127.0.0.1 or localhost')
    .option('--model <name>', 'the model to ask')
    .option('--key-env <VAR>', 'the environment variable that holds the key, if the server needs one')
    .addOption(
      new Option('--timeout-ms <ms>', 'time limit per judgement (default 500, at most 1500)').argParser(
        positiveInteger,
      ),
    )
    .option('--json', 'with status: print it as JSON')
    .addHelpText('after', SECOND_OPINION_EXAMPLES)
    .action(
      async (
        state: 'on' | 'off' | 'status' | undefined,
        options: { url?: string; model?: string; keyEnv?: string; timeoutMs?: number; json?: boolean },
      ) => {
        const { secondOpinion } = await import('./commands/second-opinion.js');
        await secondOpinion(
          state ?? 'status',
          {
            ...(options.url === undefined ? {} : { url: options.url }),
            ...(options.model === undefined ? {} : { model: options.model }),
            ...(options.keyEnv === undefined ? {} : { keyEnv: options.keyEnv }),
            ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
            ...(options.json === undefined ? {} : { json: options.json }),
          },
          io,
        );
      },
    );

  program
    .command('export')
    .description(
      "send each decision to your organisation's OpenTelemetry collector (OTLP/HTTP logs): 'on' (with --otlp), 'off', 'status' (the default), or 'send' (what the sender started after hook calls does, now)",
    )
    .addArgument(new Argument('[action]', 'on, off, status or send').choices(['on', 'off', 'status', 'send']))
    .option(
      '--otlp <url>',
      'the collector: its base URL or its /v1/logs endpoint (https://, or http:// to this machine)',
    )
    .option(
      '--header <name=value>',
      'a header to send with each request (repeatable)',
      (value: string, all: string[]) => [...all, value],
      [] as string[],
    )
    .option('--no-command', "leave the step's text out of the records")
    .option('--project-path', "send the project's folder as it is (by default it is hashed)")
    .option('--encoding <name>', 'how the requests are encoded: json (the default) or protobuf')
    .option('--json', 'with status: print it as JSON')
    .action(
      async (
        action: 'on' | 'off' | 'status' | 'send' | undefined,
        options: {
          otlp?: string;
          header: string[];
          command: boolean;
          projectPath?: true;
          encoding?: string;
          json?: true;
        },
      ) => {
        const { exportOff, exportOn, exportStatus } = await import('./commands/export.js');
        const { guardHomeFrom } = await import('./state/settings.js');
        const guardHome = guardHomeFrom(io.env, io.home());
        if (action === 'on')
          return exportOn(
            {
              otlp: options.otlp,
              header: options.header,
              command: options.command,
              projectPath: options.projectPath === true,
              ...(options.encoding === undefined ? {} : { encoding: options.encoding }),
            },
            io,
          );
        if (action === 'off') return exportOff(io);
        if (action === 'send') {
          const { sendExport } = await import('./export/send.js');
          const result = await sendExport(guardHome, { systemRoot: io.systemRoot });
          if (result.error !== undefined) throw new GuardError(`Export: ${result.error}; the records wait in the log.`);
          if (result.skipped === 'running') io.out('A sender is already running; it sends what waits.\n');
          else if (result.skipped === 'off') io.out('Export is off; nothing to send.\n');
          else io.out(`Sent ${result.sent} record${result.sent === 1 ? '' : 's'}.\n`);
          return;
        }
        const { senderRunning } = await import('./export/config.js');
        await exportStatus({ json: options.json ?? false }, io, senderRunning(guardHome));
      },
    );

  program
    .command('status')
    .description('show on/off, fail-closed, and where each agent has the hook installed')
    .option('--json', 'print JSON')
    .action(async (options: { json?: true }) => {
      const { status } = await import('./commands/status.js');
      await status({ json: options.json ?? false }, io);
    });

  program
    .command('explain')
    .description('show the decision for a shell command, each finding, and every command the shell would run')
    .argument('[command...]', 'the command line (put it after `--`; several words are joined with spaces)')
    .option('--json', 'print one JSON object')
    .option('--jsonl', 'read {"command", "cwd"?} objects from stdin, one per line; print one JSON line each')
    .option('--cwd <dir>', 'folder the command runs in (default: the current folder)')
    .addOption(
      new Option('--mode <mode>', 'answer as this mode would (standard, extended, full)').choices([
        'standard',
        'extended',
        'full',
      ]),
    )
    .passThroughOptions()
    .addHelpText('after', EXPLAIN_EXAMPLES)
    .action(
      async (
        words: string[],
        options: { json?: true; jsonl?: true; cwd?: string; mode?: 'standard' | 'extended' | 'full' },
      ) => {
        const jsonl = options.jsonl ?? false;
        if (jsonl && words.length > 0) {
          throw new GuardError(
            '--jsonl reads the commands from stdin, so it takes no command of its own.',
            'Run `guard explain --jsonl < commands.jsonl`, or `guard explain -- <command>` for one command.',
            ExitCode.Usage,
          );
        }
        const command = words.length === 1 ? words[0] : words.join(' ');
        if (!jsonl && !command?.trim()) {
          throw new GuardError(
            'No command to explain was given.',
            "Run `guard explain -- <command>`, for example `guard explain -- 'git push --force'`.",
            ExitCode.Usage,
          );
        }
        const { explain } = await import('./commands/explain.js');
        await explain(
          {
            command: jsonl ? undefined : command,
            json: options.json ?? false,
            jsonl,
            cwd: options.cwd,
            ...(options.mode === undefined ? {} : { mode: options.mode }),
          },
          io,
        );
      },
    );

  program
    .command('hook', { hidden: true })
    .description('the entry point agents call on each tool step (JSON on stdin, reply on stdout)')
    .addArgument(agentArgument())
    .option('--event <name>', "the agent's hook event, where its payload does not name it")
    // bin.ts runs `guard hook` without commander; this is the same runtime for callers of main()
    .action(async (agent: string, options: { event?: string }) => {
      const { hookIoFrom, runHook } = await import('./hook/run.js');
      const code = await runHook(
        [agent, ...(options.event === undefined ? [] : ['--event', options.event])],
        hookIoFrom(io),
      );
      if (code !== ExitCode.Ok) throw new GuardError('The hook could not answer.', undefined, code);
    });

  program
    .command('log')
    .description('show recent decisions')
    .option('--json', 'print them as one JSON document')
    .option('--jsonl', 'print one JSON line a decision')
    .option('--chat <id>', 'only this chat')
    .addOption(new Option('--decision <decision>', 'only this decision').choices(DECISIONS))
    .addOption(new Option('-n <count>', 'show at most this many entries (default 50)').argParser(positiveInteger))
    .action(
      async (options: {
        json?: true;
        jsonl?: true;
        chat?: string;
        decision?: (typeof DECISIONS)[number];
        n?: number;
      }) => {
        if (options.json && options.jsonl) {
          throw new GuardError(
            '--json and --jsonl are two ways to print the same decisions; choose one.',
            'Run `guard log --json` (one document) or `guard log --jsonl` (one line a decision).',
            ExitCode.Usage,
          );
        }
        const { showLog } = await import('./commands/log.js');
        await showLog(
          {
            json: options.json ?? false,
            ...(options.jsonl ? { jsonl: true } : {}),
            ...(options.chat === undefined ? {} : { chat: options.chat }),
            ...(options.decision === undefined ? {} : { decision: options.decision }),
            ...(options.n === undefined ? {} : { count: options.n }),
          },
          io,
        );
      },
    );

  program
    .command('report')
    .description('per chat: what was asked, blocked, left undone and remembered (--html: a page with charts)')
    .option('--chat <id>', 'only this chat')
    .option('--json', 'print JSON')
    .option('--html <file>', 'write one self-contained HTML page with charts, to open in a browser or send')
    .action(async (options: { json?: true; chat?: string; html?: string }) => {
      jsonOrHtml('report', options);
      const { report } = await import('./commands/report.js');
      await report(
        {
          json: options.json ?? false,
          ...(options.chat === undefined ? {} : { chat: options.chat }),
          ...(options.html === undefined ? {} : { html: options.html }),
        },
        io,
      );
    });

  program
    .command('scan')
    .description("what guard would have blocked and asked in the agents' past chats")
    .addOption(
      new Option('--agent <id...>', 'only these agents (repeat or list several)').choices(
        AGENT_IDS as readonly string[] as string[],
      ),
    )
    .option('--since <when>', 'only steps since then: 30d, 12h, 2w, or a date such as 2026-01-31')
    .option('--project <dir>', 'only steps in this folder or below it')
    .option('--json', 'print one JSON document')
    .option('--html <file>', 'write one self-contained HTML page of the findings, to open in a browser or send')
    .addHelpText('after', SCAN_EXAMPLES)
    .action(async (options: { agent?: string[]; since?: string; project?: string; json?: true; html?: string }) => {
      jsonOrHtml('scan', options);
      const { scan } = await import('./commands/scan.js');
      await scan(
        {
          agents: options.agent ?? [],
          json: options.json ?? false,
          ...(options.since === undefined ? {} : { since: options.since }),
          ...(options.project === undefined ? {} : { project: options.project }),
          ...(options.html === undefined ? {} : { html: options.html }),
        },
        io,
      );
    });

  program
    .command('doctor')
    .description('check each installed agent end to end')
    .option('--json', 'print JSON')
    .action(async (options: { json?: true }) => {
      const { doctor } = await import('./commands/doctor.js');
      await doctor({ json: options.json ?? false }, io);
    });

  program
    .command('rules')
    .description('list the rule catalogue')
    .option('--json', 'print JSON')
    .action(async (options: { json?: true }) => {
      const { listRules } = await import('./commands/rules.js');
      listRules({ json: options.json ?? false }, io);
    });

  for (const command of program.commands) {
    // each command's usage errors point to its own help; the help lists the commands by what they are for
    command.showHelpAfterError(`Run \`guard ${command.name()} --help\` for usage.`);
    const group = Object.entries(HELP_GROUPS).find(([, names]) => names.includes(command.name()))?.[0];
    if (group !== undefined) command.helpGroup(group);
  }
  program.commandsGroup('Look back:').helpCommand('help [command]', 'show the help of a command');
  program.showHelpAfterError('Run `guard --help` for usage.');
  return program;
}

const HELP_GROUPS: Readonly<Record<string, readonly string[]>> = {
  'Set up:': ['setup', 'uninstall', 'status', 'doctor'],
  'Every day:': ['explain', 'on', 'off', 'allowed', 'forget'],
  'Settings:': ['mode', 'fail-closed', 'second-opinion', 'policy', 'export'],
  'Look back:': ['log', 'report', 'scan', 'rules'],
};

/** A usage error from commander ("error: missing required argument 'agent'") as guard says it. */
function guardStyle(text: string): string {
  return text.startsWith('error: ') ? `guard: ${text.slice('error: '.length)}` : text;
}

const SCAN_EXAMPLES = `
Examples:
  guard scan                            every agent's chats, as far back as they are kept
  guard scan --agent <id> --since 30d   one agent's chats of the last 30 days
  guard scan --project ~/work/app --json > scan.json
  guard scan --since 30d --html scan.html   a page to open in a browser or send
`;

const MAIN_EXAMPLES = `
Examples:
  guard setup <agent> --dry-run  what setting guard up in an agent would change (then without --dry-run);
                                 <agent> is one of ${AGENT_IDS.join(', ')}
  guard doctor                   check every agent guard is set up for, end to end
  guard explain -- 'git push --force origin main'
                                 what guard would say about a command, and why
  guard log -n 20                the last 20 decisions
  guard report --html report.html
                                 what guard did, as a page with charts to open in a browser or send
  guard uninstall --all          take guard out of every agent (before \`npm rm -g agent-step-guard\`)

More: \`guard <command> --help\`, \`guard rules\` for every rule, and the README.md in guard's package folder
(\`npm root -g\`/agent-step-guard).
`;

const SECOND_OPINION_EXAMPLES = `
Examples:
  guard second-opinion on --url http://127.0.0.1:11434/v1 --model qwen2.5:1.5b
  guard second-opinion on --url https://api.example.com/v1 --model small-judge --key-env JUDGE_API_KEY --timeout-ms 800
  guard second-opinion status --json
  guard second-opinion off
`;

const EXPLAIN_EXAMPLES = `
Examples:
  guard explain -- 'sudo sh -c "cd /repo && git push --force"'
  guard explain --json --cwd ~/project -- rm -rf build
  printf '%s\\n' '{"command": "git status"}' | guard explain --jsonl
`;

function agentArgument(required = true): Argument {
  return new Argument(required ? '<agent>' : '[agent]', 'the agent').choices(AGENT_IDS);
}

function positiveInteger(value: string): number {
  if (!/^[1-9]\d*$/.test(value)) throw new InvalidArgumentError('Expected a whole number above 0.');
  return Number(value);
}
