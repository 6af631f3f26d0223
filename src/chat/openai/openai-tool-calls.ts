/**
 * @internal The tool calls of one Chat Completions answer, assembled from their streamed fragments (`delta.tool_calls`)
 * by `index`. The first fragment of a call carries its `id` and name, the later ones only more arguments (OpenAI);
 * some servers repeat the id on every fragment, send no ids at all (one is made up), or number every call 0 — a new id
 * at a running index (or, without ids, a new name) then starts another call there. What continues and starts nothing
 * (no call at its index, no id, no name), an id seen already and a fragment after the finish (the same call twice, or
 * a call after the answer's end) are refused: never a call lost, doubled or merged.
 */
import type { ChatChunk } from '../core/types.js';

/** A call being assembled. */
export interface OpenCall {
  index: number;
  id: string;
  name: string;
  arguments: string;
}

/** The calls of one answer: those open by index, the ids seen, and how many ended. */
export class ToolCalls {
  readonly open = new Map<number, OpenCall>();
  private readonly ids = new Set<string>();
  /** Calls ended so far. */
  ended = 0;
  /** The finish came: every call ended, and a fragment now would start a call after the answer's end. */
  private closed = false;

  /**
   * @param createId makes an id for a call streamed without one
   * @param excerpt bounds and redacts remote text for an error message
   */
  constructor(
    private readonly createId: () => string,
    private readonly excerpt: (text: string, length: number) => string,
  ) {}

  /**
   * The call a fragment at `index` with this `id` and `name` (each `undefined` when not sent) belongs to, started (its
   * `tool-call-start` in `out`) when the fragment starts one; or what the stream sent that is no fragment, for its
   * typed error.
   */
  fragment(index: number, id: string | undefined, name: string | undefined, out: ChatChunk[]): OpenCall | string {
    if (this.closed) return `a fragment of tool call ${index} after the finish_reason`;
    let call = this.open.get(index);
    if (call && (id !== undefined ? id !== call.id : name !== undefined && call.name !== '' && name !== call.name)) {
      this.end(call, out);
      call = undefined;
    }
    if (call) {
      if (call.name === '' && name !== undefined) call.name = name;
      return call;
    }
    if (id === undefined && name === undefined) return `a fragment of tool call ${index}, which never started (no id or name)`;
    if (id !== undefined) {
      if (this.ids.has(id)) return `a second tool call with the id ${this.excerpt(id, 60)}`;
      this.ids.add(id);
    }
    call = { index, id: id ?? this.createId(), name: name ?? '', arguments: '' };
    this.open.set(index, call);
    out.push({ type: 'tool-call-start', index, id: call.id, name: call.name });
    return call;
  }

  /** Ends every open call, in index order: the answer's finish. */
  endAll(out: ChatChunk[]): void {
    this.closed = true;
    for (const call of [...this.open.values()].sort((a, b) => a.index - b.index)) this.end(call, out);
  }

  private end(call: OpenCall, out: ChatChunk[]): void {
    this.open.delete(call.index);
    out.push({ type: 'tool-call-end', index: call.index, id: call.id, name: call.name, arguments: call.arguments });
    this.ended++;
  }
}
