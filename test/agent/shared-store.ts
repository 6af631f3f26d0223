/**
 * Agent approvals over a store several processes write (not `exclusive`), for the tests: each "process" is an agent of
 * its own over its own store object; the rows (the database) are shared.
 */
import * as z from 'zod';
import { AgentBuilder, collectAgentRun, toolApprovals, type AgentRunItem } from '../../src/agent/index.js';
import { createScriptedChatClient, type ScriptedTurn } from '../../src/chat/index.js';
import type { AgentRunState, RunStateStore } from '../../src/interrupts/index.js';
import { defineTool } from '../../src/tools/index.js';
import { until } from '../helpers/async.js';

export type Rows = Map<string, string>;

/**
 * A store over shared rows, as one process sees them (compare-and-swap `put`). `before` runs before each put: it may
 * throw (the store cannot be reached), wait, or never settle (the process died: nothing it writes lands any more).
 */
export function storeOver(rows: Rows, before?: (record: AgentRunState) => Promise<void> | void): RunStateStore {
  return {
    get: async (runId) => (rows.has(runId) ? (JSON.parse(rows.get(runId)!) as AgentRunState) : undefined),
    put: async (record) => {
      await before?.(record);
      const held = rows.has(record.runId) ? (JSON.parse(rows.get(record.runId)!) as AgentRunState).revision : 0;
      if (held !== record.revision - 1) return false;
      rows.set(record.runId, JSON.stringify(record));
      return true;
    },
    delete: async (runId) => void rows.delete(runId),
  };
}

/** `before` for {@link storeOver}: once `dead()` says so, every put hangs. */
export const diesWhen = (dead: () => boolean) => (): Promise<void> | undefined => (dead() ? new Promise<void>(() => {}) : undefined);

export const REFUND: ScriptedTurn = { toolCalls: [{ id: 'call_refund', name: 'refund', arguments: { orderId: '42', amount: 30 } }] };
export const REFUND_AGAIN: ScriptedTurn = { toolCalls: [{ id: 'call_second', name: 'refund', arguments: { orderId: '44', amount: 5 } }] };
export const TWO_REFUNDS: ScriptedTurn = {
  toolCalls: [
    { id: 'call_a', name: 'refund', arguments: { orderId: '42', amount: 30 } },
    { id: 'call_b', name: 'refund', arguments: { orderId: '43', amount: 900 } },
  ],
};
/** A model call that never answers: the process dies while it waits. */
export const HANGING: ScriptedTurn = () => new Promise(() => {});

export interface ProcessOptions {
  store: RunStateStore;
  leaseMs?: number;
  /** Awaited inside the refund tool before it answers. */
  gate?: () => Promise<void>;
  /** The refund tool's answer (default `{ refunded: amount }`). */
  execute?: (args: { orderId: string; amount: number }) => Promise<unknown>;
  errorFormat?: 'structured' | 'flat';
  secrets?: string[];
}

/** One process: an agent with a `refund` tool that needs approval, over `options.store`; `runs` gets each refund. */
export function processOf(turns: ScriptedTurn[], runs: unknown[], options: ProcessOptions) {
  const refund = defineTool({
    name: 'refund',
    description: 'Refund an order.',
    parameters: z.object({ orderId: z.string(), amount: z.number() }),
    needsApproval: true,
    execute: async (args) => {
      runs.push(args);
      await options.gate?.();
      return options.execute ? options.execute(args) : { refunded: args.amount };
    },
  });
  const model = createScriptedChatClient(turns);
  const approvals = toolApprovals({ store: options.store, ...(options.leaseMs !== undefined ? { leaseMs: options.leaseMs } : {}) });
  let builder = new AgentBuilder('refunds').chatClient(model).tools([refund]).toolLogger(false).approvals(approvals).toolErrorFormat(options.errorFormat ?? 'structured');
  if (options.secrets) builder = builder.secrets(options.secrets);
  return { agent: builder.build(), model };
}

export const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
export const recordOf = (rows: Rows, runId: string) => JSON.parse(rows.get(runId)!) as AgentRunState;

/** Every item of a run's stream. */
export async function itemsOf(stream: ReadableStream<AgentRunItem>): Promise<AgentRunItem[]> {
  const out: AgentRunItem[] = [];
  for await (const item of stream as unknown as AsyncIterable<AgentRunItem>) out.push(item);
  return out;
}

/** Reads `stream` in the background into `seen` (a process whose reader is there until it dies); `stop` cancels it. */
export function readInBackground(stream: ReadableStream<AgentRunItem>): { seen: AgentRunItem[]; stop: () => void } {
  const reader = stream.getReader();
  const seen: AgentRunItem[] = [];
  void (async () => {
    for (;;) {
      const step = await reader.read().catch(() => ({ done: true as const, value: undefined }));
      if (step.done) return;
      seen.push(step.value);
    }
  })();
  return { seen, stop: () => void reader.cancel().catch(() => {}) };
}

/**
 * Process A over `rows`: a run that stopped to ask about a refund, and its resume, held inside the approved refund
 * until `gate` settles. Resolves once the refund started.
 */
export async function resumeHeldInTool(rows: Rows, runs: unknown[], gate: Promise<void>) {
  const a = processOf([REFUND, { text: 'Refunded 30.' }], runs, { store: storeOver(rows), gate: () => gate });
  const first = await collectAgentRun(a.agent.run('Refund order 42'));
  const decisions = [{ id: first.interrupts[0]!.id, approved: true }];
  const resumed = collectAgentRun(a.agent.resume(first.runId!, decisions));
  await until(() => runs.length === 1, 10_000, 'the approved refund to start');
  return { a, first, decisions, resumed };
}
