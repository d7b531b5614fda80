export * from './types.js';
export * from './shell/index.js';
export * from './evaluate.js';
