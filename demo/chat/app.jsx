// `npm run demo:chat`: a chat page on the AI SDK's own `useChat` (@ai-sdk/react) against a faultline endpoint that
// serves runs as the UI message stream. Each scenario button starts a new conversation; the box below sends a next
// turn, posting the history useChat holds back to the server (which rebuilds the transcript with `fromUIMessages`).
// React renders every string as text: nothing from a tool or a model is parsed as HTML.
import { useChat } from '@ai-sdk/react';
import { DefaultChatTransport, lastAssistantMessageIsCompleteWithApprovalResponses } from 'ai';
import { useMemo, useRef, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { ChatStatus, MessageView } from './parts.jsx';
import { CHAT_SCENARIOS } from './scenarios.mjs';

const PROMPTS = {
  success: 'Where is order A-1?',
  tools: 'Check order A-404, customer C-7, stock of SKU-1, order A-500, ship A-1, refund ten euros on A-1 and track T-1.',
  'provider-error': 'Summarise my orders.',
  'max-iterations': 'Keep checking order A-1.',
  slow: 'Tell me everything about my orders.',
  graph: 'Write order 42.',
  approval: 'Refund 30 on order A-1.',
};

function App() {
  const scenario = useRef('tools');
  const [active, setActive] = useState(scenario.current);
  const [transient, setTransient] = useState([]);
  const [draft, setDraft] = useState('');
  const transport = useMemo(() => new DefaultChatTransport({ api: '/api/chat', body: () => ({ scenario: scenario.current }) }), []);
  // An answered approval (Approve or Deny on its card) is sent at once: the server goes on with the run that asked.
  const chat = useChat({ transport, onData: (part) => setTransient((seen) => [...seen, part]), sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses });
  const busy = chat.status === 'submitted' || chat.status === 'streaming';
  const retries = transient.filter((part) => part.type === 'data-faultline-retry').map((part) => part.data);

  const start = (name) => {
    scenario.current = name;
    setActive(name);
    setTransient([]);
    chat.setMessages([]);
    chat.clearError();
    chat.sendMessage({ text: PROMPTS[name] });
  };
  const send = (event) => {
    event.preventDefault();
    if (draft.trim() === '' || busy) return;
    chat.sendMessage({ text: draft.trim() });
    setDraft('');
  };

  return (
    <>
      <header className="masthead">
        <p className="eyebrow">
          <span className="wordmark">faultline</span> · useChat demo
        </p>
        <h1>Typed failures, all the way to the screen</h1>
        <p className="lede">
          This page is a plain <code>useChat</code> app from <code>@ai-sdk/react</code>. The server runs a faultline agent and
          answers with <code>toUIMessageStreamResponse(run)</code>: each failing tool arrives with its type, suggestion and
          whether a retry may help; retries show while they wait; a provider failing mid-answer and a graph's records end
          the stream cleanly — no spinner left turning. A refund waits for your Approve or Deny, and the run goes on from
          where it stopped.
        </p>
      </header>
      <main className="layout">
        <nav className="scenarios" aria-label="scenarios">
          {Object.entries(CHAT_SCENARIOS).map(([name, what]) => (
            <button key={name} type="button" data-scenario={name} aria-pressed={active === name} disabled={busy} onClick={() => start(name)}>
              <strong>{name}</strong>
              <span>{what}</span>
            </button>
          ))}
        </nav>
        <section className="chat" aria-live="polite">
          <ChatStatus status={chat.status} error={chat.error} retries={retries} />
          {chat.messages.map((message) => (
            <MessageView key={message.id} message={message} retries={retries} busy={busy} onApproval={chat.addToolApprovalResponse} />
          ))}
          <form className="composer" onSubmit={send}>
            <input id="draft" value={draft} placeholder="Ask a follow-up (the history goes back to the server)" onChange={(event) => setDraft(event.target.value)} />
            {busy ? (
              <button id="stop" type="button" onClick={() => chat.stop()}>
                Stop
              </button>
            ) : (
              <button id="send" type="submit" disabled={draft.trim() === ''}>
                Send
              </button>
            )}
          </form>
        </section>
      </main>
    </>
  );
}

createRoot(document.getElementById('root')).render(<App />);
