// The bounds of a runner stream's records (docs/bounds.md): at most 1,000 distinct execution-error records are
// written as data-faultline-record parts and counted, and the completion names at most 50 distinct codes — a graph
// that records without end cannot grow what a page holds without end.
import { describe, expect, it } from 'vitest';
import { createEvent, ObjectType, type RunEvent } from '../../../src/runner/index.js';
import { toUIMessageStream, type FaultlineCompletionData, type FaultlineRecordData } from '../../../src/ui/index.js';
import { checkedBody } from './ui-stream.js';

const origin = { invocationId: 'inv-1', author: 'graph' };

function record(index: number) {
  return {
    severity: index % 2 === 0 ? 'recoverable' : 'fatal',
    nodeId: `node_${index}`,
    stepNumber: index,
    timestamp: '2026-12-05T00:00:00.000Z',
    error: { type: 'flow_error', message: `step ${index} failed`, code: `CODE_${index}` },
  };
}

async function* events(records: number): AsyncGenerator<RunEvent> {
  // The collector's key grows as a run goes: each event repeats every earlier record, as a real run's deltas do.
  const all = Array.from({ length: records }, (_, index) => record(index));
  for (let end = 200; end < records + 200; end += 200) {
    yield createEvent(origin, { response: { object: ObjectType.GraphNodeComplete, done: false }, stateDelta: { execution_errors: JSON.stringify(all.slice(0, end)) } });
  }
  yield createEvent(origin, { response: { object: ObjectType.RunnerCompletion, done: true }, stateDelta: { execution_errors: JSON.stringify(all) } });
}

function partsOf<T>(message: { parts: ReadonlyArray<{ type: string }> } | undefined, type: string): T[] {
  return (message?.parts ?? []).filter((part) => part.type === type).map((part) => (part as unknown as { data: T }).data);
}

describe('a runner stream with more records than the bound', () => {
  it('writes the first 1,000 distinct records once each, counts only those, and names at most 50 codes', async () => {
    const body = await checkedBody(toUIMessageStream(events(1_500)));
    const records = partsOf<FaultlineRecordData>(body.message, 'data-faultline-record');
    expect(records).toHaveLength(1_000);
    expect(new Set(records.map((part) => part.code)).size).toBe(1_000);
    expect(records[0]?.code).toBe('CODE_0');
    expect(records.at(-1)?.code).toBe('CODE_999');
    const [completion] = partsOf<FaultlineCompletionData>(body.message, 'data-faultline-completion');
    expect(completion?.records).toEqual({ recoverable: 500, fatal: 500 });
    expect(completion?.codes).toHaveLength(50);
    expect(completion?.codes.slice(0, 2)).toEqual(['CODE_0', 'CODE_1']);
  });

  it('keeps every record under the bound', async () => {
    const body = await checkedBody(toUIMessageStream(events(400)));
    expect(partsOf<FaultlineRecordData>(body.message, 'data-faultline-record')).toHaveLength(400);
  });
});
