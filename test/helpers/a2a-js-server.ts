/**
 * An @a2a-js/sdk 1.3.0 A2A server (DefaultRequestHandler + InMemoryTaskStore + an AgentExecutor, mounted with its
 * express `agentCardHandler`/`jsonRpcHandler`) on 127.0.0.1 with a free port, for interop tests of our client. The
 * executor's behaviour is chosen by the user's text: `fail`, `cancel`, `stream`, `throw`.
 */
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';
import { AGENT_CARD_PATH, A2A_PROTOCOL_VERSION, Role, TaskState, type AgentCard, type Message, type Part } from '@a2a-js/sdk';
import { AgentEvent, DefaultRequestHandler, InMemoryTaskStore, type AgentExecutor, type ExecutionEventBus, type RequestContext } from '@a2a-js/sdk/server';
import { agentCardHandler, jsonRpcHandler, UserBuilder } from '@a2a-js/sdk/server/express';
import { duplicateInterfacesForLegacy } from '@a2a-js/sdk/compat/v0_3';

/** The failure the `fail` behaviour publishes. */
export const A2A_JS_FAILURE = Object.freeze({
  text: 'upstream tool exploded',
  /** On the status message (tRPC-style keys, so our converter can rebuild a coded error). */
  messageMetadata: { error_code: 'TOOL_FAILED', error_type: 'tool_error', retryable: false },
  /** On the status update: the SDK merges it into the task's metadata. */
  taskMetadata: { layer: 'tool' },
});

/** The text of the artifact of the `stream` behaviour, for input `text`. */
export const a2aJsEcho = (text: string) => `echo: ${text}`;

const textPart = (text: string): Part => ({ content: { $case: 'text', value: text }, mediaType: 'text/plain', filename: '', metadata: undefined });

function agentMessage(taskId: string, contextId: string, text: string, metadata?: Record<string, unknown>): Message {
  return { messageId: `msg-${crypto.randomUUID()}`, taskId, contextId, role: Role.ROLE_AGENT, parts: [textPart(text)], metadata, extensions: [], referenceTaskIds: [] };
}

function statusUpdate(taskId: string, contextId: string, state: TaskState, message?: Message, metadata?: Record<string, unknown>) {
  return AgentEvent.statusUpdate({ taskId, contextId, status: { state, message, timestamp: new Date().toISOString() }, metadata });
}

/** The executor; `cancelTask` releases a waiting `cancel` run, which then publishes CANCELED. */
export class A2AJsTestExecutor implements AgentExecutor {
  private readonly waiters = new Map<string, () => void>();
  /** Task ids whose `cancelTask` was called. */
  readonly cancelRequests: string[] = [];

  cancelTask = async (taskId: string, _bus: ExecutionEventBus): Promise<void> => {
    this.cancelRequests.push(taskId);
    this.waiters.get(taskId)?.();
  };

  execute = async (context: RequestContext, bus: ExecutionEventBus): Promise<void> => {
    const { taskId, contextId, userMessage } = context;
    const part = userMessage.parts.find((candidate) => candidate.content?.$case === 'text');
    const text = part?.content?.$case === 'text' ? part.content.value.trim() : '';
    if (text === 'throw') throw new Error('boom: executor threw');
    bus.publish(
      AgentEvent.task({
        id: taskId,
        contextId,
        status: { state: TaskState.TASK_STATE_SUBMITTED, message: undefined, timestamp: new Date().toISOString() },
        artifacts: [],
        history: [userMessage],
        metadata: undefined,
      }),
    );
    if (text === 'fail') {
      bus.publish(statusUpdate(taskId, contextId, TaskState.TASK_STATE_FAILED, agentMessage(taskId, contextId, A2A_JS_FAILURE.text, { ...A2A_JS_FAILURE.messageMetadata }), { ...A2A_JS_FAILURE.taskMetadata }));
      return;
    }
    bus.publish(statusUpdate(taskId, contextId, TaskState.TASK_STATE_WORKING, agentMessage(taskId, contextId, 'working...')));
    if (text === 'cancel') {
      await new Promise<void>((resolve) => {
        this.waiters.set(taskId, resolve);
        setTimeout(resolve, 10_000).unref(); // never hang a test run
      });
      this.waiters.delete(taskId);
      bus.publish(statusUpdate(taskId, contextId, TaskState.TASK_STATE_CANCELED, agentMessage(taskId, contextId, 'canceled by request')));
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
    bus.publish(
      AgentEvent.artifactUpdate({
        taskId,
        contextId,
        append: false,
        lastChunk: true,
        metadata: undefined,
        artifact: { artifactId: 'art-1', name: 'result', description: '', parts: [textPart(a2aJsEcho(text))], metadata: undefined, extensions: [] },
      }),
    );
    // "answer": the final status message repeats the artifact's text, as many servers do.
    bus.publish(statusUpdate(taskId, contextId, TaskState.TASK_STATE_COMPLETED, text === 'answer' ? agentMessage(taskId, contextId, a2aJsEcho(text)) : undefined));
  };
}

function makeCard(base: string, legacy: boolean): AgentCard {
  const interfaces = [{ url: `${base}/a2a/jsonrpc`, protocolBinding: 'JSONRPC', tenant: '', protocolVersion: A2A_PROTOCOL_VERSION }];
  return {
    name: 'a2a-js interop agent',
    description: 'Fails, cancels, streams or throws depending on the input text.',
    supportedInterfaces: legacy ? duplicateInterfacesForLegacy(interfaces, ['JSONRPC']) : interfaces,
    provider: { organization: 'faultline tests', url: 'https://example.com' },
    version: '0.0.1',
    capabilities: { streaming: true, pushNotifications: false, extensions: [], extendedAgentCard: false },
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [{ id: 'echo', name: 'Echo', description: 'test skill', tags: ['test'], examples: [], inputModes: [], outputModes: [], securityRequirements: [] }],
    signatures: [],
  } as unknown as AgentCard; // optional-in-practice fields (documentationUrl, iconUrl…) are required by the ts-proto type
}

export interface A2AJsServer {
  /** The base URL (the card is at `/.well-known/agent-card.json`). */
  url: string;
  /** The JSON-RPC endpoint. */
  rpcUrl: string;
  executor: A2AJsTestExecutor;
  close(): Promise<void>;
}

/** Starts the SDK's server; `legacy` adds 0.3 interfaces to the card and turns on its `legacyCompat`. */
export async function startA2AJsServer({ legacy }: { legacy: boolean }): Promise<A2AJsServer> {
  const app = express();
  const executor = new A2AJsTestExecutor();
  const server: Server = await new Promise((resolve, reject) => {
    const listening = app.listen(0, '127.0.0.1', (error?: Error) => (error ? reject(error) : resolve(listening)));
  });
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const requestHandler = new DefaultRequestHandler(makeCard(base, legacy), new InMemoryTaskStore(), executor);
  const legacyCompat = { enabled: legacy };
  app.use(`/${AGENT_CARD_PATH}`, agentCardHandler({ agentCardProvider: requestHandler, legacyCompat }));
  app.use('/a2a/jsonrpc', jsonRpcHandler({ requestHandler, userBuilder: UserBuilder.noAuthentication, legacyCompat }));
  return {
    url: base,
    rpcUrl: `${base}/a2a/jsonrpc`,
    executor,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
