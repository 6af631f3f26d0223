export * from './errors/index.js';
export * from './tools/index.js';
export * from './chat/index.js';
export * from './agent/index.js';
export * from './graph/index.js';
export * from './runner/index.js';
export * from './a2a/index.js';
export * from './mcp/index.js';
