// The web-UI stream: encoding one agent run as the AI SDK UI message stream (SSE bytes), faultline's
// `toUIMessageStream` against the AI SDK's own `createUIMessageStream` + `createUIMessageStreamResponse` fed by a
// hand-written adapter from the same run items (what an app writes without faultline/ui). Same content, same run: a
// long text answer streamed in small deltas, then many parallel tool calls (a third of them failing), then a final
// answer. Two rows each: the recorded items replayed (encoding alone), and the live run (agent loop + encoding).
import { createUIMessageStream, createUIMessageStreamResponse, readUIMessageStream } from 'ai';
import { AgentBuilder, createScriptedChatClient, DataNotFoundError, defineTool, jsonSchema } from '../dist/index.js';
import { toUIMessageStream } from '../dist/ui/index.js';
import { compare, fixed, jsonLine, table } from './lib.mjs';

const TEXT_KB = Number(process.env.BENCH_UI_TEXT_KB ?? 256);
const TOOL_CALLS = Number(process.env.BENCH_UI_TOOL_CALLS ?? 300);
const words = ['the', 'order', 'ships', 'héllo', 'café', '世界', 'status', 'inventory', '🚀', 'résumé'];
const longText = Array.from({ length: Math.ceil((TEXT_KB * 1024) / 6) }, (_, index) => words[index % words.length]).join(' ');

function createAgent() {
  const lookup = defineTool({
    name: 'lookup',
    description: 'Look up an order.',
    parameters: jsonSchema({ type: 'object', properties: { order: { type: 'number' } }, required: ['order'] }),
    execute: ({ order }) => {
      if (order % 3 === 0) throw new DataNotFoundError(`No order ${order}.`, { context: { order }, suggestion: 'Check the order number.' });
      return { order, status: 'shipped', items: [{ sku: `SKU-${order}`, quantity: order % 5 }] };
    },
  });
  const model = createScriptedChatClient([
    { text: longText, toolCalls: Array.from({ length: TOOL_CALLS }, (_, index) => ({ name: 'lookup', arguments: { order: index + 1 } })), chunkSize: 16 },
    { text: 'Done: see each order above.' },
  ]);
  return new AgentBuilder('bench-ui').chatClient(model).tools([lookup]).toolLogger(false).maxIterations(3).build();
}

/** The run items, recorded once: both encoders replay exactly these. */
const items = [];
for await (const item of createAgent().run('Check the orders.')) items.push(item);
const replay = () => new ReadableStream({ start: (controller) => (items.forEach((item) => controller.enqueue(item)), controller.close()) });

/**
 * The adapter an app writes for the AI SDK's own stream: start, steps from iterations, part ids, text and tool parts,
 * a data part for each failure (so both carry the same content), finish.
 */
function aiSDKStream(run) {
  return createUIMessageStream({
    async execute({ writer }) {
      let step = 0;
      let text;
      let count = 0;
      const closeText = () => {
        if (text) writer.write({ type: 'text-end', id: text });
        text = undefined;
      };
      const enter = (iteration) => {
        if (iteration === step) return;
        closeText();
        if (step > 0) writer.write({ type: 'finish-step' });
        writer.write({ type: 'start-step' });
        step = iteration;
      };
      for await (const item of run) {
        if (item.type === 'text-delta') {
          enter(item.iteration);
          if (!text) writer.write({ type: 'text-start', id: (text = `t${item.iteration}-${count++}`) });
          writer.write({ type: 'text-delta', id: text, delta: item.delta });
        } else if (item.type === 'tool-call') {
          enter(item.iteration);
          closeText();
          let input;
          try {
            input = JSON.parse(item.call.arguments);
          } catch {
            input = item.call.arguments;
          }
          writer.write({ type: 'tool-input-start', toolCallId: item.call.id, toolName: item.call.name });
          writer.write({ type: 'tool-input-available', toolCallId: item.call.id, toolName: item.call.name, input });
        } else if (item.type === 'tool-result') {
          closeText();
          if (item.ok) writer.write({ type: 'tool-output-available', toolCallId: item.callId, output: item.result });
          else {
            writer.write({ type: 'tool-output-error', toolCallId: item.callId, errorText: item.result.error?.message ?? 'failed' });
            writer.write({ type: 'data-faultline-error', id: item.callId, data: item.result.error });
          }
        } else if (item.type === 'finish') {
          closeText();
          writer.write({ type: 'finish-step' });
          writer.write({ type: 'finish', finishReason: 'stop' });
        }
      }
    },
  });
}

async function drain(stream) {
  let bytes = 0;
  const reader = stream.getReader();
  for (let next = await reader.read(); !next.done; next = await reader.read()) bytes += next.value.byteLength;
  return bytes;
}

/** What `useChat` would hold after a body: the last message `readUIMessageStream` builds from its frames. */
async function heldMessage(body) {
  const text = await new Response(body).text();
  const chunks = text.split('\n\n').filter((frame) => frame.startsWith('data: {')).map((frame) => JSON.parse(frame.slice(6)));
  let last;
  for await (const message of readUIMessageStream({ stream: new ReadableStream({ start: (controller) => (chunks.forEach((chunk) => controller.enqueue(chunk)), controller.close()) }) })) last = message;
  return last.parts.filter((part) => part.type === 'text' || part.type.startsWith('tool-')).map((part) => (part.type === 'text' ? part.text : `${part.toolCallId}:${part.state}`));
}
// Same content: both bodies give useChat the same text and tool parts in the same states.
const held = [await heldMessage(toUIMessageStream(replay())), await heldMessage(createUIMessageStreamResponse({ stream: aiSDKStream(replay()) }).body)];
if (JSON.stringify(held[0]) !== JSON.stringify(held[1])) throw new Error('the two encodings do not give useChat the same message');

const outputs = {};
const cases = {
  'faultline toUIMessageStream (recorded items)': async () => (outputs.faultline = await drain(toUIMessageStream(replay()))),
  'AI SDK createUIMessageStreamResponse + adapter (recorded items)': async () => (outputs.aiSDK = await drain(createUIMessageStreamResponse({ stream: aiSDKStream(replay()) }).body)),
  'faultline: live run + toUIMessageStream': () => drain(toUIMessageStream(createAgent().run('Check the orders.'))),
  'AI SDK: live run + adapter + createUIMessageStreamResponse': () => drain(createUIMessageStreamResponse({ stream: aiSDKStream(createAgent().run('Check the orders.')) }).body),
};

const results = await compare(cases, { warmup: 2, rounds: Number(process.env.BENCH_ROUNDS ?? 7) });
const ms = (name) => results[name].median;
const encodeRatio = ms('faultline toUIMessageStream (recorded items)') / ms('AI SDK createUIMessageStreamResponse + adapter (recorded items)');
const liveRatio = ms('faultline: live run + toUIMessageStream') / ms('AI SDK: live run + adapter + createUIMessageStreamResponse');
const deltas = items.filter((item) => item.type === 'text-delta').length;
table(
  `UI message stream encoding: ${items.length} run items (${deltas} text deltas, ${TOOL_CALLS} tool calls); faultline ${(outputs.faultline / 1024).toFixed(0)} KiB, AI SDK ${(outputs.aiSDK / 1024).toFixed(0)} KiB of SSE (median of rounds)`,
  ['path', 'ms', '× AI SDK'],
  [
    ['faultline toUIMessageStream (recorded items)', ms('faultline toUIMessageStream (recorded items)').toFixed(2), encodeRatio.toFixed(2)],
    ['AI SDK createUIMessageStreamResponse + adapter (recorded items)', ms('AI SDK createUIMessageStreamResponse + adapter (recorded items)').toFixed(2), '1.00'],
    ['faultline: live run + toUIMessageStream', ms('faultline: live run + toUIMessageStream').toFixed(2), liveRatio.toFixed(2)],
    ['AI SDK: live run + adapter + createUIMessageStreamResponse', ms('AI SDK: live run + adapter + createUIMessageStreamResponse').toFixed(2), '1.00'],
  ],
);
jsonLine('ui', {
  items: items.length,
  textDeltas: deltas,
  toolCalls: TOOL_CALLS,
  encodeMs: fixed(ms('faultline toUIMessageStream (recorded items)')),
  aiSDKEncodeMs: fixed(ms('AI SDK createUIMessageStreamResponse + adapter (recorded items)')),
  encodeRatio: fixed(encodeRatio),
  liveMs: fixed(ms('faultline: live run + toUIMessageStream')),
  aiSDKLiveMs: fixed(ms('AI SDK: live run + adapter + createUIMessageStreamResponse')),
  liveRatio: fixed(liveRatio),
  faultlineKiB: fixed(outputs.faultline / 1024, 1),
  aiSDKKiB: fixed(outputs.aiSDK / 1024, 1),
});
