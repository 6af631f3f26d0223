/**
 * @internal What `StateGraph.compile()` checks — edges, routes, fallbacks, the step limit, a reachable end, and that
 * every execution-error collector is wired whole — and the parts it compiles a valid graph into.
 */
import { WorkflowError } from '../../errors/workflow-error.js';
import { resolveRetryOptions } from '../../internal/retry.js';
import { END, START } from '../core/constants.js';
import type { CompiledNode, GraphBranch, GraphNode, GraphParts } from '../core/graph-description.js';
import { collectorStateKey, type NodeCallbacks } from '../core/node-callbacks.js';
import { listProblems, quote, quoteIds } from '../core/quote.js';
import type { StateSchema } from '../core/state-schema.js';
import { graphFingerprint } from './graph-fingerprint.js';
import { fallbackTargets } from './node-option-problems.js';
import { isPlainObject, refusedValue } from '../../internal/json.js';
import { unknownOptionProblems } from '../../internal/option-names.js';

/** Options of `compile`. */
export interface CompileOptions {
  /** Supersteps before a runaway run is stopped with a `WorkflowError`. @default 100 */
  stepLimit?: number | undefined;
  /**
   * Check that every execution-error collector is wired whole (its record field and its callbacks, on every node).
   * Turn it off only when you install a collector's callbacks through a wrapper of your own. @default true
   */
  collectorCheck?: boolean | undefined;
}

/** @internal A graph as built, before it is checked. */
export interface GraphDraft {
  schema: StateSchema<any, any>;
  nodes: ReadonlyMap<string, GraphNode>;
  edges: ReadonlyArray<{ from: string; to: string }>;
  branches: readonly GraphBranch[];
  callbacks: readonly NodeCallbacks[];
  /** Problems found while building. */
  problems: readonly string[];
}

/** @internal Checks a graph draft and returns its compiled parts, or throws one `WorkflowError` listing every problem. */
export function compileDraft(draft: GraphDraft, options: CompileOptions = {}): GraphParts {
  const problems = [...draft.problems];
  const known = (id: string) => draft.nodes.has(id);
  const entries = draft.edges.filter((edge) => edge.from === START).map((edge) => edge.to);
  if (entries.length === 0) problems.push('no entry point: call setEntryPoint(nodeId)');
  for (const edge of draft.edges) {
    if (edge.from !== START && edge.from !== END && !known(edge.from)) problems.push(`edge from unknown node ${quote(edge.from)}`);
    if (edge.to !== END && !known(edge.to)) problems.push(`edge to unknown node ${quote(edge.to)}${edge.from === START ? ' (the entry point)' : ''}`);
    if (edge.from === END) problems.push('no edge can start at END');
  }
  for (const branch of draft.branches) {
    if (!known(branch.from)) problems.push(`conditional edge from unknown node ${quote(branch.from)}`);
    for (const [key, target] of Object.entries(branch.pathMap ?? {})) {
      if (target !== END && !known(target)) problems.push(`conditional edge from ${quote(branch.from)} maps ${quote(key)} to unknown node ${quote(target)}`);
    }
  }
  for (const node of draft.nodes.values()) {
    for (const target of node.ends) if (target !== END && !known(target)) problems.push(`node ${quote(node.id)} declares an unknown destination ${quote(target)}`);
    for (const target of fallbackTargets(node.fallback)) if (target !== END && !known(target)) problems.push(`node ${quote(node.id)} has a fallback goto to unknown node ${quote(target)}`);
  }
  if (!isPlainObject(options)) problems.push(`compile options must be an object (got ${refusedValue(options)})`);
  else problems.push(...unknownOptionProblems(options, ['stepLimit', 'collectorCheck'], { maxSteps: 'stepLimit', recursionLimit: 'stepLimit' }).map((problem) => `compile: ${problem}`));
  const settings: CompileOptions = isPlainObject(options) ? options : {};
  if (settings.collectorCheck !== undefined && typeof settings.collectorCheck !== 'boolean') problems.push(`collectorCheck must be a boolean (got ${refusedValue(settings.collectorCheck)})`);
  if (settings.collectorCheck !== false) problems.push(...collectorProblems(draft));
  const stepLimit = settings.stepLimit ?? 100;
  if (!Number.isInteger(stepLimit) || stepLimit < 1) problems.push(`stepLimit must be an integer ≥ 1 (got ${refusedValue(stepLimit)})`);
  const edgesFrom = new Map<string, string[]>();
  for (const edge of draft.edges) edgesFrom.set(edge.from, [...(edgesFrom.get(edge.from) ?? []), edge.to]);
  const branchesFrom = new Map<string, GraphBranch[]>();
  for (const branch of draft.branches) branchesFrom.set(branch.from, [...(branchesFrom.get(branch.from) ?? []), branch]);
  if (entries.length > 0 && !reachesEnd(draft, entries, edgesFrom, branchesFrom)) {
    problems.push('no path from the entry point reaches the end: add setFinishPoint(nodeId), an edge to END, or a node with ends: [END]');
  }
  if (problems.length > 0) {
    const numbered = listProblems(problems.map((problem, index) => `(${index + 1}) ${problem}`)); // every one in `problems`, the first 20 here
    throw new WorkflowError(`The graph cannot be compiled: ${problems.length === 1 ? problems[0] : `${problems.length} problems: ${numbered}`}`, {
      problems,
    });
  }
  const graphWide = [...draft.callbacks];
  const nodes = new Map<string, CompiledNode>();
  for (const [id, node] of draft.nodes) {
    const own = node.callbacks ? [node.callbacks] : [];
    const compiled: CompiledNode = {
      ...node,
      callbacksBefore: [...graphWide, ...own],
      callbacksAfter: [...own, ...graphWide],
      retryOptions: resolveRetryOptions(node.retry ?? false),
      direct: graphWide.length === 0 && own.length === 0 && node.timeoutMs === undefined,
      successors: branchesFrom.has(id) ? undefined : [...new Set(edgesFrom.get(id) ?? [])].filter((target) => target !== END),
      updateShape: undefined,
    };
    nodes.set(id, compiled);
  }
  return { schema: draft.schema, nodes, edgesFrom, branchesFrom, entries, stepLimit, fingerprint: graphFingerprint(draft) };
}

/**
 * A collector wired in half is a silent loss: callbacks without the record field overwrite earlier records; a
 * record field without the callbacks turns a recoverable failure fatal with no record. Both are compile problems.
 */
function collectorProblems(draft: GraphDraft): string[] {
  const problems: string[] = [];
  const graphWide = draft.callbacks.map(collectorStateKey).filter((key): key is string => key !== undefined);
  const perNode = [...draft.nodes.values()].map((node) => ({ id: node.id, key: collectorStateKey(node.callbacks) }));
  const installed = new Set([...graphWide, ...perNode.map((node) => node.key).filter((key): key is string => key !== undefined)]);
  const fix = 'wire it with graph.use(collector) (or compile({ collectorCheck: false }) if you install its callbacks through a wrapper of your own)';
  for (const key of installed) {
    if (draft.schema.field(key)?.executionErrors !== true) {
      problems.push(`an ExecutionErrorCollector's callbacks are installed but the state has no record field ${quote(key)}: each record would overwrite the last; ${fix}`);
    }
  }
  for (const key of new Set(graphWide)) {
    const twice = perNode.filter((node) => node.key === key).map((node) => node.id);
    if (graphWide.filter((each) => each === key).length > 1) problems.push(`the ExecutionErrorCollector of ${quote(key)} is installed twice: each failure would be recorded twice`);
    else if (twice.length > 0) problems.push(`the ExecutionErrorCollector of ${quote(key)} is installed graph-wide and again on ${quoteIds(twice)}: each failure there would be recorded twice`);
  }
  const withFallback = perNode.filter((node) => node.key === undefined && graphWide.length === 0 && draft.nodes.get(node.id)?.fallback !== undefined);
  if (withFallback.length > 0) {
    problems.push(`${quoteIds(withFallback.map((node) => node.id))} declare${withFallback.length === 1 ? 's' : ''} a fallback but no ExecutionErrorCollector records its failures: the fallback would never be used; ${fix}`);
  }
  for (const key of draft.schema.executionErrorKeys) {
    if (graphWide.includes(key)) continue;
    const uncovered = perNode.filter((node) => node.key !== key).map((node) => node.id);
    if (!installed.has(key)) {
      problems.push(`the state field ${quote(key)} holds execution-error records but no ExecutionErrorCollector callbacks are installed: a recoverable failure would end the run with no record; ${fix}`);
    } else if (uncovered.length > 0) {
      problems.push(`the ExecutionErrorCollector of ${quote(key)} is installed on some nodes only: a failure of ${quoteIds(uncovered)} would end the run with no record; ${fix}`);
    }
  }
  return problems;
}

function reachesEnd(draft: GraphDraft, entries: readonly string[], edgesFrom: ReadonlyMap<string, string[]>, branchesFrom: ReadonlyMap<string, GraphBranch[]>): boolean {
  const seen = new Set<string>();
  const stack = [...entries];
  while (stack.length > 0) {
    const id = stack.pop() as string;
    if (id === END) return true;
    if (seen.has(id) || !draft.nodes.has(id)) continue;
    seen.add(id);
    stack.push(...(edgesFrom.get(id) ?? []));
    for (const branch of branchesFrom.get(id) ?? []) {
      if (!branch.pathMap) return true; // a router without a map may go anywhere, END included
      stack.push(...Object.values(branch.pathMap));
    }
    stack.push(...(draft.nodes.get(id)?.ends ?? []), ...fallbackTargets(draft.nodes.get(id)?.fallback));
  }
  return false;
}
