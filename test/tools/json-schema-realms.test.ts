// A plain schema object made in another realm — an iframe, a worker, a `vm` context — has that realm's
// Object.prototype. jsonSchema() and a tool built on it accept it as the same plain data, and every reader that asks
// "is this plain data?" (one function, isPlainObject) answers the same for it; class instances of any realm stay out.
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { isPlainObject } from '../../src/internal/json.js';
import { defineTool, jsonSchema, runTool } from '../../src/tools/index.js';

const foreign = <T>(source: string): T => runInNewContext(`(${source})`) as T;

describe('a schema from another realm', () => {
  it('is a JSON Schema to jsonSchema(), which validates with it and gives it back', async () => {
    const schema = foreign<Record<string, unknown>>('{ type: "object", properties: { city: { type: "string" } }, required: ["city"] }');
    expect(Object.getPrototypeOf(schema)).not.toBe(Object.prototype);
    const parameters = jsonSchema<{ city: string }>(schema as never);
    expect(parameters['~standard'].validate({ city: 'Paris' })).toEqual({ value: { city: 'Paris' } });
    expect(parameters['~standard'].validate({ city: 7 })).toHaveProperty('issues');
    expect(parameters.jsonSchema).toEqual({ type: 'object', properties: { city: { type: 'string' } }, required: ['city'] });
    const tool = defineTool({ name: 'weather', description: 'Weather.', parameters, execute: ({ city }) => ({ city }) });
    expect((await runTool(tool, '{"city":"Paris"}')).result).toMatchObject({ ok: true, data: { city: 'Paris' } });
  });

  it('is plain data to isPlainObject, as a null-prototype object of that realm is; its arrays, dates and class instances are not', () => {
    expect(isPlainObject(foreign('{ a: 1 }'))).toBe(true);
    expect(isPlainObject(foreign('Object.create(null)'))).toBe(true);
    expect(isPlainObject(foreign('[1]'))).toBe(false);
    expect(isPlainObject(foreign('new Date(0)'))).toBe(false);
    expect(isPlainObject(foreign('new (class Point { constructor() { this.x = 1; } })()'))).toBe(false);
    expect(isPlainObject(foreign('new Map()'))).toBe(false);
  });

  it('a look-alike root prototype that is not a realm’s Object.prototype is not plain data', () => {
    const root = Object.create(null) as Record<string, unknown>;
    root.constructor = function Object() {};
    expect(isPlainObject(Object.create(root))).toBe(false);
  });
});
