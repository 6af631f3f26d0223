/**
 * A node attempt's time limit (`addNode(…, { timeoutMs })`): the attempt gets its own signal, linked to the run's;
 * when the time is up that signal aborts with a retryable `NODE_TIMEOUT` `WorkflowError` and the attempt ends with
 * it at once, whether or not the node listens — what the node returns or emits afterwards is discarded.
 */
import { WorkflowError } from '../../errors/workflow-error.js';
import { abortPromise, linkedController, startTimer } from '../../internal/delay.js';
import { truncate } from '../../internal/json.js';
import { NODE_TIMEOUT } from '../core/constants.js';
import type { GraphNode } from '../core/graph-description.js';
import type { ExecutionHooks } from '../core/node-context.js';
import type { SignalSource } from '../core/signal-source.js';

/** @internal One attempt's timer. `dispose()` it when the attempt ends, however it ends: nothing is left running. */
export class NodeTimer implements SignalSource {
  private readonly controller: AbortController;
  private readonly unlink: () => void;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(node: GraphNode, step: number, attempt: number, parent: AbortSignal | undefined) {
    const timeoutMs = node.timeoutMs as number;
    const { controller, dispose } = linkedController(parent);
    this.controller = controller;
    this.unlink = dispose;
    if (controller.signal.aborted) return;
    this.timer = startTimer(() => {
      this.timer = undefined;
      const message = `node ${truncate(node.id, 200)} did not finish within its timeoutMs of ${timeoutMs} ms (attempt ${attempt}, step ${step}); its signal was aborted and a late result will be discarded: pass context.signal to what the node waits on, or raise timeoutMs`;
      controller.abort(new WorkflowError(message, { code: NODE_TIMEOUT, retryable: true, nodeId: node.id, stepNumber: step }));
    }, timeoutMs);
  }

  /** The attempt's signal: aborts with the run's reason, or with the timeout error when the time is up. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** The attempt's signal, as the attempt's context reads it (see `AttemptContext`). */
  nodeSignal(): AbortSignal {
    return this.controller.signal;
  }

  /** The attempt's signal (it always has one). */
  signalNow(): AbortSignal {
    return this.controller.signal;
  }

  /** The node's result, or the signal's reason as soon as it aborts (a node that ignores its signal included). */
  async race(outcome: PromiseLike<unknown>): Promise<unknown> {
    const aborted = abortPromise(this.controller.signal);
    try {
      return await Promise.race([outcome, aborted.promise]);
    } finally {
      aborted.dispose();
    }
  }

  /** The executor's hooks for this attempt: a node that emits or registers fallback state after it ended is ignored. */
  guard(hooks: ExecutionHooks | undefined): ExecutionHooks | undefined {
    if (!hooks) return undefined;
    const signal = this.controller.signal;
    const checkpoint = hooks.checkpoint;
    return {
      ...hooks,
      emit: (event) => {
        if (!signal.aborted) hooks.emit(event);
      },
      addFallbackUpdate: (update) => {
        if (!signal.aborted) hooks.addFallbackUpdate(update);
      },
      // A question asked after the attempt ended is not the run's: it would drop the attempt's failure and leave the
      // run waiting on a question nobody can answer. `interrupt()` throws in the node instead, which nothing reads.
      checkpoint: checkpoint && {
        ...checkpoint,
        questions: {
          ask: (context, value, options) => {
            if (signal.aborted) throw signal.reason;
            return checkpoint.questions.ask(context, value, options);
          },
        },
      },
    };
  }

  /** Stops the timer and detaches from the run's signal. */
  dispose(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    this.unlink();
  }
}
