export * from './errors/index.js';
export * from './tools/index.js';
export * from './chat/index.js';
export * from './agent/index.js';
