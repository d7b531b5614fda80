import type { ConfigLevel, InstallOptions, Locations } from '../adapter.js';

// PLACEHOLDER: replaced by the config install/uninstall work.
export function configPath(_level: ConfigLevel, where: Locations): string {
  return where.home;
}
export function install(configText: string, _options: InstallOptions): string {
  return configText;
}
export function uninstall(configText: string): string {
  return configText;
}
export function installedCommands(_configText: string): readonly string[] {
  return [];
}
