import { describe, expect, it } from 'vitest';
import type { HookFiles, HookReply, InstallOptions } from '../src/index.js';
import { quoteWord } from '@guard/core';
import { adapters, AGENT_IDS, fallbackReply, plainCommand, readFallback, withFallback } from '../src/index.js';
import { isGuardCommand } from '../src/hook-config.js';
import { filesGoneMessage } from '../src/messages.js';

// The hook command that answers by itself when guard's files are gone (fallback.ts): its form read
// back, the answer each agent gets per event, and each agent's file holding the old form and the new.

const FILES: HookFiles = { node: '/usr/local/bin/node', script: '/home/dev/my tools/guard/dist/hook-entry.cjs' };
const PLAIN = `"${FILES.node}" "${FILES.script}" hook codex`;
const JSON_LINE: HookReply = { stdout: '{"decision":"deny","reason":"guard\'s files are `gone`"}\n', exitCode: 0 };

describe('withFallback / readFallback: the form and what it holds', () => {
  const plain = (files: HookFiles, tail = ''): string =>
    `${quoteWord(files.node, 'double')} ${quoteWord(files.script, 'double')} hook codex${tail}`;
  it.for<{ name: string; files: HookFiles; tail?: string; reply: HookReply }>([
    { name: 'a JSON line', files: FILES, reply: JSON_LINE },
    { name: 'an event tail', files: FILES, tail: ' --event PreToolUse', reply: JSON_LINE },
    { name: 'silence (no output)', files: FILES, reply: { stdout: '', exitCode: 0 } },
    { name: 'no final newline', files: FILES, reply: { stdout: '{}', exitCode: 0 } },
    { name: 'an exit code', files: FILES, reply: { stdout: 'stop\n', exitCode: 2 } },
    // where the agent reads its reason on stderr (Windsurf's exit 2): the same words there too
    { name: 'on stderr too', files: FILES, reply: { stdout: 'stop\n', stderr: 'stop\n', exitCode: 2 } },
    { name: 'on stderr too, no final newline', files: FILES, reply: { stdout: 'stop', stderr: 'stop', exitCode: 2 } },
    {
      name: 'quotes, backslashes, dollars, backticks and spaces in the paths',
      files: { node: "/opt/it's \\ $HOME/`node`", script: "/home/dev/a 'b' \\\\c/hook-entry.cjs\\" },
      reply: { stdout: "it's \\n $x `y` '' \\\n", exitCode: 0 },
    },
  ])('$name: read back as written', ({ files, tail, reply }) => {
    const command = plain(files, tail);
    const written = withFallback(command, files, reply);
    expect(readFallback(written)).toEqual({ command, files, reply });
    expect(plainCommand(written)).toBe(command);
    // one line, running the hook as the plain command does (test/hook/orphan.test.ts has shells read it)
    expect(written).not.toContain('\n');
    expect(written).toContain(` NODE_OPTIONS= NODE_PATH= "$1" "$2" hook codex${tail ?? ''}); r=$?`);
  });

  it('an answer whose stderr says something else than its stdout is refused (the command prints one text)', () => {
    expect(() => withFallback(PLAIN, FILES, { stdout: 'stop\n', stderr: 'other\n', exitCode: 2 })).toThrow();
    // an empty stderr is none
    expect(readFallback(withFallback(PLAIN, FILES, { stdout: 'stop\n', stderr: '', exitCode: 2 }))?.reply).toEqual({
      stdout: 'stop\n',
      exitCode: 2,
    });
  });

  it("guard's folder, given, is the command's last word and read back", () => {
    const files = { ...FILES, home: "/home/dev/it's state/guard" };
    const written = withFallback(PLAIN, files, JSON_LINE);
    expect(written.endsWith(` '/home/dev/it'\\''s state/guard'`)).toBe(true);
    expect(readFallback(written)).toEqual({ command: PLAIN, files, reply: JSON_LINE });
  });

  // what an earlier setup wrote (the hook `exec`ed, no folder): still guard's, so status and
  // uninstall find it and setup writes it anew
  it.for<{ name: string; command: string; want: boolean }>([
    {
      name: 'the earlier form',
      command: `/bin/sh -c 'test -x "$1" && test -f "$2" && exec "$1" "$2" hook codex; printf "%s\\n" "$3"' guard '${FILES.node}' 'x.cjs' '{}'`,
      want: true,
    },
    {
      name: 'the earlier form with a folder after it',
      command: `/bin/sh -c 'test -x "$1" && test -f "$2" && exec "$1" "$2" hook codex; printf "%s\\n" "$3"' guard '${FILES.node}' 'x.cjs' '{}' '/tmp'`,
      want: false,
    },
    {
      name: 'the new form without its folder word',
      command: withFallback(PLAIN, FILES, JSON_LINE).replace(/ ''$/, ''),
      want: false,
    },
  ])("$name: read as guard's $want", ({ command, want }) => {
    expect(readFallback(command) !== undefined).toBe(want);
    expect(isGuardCommand(command, 'codex')).toBe(want);
  });

  it('refuses an answer of more than one line', () => {
    expect(() => withFallback(PLAIN, FILES, { stdout: 'a\nb\n', exitCode: 0 })).toThrow(/one line/);
  });

  const written = withFallback(PLAIN, FILES, JSON_LINE);
  it.for<{ name: string; command: string }>([
    { name: 'the plain command', command: PLAIN },
    { name: 'another shell', command: written.replace('/bin/sh -c', '/bin/bash -c') },
    { name: 'another script', command: written.replace('test -f "$2" && ', '') },
    { name: 'another name for the script', command: written.replace("' guard '", "' sh '") },
    { name: 'an exit code of 0 written out', command: written.replace(`"$3"' `, `"$3"; exit 0' `) },
    { name: 'more after the agent', command: `${written}; rm -rf ~` },
    { name: 'an event tail without its event', command: `${written} --event` },
    { name: 'a word left out', command: written.replace(/ '\{[^ ]*/, '') },
    { name: 'a path not quoted as guard quotes', command: written.replace(`'${FILES.node}'`, FILES.node) },
    { name: 'something before it', command: `cd /tmp && ${written}` },
    { name: 'empty', command: '' },
  ])('not the form: $name', ({ command }) => {
    expect(command).not.toBe(written);
    expect(readFallback(command)).toBeUndefined();
    expect(plainCommand(command)).toBe(command);
  });

  it.for([
    { name: 'a command that is not guard', command: '"/bin/echo" hi' },
    { name: 'more after the agent', command: `${PLAIN} --verbose` },
  ])('refuses $name', ({ command }) => {
    expect(() => withFallback(command, FILES, JSON_LINE)).toThrow(/not a command of guard/);
  });
});

describe("isGuardCommand reads a command's own answer as guard's", () => {
  it.for<{ name: string; command: string; agent: string; want: boolean }>([
    { name: 'the form around guard', command: written(PLAIN), agent: 'codex', want: true },
    { name: 'with an event tail', command: written(`${PLAIN} --event PreToolUse`), agent: 'codex', want: true },
    { name: "another agent's", command: written(PLAIN), agent: 'cursor', want: false },
    { name: 'around a near miss of the agent', command: written(`${PLAIN}x`), agent: 'codex', want: false },
  ])('$name', ({ command, agent, want }) => {
    expect(isGuardCommand(command, agent)).toBe(want);
  });
  function written(command: string): string {
    return withFallback(command, FILES, JSON_LINE);
  }
});

describe("fallbackReply: each agent's own answer for each event it is set up for", () => {
  const rows = AGENT_IDS.flatMap((agent) =>
    adapters[agent].capabilities.events.flatMap((event) =>
      [false, true].map((failClosed) => ({ agent, event, failClosed })),
    ),
  );
  it.for(rows)('$agent $event, fail-closed $failClosed', ({ agent, event, failClosed }) => {
    const adapter = adapters[agent];
    const reply = fallbackReply(adapter, event, failClosed);
    // one line the shell can print, said in full (the reason is never cut short)
    expect(reply.stdout).toMatch(/^[^\n]*\n?$/);
    expect(reply.stdout).not.toContain('…');
    if (adapter.stepEvents.includes(event)) {
      expect(reply.stdout).toContain(`guard setup ${agent}`);
      expect(reply.stdout).toContain('guard uninstall --all');
      const read = adapter.doctor.readReply(reply.stdout, reply.exitCode, failClosed);
      const asks = adapter.capabilities.ask === 'native' && adapter.capabilities.askEvents.includes(event);
      expect(read.effect).toBe(!failClosed && asks ? 'ask' : 'block');
    } else {
      // not a step: the event's own reply, carrying the sentence where the event takes one
      const notice = filesGoneMessage(agent, false);
      expect(reply).toEqual(adapter.toEventReply(event, notice));
      if (adapter.toEventReply(event, undefined).stdout !== reply.stdout) expect(reply.stdout).toContain('guard setup');
    }
  });

  it.for(AGENT_IDS)('%s: an agent that asks by a block gets the same answer under fail-closed', (agent) => {
    const adapter = adapters[agent];
    const same = adapter.capabilities.events.every(
      (event) => fallbackReply(adapter, event, false).stdout === fallbackReply(adapter, event, true).stdout,
    );
    expect(same).toBe(adapter.capabilities.ask === 'block-then-chat');
  });

  it.for(AGENT_IDS)("%s: the doctor's step asks (blocks under fail-closed), never goes ahead", (agent) => {
    const adapter = adapters[agent];
    const { event } = adapter.doctor.shellCall('git push --force origin main', '/tmp');
    const effect = (failClosed: boolean): string => {
      const reply = fallbackReply(adapter, event, failClosed);
      return adapter.doctor.readReply(reply.stdout, reply.exitCode, failClosed).effect;
    };
    expect(effect(false)).toBe(adapter.capabilities.ask === 'native' ? 'ask' : 'block');
    expect(effect(true)).toBe('block');
  });
});

// A file of the person's own per agent, which setup edits and uninstall must give back byte for byte.
const MINE: Readonly<Record<string, string>> = {
  codex: '{\n  "hooks": {\n    "Stop": [{ "hooks": [{ "type": "command", "command": "echo bye" }] }]\n  }\n}\n',
  cursor: '{\n  "version": 1,\n  "hooks": {\n    "stop": [{ "command": "echo bye" }]\n  }\n}\n',
  antigravity:
    '{\n  "mine": {\n    "PreToolUse": [{ "matcher": "*", "hooks": [{ "type": "command", "command": "echo x" }] }]\n  }\n}\n',
  copilot: '{\n  "version": 1,\n  "hooks": {\n    "sessionEnd": [{ "type": "command", "bash": "echo bye" }]\n  }\n}\n',
  'claude-code':
    '{\n  "model": "opus",\n  "hooks": {\n    "PreToolUse": [{ "matcher": "Bash", "hooks": [{ "type": "command", "command": "/home/dev/bin/audit.sh" }] }]\n  }\n}\n',
  gemini: '{\n  // mine\n  "ui": { "theme": "dark" }\n}\n',
  qwen: '{\n  "$version": 4, // mine\n  "model": { "name": "qwen3-coder-plus" }\n}\n',
  windsurf: '{\n  "hooks": {\n    "post_cascade_response": [{ "command": "echo bye" }]\n  }\n}\n',
  kiro: '{\n  "name": "mine",\n  "tools": ["*"],\n  "hooks": {\n    "stop": [{ "command": "echo bye" }]\n  }\n}\n',
  droid: '{\n  // mine\n  "Stop": [{ "hooks": [{ "type": "command", "command": "echo bye" }] }]\n}\n',
  crush:
    '{\n  "$schema": "https://charm.land/crush.json",\n  "hooks": {\n    "PreToolUse": [{ "matcher": "bash", "command": "./check.sh" }]\n  }\n}\n',
  auggie: '{\n  // mine\n  "hooks": { "Stop": [{ "hooks": [{ "type": "command", "command": "echo bye" }] }] }\n}\n',
};

describe("each agent's file: the old form and the new, byte for byte", () => {
  const rows = AGENT_IDS.flatMap((agent) => [
    { agent, name: 'no file', before: '' },
    { agent, name: "the person's own file", before: MINE[agent] ?? '' },
  ]);
  it.for(rows)('$agent, $name', ({ agent, before }) => {
    const adapter = adapters[agent];
    const hookCommand = `"${FILES.node}" "${FILES.script}" hook ${agent}`;
    const plain: InstallOptions = { hookCommand, failClosed: false };
    const withOwn: InstallOptions = { ...plain, fallback: FILES };
    const old = adapter.install(before, plain);
    const now = adapter.install(old, withOwn);
    // the upgrade replaces guard's entries (no second entry), is idempotent, and is what a fresh setup writes
    expect(adapter.install(now, withOwn)).toBe(now);
    expect(adapter.install(before, withOwn)).toBe(now);
    expect([...new Set(adapter.installedCommands(now).map(plainCommand))]).toEqual(adapter.installedCommands(old));
    // every command a POSIX shell runs carries its own answer (Copilot's PowerShell one stays plain)
    for (const command of adapter.installedCommands(now)) expect(readFallback(command)?.files).toEqual(FILES);
    // each event's entry carries that event's own answer
    for (const event of adapter.capabilities.events)
      expect(readFallback(adapter.installedCommand(now, event) ?? '')?.reply, event).toEqual(
        fallbackReply(adapter, event, false),
      );
    expect(adapter.installedCommand(now, 'NoSuchEvent')).toBeUndefined();
    expect(adapter.installedCommand(before, adapter.stepEvents[0])).toBeUndefined();
    if (agent === 'copilot') expect(now).toContain(`"powershell": "& ${hookCommand.replace(/"/g, '\\"')} --event`);
    // both forms are guard's to take out, and give back the file as it was
    expect(adapter.uninstall(now)).toBe(before);
    expect(adapter.uninstall(old)).toBe(before);
    // and back to the plain form (what setup writes on Windows): exactly the old bytes
    expect(adapter.install(now, plain)).toBe(old);
    // fail-closed changes the answer (and the agent's own switch), not the commands' plain part
    const closed = adapter.install(now, { ...withOwn, failClosed: true });
    // (not for an agent that asks by a block: its answer is the block's words either way)
    expect(closed !== now).toBe(adapter.capabilities.ask === 'native');
    expect([...new Set(adapter.installedCommands(closed).map(plainCommand))]).toEqual(adapter.installedCommands(old));
    expect(adapter.uninstall(closed)).toBe(before);
  });
});
