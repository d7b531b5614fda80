import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { systemSettingsPath } from '../src/world/system-settings.js';

/** Writes the system settings file under a scratch system root (never the machine's own). */
export function writeSystemSettings(root: string, text: string): void {
  const path = systemSettingsPath(root);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}
