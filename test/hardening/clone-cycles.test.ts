/**
 * cloneJSONLike (src/internal/json.ts) cuts cycles by the path, not by depth: an object that refers to itself twice
 * (`c.parent = c; c.self = c`, a parent link, an ORM entity) used to be copied once per route — 2^100 times, a
 * synchronous hang — through every path that copies caller data: a ToolFailure's context, ToolResult.error,
 * toErrorInfo, coerceFields in runTool's argument phase (and the developer log's copy of those arguments), and
 * defineTool's copy of a jsonSchema — and the redaction walks (redactValue, removeSecrets) likewise. Each cycle is now one CYCLE marker, a cyclic jsonSchema is a ConfigError naming
 * the cycle, a huge shared DAG is bounded by CLONE_NODE_BUDGET, and non-cyclic data is copied exactly as before.
 *
 * The cyclic values here answer through counting getters that stop the recursion after STOP reads, so a regression
 * fails (too many reads) instead of hanging the suite: plain `c.a = c; c.b = c` would never return.
 */
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { ConfigError } from '../../src/errors/index.js';
import { CLONE_NODE_BUDGET, cloneJSONLike, CYCLE, UNREADABLE } from '../../src/internal/json.js';
import { redactValue, removeSecrets } from '../../src/internal/redact.js';
import { DataNotFoundError, defineTool, runTool, ToolResult, type ToolLogRecord } from '../../src/tools/index.js';

const STOP = 200_000;

/** `value` with `parent` and `self` both answering `value` itself (until STOP reads), and a count of the reads. */
function fanOutCycle(base: Record<string, unknown> = {}): { value: Record<string, unknown>; reads: () => number } {
  let reads = 0;
  const value = base;
  for (const key of ['parent', 'self']) Object.defineProperty(value, key, { enumerable: true, get: () => (++reads > STOP ? 0 : value) });
  return { value, reads: () => reads };
}

describe('cloneJSONLike', () => {
  it('marks each route back into the path as CYCLE, reading each key once', () => {
    const cycle = fanOutCycle({ orderId: 42 });
    const copy = cloneJSONLike(cycle.value);
    expect(cycle.reads()).toBe(2);
    expect(copy).toEqual({ orderId: 42, parent: CYCLE, self: CYCLE });
  });

  it('marks cycles through arrays and deeper objects, and keeps the acyclic part', () => {
    const list: unknown[] = [1];
    list.push(list, { back: list, n: 2 });
    expect(cloneJSONLike(list)).toEqual([1, CYCLE, { back: CYCLE, n: 2 }]);
    const root: Record<string, unknown> = { name: 'root' };
    root.child = { name: 'child', up: root, items: [root] };
    expect(cloneJSONLike(root)).toEqual({ name: 'root', child: { name: 'child', up: CYCLE, items: [CYCLE] } });
  });

  it('copies non-cyclic data as before: a shared part twice (fresh copies, not a cycle), prototype keys as data, unreadable getters marked', () => {
    const shared = { x: 1 };
    const source = JSON.parse('{"__proto__": {"polluted": true}, "list": [1, [2, 3]]}') as Record<string, unknown>;
    source.a = shared;
    source.b = shared;
    Object.defineProperty(source, 'broken', { enumerable: true, get: () => { throw new Error('no'); } });
    const copy = cloneJSONLike(source);
    expect(copy.a).toEqual({ x: 1 });
    expect(copy.b).toEqual({ x: 1 });
    expect(copy.a).not.toBe(shared);
    expect(copy.a).not.toBe(copy.b);
    expect(copy.list).toEqual([1, [2, 3]]);
    expect(Object.getOwnPropertyDescriptor(copy, '__proto__')?.value).toEqual({ polluted: true });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(copy.broken).toBe(UNREADABLE);
    const instance = new Date(0);
    expect(cloneJSONLike({ when: instance }).when).toBe(instance);
  });

  it('bounds a huge shared DAG (no cycle) by CLONE_NODE_BUDGET: past it, parts are shared, not copied', () => {
    const originals = new Set<object>();
    let node: Record<string, unknown> = { leaf: true };
    originals.add(node);
    for (let level = 0; level < 60; level++) originals.add((node = { left: node, right: node })); // 2^60 routes, 61 objects
    const started = performance.now();
    const copy = cloneJSONLike(node);
    expect(performance.now() - started).toBeLessThan(10_000);
    // Walk the copy, not into the originals it shares: exactly the budget's worth of objects are fresh copies.
    let copies = 0;
    const stack: unknown[] = [copy];
    while (stack.length > 0) {
      const value = stack.pop();
      if (typeof value !== 'object' || value === null || originals.has(value)) continue;
      copies++;
      stack.push(...Object.values(value));
    }
    expect(copies).toBe(CLONE_NODE_BUDGET);
    expect(copy).not.toBe(node);
    expect((copy as { left: unknown }).left).not.toBe(node.left);
  });
});

describe('every path that copies caller data ends on a cycle with fan-out', () => {
  it('a ToolFailure context (constructor and toErrorInfo)', () => {
    const cycle = fanOutCycle({ orderId: 42 });
    const failure = new DataNotFoundError('No order 42.', { context: cycle.value });
    expect(failure.toErrorInfo().context).toEqual({ orderId: 42, parent: CYCLE, self: CYCLE });
    expect(cycle.reads()).toBeLessThan(1_000);
  });

  it('ToolResult.error({ context })', () => {
    const cycle = fanOutCycle();
    const result = ToolResult.error({ type: 'X', message: 'm', context: cycle.value });
    expect(result.error?.context).toEqual({ parent: CYCLE, self: CYCLE });
    expect(cycle.reads()).toBeLessThan(1_000);
  });

  it('runTool with parsed arguments that fail the schema (coerceFields copies them; the log copies them too)', async () => {
    const echo = defineTool({ name: 'echo', description: 'Echo.', parameters: z.object({ message: z.string() }), execute: ({ message }) => message });
    const cycle = fanOutCycle({ message: 5 });
    const records: ToolLogRecord[] = [];
    const run = await runTool(echo, cycle.value, { logger: (record) => records.push(record) });
    expect(run.outcome).toBe('invalid_arguments');
    expect(cycle.reads()).toBeLessThan(1_000);
    expect(records[0]?.arguments).toEqual({ message: 5, parent: CYCLE, self: CYCLE });
  });

  it('defineTool with a cyclic jsonSchema: a ConfigError naming the cycle', () => {
    const cycle = fanOutCycle({ type: 'object' });
    let thrown: unknown;
    try {
      defineTool({ name: 't', description: 'd', parameters: z.object({}), jsonSchema: cycle.value, execute: () => 1 });
    } catch (error) {
      thrown = error;
    }
    expect(cycle.reads()).toBeLessThan(1_000);
    expect(ConfigError.isInstance(thrown)).toBe(true);
    expect((thrown as Error).message).toContain('contains a cycle');
  });
});

describe('the redaction walks end on a cycle with fan-out too (redactValue, removeSecrets)', () => {
  const SECRET = 'sk-live-PLANTED-0123456789abcdef';

  it('redactValue marks each cycle, reading each key once, and still cleans the rest', () => {
    const cycle = fanOutCycle({ note: `key ${SECRET}` });
    expect(redactValue(cycle.value, [SECRET])).toEqual({ note: 'key [REDACTED]', parent: CYCLE, self: CYCLE });
    expect(cycle.reads()).toBe(2);
  });

  it('removeSecrets marks each cycle, reading each key once, and still cleans the rest', () => {
    const cycle = fanOutCycle({ note: `key ${SECRET}` });
    expect(removeSecrets(cycle.value, [SECRET])).toEqual({ note: 'key [REDACTED]', parent: CYCLE, self: CYCLE });
    expect(cycle.reads()).toBe(2);
  });

  it('a shared part met twice is no cycle: both copies cleaned', () => {
    const shared = { note: SECRET };
    expect(redactValue({ a: shared, b: shared }, [SECRET])).toEqual({ a: { note: '[REDACTED]' }, b: { note: '[REDACTED]' } });
    expect(removeSecrets({ a: shared, b: shared }, [SECRET])).toEqual({ a: { note: '[REDACTED]' }, b: { note: '[REDACTED]' } });
  });

  it('a runTool whose arguments fan out into a cycle with three self-references ends, its log cleaned', async () => {
    let reads = 0;
    const value: Record<string, unknown> = { message: 5 };
    for (const key of ['a', 'b', 'c']) Object.defineProperty(value, key, { enumerable: true, get: () => (++reads > STOP ? 0 : value) });
    const echo = defineTool({ name: 'echo', description: 'Echo.', parameters: z.object({ message: z.string() }), execute: ({ message }) => message });
    const run = await runTool(echo, value, { logger: false, secrets: [SECRET] });
    expect(run.outcome).toBe('invalid_arguments');
    expect(reads).toBeLessThan(1_000);
  });
});
