import { ConfigError } from '../../errors/config-error.js';
import { hasMarker } from '../../internal/brand.js';
import { isPlainObject, refusedValue } from '../../internal/json.js';
import { unknownOptionProblems } from '../../internal/option-names.js';
import type { State } from './state-schema.js';

const symbol = Symbol.for('faultline.graph.Command');

/**
 * A node result that updates state and routes explicitly: `goto` names the next node(s) (or `END`), replacing the
 * node's static and conditional edges for this run of the node. In a typed graph, `U` is the update type and `G` the
 * node ids a node declared with `ends` (`addNode(id, fn, { ends: ['ship', 'ask'] })`), so a typo is a type error. `G`
 * is inferred as written (`goto: 'ship'` is the literal `'ship'`, not `string`), so a literal target type-checks.
 *
 * @example
 * ```ts
 * graph.addNode('check', (state) => new Command({ update: { checked: true }, goto: state.ok ? 'ship' : 'fallback_lookup' }));
 * ```
 */
export class Command<U = State, const G extends string = string> {
  declare private readonly [symbol]: true;
  /** The state update, reduced like any node result. */
  readonly update?: U;
  /** Where to go next. */
  readonly goto?: G | readonly G[];

  constructor(options: { update?: U | undefined; goto?: G | readonly G[] | undefined } = {}) {
    const goto: unknown = isPlainObject(options) ? options.goto : undefined;
    const problems = isPlainObject(options) ? unknownOptionProblems(options, ['update', 'goto']) : [`options must be an object (got ${refusedValue(options)})`];
    if (goto !== undefined && typeof goto !== 'string' && !(Array.isArray(goto) && goto.every((target) => typeof target === 'string'))) {
      problems.push(`goto must be a node id or a list of node ids (got ${refusedValue(goto)})`);
    }
    // thrown in the node that made it: the node fails with this, not later with a bare TypeError when routing
    if (problems.length > 0) throw ConfigError.fromProblems('Command', problems);
    this[symbol] = true;
    if (options.update !== undefined) this.update = options.update;
    if (options.goto !== undefined) this.goto = options.goto;
  }

  /** True for commands from any copy of the package. */
  static isInstance(value: unknown): value is Command<unknown> {
    return hasMarker(value, symbol);
  }


  /** The targets as a list. */
  targets(): G[] {
    if (this.goto === undefined) return [];
    return typeof this.goto === 'string' ? [this.goto as G] : [...(this.goto as readonly G[])];
  }
}
