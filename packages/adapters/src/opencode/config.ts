import { posix } from 'node:path';
import type { AgentAnswers, AgentFiles, ConfigLevel, InstallOptions, Locations, UninstallOptions } from '../adapter.js';
import { fallbackReply, withFallback } from '../fallback.js';
import { blankOriginal, isGuardCommand } from '../hook-config.js';
import { configFolder, projectFolders } from './agent.js';
import { PLUGIN_FILE } from './files.js';
import type { PluginAgentNames } from './files.js';
import { commandIn, pluginText, PROMPT_EVENT, STEP_EVENT } from './plugin.js';
import { ConfigError } from '../adapter.js';

/** Setup's side of an OpenCode-like agent: guard's plugin file, created whole and removed whole. */
export interface PluginConfig {
  configPath(level: ConfigLevel, where: Locations): string;
  install(configText: string, options: InstallOptions): string;
  uninstall(configText: string, options?: UninstallOptions): string;
  installedCommands(configText: string): readonly string[];
  installedCommand(configText: string, event: string): string | undefined;
}

export function pluginConfig(names: PluginAgentNames, files: AgentFiles, agent: AgentAnswers): PluginConfig {
  // the file is guard's for this agent when its step's command is; a message's is read beside it
  const own = (text: string, message = false): string | undefined => {
    const commands = message ? [commandIn(text), commandIn(text, true)] : [commandIn(text)];
    const ours = commands.every((command) => command !== undefined && isGuardCommand(command, names.id));
    return ours ? commands[commands.length - 1] : undefined;
  };
  return {
    // `<config folder>/plugins/guard.js`, or `<project>/.<folder>/plugins/guard.js` in its first project folder
    configPath(level, where) {
      const [project = ''] = projectFolders(names, where);
      const dir = level === 'project' ? project : configFolder(names, files, where);
      return posix.join(dir, 'plugins', PLUGIN_FILE);
    },
    install(configText, options) {
      if (configText.trim() !== '' && own(configText) === undefined)
        throw new ConfigError(
          `a plugin of this name is there and it is not guard's for ${names.displayName}; move it aside so guard can write its own`,
        );
      if (!isGuardCommand(options.hookCommand, names.id) || /\s--event\s/.test(options.hookCommand))
        throw new ConfigError(`the hook command must end with "hook ${names.id}": ${options.hookCommand}`);
      // each event's own answer when guard's files are gone (a message's is read by nobody)
      const { fallback } = options;
      const command = (event: string): string =>
        fallback === undefined
          ? options.hookCommand
          : withFallback(options.hookCommand, fallback, fallbackReply(agent, event, options.failClosed));
      return pluginText(names.displayName, command(STEP_EVENT), files.hookTimeout * 1000, command(PROMPT_EVENT));
    },
    // the file is guard's alone: removed whole, or given back as the white space it was before
    // setup (a file that is not guard's stays as it is)
    uninstall: (configText, options) => (own(configText) === undefined ? configText : blankOriginal(options)),
    installedCommands(configText) {
      const commands = [own(configText), own(configText, true)].filter((command) => command !== undefined);
      return [...new Set(commands)];
    },
    installedCommand(configText, event) {
      if (!agent.capabilities.events.includes(event)) return undefined;
      return own(configText, event === PROMPT_EVENT);
    },
  };
}
