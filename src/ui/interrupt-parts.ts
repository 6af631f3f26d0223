/**
 * @internal A stopped run's questions on the UI stream: each approval as the protocol's `tool-approval-request` on its
 * tool call (so `useChat`'s `addToolApprovalResponse` answers it), then as a kept `data-faultline-interrupt` part
 * (id: the interrupt's), summarised — never the call's arguments: every approval asked has its part, which is what
 * `resumeDecisionsFromUIMessages` answers it by; other questions are named up to 50, as everywhere else.
 */
import { tryStringify } from '../internal/json.js';
import { MAX_NAMED_INTERRUPTS, summarizeInterrupts, type InterruptSummary } from '../runner/interrupt-summary.js';
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
  const { interrupts: all, count } = summarizeInterrupts(list, out.options.secrets, MAX_APPROVALS);
  const interrupts = all.slice(0, MAX_NAMED_INTERRUPTS);
  all.forEach((interrupt, index) => {
    if (index < MAX_NAMED_INTERRUPTS || (interrupt.kind === 'approval' && interrupt.toolCallId !== undefined)) out.data('faultline-interrupt', interrupt, interrupt.id);
  });
  return { runId: runId ?? interrupts.find((each) => each.runId !== '')?.runId, interrupts, count };
}
