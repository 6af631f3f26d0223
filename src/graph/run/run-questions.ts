/**
 * @internal A checkpointed run's questions (`interrupt()`): the answers the nodes of a resumed step get, by node and
 * call — the n-th call of a node's attempt gets its n-th answer — and the question each node asks at its first call
 * without one (one per node and step: that call stops the node). The executor starts each step here, replaces the
 * outcomes of the nodes that asked (whatever they did after), and saves what is pending with the step.
 */
import { ConfigError } from '../../errors/config-error.js';
import { InterruptExpiredError } from '../../errors/interrupt-expired-error.js';
import { WorkflowError } from '../../errors/workflow-error.js';
import type { Interrupt } from '../../interrupts/interrupt.js';
import { isoTimestamp } from '../../internal/clock.js';
import { createId } from '../../internal/ids.js';
import { isPlainObject, preview, refusedValue, truncate } from '../../internal/json.js';
import { encodeJSON } from '../../wire/safe-json.js';
import type { CheckpointAnswer, CheckpointAnswers } from '../core/checkpointer.js';
import type { NodeCallbackContext, QuestionDesk } from '../core/node-context.js';
import { interruptedOutcome, NodeInterrupt } from './node-interrupt.js';

/** The longest JSON text of a question's value or an answer's (characters). */
export const MAX_VALUE_LENGTH = 1_048_576;
/** Questions one node may ask in one step (its answers are kept in the checkpoint until the step is done). */
const MAX_QUESTIONS = 1_000;
/** The longest `expiresInMs`: a year. */
const MAX_EXPIRY_MS = 31_536_000_000;

/** @internal The answers of a resumed step's nodes, by node id. */
export type StepAnswers = ReadonlyMap<string, readonly CheckpointAnswer[]>;

/** @internal See the file's summary. */
export class RunQuestions implements QuestionDesk {
  private answers: StepAnswers | undefined;
  /** `interrupt()` calls made so far in this step, by attempt and node id. */
  private calls: Map<string, number> | undefined;
  /** The question of each node that asked in this step (none asked: `undefined`). */
  asked: Map<string, Interrupt> | undefined;

  constructor(private readonly runId: string) {}

  /** A new step: `answers` for a resumed step's nodes, none for any other. */
  beginStep(answers: StepAnswers | undefined): void {
    this.answers = answers;
    this.calls = undefined;
    this.asked = undefined;
  }

  ask(context: NodeCallbackContext & { attempt?: number }, value: unknown, options: unknown): unknown {
    const nodeId = context.nodeId;
    const key = `${context.attempt ?? 0}:${nodeId}`;
    const calls = (this.calls ??= new Map());
    const call = calls.get(key) ?? 0;
    calls.set(key, call + 1);
    const answer = this.answers?.get(nodeId)?.[call];
    if (answer !== undefined) {
      if ('value' in answer) return JSON.parse(answer.value);
      throw new InterruptExpiredError(`The question ${answer.id} of node ${preview(nodeId, 200)} expired at ${answer.expiredAt} before anyone answered it; catch this error to take the path for no answer.`, {
        runId: this.runId,
        ids: [answer.id],
        expiredAt: answer.expiredAt,
      });
    }
    if (!this.asked?.has(nodeId)) {
      if (call >= MAX_QUESTIONS) throw new WorkflowError(`the node asked more than ${MAX_QUESTIONS} questions in one step (interrupt() calls)`, { nodeId });
      (this.asked ??= new Map()).set(nodeId, question(this.runId, nodeId, value, options));
    }
    throw new NodeInterrupt(nodeId);
  }

  /** The step's outcomes, those of the nodes that asked replaced by an interrupted one (their result is discarded). */
  mark<T extends { node: { id: string }; attempts: number }>(outcomes: readonly T[]): T[] {
    const asked = this.asked as Map<string, Interrupt>;
    // An interrupted outcome is a node outcome of the same node: T is the executor's outcome union.
    return outcomes.map((outcome) => (asked.has(outcome.node.id) ? (interruptedOutcome(outcome.node, outcome.attempts) as unknown as T) : outcome));
  }

  /** What the step waits on, in the order of `pending`. */
  pending(pending: readonly string[]): Interrupt[] {
    const asked = this.asked;
    return asked === undefined ? [] : pending.flatMap((id) => (asked.has(id) ? [asked.get(id) as Interrupt] : []));
  }

  /** The answers a checkpoint of this step keeps: those of its nodes that did not finish (`done`: by index). */
  kept(pending: readonly string[], done: (index: number) => boolean): CheckpointAnswers[] | undefined {
    const answers = this.answers;
    if (answers === undefined) return undefined;
    const kept = pending.flatMap((nodeId, index) => {
      const given = answers.get(nodeId);
      return given === undefined || given.length === 0 || done(index) ? [] : [{ index, nodeId, answers: [...given] }];
    });
    return kept.length === 0 ? undefined : kept;
  }
}

/** A node's question, checked: its options (a `ConfigError`), its value as JSON (a `SerializeError`), bounded. */
function question(runId: string, nodeId: string, value: unknown, options: unknown): Interrupt {
  const subject = `interrupt() options of node ${preview(nodeId, 200)}`;
  if (options !== undefined && !isPlainObject(options)) throw ConfigError.fromProblems(subject, ['options must be an object']);
  const { responseSchema, expiresInMs } = (options ?? {}) as Record<string, unknown>;
  const problems: string[] = [];
  if (expiresInMs !== undefined && !(Number.isInteger(expiresInMs) && (expiresInMs as number) >= 1 && (expiresInMs as number) <= MAX_EXPIRY_MS)) {
    problems.push(`expiresInMs must be a whole number of ms from 1 to ${MAX_EXPIRY_MS} (got ${refusedValue(expiresInMs)})`);
  }
  const schema = responseSchema === undefined ? undefined : schemaOf(responseSchema, problems);
  if (problems.length > 0) throw ConfigError.fromProblems(subject, problems);
  const now = Date.now();
  const asked: Interrupt = { id: createId('interrupt'), runId, kind: 'input', nodeId, createdAt: isoTimestamp(now) };
  if (value !== undefined) {
    const text = encodeJSON(value, `interrupt() value of node ${preview(nodeId, 200)}`, 'value');
    if (text.length > MAX_VALUE_LENGTH) throw new WorkflowError(`the node's interrupt() value is ${text.length} characters of JSON; at most ${MAX_VALUE_LENGTH} are kept`, { nodeId });
    asked.value = JSON.parse(text);
  }
  if (expiresInMs !== undefined) asked.expiresAt = isoTimestamp(now + (expiresInMs as number));
  if (schema !== undefined) asked.responseSchema = schema;
  return asked;
}

/** A `responseSchema` as the JSON Schema object kept in the checkpoint (a copy), or a problem. */
function schemaOf(given: unknown, problems: string[]): Record<string, unknown> | undefined {
  let schema: unknown = given;
  try {
    const standard = (given as { '~standard'?: { jsonSchema?: { input?: unknown } } })['~standard'];
    const own = (given as { jsonSchema?: unknown }).jsonSchema;
    if (isPlainObject(own) && standard !== undefined) schema = own; // a jsonSchema() result
    else if (typeof standard?.jsonSchema?.input === 'function') schema = (standard.jsonSchema.input as (options: object) => unknown)({ target: 'draft-2020-12' });
    if (isPlainObject(schema)) return JSON.parse(encodeJSON(schema, 'responseSchema')) as Record<string, unknown>;
  } catch (error) {
    problems.push(`responseSchema could not be read as JSON Schema: ${truncate(error instanceof Error ? error.message : String(error), 200)}`);
    return undefined;
  }
  problems.push(`responseSchema must be a JSON Schema object or a Standard Schema that gives one, such as jsonSchema(…) (got ${refusedValue(given)})`);
  return undefined;
}
