import { hasMarker } from '../internal/brand.js';
import type { State } from './state-schema.js';

const marker = 'faultline.graph.Command';
const symbol = Symbol.for(marker);

/**
 * A node result that updates state and routes explicitly: `goto` names the next node(s) (or `END`), replacing the
 * node's static and conditional edges for this run of the node.
 *
 * @example
 * ```ts
 * graph.addNode('check', (state) => new Command({ update: { checked: true }, goto: state.ok ? 'ship' : 'fallback_lookup' }));
 * ```
 */
export class Command {
  private readonly [symbol] = true;
  /** The state update, reduced like any node result. */
  readonly update?: State;
  /** Where to go next. */
  readonly goto?: string | readonly string[];

  constructor(options: { update?: State | undefined; goto?: string | readonly string[] | undefined } = {}) {
    if (options.update !== undefined) this.update = options.update;
    if (options.goto !== undefined) this.goto = options.goto;
  }

  /** True for commands from any copy of the package. */
  static isInstance(value: unknown): value is Command {
    return hasMarker(value, marker);
  }

  /** The targets as a list. */
  targets(): string[] {
    if (this.goto === undefined) return [];
    return typeof this.goto === 'string' ? [this.goto] : [...this.goto];
  }
}
