/**
 * @internal A compiled graph's fingerprint, which each checkpoint it writes carries so that another graph refuses it:
 * a 64-bit hash (two 32-bit multiply-xor lanes, no crypto needed: it tells graphs apart, it guards no secret) of a
 * canonical text of what a checkpoint depends on — node ids and types, the routes each may take (`ends`, fallback
 * `goto`s), static edges, routers' declared targets (their path maps; "any" without one), the state's fields and its
 * schema's vendor. Sorted, so the same graph built in another order has the same fingerprint; node functions,
 * reducers, retries and time limits are not in it (a fix to them keeps checkpoints resumable).
 */
import type { GraphBranch, GraphNode } from '../core/graph-description.js';
import type { StateSchema } from '../core/state-schema.js';
import { fallbackTargets } from './node-option-problems.js';

/** What the fingerprint is of: a graph's draft (see `compile-graph.ts`). */
interface Fingerprinted {
  schema: StateSchema<any, any>;
  nodes: ReadonlyMap<string, GraphNode>;
  edges: ReadonlyArray<{ from: string; to: string }>;
  branches: readonly GraphBranch[];
}

const sorted = (items: readonly unknown[]): string[] => items.map((item) => JSON.stringify(item)).sort();

/** @internal The fingerprint of a checked graph draft (computed once, at compile). */
export function graphFingerprint(draft: Fingerprinted): string {
  const { schema } = draft;
  const nodes = sorted([...draft.nodes.values()].map((node) => [node.id, node.type, [...node.ends].sort(), fallbackTargets(node.fallback).sort()]));
  const edges = sorted(draft.edges.map((edge) => [edge.from, edge.to]));
  const routes = sorted(draft.branches.map((branch) => [branch.from, branch.pathMap ? sorted(Object.entries(branch.pathMap)) : 'any']));
  const fields = sorted(schema.names.map((name) => [name, schema.field(name)?.executionErrors === true]));
  return hash(JSON.stringify([nodes, edges, routes, fields, schema.validator?.['~standard']?.vendor ?? null]));
}

function hash(text: string): string {
  let first = 0xdeadbeef;
  let second = 0x41c6ce57;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    first = Math.imul(first ^ code, 2654435761);
    second = Math.imul(second ^ code, 1597334677);
  }
  first = Math.imul(first ^ (first >>> 16), 2246822507) ^ Math.imul(second ^ (second >>> 13), 3266489909);
  second = Math.imul(second ^ (second >>> 16), 2246822507) ^ Math.imul(first ^ (first >>> 13), 3266489909);
  return (second >>> 0).toString(16).padStart(8, '0') + (first >>> 0).toString(16).padStart(8, '0');
}
