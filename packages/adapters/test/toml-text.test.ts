import { describe, expect, it } from 'vitest';
import { ConfigError } from '../src/adapter.js';
import { tomlSetting, withoutTomlSetting, withTomlSetting } from '../src/toml-text.js';

const PIN = { table: 'features', key: 'hooks', value: true } as const;

describe('[features] hooks = true added to a TOML file and taken out again, every other byte kept', () => {
  it.each([
    { name: 'empty', text: '', added: '[features]\nhooks = true\n' },
    { name: 'other tables', text: '# IT\n[otel]\nx = 1\n', added: '# IT\n[otel]\nx = 1\n\n[features]\nhooks = true\n' },
    {
      name: '[features] with a key',
      text: '[features]\nweb_search = false\n[otel]\n',
      added: '[features]\nhooks = true\nweb_search = false\n[otel]\n',
    },
    {
      name: '[features] last, header commented, CRLF',
      text: 'a = 1\r\n[ features ]  # ours\r\n',
      added: 'a = 1\r\n[ features ]  # ours\r\nhooks = true\r\n',
    },
    { name: 'CRLF, no table', text: 'a = 1\r\n', added: 'a = 1\r\n\r\n[features]\r\nhooks = true\r\n' },
    // a table named like it is not it
    {
      name: '[features.extra] only',
      text: '[features.extra]\nx = 1\n',
      added: '[features.extra]\nx = 1\n\n[features]\nhooks = true\n',
    },
    {
      name: '[my_features]',
      text: '[my_features]\nx = 1\n',
      added: '[my_features]\nx = 1\n\n[features]\nhooks = true\n',
    },
  ])('$name', ({ text, added }) => {
    const after = withTomlSetting(text, PIN);
    expect(after).toBe(added);
    expect(tomlSetting(after, PIN)).toBe(true);
    expect(withTomlSetting(after, PIN)).toBe(after);
    expect(withoutTomlSetting(after, PIN)).toBe(text);
  });

  it.each([
    { name: 'already on', text: '[features]\nhooks = true # IT\n' },
    { name: 'already on, dotted at the top', text: 'features.hooks = true\n' },
  ])('$name: as it is', ({ text }) => {
    expect(withTomlSetting(text, PIN)).toBe(text);
  });

  it.each([
    { name: 'switched off', text: '[features]\nhooks = false\n', says: /hooks is false here.*will not overrule/ },
    { name: 'a string', text: '[features]\nhooks = "true"\n', says: /must be true or false/ },
    { name: 'an inline table', text: 'features = { x = 1 }\n', says: /inline table or dotted keys/ },
    { name: 'dotted keys', text: 'features.x = 1\n', says: /inline table or dotted keys/ },
    { name: 'not TOML', text: '[features\n', says: /not valid TOML/ },
  ])('$name: refused', ({ text, says }) => {
    expect(() => withTomlSetting(text, PIN)).toThrow(ConfigError);
    expect(() => withTomlSetting(text, PIN)).toThrow(says);
  });

  it.each([
    // near misses: what guard did not write stays
    { name: 'hooks = false', text: '[features]\nhooks = false\n' },
    { name: 'hooks = true under another table', text: '[other]\nhooks = true\n' },
    { name: 'a longer key', text: '[features]\nhooks_extra = true\n' },
    { name: 'no such table', text: 'a = 1\n' },
  ])('taking out leaves $name alone', ({ text }) => {
    expect(withoutTomlSetting(text, PIN)).toBe(text);
  });

  it('taking out keeps a table that holds more, and its comments', () => {
    expect(withoutTomlSetting('[features]\nhooks = true\n# mine\nx = 1\n', PIN)).toBe('[features]\n# mine\nx = 1\n');
    expect(withoutTomlSetting('[features]\nhooks = true\n# mine\n', PIN)).toBe('[features]\n# mine\n');
  });
});
