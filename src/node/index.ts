export { toNodeListener, type FetchHandler, type NodeListenerOptions } from './to-node-listener.js';
export type { NodeIncomingRequest, NodeServerResponse, ServeHandlerInfo } from './node-types.js';
