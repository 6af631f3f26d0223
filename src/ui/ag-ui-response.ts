import type { AgentRunItem } from '../agent/types.js';
import { messageOf } from '../internal/error-chain.js';
import { tryStringify } from '../internal/json.js';
import type { RunEvent } from '../runner/event.js';
import type { AGUIEvent, AGUIOptions } from './ag-ui-events.js';
import { toAGUIEvents } from './to-ag-ui-events.js';

/** One SSE frame; an event whose value JSON cannot carry (an output a schema turned into a BigInt) loses that value, never the event. */
function frame(event: AGUIEvent, encoder: TextEncoder): Uint8Array {
  const text = tryStringify(event) ?? tryStringify({ ...event, value: '[unserializable]', result: '[unserializable]' }) ?? '{"type":"CUSTOM","name":"faultline.unserializable","value":null}';
  return encoder.encode(`data: ${text}\n\n`);
}

/**
 * AG-UI events as Server-Sent Events, the way AG-UI's HTTP clients read them: one `data: <json>\n\n` frame per
 * event. Pulled as it is read (a slow reader slows the run, not memory); cancelling it cancels the events, and so the
 * run.
 *
 * @example `new Response(encodeAGUISSE(toAGUIEvents(agent.run(input))), { headers: { 'content-type': 'text/event-stream' } })`
 */
export function encodeAGUISSE(events: ReadableStream<AGUIEvent>): ReadableStream<Uint8Array> {
  const reader = events.getReader();
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        let next: ReadableStreamReadResult<AGUIEvent>;
        try {
          next = await reader.read();
        } catch (error) {
          // a stream of events that fails still ends as AG-UI says a failed run ends
          controller.enqueue(frame({ type: 'RUN_ERROR', message: `The event stream failed: ${messageOf(error)}`.slice(0, 2_000), code: 'stream' }, encoder));
          controller.close();
          return;
        }
        if (next.done) controller.close();
        else controller.enqueue(frame(next.value, encoder));
      },
      cancel(reason) {
        return reader.cancel(reason).catch(() => {});
      },
    },
    { highWaterMark: 0 },
  );
}

/**
 * A run's AG-UI events as an HTTP answer (`content-type: text/event-stream`, `cache-control: no-cache`,
 * `x-accel-buffering: no`): the body of a fetch handler in any runtime, or behind `toNodeListener`. See
 * `toAGUIEvents` for the events and options.
 *
 * @example
 * ```ts
 * export default { fetch: async (request: Request) => toAGUIResponse(agent.run(await userText(request)), { signal: request.signal }) };
 * ```
 */
export function toAGUIResponse(run: ReadableStream<AgentRunItem> | ReadableStream<RunEvent>, options?: AGUIOptions): Response {
  return new Response(encodeAGUISSE(toAGUIEvents(run, options)), {
    headers: { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', 'x-accel-buffering': 'no' },
  });
}
