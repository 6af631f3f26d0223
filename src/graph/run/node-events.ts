/**
 * @internal A node step's events (`graph.node.start`, `.error`, `.complete`): the node's author and metadata, built
 * only when the run has a listener.
 */
import { ErrorType } from '../../errors/constants.js';
import { toResponseError } from '../../errors/response-error.js';
import { createEvent, type EventOrigin, type EventResponse, type RunEvent } from '../../runner/event.js';
import { NODE_METADATA_KEY } from '../core/constants.js';
import type { GraphNode } from '../core/graph-description.js';
import type { RunScope } from './run-scope.js';

function origin(scope: RunScope, node: GraphNode): EventOrigin {
  return { invocationId: scope.invocationId, author: node.id, branch: scope.branch, requestId: scope.requestId };
}

/** @internal Emits a node event, built only when the run has a listener. */
export function emitNodeEvent(scope: RunScope, node: GraphNode, object: string, step: number, tail: string, error?: unknown): void {
  if (scope.listening) scope.emit(nodeEvent(scope, node, object, step, tail, error));
}

function nodeEvent(scope: RunScope, node: GraphNode, object: string, step: number, tail: string, error?: unknown): RunEvent {
  const response: EventResponse = error === undefined ? { object, done: false } : { object, done: false, error: toResponseError(error, ErrorType.FlowError) };
  return createEvent(origin(scope, node), { response, stateDelta: { [NODE_METADATA_KEY]: nodeMetadata(node, step, tail) } });
}

const metadataPrefixes = new WeakMap<GraphNode, string>();

/**
 * `JSON.stringify({nodeId, nodeName, nodeType, stepNumber, ...extra})`, from the node's constant part (serialized once
 * per node) and a tail from `metadataTail` (metadata-tails.ts) (two events per node and step make this a hot path).
 */
function nodeMetadata(node: GraphNode, step: number, tail: string): string {
  let prefix = metadataPrefixes.get(node);
  if (prefix === undefined) {
    prefix = JSON.stringify({ nodeId: node.id, nodeName: node.name, nodeType: node.type }).slice(0, -1);
    metadataPrefixes.set(node, prefix);
  }
  return `${prefix},"stepNumber":${step}${tail}`;
}
