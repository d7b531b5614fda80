import { posix } from 'node:path';
import type { Shadows } from '../adapter.js';
import { readSettings, valueAt } from '../settings-hooks.js';
import { SETTINGS } from './config.js';

/** The events of a hook map that hold at least one group. */
function listed(map: unknown): string[] {
  if (typeof map !== 'object' || map === null || Array.isArray(map)) return [];
  return Object.entries(map).flatMap(([event, list]) => (Array.isArray(list) && list.length > 0 ? [event] : []));
}

/** The events a hooks.json text lists at its root (an empty list too: it replaces settings.json's all the same). */
function events(text: string): Set<string> {
  const value = readSettings(SETTINGS, { path: 'hooks.json', text: text === '' ? undefined : text }) ?? {};
  return new Set(Object.keys(value).filter((key) => Array.isArray(value[key])));
}

/**
 * The person's own hooks that guard's hooks.json keeps Factory Droid from running (seen on 0.215.0):
 * an event's list in `hooks` of the same folder's settings.json, once hooks.json lists that event
 * (Droid takes hooks.json's list over settings.json's), and the whole older hooks/hooks.json, once
 * a hooks.json exists (Droid then reads no hooks/hooks.json).
 */
export const shadows: Shadows = {
  files: (file) => [
    posix.join(posix.dirname(file), 'settings.json'),
    posix.join(posix.dirname(file), 'hooks', 'hooks.json'),
  ],
  check(before, after, [settings, older]) {
    const had = events(before);
    const has = events(after);
    const out: string[] = [];
    const own = listed(valueAt(readSettings(SETTINGS, settings), ['hooks'])).filter(
      (event) => has.has(event) && !had.has(event),
    );
    if (settings !== undefined && own.length > 0) {
      out.push(
        `${settings.path} has hooks of your own for ${own.join(', ')}, which Factory Droid no longer runs: it takes an event's list from hooks.json over settings.json's. Move those groups into hooks.json, beside guard's.`,
      );
    }
    if (before === '' && older?.text !== undefined && listed(readSettings(SETTINGS, older)).length > 0) {
      out.push(
        `${older.path} has hooks of your own, which Factory Droid no longer reads now that hooks.json exists. Move them into hooks.json, beside guard's.`,
      );
    }
    return out;
  },
};
