/**
 * @internal A stopped run's questions on the UI stream: each approval as the protocol's `tool-approval-request` on its
 * tool call (so `useChat`'s `addToolApprovalResponse` answers it), then each question as a kept
 * `data-faultline-interrupt` part (id: the interrupt's), summarised — never the call's arguments.
 */
import { tryStringify } from '../internal/json.js';
import { summarizeInterrupts, type InterruptSummary } from '../runner/interrupt-summary.js';
import type { ChunkWriter } from './chunk-writer.js';

/** The most approvals a run can wait on (what a resume may decide: `RESUME_LIMITS.maxDecisions`). */
const MAX_APPROVALS = 1_000;

/** @internal What was written: the run to resume, the questions named (at most 50) and how many there are. */
export interface WrittenInterrupts {
  runId: string | undefined;
  interrupts: InterruptSummary[];
  count: number;
}

/** @internal Writes `raw` (a completion's `response.interrupts`, an agent's `interrupted` item's) to `out`. */
export function writeInterrupts(out: ChunkWriter, raw: unknown, runId?: string): WrittenInterrupts {
  const list = Array.isArray(raw) ? raw.slice(0, MAX_APPROVALS) : [];
  for (const each of list as Array<Record<string, unknown> | null>) {
    if (each?.kind !== 'approval' || typeof each.id !== 'string' || typeof each.toolCallId !== 'string') continue;
    out.approvalRequest(each.toolCallId, typeof each.toolName === 'string' ? each.toolName : 'tool', each.id, tryStringify(each.args) ?? '');
  }
  const { interrupts, count } = summarizeInterrupts(list, out.options.secrets);
  for (const interrupt of interrupts) out.data('faultline-interrupt', interrupt, interrupt.id);
  return { runId: runId ?? interrupts.find((each) => each.runId !== '')?.runId, interrupts, count };
}
