export * from './types.js';
export * from './shell/index.js';
export * from './evaluate.js';
export * from './facts/paths.js';
export * from './facts/hosts.js';
export * from './facts/keys.js';
export * from './facts/injection.js';
export * from './facts/patch.js';
