// The A2A method names are written out twice in src/a2a/constants.ts: as the client's `[0.3, 1.0]` pairs (all a client
// bundle holds) and as the public A2AMethod / A2AMethodV1 tables (literals, so a bundler can drop them). They must agree.
import { describe, expect, it } from 'vitest';
import { A2AMethod, A2AMethodV1, CLIENT_METHODS } from '../../src/a2a/constants.js';

describe('A2A method names', () => {
  it.each(Object.entries(CLIENT_METHODS))('%s has the same 0.3 and 1.0 names in the client pairs and the public tables', (operation, [v03, v10]) => {
    expect(A2AMethod[operation as keyof typeof A2AMethod]).toBe(v03);
    expect(A2AMethodV1[operation as keyof typeof A2AMethodV1]).toBe(v10);
  });

  it('the public tables name the same operations (the client pairs plus the extended card)', () => {
    expect(Object.keys(A2AMethod).sort()).toEqual([...Object.keys(CLIENT_METHODS), 'GetExtendedCard'].sort());
    expect(Object.keys(A2AMethodV1).sort()).toEqual(Object.keys(A2AMethod).sort());
  });
});
