/**
 * @internal A failed run's `WorkflowError`, derived in one place from what ended it: a step's failed nodes (the first
 * one's message, `code` and `retryable` — a node time limit that fired says a retry may help), a run-level error
 * (its fields kept), a checkpoint that could not be saved either. Every identifier it quotes is bounded.
 */
import { toResponseError } from '../../errors/response-error.js';
import { WorkflowError } from '../../errors/workflow-error.js';
import { messageOf, read } from '../../internal/error-chain.js';
import { truncate } from '../../internal/json.js';
import { CHECKPOINT_FAILED, CHECKPOINT_NOT_FOUND, RUN_TAKEN_OVER } from '../core/constants.js';
import { nameIds, quote } from '../core/quote.js';
import type { State } from '../core/state-schema.js';

/** A node that failed, as the run's error names it (a `FailedNode` of `superstep.ts`). */
interface FailedNode {
  node: { id: string };
  error: unknown;
  attempts: number;
}

/** @internal The error of a run that ended on `failures` (a step's failed nodes, in trigger order) or on `runError`. */
export function runFailure(step: number, failures: readonly FailedNode[], runError: WorkflowError | undefined, fallbackState: State, checkpointError: unknown): WorkflowError {
  let error: WorkflowError;
  if (!runError) {
    const first = failures[0] as FailedNode;
    const attempts = first.attempts > 1 ? ` after ${first.attempts} attempts` : '';
    error = new WorkflowError(`node ${truncate(first.node.id, 200)} failed at step ${step}${attempts}: ${messageOf(first.error)}${alsoFailed(failures)}`, {
      nodeId: first.node.id,
      stepNumber: step,
      code: toResponseError(first.error)?.code,
      cause: first.error,
      fallbackState,
      retryable: read(first.error, 'retryable') === true,
    });
  } else {
    const { nodeId, stepNumber, code, cause, problems, retryable, retryAfterMs } = runError;
    error = new WorkflowError(runError.message, { nodeId, stepNumber, code, cause, problems, fallbackState, retryable, retryAfterMs });
  }
  if (checkpointError === undefined) return error;
  const code = WorkflowError.isInstance(checkpointError) && checkpointError.code === RUN_TAKEN_OVER ? RUN_TAKEN_OVER : CHECKPOINT_FAILED;
  return new WorkflowError(`${error.message}; and ${messageOf(checkpointError)}`, {
    nodeId: error.nodeId,
    stepNumber: step,
    code,
    cause: checkpointError,
    fallbackState,
    retryable: code !== RUN_TAKEN_OVER && error.retryable,
  });
}

/** The other nodes that failed in a step: the first ten named (ids bounded), the rest counted. */
function alsoFailed(failures: readonly FailedNode[]): string {
  return failures.length < 2 ? '' : ` (${nameIds(failures.slice(1).map((failure) => failure.node.id))} failed too)`;
}

/** @internal The error of a resume of a run id without a checkpoint. */
export function checkpointNotFound(runId: string): WorkflowError {
  const message = `there is no checkpoint of run ${quote(runId)} to resume (never saved, deleted, or forgotten by a bounded store): run the graph anew`;
  return new WorkflowError(message, { code: CHECKPOINT_NOT_FOUND });
}
