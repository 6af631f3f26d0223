/**
 * The shared ground of the bounded JSON Schema validator (`json-schema-validate.ts` walks, `json-schema-keywords.ts`
 * checks): its limits ({@link JSON_SCHEMA_LIMITS}), the state of one validation (the step budget it charges, the sink
 * its issues go to, capped), the guards that keep it from throwing (a value's getters are read inside `try`), and the
 * bounded compilation of `pattern`s with its ReDoS guard (lent to a validation in its context, so a validator made
 * without it bundles none). It imports nothing.
 */

/**
 * The bounds of the validator, each reported as an issue when a value or schema goes past it.
 * @example `JSON_SCHEMA_LIMITS.maxIssues // 100`
 */
export const JSON_SCHEMA_LIMITS = /* @__PURE__ */ Object.freeze({
  /** Issues reported at most; validation stops at the 100th. */
  maxIssues: 100,
  /** Subschemas applied inside one another on one path (bounds the value depth too). */
  maxDepth: 256,
  /** Subschemas applied inside one another without going into the value (`$ref`, `allOf`, `anyOf`, `oneOf`, `not`). */
  maxSchemaLevels: 64,
  /** Units of work per validation (a subschema, a property, an item, an enum entry, 64 characters of a string; an issue is 4). */
  maxSteps: 1_000_000,
  /** Longer `pattern`s (and `patternProperties` names) are ignored. */
  maxPatternLength: 256,
  /** Longer strings (and property names) are not tested against a `pattern`. */
  maxPatternInputLength: 10_000,
});

export type Key = string | number;
interface PathNode {
  readonly parent: PathNode | undefined;
  readonly key: Key;
}
export type Path = PathNode | undefined;
export interface Issue {
  message: string;
  at: Path;
  /** For type issues: the types expected, so `anyOf` alternatives merge into `expected string or null`. */
  types?: readonly string[];
}
export interface Sink {
  readonly issues: Issue[];
  readonly cap: number;
  readonly ctx: Context;
}
interface Fatal {
  message: string;
  path: Path;
}
export interface Context {
  readonly root: unknown;
  readonly refs: Map<string, unknown>;
  readonly patterns: Map<string, RegExp | null>;
  /** The known keywords of each schema object (a null-prototype record), or null when it has none. */
  readonly keywords: WeakMap<object, Schema | null>;
  steps: number;
  fatal?: Fatal;
  /** The walker (`check` in `json-schema-validate.ts`), lent to the keyword checks that go into a value. */
  readonly check: Check;
  /** The `pattern` compiler ({@link regexFor}); without one, every pattern is unusable (ignored). */
  readonly regexFor: PatternCompiler | undefined;
}
export type Schema = Record<string, unknown>;
export type Check = (ctx: Context, schema: unknown, value: unknown, path: Path, depth: number, levels: number, sink: Sink) => void;
export type PatternCompiler = (ctx: Context, pattern: string) => RegExp | null;

const LIMITS = JSON_SCHEMA_LIMITS;
export const UNREADABLE = Symbol('unreadable');

export function charge(ctx: Context, steps: number): void {
  ctx.steps += steps;
  if (ctx.steps > LIMITS.maxSteps) fail(ctx, `could not be checked: it takes more than ${LIMITS.maxSteps} validation steps (the schema or the value is too large)`, undefined);
}

export function fail(ctx: Context, message: string, path: Path): never {
  ctx.fatal ??= { message, path };
  throw ctx.fatal;
}

export function report(sink: Sink, message: string, path: Path, types?: readonly string[]): void {
  charge(sink.ctx, 4); // an issue costs about four plain steps (a message, an object)
  sink.issues.push(types ? { message, at: path, types } : { message, at: path });
  if (sink.issues.length >= sink.cap) throw sink;
}

export function kindOf(value: unknown): string {
  if (value === null) return 'null';
  return typeof value !== 'object' ? typeof value : attempt(() => (Array.isArray(value) ? 'array' : 'object'), 'unreadable'); // a revoked Proxy
}

export function attempt<T, F>(action: () => T, fallback: F): T | F {
  try {
    return action();
  } catch {
    return fallback;
  }
}

export function read(container: object, key: Key): unknown {
  try {
    return (container as Record<Key, unknown>)[key];
  } catch {
    return UNREADABLE;
  }
}

export function isRecord(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The compiled `pattern`, or null when it is unusable: longer than 256 characters, not a valid `u`-mode RegExp, or
 * shaped for catastrophic backtracking. A server-supplied pattern is a ReDoS risk (JavaScript cannot interrupt a
 * RegExp), which is why patterns and the strings they test are bounded and nested quantifiers are refused.
 */
export function regexFor(ctx: Context, pattern: string): RegExp | null {
  let regex = ctx.patterns.get(pattern);
  if (regex === undefined) {
    regex = null;
    // a pattern that does not compile is ignored
    if (pattern.length <= LIMITS.maxPatternLength && !nestedQuantifier(pattern)) regex = attempt(() => new RegExp(pattern, 'u'), null);
    ctx.patterns.set(pattern, regex);
  }
  return regex;
}

/** True when a repeated group (`*`, `+`, `{…}`) holds a quantifier or an alternation: `(a+)+`, `(a|aa)*`, `(\d+){9}`. */
function nestedQuantifier(pattern: string): boolean {
  const groups: boolean[] = [false];
  for (let index = 0; index < pattern.length; index++) {
    const char = pattern[index];
    if (char === '\\') index++;
    else if (char === '[') {
      for (index++; index < pattern.length && pattern[index] !== ']'; index++) if (pattern[index] === '\\') index++;
    } else if (char === '(') {
      groups.push(false);
      if (pattern[index + 1] === '?') index = pattern[index + 2] === '<' && !'=!'.includes(pattern[index + 3] ?? '') ? Math.max(index, pattern.indexOf('>', index)) : index + 2;
    } else if (char === ')') {
      const inner = groups.length > 1 ? (groups.pop() as boolean) : false;
      const next = pattern[index + 1];
      if (inner && (next === '*' || next === '+' || next === '{')) return true;
      if (inner || (next !== undefined && '*+?{'.includes(next))) groups[groups.length - 1] = true;
    } else if (char !== undefined && '*+?{|'.includes(char)) groups[groups.length - 1] = true;
  }
  return false;
}
