import { hasMarker } from '../internal/brand.js';
import { optionsOf } from '../internal/json.js';
import { AgentError, type AgentErrorOptions } from './agent-error.js';

const symbol = Symbol.for('faultline.error.WorkflowError');

/** Options of {@link WorkflowError}. */
export interface WorkflowErrorOptions extends AgentErrorOptions {
  /** The node where it happened. */
  nodeId?: string | undefined;
  /** The superstep where it happened. */
  stepNumber?: number | undefined;
  /** Every problem found, when several were collected (e.g. by `compile()`). */
  problems?: readonly string[] | undefined;
  /** The state reduced before a run failed (left out of `toJSON()`: it is business data). */
  fallbackState?: Record<string, unknown> | undefined;
  /** Whether running the node again may help (a node's time limit firing). @default false */
  retryable?: boolean | undefined;
  /** How long to wait before trying again may help, in ms (a `RESUME_IN_PROGRESS` resume: until the holder's lease ends). */
  retryAfterMs?: number | undefined;
}

/**
 * A workflow (graph) could not be built or could not go on: an invalid graph at `compile()`, a runaway loop past the
 * step limit, a node that ran out of time (`code` `NODE_TIMEOUT`, `retryable`), a node failure that no policy
 * recovered — then `code` is the failing node's own code, when it has one.
 *
 * @example
 * ```ts
 * try { graph.compile(); } catch (error) {
 *   if (WorkflowError.isInstance(error)) error.problems.forEach((problem) => console.log(problem));
 * }
 * ```
 */
export class WorkflowError extends AgentError {
  declare private readonly [symbol]: true;
  override readonly name: string = 'WorkflowError';
  override readonly kind = 'workflow' as const;
  // The fields the constructor assigns are `declare`d: no class-field definition is emitted for them (smaller
  // bundles), and every instance still gets each as an own property, in this order.
  declare readonly nodeId?: string;
  declare readonly stepNumber?: number;
  declare readonly problems: readonly string[];
  declare readonly fallbackState?: Record<string, unknown>;
  /** Whether trying again may help (node retry policies retry such errors by default). */
  declare readonly retryable: boolean;
  /** When trying again may help, in ms from when it was made (a resume refused while another run holds the run). */
  declare readonly retryAfterMs?: number;

  constructor(message: string, options: WorkflowErrorOptions = {}) {
    super(message, options);
    this[symbol] = true;
    const settings = optionsOf<WorkflowErrorOptions>(options);
    this.nodeId = settings.nodeId;
    this.stepNumber = settings.stepNumber;
    this.problems = Object.freeze(Array.isArray(settings.problems) ? [...settings.problems] : []);
    this.fallbackState = settings.fallbackState;
    this.retryable = settings.retryable === true;
    const retryAfterMs = settings.retryAfterMs;
    this.retryAfterMs = typeof retryAfterMs === 'number' && retryAfterMs >= 0 ? retryAfterMs : undefined;
  }

  /** @example `WorkflowError.isInstance(error)` */
  static override isInstance(value: unknown): value is WorkflowError {
    return hasMarker(value, symbol);
  }

  protected override details(): Record<string, unknown> {
    return { nodeId: this.nodeId, stepNumber: this.stepNumber, problems: this.problems.length > 0 ? [...this.problems] : undefined, retryable: this.retryable || undefined, retryAfterMs: this.retryAfterMs };
  }
}
