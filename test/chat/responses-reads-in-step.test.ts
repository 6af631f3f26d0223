// The Responses decoder checks the answer-carrying fields of the events it reads (`READS`, responses-output.ts)
// before it reads them; its dispatch switch is a second list of the same events. A case added to the switch without
// a decision here would read an event whose wrong-type fields pass unchecked (a quieter answer): this test makes
// the decision explicit.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { READS } from '../../src/chat/openai-responses/responses-output.js';

/** Events the decoder handles that carry no part of the answer: identity only, or a failure (typed either way). */
const NO_ANSWER = ['response.created', 'response.in_progress', 'response.failed', 'error'];

describe('the Responses decoder and its field checks', () => {
  it('check every event the decoder reads the answer from, and only those', () => {
    const source = readFileSync(join(import.meta.dirname, '../../src/chat/openai-responses/responses-stream-decoder.ts'), 'utf8');
    const dispatch = source.slice(source.indexOf('private dispatch('));
    const body = dispatch.slice(0, dispatch.indexOf('\n  }\n'));
    const cases = [...body.matchAll(/case '([^']+)':/g)].map((match) => match[1]);
    expect(cases.length).toBeGreaterThan(10);
    expect([...cases].sort()).toEqual([...READS, ...NO_ANSWER].sort());
  });
});
