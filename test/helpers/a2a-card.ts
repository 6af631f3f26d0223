import type { AgentCard } from '../../src/a2a/index.js';

/** An A2A 0.3 card of a streaming JSON-RPC agent at `url`, for the client tests. */
export function agentCard03(url: string): AgentCard {
  return {
    name: 'inventory',
    description: 'Stock lookups',
    url,
    protocolVersion: '0.3.0',
    preferredTransport: 'JSONRPC',
    version: '1.0.0',
    capabilities: { streaming: true },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [],
  };
}
