/** The agent of the Node-level Durable Object tests (the workerd fixture's, in TypeScript). */
import { createErrorEvent, createEvent } from '../../src/runner/event.js';
import type { RunnableAgent } from '../../src/runner/runnable-agent.js';

export const SECRET = 'sk-live-planted-node-0123456789abcdef';

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (clearTimeout(timer), reject(signal.reason)), { once: true });
  });

/**
 * "hang" streams one chunk then waits; "wait <ms>" answers after <ms>; "chunks <n>" streams n chunks then the whole
 * text; "turn n" answers after a random wait; "history" lists its session; "fail" fails with the secret.
 */
export const testAgent: RunnableAgent = {
  name: 'node-agent',
  async *runEvents(invocation) {
    const text = invocation.message?.content ?? '';
    const origin = { invocationId: invocation.invocationId, author: 'node-agent' };
    const answer = (content: string) => createEvent(origin, { response: { object: 'chat.completion', done: true, choices: [{ index: 0, message: { role: 'assistant', content } }] } });
    if (text.startsWith('hang')) {
      yield createEvent(origin, { response: { object: 'chat.completion.chunk', partial: true, done: false, choices: [{ index: 0, delta: { content: 'first words ' } }] } });
      await sleep(3_600_000, invocation.signal);
    } else if (text.startsWith('wait')) {
      await sleep(Number(text.split(' ')[1] ?? 50), invocation.signal);
      yield answer(`waited ${text}`);
    } else if (text.startsWith('chunks')) {
      let streamed = '';
      for (let index = 0; index < Number(text.split(' ')[1] ?? 10); index++) {
        streamed += `c${index} `;
        yield createEvent(origin, { response: { object: 'chat.completion.chunk', partial: true, done: false, choices: [{ index: 0, delta: { content: `c${index} ` } }] } });
      }
      yield answer(streamed);
    } else if (text.startsWith('turn')) {
      await sleep(Math.floor(Math.random() * 5));
      yield answer(`ok ${text}`);
    } else if (text.startsWith('history')) {
      yield answer(JSON.stringify(invocation.history.map((message) => `${message.role}:${message.content}`)));
    } else if (text.startsWith('fail')) {
      yield createErrorEvent(origin, { type: 'flow_error', code: 'LOOKUP_DOWN', message: `lookup failed (key ${SECRET})` });
    } else {
      yield answer(`echo ${text}`);
    }
  },
};
