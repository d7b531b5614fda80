import { describe, expect, it } from 'vitest';
import { stepsInText } from '../../src/hook/partial.js';

const BASE = { agent: 'codex', home: '/home/person' };

/** A step as the table writes it: its kind and the text the never list reads. */
function short(text: string): string[] {
  return stepsInText(text, BASE).map((step) => {
    switch (step.kind) {
      case 'shell':
        return `shell ${step.command}`;
      case 'write':
        return `write ${step.path}`;
      case 'fetch':
        return `fetch ${step.url}`;
      case 'patch':
        return `patch ${step.patch.split('\n')[0] ?? ''}`;
      default:
        return step.kind;
    }
  });
}

describe('stepsInText: the commands, paths and URLs of a payload guard could not read', () => {
  it.for([
    {
      name: 'a whole payload',
      text: '{"tool_input":{"command":"git push --force origin main"}}',
      steps: ['shell git push --force origin main'],
    },
    { name: 'cut inside the command', text: '{"tool_input":{"command":"rm -rf ~/', steps: ['shell rm -rf ~/'] },
    { name: 'cut inside an escape', text: '{"command":"echo \\"hi\\u00', steps: ['shell echo "hi'] },
    { name: 'escapes decoded', text: '{"command":"printf \\"a\\\\nb\\"\\n"}', steps: ['shell printf "a\\nb"\n'] },
    {
      name: 'key names in any case',
      text: '{"toolCall":{"args":{"CommandLine":"rm -rf /"}}}',
      steps: ['shell rm -rf /'],
    },
    {
      name: 'JSON inside a string (Copilot toolArgs)',
      text: '{"toolName":"bash","toolArgs":"{\\"command\\":\\"git push -f\\",\\"description\\":\\"x\\"}"}',
      steps: ['shell git push -f'],
    },
    {
      name: 'an argv array: quoted as run, and joined as a shell reads it',
      text: '{"command":["rm","-rf","~"]}',
      steps: ["shell rm -rf '~'", 'shell rm -rf ~'],
    },
    { name: 'an argv array that needs no quoting', text: '{"command":["git","status"]}', steps: ['shell git status'] },
    { name: 'an argv array cut short', text: '{"command":["rm","-rf","/et', steps: ['shell rm -rf /et'] },
    {
      name: 'a path is a write (the worst a path can be)',
      text: '{"file_path":"/home/person/.bashrc"}',
      steps: ['write /home/person/.bashrc'],
    },
    { name: 'a URL', text: '{"url":"https://example.com/x"}', steps: ['fetch https://example.com/x'] },
    // Cline's run_commands: a list of command lines, and the same list as JSON in a string
    {
      name: 'a list of command lines',
      text: '{"commands":["npm test","git push -f"]}',
      steps: ['shell npm test', 'shell git push -f', "shell 'npm test' 'git push -f'", 'shell npm test git push -f'],
    },
    {
      name: 'a list of command lines cut short',
      text: '{"commands":["ls","rm -rf ~/',
      steps: ['shell ls', 'shell rm -rf ~/', "shell ls 'rm -rf ~/'", 'shell ls rm -rf ~/'],
    },
    { name: 'the list as JSON in a string', text: '{"commands":"[\\"rm -rf ~\\"]"}', steps: ['shell rm -rf ~'] },
    // near miss: a string under it that is no list
    {
      name: 'one command line under commands',
      text: '{"commands":"[ -f x ] && rm x"}',
      steps: ['shell [ -f x ] && rm x'],
    },
    // near miss: a key of another name
    { name: 'a list under another key', text: '{"lines":["rm -rf ~"]}', steps: [] },
    {
      name: 'a patch in a command field',
      text: '{"command":"*** Begin Patch\\n*** Add File: a\\n"}',
      steps: ['patch *** Begin Patch'],
    },
    {
      name: 'an array of objects read as any other keys',
      text: '{"edits":[{"path":"/a","content":"x"},{"path":"/b"}]}',
      steps: ['write /a', 'write /b'],
    },
    { name: 'not JSON at all, but quoted keys', text: 'junk "cmd": "curl x | sh" junk', steps: ['shell curl x | sh'] },
    // near misses: nothing that is not a command, path or URL field's string
    { name: 'a key named inside a string value', text: '{"description":"\\"command\\": rm -rf ~"}', steps: [] },
    { name: 'a command that is an object', text: '{"command":{"text":"rm -rf ~"}}', steps: [] },
    { name: 'a command that is a number', text: '{"command":42,"description":"rm -rf ~"}', steps: [] },
    { name: 'an empty command', text: '{"command":"   "}', steps: [] },
    { name: 'an empty text', text: '', steps: [] },
    { name: 'other fields only', text: '{"session_id":"rm -rf ~","prompt":"git push --force"}', steps: [] },
  ])('$name', ({ text, steps }) => {
    expect(short(text)).toEqual(steps);
  });

  it.for([
    { name: 'an absolute cwd', text: '{"cwd":"/work/p","command":"ls"}', cwd: '/work/p' },
    { name: 'a relative cwd: the home folder', text: '{"cwd":"p","command":"ls"}', cwd: '/home/person' },
    { name: 'none: the home folder', text: '{"command":"ls"}', cwd: '/home/person' },
  ])('the step runs in the folder the text names: $name', ({ text, cwd }) => {
    expect(stepsInText(text, BASE)[0]).toMatchObject({ cwd, projectRoot: cwd, agent: 'codex' });
  });
});
