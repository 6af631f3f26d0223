/**
 * The run's `WorkflowError` carries the failing node's code (`error.code`, not only `toResponseError(error).code`),
 * read the way records read it: an embedded `ResponseError`, `errorCode()`, a string `code`, a numeric one.
 */
import { describe, expect, it } from 'vitest';
import { toResponseError, WorkflowError } from '../../src/errors/index.js';
import { ExecutionErrorCollector, messagesStateSchema, StateGraph, type CompiledGraph, type ExecutionError } from '../../src/graph/index.js';
import { fatalWriteGraph } from '../helpers/graphs.js';

function failingGraph(error: unknown, withCollector = true): CompiledGraph {
  const graph = new StateGraph(messagesStateSchema());
  if (withCollector) graph.use(new ExecutionErrorCollector());
  return graph
    .addNode('charge', () => {
      throw error;
    })
    .setEntryPoint('charge')
    .setFinishPoint('charge')
    .compile();
}

async function runError(graph: CompiledGraph): Promise<WorkflowError> {
  const outcome = await graph.run();
  if (outcome.status !== 'failed') throw new Error(`expected a failed run, got ${outcome.status}`);
  return outcome.error;
}

describe('WorkflowError.code of a fatal node failure', () => {
  it("is the failing node's code, the same as its record's and its wire form's", async () => {
    const outcome = await fatalWriteGraph().run();
    expect(outcome.status).toBe('failed');
    if (outcome.status !== 'failed') return;
    expect(outcome.error.code).toBe('WRITE_FATAL');
    expect(outcome.error.nodeId).toBe('write');
    expect((outcome.fallbackState.execution_errors as ExecutionError[])[0]?.error?.code).toBe('WRITE_FATAL');
    expect(toResponseError(outcome.error)?.code).toBe('WRITE_FATAL');
    expect(outcome.error.toJSON().code).toBe('WRITE_FATAL');
  });

  it('reads the code as records do: errorCode(), an embedded ResponseError, a numeric code, a code on the cause', async () => {
    class Declined extends Error {
      errorCode() {
        return 'CARD_DECLINED';
      }
    }
    expect((await runError(failingGraph(new Declined('declined')))).code).toBe('CARD_DECLINED');
    expect((await runError(failingGraph({ type: 'biz', message: 'over limit', code: 'OVER_LIMIT' }))).code).toBe('OVER_LIMIT');
    expect((await runError(failingGraph(Object.assign(new Error('http'), { code: 503 })))).code).toBe('503');
    const wrapped = new Error('charge failed', { cause: Object.assign(new Error('gateway'), { code: 'GATEWAY_DOWN' }) });
    expect((await runError(failingGraph(wrapped))).code).toBe('GATEWAY_DOWN');
  });

  it('is there without a collector too, and invoke() rejects with it', async () => {
    const graph = failingGraph(Object.assign(new Error('no stock'), { code: 'OUT_OF_STOCK' }), false);
    expect((await runError(graph)).code).toBe('OUT_OF_STOCK');
    await expect(graph.invoke()).rejects.toMatchObject({ name: 'WorkflowError', code: 'OUT_OF_STOCK', nodeId: 'charge' });
  });

  it('is absent when the node gave no code', async () => {
    expect((await runError(failingGraph(new Error('plain')))).code).toBeUndefined();
  });
});
