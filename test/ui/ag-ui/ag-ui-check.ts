/**
 * What an AG-UI client may rely on, checked on every event list the tests make: each event valid against
 * `@ag-ui/core`'s own zod schema for its type, made strict (no field the protocol does not define), and the sequence
 * rules of AG-UI's event verifier — RUN_STARTED first; exactly one RUN_FINISHED or RUN_ERROR, last; a message's
 * content only between its start and end, nothing else while it is open; a tool call's args and end after its start,
 * its result after its end; steps finished by name before the run ends.
 */
import * as schemas from '@ag-ui/core/schemas';
import { expect } from 'vitest';
import type { ZodObject } from 'zod';
import type { AGUIEvent } from '../../../src/ui/history-exports.js';

const SCHEMA_NAMES: Record<string, string> = {
  RUN_STARTED: 'RunStartedEventSchema',
  RUN_FINISHED: 'RunFinishedEventSchema',
  RUN_ERROR: 'RunErrorEventSchema',
  STEP_STARTED: 'StepStartedEventSchema',
  STEP_FINISHED: 'StepFinishedEventSchema',
  TEXT_MESSAGE_START: 'TextMessageStartEventSchema',
  TEXT_MESSAGE_CONTENT: 'TextMessageContentEventSchema',
  TEXT_MESSAGE_END: 'TextMessageEndEventSchema',
  REASONING_START: 'ReasoningStartEventSchema',
  REASONING_MESSAGE_START: 'ReasoningMessageStartEventSchema',
  REASONING_MESSAGE_CONTENT: 'ReasoningMessageContentEventSchema',
  REASONING_MESSAGE_END: 'ReasoningMessageEndEventSchema',
  REASONING_END: 'ReasoningEndEventSchema',
  TOOL_CALL_START: 'ToolCallStartEventSchema',
  TOOL_CALL_ARGS: 'ToolCallArgsEventSchema',
  TOOL_CALL_END: 'ToolCallEndEventSchema',
  TOOL_CALL_RESULT: 'ToolCallResultEventSchema',
  CUSTOM: 'CustomEventSchema',
};

/** The schema problems of one event (the union schema, and its own type's schema made strict). */
export function schemaProblems(event: unknown): string[] {
  const problems: string[] = [];
  const union = (schemas as unknown as Record<string, { safeParse(value: unknown): { success: boolean; error?: unknown } }>).EventSchemas;
  const loose = union?.safeParse(event);
  if (!loose?.success) problems.push(`EventSchemas: ${String(loose?.error)}`);
  const name = SCHEMA_NAMES[(event as { type?: string }).type ?? ''];
  const schema = name ? (schemas as unknown as Record<string, ZodObject>)[name] : undefined;
  if (!schema) problems.push(`no schema for ${JSON.stringify((event as { type?: string }).type)}`);
  else {
    const strict = schema.strict().safeParse(event);
    if (!strict.success) problems.push(`${name} (strict): ${strict.error.message}`);
  }
  return problems;
}

/** The sequence problems of a run's events (AG-UI's verifier rules). */
export function sequenceProblems(events: readonly AGUIEvent[]): string[] {
  const problems: string[] = [];
  const ends = events.filter((event) => event.type === 'RUN_FINISHED' || event.type === 'RUN_ERROR');
  if (events[0]?.type !== 'RUN_STARTED') problems.push(`the first event is ${events[0]?.type}, not RUN_STARTED`);
  if (ends.length !== 1) problems.push(`${ends.length} RUN_FINISHED/RUN_ERROR events (exactly one expected)`);
  if (ends[0] !== events.at(-1)) problems.push('events follow the run\'s end');
  let text: string | undefined;
  let reasoning: string | undefined;
  let reasoningMessage: string | undefined;
  const calls = new Map<string, 'open' | 'ended' | 'answered'>();
  const steps = new Set<string>();
  events.forEach((event, index) => {
    const at = `events[${index}] ${event.type}`;
    if (text !== undefined && event.type !== 'TEXT_MESSAGE_CONTENT' && event.type !== 'TEXT_MESSAGE_END') problems.push(`${at} while text message ${text} is open`);
    if (reasoning !== undefined && !event.type.startsWith('REASONING_')) problems.push(`${at} while reasoning ${reasoning} is open`);
    switch (event.type) {
      case 'TEXT_MESSAGE_START':
        text = event.messageId;
        break;
      case 'TEXT_MESSAGE_CONTENT':
      case 'TEXT_MESSAGE_END':
        if (event.messageId !== text) problems.push(`${at} for ${event.messageId}, which is not open`);
        if (event.type === 'TEXT_MESSAGE_END') text = undefined;
        break;
      case 'REASONING_START':
        reasoning = event.messageId;
        break;
      case 'REASONING_MESSAGE_START':
        if (reasoning === undefined) problems.push(`${at} outside a reasoning span`);
        reasoningMessage = event.messageId;
        break;
      case 'REASONING_MESSAGE_CONTENT':
      case 'REASONING_MESSAGE_END':
        if (event.messageId !== reasoningMessage) problems.push(`${at} for ${event.messageId}, which is not open`);
        if (event.type === 'REASONING_MESSAGE_END') reasoningMessage = undefined;
        break;
      case 'REASONING_END':
        if (event.messageId !== reasoning || reasoningMessage !== undefined) problems.push(`${at} closes ${event.messageId} out of order`);
        reasoning = undefined;
        break;
      case 'TOOL_CALL_START':
        if (calls.has(event.toolCallId)) problems.push(`${at} starts ${event.toolCallId} again`);
        calls.set(event.toolCallId, 'open');
        break;
      case 'TOOL_CALL_ARGS':
      case 'TOOL_CALL_END':
        if (calls.get(event.toolCallId) !== 'open') problems.push(`${at} for ${event.toolCallId}, which is not open`);
        if (event.type === 'TOOL_CALL_END') calls.set(event.toolCallId, 'ended');
        break;
      case 'TOOL_CALL_RESULT':
        if (calls.get(event.toolCallId) !== 'ended') problems.push(`${at} answers ${event.toolCallId}, which is ${calls.get(event.toolCallId) ?? 'unknown'}`);
        calls.set(event.toolCallId, 'answered');
        break;
      case 'STEP_STARTED':
        if (steps.has(event.stepName)) problems.push(`${at} starts ${event.stepName} again`);
        steps.add(event.stepName);
        break;
      case 'STEP_FINISHED':
        if (!steps.delete(event.stepName)) problems.push(`${at} finishes ${event.stepName}, which is not running`);
        break;
      case 'RUN_FINISHED':
      case 'RUN_ERROR':
        if (text !== undefined || reasoning !== undefined) problems.push(`${at} with a message open`);
        if (steps.size > 0) problems.push(`${at} with steps running: ${[...steps].join(', ')}`);
        break;
      default:
        break;
    }
  });
  return problems;
}

/** Every event valid, the sequence valid. */
export function expectValidAGUI(events: readonly AGUIEvent[]): void {
  const problems = [...events.flatMap((event, index) => schemaProblems(event).map((problem) => `events[${index}]: ${problem}`)), ...sequenceProblems(events)];
  expect(problems).toEqual([]);
}

/** Reads a stream of events to its end. */
export async function readEvents(stream: AsyncIterable<AGUIEvent>): Promise<AGUIEvent[]> {
  const events: AGUIEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

/** The CUSTOM events of `name`, their values. */
export const customValues = (events: readonly AGUIEvent[], name: string): Array<Record<string, unknown>> =>
  events.filter((event): event is Extract<AGUIEvent, { type: 'CUSTOM' }> => event.type === 'CUSTOM' && event.name === name).map((event) => event.value as Record<string, unknown>);
