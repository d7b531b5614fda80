import { posix } from 'node:path';
import type { AgentAnswers, AgentFiles, ConfigLevel, InstallOptions, Locations } from '../adapter.js';
import { fallbackReply, withFallback } from '../fallback.js';
import { isGuardCommand } from '../hook-config.js';
import { configFolder } from './agent.js';
import { PLUGIN_FILE } from './files.js';
import type { PluginAgentNames } from './files.js';
import { commandIn, pluginText, STEP_EVENT } from './plugin.js';
import { ConfigError } from '../adapter.js';

/** Setup's side of an OpenCode-like agent: guard's plugin file, created whole and removed whole. */
export interface PluginConfig {
  configPath(level: ConfigLevel, where: Locations): string;
  install(configText: string, options: InstallOptions): string;
  uninstall(configText: string): string;
  installedCommands(configText: string): readonly string[];
  installedCommand(configText: string, event: string): string | undefined;
}

export function pluginConfig(names: PluginAgentNames, files: AgentFiles, agent: AgentAnswers): PluginConfig {
  const own = (text: string): string | undefined => {
    const command = commandIn(text);
    return command !== undefined && isGuardCommand(command, names.id) ? command : undefined;
  };
  return {
    // `<config folder>/plugins/guard.js`, or `<project>/.<folder>/plugins/guard.js`
    configPath(level, where) {
      const dir =
        level === 'project' ? posix.join(where.projectRoot, `.${names.folder}`) : configFolder(names, files, where);
      return posix.join(dir, 'plugins', PLUGIN_FILE);
    },
    install(configText, options) {
      if (configText.trim() !== '' && own(configText) === undefined)
        throw new ConfigError(
          `a plugin of this name is there and it is not guard's for ${names.displayName}; move it aside so guard can write its own`,
        );
      if (!isGuardCommand(options.hookCommand, names.id) || /\s--event\s/.test(options.hookCommand))
        throw new ConfigError(`the hook command must end with "hook ${names.id}": ${options.hookCommand}`);
      // the step's answer when guard's files are gone: one command serves both events, and the
      // plugin reads nothing from an answer to a message
      const command =
        options.fallback === undefined
          ? options.hookCommand
          : withFallback(options.hookCommand, options.fallback, fallbackReply(agent, STEP_EVENT, options.failClosed));
      return pluginText(names.displayName, command, files.hookTimeout * 1000);
    },
    // the file is guard's alone: removed whole (a file that is not guard's stays as it is)
    uninstall: (configText) => (own(configText) === undefined ? configText : ''),
    installedCommands(configText) {
      const command = own(configText);
      return command === undefined ? [] : [command];
    },
    installedCommand(configText, event) {
      return agent.capabilities.events.includes(event) ? own(configText) : undefined;
    },
  };
}
