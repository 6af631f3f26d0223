// OpenAI Responses: the final event's `output` is the whole answer (what complete() decodes). Items a stream never
// showed as events — a message or reasoning item given only there, a call only there — are decoded from it, so the
// streamed answer equals complete()'s for the same output; items the events did show (by id, a call by call_id) are
// never repeated. Event and item shapes as documented: https://platform.openai.com/docs/api-reference/responses-streaming
import { describe, expect, it } from 'vitest';
import { collectChatStream, createOpenAIResponsesClient } from '../../src/chat/index.js';

const request = { messages: [{ role: 'user' as const, content: 'hi' }] };
const sse = (frames: unknown[]) => frames.map((frame) => `data: ${JSON.stringify(frame)}\n\n`).join('');
const client = (body: string, type: string) => createOpenAIResponsesClient({ baseURL: 'http://x.test/v1', model: 'm', retry: false, fetch: async () => new Response(body, { headers: { 'content-type': type } }) });

const call = { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'lookup', arguments: '{}', status: 'completed' };
const message = { type: 'message', id: 'msg_1', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'Looking it up.', annotations: [] }] };
const reasoning = { type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: 'think' }], encrypted_content: 'enc' };
const created = { type: 'response.created', response: { id: 'resp_1', status: 'in_progress', output: [] } };
const completed = (output: unknown[]) => ({ type: 'response.completed', response: { id: 'resp_1', status: 'completed', output, usage: { input_tokens: 3, output_tokens: 4 } } });
const callEvents = (index: number) => [
  { type: 'response.output_item.added', output_index: index, item: { ...call, arguments: '', status: 'in_progress' } },
  { type: 'response.function_call_arguments.delta', output_index: index, item_id: 'fc_1', delta: '{}' },
  { type: 'response.output_item.done', output_index: index, item: call },
];
const messageEvents = (index: number) => [
  { type: 'response.output_item.added', output_index: index, item: { ...message, status: 'in_progress', content: [] } },
  { type: 'response.output_text.delta', output_index: index, item_id: 'msg_1', delta: 'Looking it up.' },
  { type: 'response.output_item.done', output_index: index, item: message },
];

/** The streamed answer, and complete()'s for the final output of the same stream. */
async function both(events: unknown[], output: unknown[]) {
  const streamedAnswer = await collectChatStream(client(sse([created, ...events, completed(output)]), 'text/event-stream').stream(request));
  const wholeAnswer = await client(JSON.stringify(completed(output).response), 'application/json').complete(request);
  return { streamedAnswer, wholeAnswer };
}

describe('OpenAI Responses stream: items only in the final output', () => {
  it('a reasoning item and a message only in response.completed, the call streamed: the answer complete() returns', async () => {
    const { streamedAnswer, wholeAnswer } = await both(callEvents(2), [reasoning, message, call]);
    expect(wholeAnswer.message).toMatchObject({ content: 'Looking it up.', reasoning: 'think' });
    expect(streamedAnswer.message).toEqual(wholeAnswer.message); // content, reasoning, calls, and the replay in output order
    expect(streamedAnswer.finishReason).toBe(wholeAnswer.finishReason);
  });

  it('a message streamed, the call only in response.completed: the call is decoded, the text not repeated', async () => {
    const { streamedAnswer, wholeAnswer } = await both(messageEvents(0), [message, call]);
    expect(streamedAnswer.message).toEqual(wholeAnswer.message);
    expect(streamedAnswer.finishReason).toBe('tool_calls');
  });

  it('every item streamed: nothing is taken twice from response.completed', async () => {
    const events = [{ type: 'response.output_item.done', output_index: 0, item: reasoning }, ...messageEvents(1), ...callEvents(2)];
    const { streamedAnswer, wholeAnswer } = await both(events, [reasoning, message, call]);
    expect(streamedAnswer.message).toEqual(wholeAnswer.message);
  });

  it('an item at an index the stream used for another one takes a slot of its own', async () => {
    const search = { type: 'web_search_call', id: 'ws_1', status: 'completed' };
    const events = [{ type: 'response.output_item.added', output_index: 0, item: search }, { type: 'response.output_item.done', output_index: 0, item: search }];
    const { streamedAnswer, wholeAnswer } = await both(events, [message, call]);
    expect(streamedAnswer.message).toEqual(wholeAnswer.message);
  });

  it('text streamed as deltas of no item is the text of the message seen only at the end: not repeated', async () => {
    const events = [{ type: 'response.output_text.delta', delta: 'Looking it up.' }];
    const { streamedAnswer, wholeAnswer } = await both(events, [message]);
    expect(streamedAnswer.message.content).toBe(wholeAnswer.message.content);
  });

  it('an item of a type this client does not decode, only in the final output, is the typed error complete() gives too', async () => {
    const stream = client(sse([created, ...messageEvents(0), completed([message, { type: 'computer_call', id: 'cc_1' }])]), 'text/event-stream').stream(request);
    await expect(collectChatStream(stream)).rejects.toMatchObject({ name: 'StreamError', reason: 'malformed_chunk', message: expect.stringContaining('computer_call') });
    await expect(client(JSON.stringify(completed([message, { type: 'computer_call', id: 'cc_1' }]).response), 'application/json').complete(request)).rejects.toMatchObject({ name: 'ChatClientError', message: expect.stringContaining('computer_call') });
  });
});
