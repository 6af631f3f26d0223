/** Graphs shared by tests. */
import { ExecutionErrorCollector, messagesStateSchema, StateGraph, type CompiledGraph } from '../../src/graph/index.js';

/** A graph whose only node, `write`, fails fatally with code `WRITE_FATAL` ("database write failed"). */
export function fatalWriteGraph(): CompiledGraph {
  const collector = new ExecutionErrorCollector();
  return new StateGraph(collector.addField(messagesStateSchema()))
    .withNodeCallbacks(collector.nodeCallbacks())
    .addNode('write', () => {
      throw Object.assign(new Error('database write failed'), { code: 'WRITE_FATAL' });
    })
    .setEntryPoint('write')
    .setFinishPoint('write')
    .compile();
}
