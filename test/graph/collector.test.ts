/**
 * The execution-error collector (seed-systems §1.5–1.8, §1.13; scenarios 10–32 of §8.2–8.4): recoverable vs fatal,
 * policies, replacement merges, and the fatal path's custom state-delta event.
 */
import { describe, expect, it, vi } from 'vitest';
import { markRecoverable, SerializeError } from '../../src/errors/index.js';
import {
  Command,
  defaultExecutionErrorPolicy,
  emitCustomStateDelta,
  END,
  executionErrorReducer,
  executionErrorsFromStateDelta,
  ExecutionErrorCollector,
  mergeExecutionErrorReplacement,
  StateGraph,
  StateSchema,
  type ExecutionError,
  type NodeCallbackContext,
  SubgraphResult,
  type State,
} from '../../src/graph/index.js';
import { EXECUTION, type ExecutionHooks } from '../../src/graph/core/node-context.js';
import type { RunEvent } from '../../src/runner/index.js';

/** A node callback context with the executor hooks, the way the node runner builds one. */
function contextWith(events: RunEvent[], fields: Partial<NodeCallbackContext> = {}, hooks: Partial<ExecutionHooks> = {}): NodeCallbackContext {
  return {
    nodeId: 'step',
    nodeName: 'Step',
    nodeType: 'function',
    stepNumber: 0,
    invocationId: 'inv-1',
    ...fields,
    [EXECUTION]: { emit: (event: RunEvent) => events.push(event), addFallbackUpdate: () => {}, ...hooks },
  };
}

/** A context without executor hooks (a hand-made one): emission is a no-op. */
const bareContext: NodeCallbackContext = { nodeId: 'step', nodeName: 'Step', nodeType: 'function', stepNumber: 4, invocationId: 'inv-1' };

function recordsOf(value: unknown, key = 'execution_errors'): ExecutionError[] {
  const state = (Command.isInstance(value) ? value.update : value) as State | undefined;
  expect(state).toBeDefined();
  const records = state?.[key];
  expect(Array.isArray(records)).toBe(true);
  return records as ExecutionError[];
}

class CodedError extends Error {
  errorCode() {
    return 'E1';
  }
  errorType() {
    return 'biz';
  }
  recoverable() {
    return true;
  }
}

class SoftLimitError extends Error {
  recoverable() {
    return true;
  }
}

describe('ExecutionErrorCollector: recoverable errors and policies', () => {
  it('records a recoverable error accepted by the predicate and recovers the node (scenario 10)', async () => {
    const collector = new ExecutionErrorCollector({ recoverable: (error) => error !== undefined && error !== null });
    const result = await collector.afterNode(bareContext, {}, undefined, new Error('boom'));
    const records = recordsOf(result);
    expect(Object.keys(result as State)).toEqual(['execution_errors']);
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ severity: 'recoverable', nodeId: 'step', nodeName: 'Step', nodeType: 'function', stepNumber: 4, error: { type: 'flow_error', message: 'boom' } });
  });

  it('recovers an error whose recoverable() is true under the default policy (scenario 11)', async () => {
    const result = await new ExecutionErrorCollector().afterNode(bareContext, {}, undefined, new SoftLimitError('quota soft limit'));
    const records = recordsOf(result);
    expect(records).toHaveLength(1);
    expect(records[0]?.severity).toBe('recoverable');
    expect(records[0]?.error?.message).toBe('quota soft limit');
  });

  it('recovers an error marked with markRecoverable, keeping its message (scenario 12)', async () => {
    const result = await new ExecutionErrorCollector().afterNode(bareContext, {}, undefined, markRecoverable(new Error('wrapped boom')));
    const records = recordsOf(result);
    expect(records[0]?.severity).toBe('recoverable');
    expect(records[0]?.error?.message).toBe('wrapped boom');
  });

  it('never removes a recovery with the recoverable option, even if it accepts nothing (scenario 13)', async () => {
    const collector = new ExecutionErrorCollector({ recoverable: () => false });
    const records = recordsOf(await collector.afterNode(bareContext, {}, undefined, new SoftLimitError('soft')));
    expect(records[0]?.severity).toBe('recoverable');
  });

  it('adds recoveries on top of a custom policy, keeping its replacement', async () => {
    const collector = new ExecutionErrorCollector({ policy: () => ({ recover: false, replacement: { degraded: true } }), recoverable: (error) => (error as Error).message === 'soft' });
    const recovered = await collector.afterNode(bareContext, {}, undefined, new Error('soft'));
    expect((recovered as State).degraded).toBe(true);
    expect(recordsOf(recovered)[0]?.severity).toBe('recoverable');
    await expect(collector.afterNode(bareContext, {}, undefined, new Error('hard'))).resolves.toBeUndefined();
  });

  it('keeps the defaults when given empty options (scenario 14)', async () => {
    const collector = new ExecutionErrorCollector({ stateKey: '', eventType: '', policy: undefined, recoverable: undefined });
    expect(collector.stateKey).toBe('execution_errors');
    expect(collector.eventType).toBe('execution_error');
    expect(defaultExecutionErrorPolicy(undefined, {}, undefined, new Error('plain'))).toEqual({ recover: false });
    const events: RunEvent[] = [];
    await expect(collector.afterNode(contextWith(events), {}, undefined, new Error('plain'))).resolves.toBeUndefined();
    const metadata = JSON.parse(events[0]!.stateDelta!._node_custom_metadata!) as Record<string, unknown>;
    expect(metadata.eventType).toBe('execution_error');
    expect(executionErrorsFromStateDelta(events[0]!.stateDelta)?.[0]?.severity).toBe('fatal');
  });

  it('uses a custom state key and event type everywhere (scenario 15)', async () => {
    const collector = new ExecutionErrorCollector({ stateKey: 'biz_errors', eventType: 'biz_error' });
    expect(collector.stateKey).toBe('biz_errors');
    const field = collector.stateField();
    expect(field.default?.()).toEqual([]);
    expect(field.default?.()).not.toBe(field.default?.());
    expect(field.reducer).toBe(executionErrorReducer);
    const schema = collector.addField(undefined);
    expect(schema).toBeInstanceOf(StateSchema);
    expect(schema.names).toEqual(['biz_errors']);
    expect(schema.field('biz_errors')?.reducer).toBe(executionErrorReducer);
    expect(schema.executionErrorKeys).toEqual(['biz_errors']);
    const existing = new StateSchema().addField('note', {});
    expect(collector.addField(existing)).toBe(existing);

    const result = new SubgraphResult('child');
    result.rawStateDelta = { biz_errors: '[{"severity":"fatal"}]', execution_errors: '[{"severity":"fatal"}]' };
    const update = collector.subgraphOutputMapper()({}, result);
    expect(Object.keys(update ?? {})).toEqual(['biz_errors']);
    // A Go peer's minimal record: no stepNumber (read as 0), no timestamp (Go's zero time), no error (a record's
    // `error` is always there for its readers: it says the record carried none).
    expect(recordsOf(update, 'biz_errors')).toEqual([
      { severity: 'fatal', stepNumber: 0, timestamp: '0001-01-01T00:00:00Z', error: { type: 'flow_error', message: 'the record carries no error details' }, path: ['child'] },
    ]);

    const recovered = await collector.afterNode(bareContext, {}, undefined, markRecoverable(new Error('soft')));
    expect(Object.keys(recovered as State)).toEqual(['biz_errors']);
    const events: RunEvent[] = [];
    await collector.afterNode(contextWith(events), {}, undefined, new Error('hard'));
    expect(Object.keys(events[0]!.stateDelta!)).toEqual(['biz_errors', '_node_custom_metadata']);
    expect(JSON.parse(events[0]!.stateDelta!._node_custom_metadata!)).toMatchObject({ eventType: 'biz_error' });
  });

  it("replaces the record's error with the policy's responseError, copied (scenario 16)", async () => {
    const responseError = { type: 'flow_error', message: 'override', code: 'BIZ_001' };
    const collector = new ExecutionErrorCollector({ policy: () => ({ recover: true, responseError }) });
    const records = recordsOf(await collector.afterNode(bareContext, {}, undefined, Object.assign(new Error('boom'), { code: 'RAW' })));
    responseError.code = 'CHANGED';
    responseError.message = 'changed';
    expect(records[0]?.error).toEqual({ type: 'flow_error', message: 'override', code: 'BIZ_001' });
    expect(records[0]?.error).not.toBe(responseError);
  });

  it('uses the normalised responseError as the fatal event message', async () => {
    const events: RunEvent[] = [];
    const collector = new ExecutionErrorCollector({ policy: () => ({ recover: false, responseError: { type: 'biz_error', message: 'order could not be saved' } }) });
    await collector.afterNode(contextWith(events), {}, undefined, new Error('ECONNRESET 10.0.0.3:5432'));
    const metadata = JSON.parse(events[0]!.stateDelta!._node_custom_metadata!) as Record<string, unknown>;
    expect(metadata.message).toBe('order could not be saved');
    expect(executionErrorsFromStateDelta(events[0]!.stateDelta)?.[0]?.error).toEqual({ type: 'biz_error', message: 'order could not be saved' });
  });

  it("hands the node's partial result to the policy and keeps it in the recovered output (scenario 17)", async () => {
    const policy = vi.fn(() => ({ recover: true }));
    const collector = new ExecutionErrorCollector({ policy });
    const partial = { partial: true };
    const state = { before: 1 };
    const error = new Error('boom');
    const output = await collector.afterNode(bareContext, state, partial, error);
    expect(policy).toHaveBeenCalledTimes(1);
    expect(policy).toHaveBeenCalledWith(bareContext, state, partial, error);
    expect((output as State).partial).toBe(true);
    expect(recordsOf(output)).toHaveLength(1);
    expect(partial).toEqual({ partial: true });
  });

  it('sees no error once an earlier after-callback recovered the node (scenario 18)', async () => {
    const collector = new ExecutionErrorCollector();
    const afterNode = vi.spyOn(collector, 'afterNode');
    const events: RunEvent[] = [];
    const compiled = new StateGraph(collector.addField(new StateSchema().addField('ok', {})))
      .withNodeCallbacks(collector.nodeCallbacks())
      .addNode(
        'step',
        () => {
          throw new Error('boom');
        },
        { callbacks: { afterNode: (_context, _state, _result, error) => (error ? { ok: true } : undefined) } },
      )
      .setEntryPoint('step')
      .setFinishPoint('step')
      .compile();
    const outcome = await compiled.run({}, { onEvent: (event) => events.push(event) });
    expect(outcome.status).toBe('completed');
    expect(outcome.status === 'completed' && outcome.state).toEqual({ ok: true, execution_errors: [] });
    expect(afterNode).toHaveBeenCalledTimes(1);
    expect(afterNode.mock.calls[0]?.[2]).toEqual({ ok: true });
    expect(afterNode.mock.calls[0]?.[3]).toBeUndefined();
    await expect(afterNode.mock.results[0]?.value).resolves.toBeUndefined();
    expect(events.filter((event) => event.response?.object === 'graph.node.custom')).toHaveLength(0);
    const complete = events.find((event) => event.response?.object === 'graph.node.complete');
    expect(JSON.parse(complete!.stateDelta!._node_metadata!)).toMatchObject({ nodeId: 'step', recovered: true });
  });

  it('returns no override when the node did not fail (scenario 19)', async () => {
    const policy = vi.fn(() => ({ recover: true }));
    const collector = new ExecutionErrorCollector({ policy });
    await expect(collector.afterNode(bareContext, {}, { done: true }, undefined)).resolves.toBeUndefined();
    await expect(collector.afterNode(bareContext, {}, { done: true }, null)).resolves.toBeUndefined();
    expect(policy).not.toHaveBeenCalled();
  });

  it("takes the record's code and type from errorCode() and errorType() (scenario 20)", async () => {
    const records = recordsOf(await new ExecutionErrorCollector().afterNode(bareContext, {}, undefined, new CodedError('typed boom')));
    expect(records[0]?.severity).toBe('recoverable');
    expect(records[0]?.error).toEqual({ type: 'biz', message: 'typed boom', code: 'E1' });
  });
});

describe('ExecutionErrorCollector: replacement state vs command', () => {
  const recoverAll = new ExecutionErrorCollector({ recoverable: () => true });

  it("keeps the node's own state result and adds the record (scenario 21)", async () => {
    const output = await recoverAll.afterNode(bareContext, {}, { partial: true }, new Error('boom'));
    expect(Command.isInstance(output)).toBe(false);
    expect((output as State).partial).toBe(true);
    expect(recordsOf(output)).toHaveLength(1);
  });

  it("keeps the node's own command, its goto and its update (scenario 22)", async () => {
    const command = new Command({ goto: 'next', update: { partial: true } });
    const output = await recoverAll.afterNode(bareContext, {}, command, new Error('boom'));
    expect(Command.isInstance(output)).toBe(true);
    const merged = output as Command;
    expect(merged.goto).toBe('next');
    expect(merged.update?.partial).toBe(true);
    expect(recordsOf(merged)).toHaveLength(1);
    expect(command.update).toEqual({ partial: true });
  });

  it("merges the record into a policy's replacement command when the node returned nothing (scenario 23)", async () => {
    const replacement = new Command({ goto: 'next', update: { done: true } });
    const collector = new ExecutionErrorCollector({ policy: () => ({ recover: true, replacement }) });
    const output = (await collector.afterNode(bareContext, {}, undefined, new Error('boom'))) as Command;
    expect(Command.isInstance(output)).toBe(true);
    expect(output.goto).toBe('next');
    expect(Object.keys(output.update ?? {})).toEqual(['done', 'execution_errors']);
    expect(output.update?.done).toBe(true);
    expect(recordsOf(output)).toHaveLength(1);
  });

  it('merges every kind of replacement with the record update (scenario 24)', () => {
    const update: State = { execution_errors: [{ severity: 'recoverable', stepNumber: 0, timestamp: 't' }] };
    expect(mergeExecutionErrorReplacement(undefined, update)).toBe(update);
    expect(mergeExecutionErrorReplacement(null, update)).toBe(update);
    const state = { done: true };
    const mergedState = mergeExecutionErrorReplacement(state, update) as State;
    expect(mergedState).toEqual({ done: true, execution_errors: update.execution_errors });
    expect(state).toEqual({ done: true });

    const command = new Command({ goto: ['a', 'b'], update: { done: true } });
    const mergedCommand = mergeExecutionErrorReplacement(command, update) as Command;
    expect(Command.isInstance(mergedCommand)).toBe(true);
    expect(mergedCommand).not.toBe(command);
    expect(mergedCommand.goto).toEqual(['a', 'b']);
    expect(mergedCommand.update).toEqual({ done: true, execution_errors: update.execution_errors });
    expect(command.update).toEqual({ done: true });

    const bare = mergeExecutionErrorReplacement(new Command(), update) as Command;
    expect(Command.isInstance(bare)).toBe(true);
    expect(bare.update).toEqual(update);
    expect(bare.goto).toBeUndefined();

    // tRPC returns a non-state replacement ("raw") unchanged and loses the record. A node result must be a state,
    // a Command or nothing, so ours returns the update: the node still recovers and its record is kept.
    expect(mergeExecutionErrorReplacement('raw', update)).toBe(update);
    expect(mergeExecutionErrorReplacement([1, 2], update)).toBe(update);
    expect(mergeExecutionErrorReplacement(new Map([['done', true]]), update)).toBe(update);
  });

  it('overwrites execution_errors already present in the replacement with the one record (scenario 25)', async () => {
    const stale = { severity: 'fatal', stepNumber: 9, timestamp: 't', nodeId: 'stale' };
    const collector = new ExecutionErrorCollector({ policy: () => ({ recover: true, replacement: { note: 'fallback', execution_errors: [stale] } }) });
    const output = (await collector.afterNode(bareContext, {}, undefined, new Error('boom'))) as State;
    expect(output.note).toBe('fallback');
    const records = recordsOf(output);
    expect(records).toHaveLength(1);
    expect(records[0]?.nodeId).toBe('step');
    expect(records[0]?.error?.message).toBe('boom');
  });

  it('writes only the record for a recovered node without result, and the next node sees it appended (scenario 26)', async () => {
    const collector = new ExecutionErrorCollector();
    const written: Array<[string, unknown]> = [];
    let seenByFinalize: ExecutionError[] = [];
    const schema = collector.addField(new StateSchema().addField('note', {}));
    const compiled = new StateGraph(schema)
      .withNodeCallbacks(collector.nodeCallbacks())
      // Runs after the collector: sees what each node finally writes.
      .withNodeCallbacks({ afterNode: (context, _state, result) => void written.push([context.nodeId, result]) })
      .addNode('lookup_catalog', () => {
        throw markRecoverable(Object.assign(new Error('catalog lookup timed out'), { code: 'CATALOG_TIMEOUT' }));
      })
      .addNode('lookup_inventory', () => {
        throw markRecoverable(new Error('inventory lookup timed out'));
      })
      .addNode('finalize', (state) => {
        seenByFinalize = state.execution_errors as ExecutionError[];
        return { note: `completed with fallback after ${seenByFinalize.length} recovered failures` };
      })
      .addEdge('lookup_catalog', 'lookup_inventory')
      .addEdge('lookup_inventory', 'finalize')
      .setEntryPoint('lookup_catalog')
      .addEdge('finalize', END)
      .compile();
    const outcome = await compiled.run({ note: 'untouched' });
    expect(outcome.status).toBe('completed');
    expect(written.map(([id, result]) => [id, Object.keys(result as State)])).toEqual([
      ['lookup_catalog', ['execution_errors']],
      ['lookup_inventory', ['execution_errors']],
      ['finalize', ['note']],
    ]);
    expect(seenByFinalize.map((item) => [item.nodeId, item.severity, item.stepNumber, item.error?.message, item.error?.code])).toEqual([
      ['lookup_catalog', 'recoverable', 0, 'catalog lookup timed out', 'CATALOG_TIMEOUT'],
      ['lookup_inventory', 'recoverable', 1, 'inventory lookup timed out', undefined],
    ]);
    expect(outcome.status === 'completed' && outcome.state.note).toBe('completed with fallback after 2 recovered failures');
  });
});

describe('ExecutionErrorCollector: the fatal path', () => {
  it('emits exactly one graph.node.custom event carrying the fatal record, and does not recover (scenario 27)', async () => {
    const events: RunEvent[] = [];
    const fallbackUpdates: State[] = [];
    const context = contextWith(events, { nodeId: 'fatal-node', nodeName: 'fatal-node', stepNumber: 0 }, { addFallbackUpdate: (update) => fallbackUpdates.push(update) });
    const result = await new ExecutionErrorCollector().afterNode(context, {}, undefined, Object.assign(new Error('fatal boom'), { code: 'WRITE_FATAL' }));
    expect(result).toBeUndefined();
    expect(events).toHaveLength(1);
    const event = events[0]!;
    expect(event.response).toEqual({ object: 'graph.node.custom', done: false });
    expect(event.author).toBe('fatal-node');
    expect(Object.keys(event.stateDelta!)).toEqual(['execution_errors', '_node_custom_metadata']);
    expect(event.stateDelta!.execution_errors).toContain('"stepNumber":0');
    const records = executionErrorsFromStateDelta(event.stateDelta)!;
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ severity: 'fatal', nodeId: 'fatal-node', stepNumber: 0, error: { type: 'flow_error', message: 'fatal boom', code: 'WRITE_FATAL' } });
    const metadata = JSON.parse(event.stateDelta!._node_custom_metadata!) as Record<string, unknown>;
    expect(metadata).toMatchObject({ eventType: 'execution_error', category: 'custom', nodeId: 'fatal-node', invocationId: 'inv-1', message: 'fatal boom' });
    expect(metadata.payload).toEqual(records[0]);
    expect(fallbackUpdates).toHaveLength(1);
    expect(recordsOf(fallbackUpdates[0])).toEqual(records);
  });

  it('ignores a failing emission and still returns no override (scenario 28)', async () => {
    const context = contextWith([], { nodeId: 'fatal-node' }, {
      emit: () => {
        throw new Error('event channel closed');
      },
    });
    await expect(new ExecutionErrorCollector().afterNode(context, {}, undefined, new Error('fatal boom'))).resolves.toBeUndefined();
  });

  it('emits nothing and recovers nothing without a context', async () => {
    await expect(new ExecutionErrorCollector().afterNode(undefined, {}, undefined, new Error('fatal boom'))).resolves.toBeUndefined();
    await expect(new ExecutionErrorCollector().afterNode(bareContext, {}, undefined, new Error('fatal boom'))).resolves.toBeUndefined();
  });
});

describe('emitCustomStateDelta', () => {
  it('emits one graph.node.custom event with the invocation, request and branch of the context (scenario 29)', () => {
    const events: RunEvent[] = [];
    const context = contextWith(events, { nodeId: 'carry', invocationId: 'inv-from-invocation' }, { branch: 'branch', requestId: 'req' });
    emitCustomStateDelta(context, { result: { ok: true } }, { eventType: 'custom_state', message: 'carry state', payload: { attempt: 2 } });
    expect(events).toHaveLength(1);
    const event = events[0]!;
    expect(event.response?.object).toBe('graph.node.custom');
    expect(event.response?.error).toBeUndefined();
    expect(event.invocationId).toBe('inv-from-invocation');
    expect(event.requestId).toBe('req');
    expect(event.branch).toBe('branch');
    expect(event.author).toBe('carry');
    expect(event.stateDelta?.result).toBe('{"ok":true}');
    const metadata = JSON.parse(event.stateDelta!._node_custom_metadata!) as Record<string, unknown>;
    expect(metadata).toMatchObject({ eventType: 'custom_state', category: 'custom', nodeId: 'carry', invocationId: 'inv-from-invocation', message: 'carry state', payload: { attempt: 2 } });
    expect(Number.isNaN(Date.parse(metadata.timestamp as string))).toBe(false);
  });

  it("uses the event type state_delta by default and leaves out absent message and payload", () => {
    const events: RunEvent[] = [];
    emitCustomStateDelta(contextWith(events), { done: true, cleared: null });
    emitCustomStateDelta(contextWith(events), { done: true }, { eventType: '' });
    expect(events).toHaveLength(2);
    expect(events[0]!.stateDelta).toMatchObject({ done: 'true', cleared: null });
    for (const event of events) {
      const metadata = JSON.parse(event.stateDelta!._node_custom_metadata!) as Record<string, unknown>;
      expect(metadata.eventType).toBe('state_delta');
      expect(metadata).not.toHaveProperty('message');
      expect(metadata).not.toHaveProperty('payload');
    }
    expect(events[0]!.branch).toBeUndefined();
    expect(events[0]!.requestId).toBeUndefined();
  });

  it('is a no-op without a context, without executor hooks, or with an empty delta (scenario 31)', () => {
    const events: RunEvent[] = [];
    const addFallbackUpdate = vi.fn();
    expect(() => emitCustomStateDelta(undefined, { done: true })).not.toThrow();
    expect(() => emitCustomStateDelta(bareContext, { done: true })).not.toThrow();
    emitCustomStateDelta(contextWith(events, {}, { addFallbackUpdate }), {});
    expect(events).toHaveLength(0);
    expect(addFallbackUpdate).not.toHaveBeenCalled();
  });

  it('throws a SerializeError naming the key of a value that cannot be JSON, and emits nothing (scenario 32)', () => {
    const events: RunEvent[] = [];
    let caught: unknown;
    try {
      emitCustomStateDelta(contextWith(events), { fine: 1, big: 10n });
    } catch (error) {
      caught = error;
    }
    expect(SerializeError.isInstance(caught)).toBe(true);
    expect((caught as SerializeError).message).toMatch(/^marshal state delta key "big": /);
    expect((caught as SerializeError).subject).toBe('state key "big"');
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => emitCustomStateDelta(contextWith(events), { loop: cyclic })).toThrow(/marshal state delta key "loop"/);
    expect(() => emitCustomStateDelta(contextWith(events), { fn: () => 1 })).toThrow(/marshal state delta key "fn": fn is a function, which JSON cannot represent/);
    expect(events).toHaveLength(0);
  });
});
