// How a Runner session is read: each call's one answer right after its assistant message, in call order, wherever
// it was appended; a real answer beats a closure; stray answers and the session's own marks never reach a model.
import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../src/chat/index.js';
import { closures, markPending, readSession } from '../../src/runner/session-transcript.js';

const call = (id: string, name = 'refund') => ({ id, name, arguments: '{}' });
const answer = (id: string, content: string): ChatMessage => ({ role: 'tool', content, toolCallId: id });

describe('readSession', () => {
  it('places answers appended by later turns after their calls, in call order, and reports what still waits', () => {
    const stored = [
      { role: 'user', content: 'go' },
      { role: 'assistant', content: null, toolCalls: [call('a'), call('b'), call('c')], pendingRun: 'run-1' },
      answer('b', 'B'),
      { role: 'user', content: 'meanwhile' },
      answer('a', 'A'),
    ] as ChatMessage[];
    const view = readSession(stored);
    expect(view.transcript).toEqual([
      { role: 'user', content: 'go' },
      { role: 'assistant', content: null, toolCalls: [call('a'), call('b'), call('c')] },
      answer('a', 'A'),
      answer('b', 'B'),
      { role: 'user', content: 'meanwhile' },
    ]);
    expect(view.pending).toEqual([{ runId: 'run-1', calls: [call('c')] }]);
  });

  it('keeps one answer per call: a real answer replaces a closure, a second real one and an answer to no call are left out', () => {
    const [closure] = closures([{ runId: 'run-1', calls: [call('a')] }]);
    const stored = [
      { role: 'assistant', content: null, toolCalls: [call('a'), call('b')] },
      answer('b', 'B1'),
      closure!,
      answer('b', 'B2'),
      answer('zzz', 'stray'),
      answer('a', 'A'),
      closures([{ runId: undefined, calls: [call('b')] }])[0]!,
    ] as ChatMessage[];
    expect(readSession(stored)).toEqual({ transcript: [stored[0], answer('a', 'A'), answer('b', 'B1')], pending: [] });
    expect(closure).toMatchObject({ role: 'tool', toolCallId: 'a', superseded: true });
    expect(JSON.parse(closure!.content as string).error.type).toBe('ToolApprovalSuperseded');
  });

  it('matches an answer to the latest round that asked its call id, so ids reused across rounds stay apart', () => {
    const stored = [
      { role: 'assistant', content: null, toolCalls: [call('call_0')] },
      answer('call_0', 'first'),
      { role: 'assistant', content: null, toolCalls: [call('call_0')] },
      answer('call_0', 'second'),
    ] as ChatMessage[];
    expect(readSession(stored).transcript).toEqual(stored);
    expect(readSession(stored.slice(0, 3)).pending).toEqual([{ runId: undefined, calls: [call('call_0')] }]);
  });

  it('passes whatever else a store gave back on to the agent, which checks it', () => {
    const stored = [null, { role: 'assistant', content: 'x', toolCalls: 'nope' }, 7] as unknown as ChatMessage[];
    expect(readSession(stored)).toEqual({ transcript: stored, pending: [] });
  });

  it('markPending names the run on the latest assistant message asking an interrupted call; other interrupts change nothing', () => {
    const transcript: ChatMessage[] = [{ role: 'assistant', content: null, toolCalls: [call('a')] }, answer('a', 'A'), { role: 'assistant', content: null, toolCalls: [call('b'), call('c')] }];
    markPending(transcript, [
      { id: 'i1', runId: 'run-9', kind: 'approval', toolCallId: 'c', createdAt: '2026-12-06T00:00:00.000Z' },
      { id: 'i2', runId: 'run-9', kind: 'input', nodeId: 'n', createdAt: '2026-12-06T00:00:00.000Z' },
    ]);
    expect(transcript.map((message) => (message as { pendingRun?: string }).pendingRun)).toEqual([undefined, undefined, 'run-9']);
  });
});
