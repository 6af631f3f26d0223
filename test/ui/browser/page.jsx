// The browser test's page: the real `useChat` of @ai-sdk/react against `POST /api/chat` (the scenario from
// `?scenario=`), rendered by the demo's part renderer. It exposes the hook's state on `window.__chat` (parts, states,
// status, error, the transient parts `onData` saw) and `window.__send(text)` / `window.__stop()` /
// `window.__resend(messages)` to drive it; approvals are answered with the cards' Approve and Deny buttons.
import { useChat } from '@ai-sdk/react';
import { DefaultChatTransport, lastAssistantMessageIsCompleteWithApprovalResponses } from 'ai';
import { useEffect, useMemo, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { ChatStatus, MessageView } from '../../../demo/chat/parts.jsx';

const scenario = new URLSearchParams(location.search).get('scenario') ?? 'success';

function Page() {
  const [transient, setTransient] = useState([]);
  const transport = useMemo(() => new DefaultChatTransport({ api: '/api/chat', body: { scenario } }), []);
  // Answering every approval sends the answers at once, as the AI SDK's own approval pages do.
  const chat = useChat({ transport, onData: (part) => setTransient((seen) => [...seen, part]), sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses });
  const retries = transient.filter((part) => part.type === 'data-faultline-retry').map((part) => part.data);
  useEffect(() => {
    window.__chat = { status: chat.status, error: chat.error ? { name: chat.error.name, message: chat.error.message } : null, messages: chat.messages, data: transient };
  });
  useEffect(() => {
    window.__send = (text) => chat.sendMessage({ text });
    window.__stop = () => chat.stop();
    // Replays a history as it was (a resubmitted answer): the messages set back, then the same request sent again.
    window.__resend = (messages) => {
      chat.setMessages(messages);
      return chat.sendMessage();
    };
  });
  return (
    <main>
      <ChatStatus status={chat.status} error={chat.error} retries={retries} />
      {chat.messages.map((message) => (
        <MessageView key={message.id} message={message} retries={retries} busy={chat.status === 'submitted' || chat.status === 'streaming'} onApproval={chat.addToolApprovalResponse} />
      ))}
    </main>
  );
}

createRoot(document.getElementById('root')).render(<Page />);
