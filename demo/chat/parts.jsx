// Renders what `useChat` holds for a faultline endpoint: each part with its state, a tool's typed failure (type,
// message, suggestion, retryability) from the `data-faultline-error` part of the same id (the bare `errorText` only
// for a part without one), retries from the transient `data-faultline-retry` parts `onData` sees, graph records and
// the runner's completion. Shared by the demo page and the browser test page; the `data-*` attributes are what the
// test reads.
import { useState } from 'react';

/**
 * Part states that mean "still working". A spinner shows for them only while the hook is busy: after `stop()`, useChat
 * keeps the interrupted part in its last state (it applies nothing once its own abort fired), and nothing is coming.
 */
const BUSY = new Set(['streaming', 'input-streaming', 'input-available']);

const toolName = (part) => (part.type === 'dynamic-tool' ? part.toolName : part.type.slice('tool-'.length));
const isTool = (part) => part.type === 'dynamic-tool' || part.type.startsWith('tool-');
const short = (value) => {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text === undefined ? '' : text.length > 160 ? `${text.slice(0, 160)}…` : text;
};

function Spinner({ when }) {
  return when ? <span className="spinner" aria-label="working" /> : null;
}

/** A typed failure: what a UI can say instead of a bare string. */
export function Fault({ error }) {
  const retryIn = typeof error.retryAfterMs === 'number' ? ` — retry in ${Math.ceil(error.retryAfterMs / 1000)} s` : '';
  return (
    <div className="fault" data-type={error.type} data-kind={error.kind} data-scope={error.scope} data-retryable={String(error.retryable)}>
      <strong className="fault-type">{error.type}</strong>
      <span className="fault-retryable">{error.retryable ? `retryable${retryIn}` : 'not retryable'}</span>
      <p className="fault-message">{error.message}</p>
      {error.suggestion ? <p className="fault-suggestion">{error.suggestion}</p> : null}
    </div>
  );
}

/** A retry the server waits out (transient: never in the message); `done` once the call it retried has ended. */
export function RetryNotice({ notice, done = false }) {
  const what = notice.toolName ?? 'the model';
  const failure = `${notice.error?.type ?? 'an error'}${notice.error?.message ? `: ${notice.error.message}` : ''}`;
  return (
    <p className="retry" data-source={notice.source} data-attempt={notice.attempt}>
      {done ? `Retried ${what} (attempt ${notice.attempt + 1}) after ${notice.delayMs} ms, following ${failure}` : `Retrying ${what} (attempt ${notice.attempt + 1}) in ${notice.delayMs} ms after ${failure}`}
    </p>
  );
}

/**
 * The question of a tool part that waits for a person (`approval-requested`): Approve, or Deny with an optional reason,
 * answered through `onApproval` (the page's `addToolApprovalResponse`). Answered, it says what was answered.
 */
function Approval({ part, onApproval, busy }) {
  const [reason, setReason] = useState('');
  const approval = part.approval ?? {};
  if (part.state === 'approval-responded' || part.state === 'output-denied') {
    return (
      <p className="approval-answer" data-approved={String(approval.approved)}>
        {approval.approved ? 'Approved' : `Denied${approval.reason ? `: ${approval.reason}` : ''}`}
      </p>
    );
  }
  if (part.state !== 'approval-requested' || !onApproval) return null;
  const answer = (approved) => onApproval(approved ? { id: approval.id, approved } : { id: approval.id, approved, reason: reason.trim() === '' ? undefined : reason.trim() });
  return (
    <div className="approval" data-approval={approval.id}>
      <input className="approval-reason" value={reason} placeholder="Reason, if you deny" onChange={(event) => setReason(event.target.value)} />
      <button type="button" data-answer="approve" disabled={busy} onClick={() => answer(true)}>
        Approve
      </button>
      <button type="button" data-answer="deny" disabled={busy} onClick={() => answer(false)}>
        Deny
      </button>
    </div>
  );
}

function ToolCard({ part, error, retries, busy, onApproval }) {
  return (
    <div className="part tool" data-part="tool" data-tool={toolName(part)} data-call={part.toolCallId} data-state={part.state}>
      <header>
        <code>{toolName(part)}</code> <span className="state">{part.state}</span>
        <Spinner when={busy && BUSY.has(part.state)} />
      </header>
      <p className="input">input: {short(part.input ?? part.rawInput)}</p>
      {retries.map((notice, index) => (
        <RetryNotice key={index} notice={notice} done={!busy || part.state.startsWith('output-')} />
      ))}
      {part.approval ? <Approval part={part} onApproval={onApproval} busy={busy} /> : null}
      {part.state === 'output-available' ? <p className="output">output: {short(part.output)}</p> : null}
      {error ? <Fault error={error} /> : part.state === 'output-error' ? <p className="error-text">{part.errorText}</p> : null}
    </div>
  );
}

function Record({ data }) {
  const error = data?.error ?? data;
  return (
    <tr className="record" data-severity={data?.severity} data-node={data?.nodeId}>
      <td>{data?.severity}</td>
      <td>{data?.nodeId}</td>
      <td className="record-code">{error?.code ?? ''}</td>
      <td>{error?.message ?? ''}</td>
    </tr>
  );
}

/**
 * One message of the chat, every part in order. `retries`: the transient retry notices seen so far; `busy`: the hook
 * is submitting or streaming; `onApproval`: answers a tool part's approval (`useChat`'s `addToolApprovalResponse`).
 */
export function MessageView({ message, retries = [], busy = false, onApproval }) {
  const errors = new Map(message.parts.filter((part) => part.type === 'data-faultline-error').map((part) => [part.id, part.data]));
  const toolCalls = new Set(message.parts.filter(isTool).map((part) => part.toolCallId));
  // A timeline: by step, whatever order the run's state deltas carried them in.
  const records = message.parts.filter((part) => part.type === 'data-faultline-record').sort((a, b) => (a.data?.stepNumber ?? 0) - (b.data?.stepNumber ?? 0));
  const finishReason = message.metadata?.faultline?.finishReason;
  return (
    <article className={`message ${message.role}`} data-role={message.role} data-id={message.id}>
      {message.parts.map((part, index) => {
        if (part.type === 'text') {
          return (
            <p key={index} className="part text" data-part="text" data-state={part.state ?? 'done'}>
              {part.text}
              <Spinner when={busy && BUSY.has(part.state)} />
            </p>
          );
        }
        if (part.type === 'reasoning') {
          return (
            <details key={index} className="part reasoning" data-part="reasoning" data-state={part.state ?? 'done'}>
              <summary>reasoning</summary>
              {part.text}
              <Spinner when={busy && BUSY.has(part.state)} />
            </details>
          );
        }
        if (isTool(part)) return <ToolCard key={index} part={part} busy={busy} onApproval={onApproval} error={errors.get(part.toolCallId)} retries={retries.filter((notice) => notice.toolCallId === part.toolCallId)} />;
        if (part.type === 'data-faultline-error' && !toolCalls.has(part.id)) {
          return (
            <div key={index} className="part run-error" data-part="run-error">
              <Fault error={part.data} />
            </div>
          );
        }
        if (part.type === 'data-faultline-completion') {
          const codes = part.data?.codes ?? [];
          return (
            <p key={index} className="part completion" data-part="completion" data-status={part.data?.status}>
              Run {part.data?.status}
              {codes.length > 0 ? ` (${codes.join(', ')})` : ''}
            </p>
          );
        }
        return null;
      })}
      {records.length > 0 ? (
        <table className="records" data-part="records">
          <thead>
            <tr>
              <th>severity</th>
              <th>node</th>
              <th>code</th>
              <th>message</th>
            </tr>
          </thead>
          <tbody>
            {records.map((part) => (
              <Record key={part.id} data={part.data} />
            ))}
          </tbody>
        </table>
      ) : null}
      {finishReason && finishReason !== 'stop' ? (
        <p className="finish" data-finish={finishReason}>
          ended: {finishReason}
        </p>
      ) : null}
    </article>
  );
}

/** The hook's state: status (with a spinner while busy), the error it holds, model retries in progress. */
export function ChatStatus({ status, error, retries = [] }) {
  return (
    <div className="chat-status">
      <p id="status" data-status={status}>
        {status}
        <Spinner when={status === 'submitted' || status === 'streaming'} />
      </p>
      {retries
        .filter((notice) => !notice.toolCallId)
        .map((notice, index) => (
          <RetryNotice key={index} notice={notice} />
        ))}
      {error ? (
        <p id="error" role="alert">
          {error.message}
        </p>
      ) : null}
    </div>
  );
}
