/**
 * The read*Body helpers (src/internal/http-body.ts) never throw, whatever the body: they take a reader only from an
 * unlocked Web ReadableStream (one helper, bodyReader) and read anything else — a body locked by another reader, a
 * node-fetch v2 Node Readable, a body whose getter throws — as empty. Before, `response.body.getReader()` threw a
 * raw TypeError, so toolErrorFromResponse turned a mapped 4xx/5xx into a crash of the tool.
 */
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readBody, readBodyUntil, readBoundedBody } from '../../src/internal/http-body.js';
import { toolErrorFromResponse, ToolFailure } from '../../src/tools/index.js';

const EMPTY = { text: '', exceeded: false };

/** Responses whose body cannot be read by us, each with the status it was sent with. */
function unreadable(): Array<[string, Pick<Response, 'body' | 'bodyUsed'> & { status: number; headers: Headers }]> {
  const locked = new Response('{"error":{"message":"bad city"}}', { status: 503 });
  locked.body?.getReader();
  const nodeFetchV2 = { status: 502, statusText: 'Bad Gateway', ok: false, url: 'https://api.example/v1/x', headers: new Headers(), bodyUsed: false, body: Readable.from(['upstream down']) };
  const throwingBody = { status: 500, headers: new Headers(), bodyUsed: false, get body(): never { throw new TypeError('no body for you'); } };
  const lookAlike = { status: 500, headers: new Headers(), bodyUsed: false, body: { locked: false, getReader: () => { throw new TypeError('not a stream'); } } };
  return [
    ['a body locked by a reader', locked],
    ['a node-fetch v2 body (a Node Readable)', nodeFetchV2 as never],
    ['a body getter that throws', throwingBody as never],
    ['a look-alike whose getReader throws', lookAlike as never],
  ];
}

describe('read*Body on a body they cannot read', () => {
  for (const [label, response] of unreadable()) {
    it(`${label}: each helper gives empty text, never throws`, async () => {
      expect(await readBoundedBody(response, 100, { timeoutMs: 1_000 })).toEqual(EMPTY);
      expect(await readBodyUntil(response, new AbortController().signal, 100)).toEqual(EMPTY);
      expect(await readBody(response, 100)).toEqual(EMPTY);
    });
  }

  it('a readable Web body is still read (bounded)', async () => {
    expect(await readBoundedBody(new Response('hello world'), 5)).toMatchObject({ text: 'hello', exceeded: true });
    expect(await readBody(new Response('hi'), 100)).toMatchObject({ text: 'hi', exceeded: false });
  });
});

describe('toolErrorFromResponse on a body it cannot read', () => {
  for (const [label, response] of unreadable()) {
    it(`${label}: the status's typed failure, without the body`, async () => {
      const outcome = await toolErrorFromResponse(response as Response, { service: 'Weather' }).then(
        (failure) => failure,
        (error: Error) => `threw ${error.name}: ${error.message}`,
      );
      expect(ToolFailure.isInstance(outcome)).toBe(true);
      expect((outcome as ToolFailure).type).toBe('APIFailure');
      expect((outcome as ToolFailure).context?.status).toBe(response.status);
    });
  }
});
