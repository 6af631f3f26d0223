export * from './errors/index.js';
export * from './tools/index.js';
