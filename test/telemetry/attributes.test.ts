// Names recorded by the SDK, checked against the OpenTelemetry semantic conventions they come from (GenAI spans,
// GenAI agent spans, MCP, A2A; URLs in src/telemetry/attributes.ts).
import { describe, expect, it } from 'vitest';
import {
  A2AAttribute,
  a2aSpanName,
  agentSpanName,
  chatSpanName,
  CommonAttribute,
  FaultlineAttribute,
  GenAIAttribute,
  GenAIOperation,
  GenAIToolType,
  graphNodeSpanName,
  MCPAttribute,
  mcpSpanName,
  RPC_SYSTEM_JSONRPC,
  TelemetryEvent,
  toolSpanName,
  workflowSpanName,
} from '../../src/telemetry/index.js';
import * as names from '../../src/telemetry/attribute-names.js';

describe('semantic-convention names', () => {
  it('spell the GenAI attributes as the conventions do', () => {
    expect(GenAIAttribute).toMatchObject({
      OperationName: 'gen_ai.operation.name',
      ProviderName: 'gen_ai.provider.name',
      RequestModel: 'gen_ai.request.model',
      ResponseModel: 'gen_ai.response.model',
      ResponseId: 'gen_ai.response.id',
      ResponseFinishReasons: 'gen_ai.response.finish_reasons',
      UsageInputTokens: 'gen_ai.usage.input_tokens',
      UsageOutputTokens: 'gen_ai.usage.output_tokens',
      AgentName: 'gen_ai.agent.name',
      AgentId: 'gen_ai.agent.id',
      ConversationId: 'gen_ai.conversation.id',
      ToolName: 'gen_ai.tool.name',
      ToolCallId: 'gen_ai.tool.call.id',
      ToolType: 'gen_ai.tool.type',
      ToolCallArguments: 'gen_ai.tool.call.arguments',
      ToolCallResult: 'gen_ai.tool.call.result',
      InputMessages: 'gen_ai.input.messages',
      OutputMessages: 'gen_ai.output.messages',
    });
    expect(GenAIOperation).toEqual({ Chat: 'chat', InvokeAgent: 'invoke_agent', InvokeWorkflow: 'invoke_workflow', ExecuteTool: 'execute_tool' });
    expect(GenAIToolType).toEqual({ Function: 'function', Extension: 'extension', Datastore: 'datastore' });
  });

  it('spell the MCP, A2A, RPC and common attributes as the conventions do', () => {
    expect(MCPAttribute).toMatchObject({ MethodName: 'mcp.method.name', SessionId: 'mcp.session.id', ProtocolVersion: 'mcp.protocol.version' });
    expect(A2AAttribute).toMatchObject({ MethodName: 'a2a.method.name', TaskId: 'a2a.task.id', TaskState: 'a2a.task.state' });
    expect(CommonAttribute).toMatchObject({
      ErrorType: 'error.type',
      ServerAddress: 'server.address',
      ServerPort: 'server.port',
      JSONRPCRequestId: 'jsonrpc.request.id',
      RPCSystemName: 'rpc.system.name',
      RPCResponseStatusCode: 'rpc.response.status_code',
      ExceptionType: 'exception.type',
      ExceptionMessage: 'exception.message',
    });
    expect(RPC_SYSTEM_JSONRPC).toBe('jsonrpc');
  });

  it('keep names of our own under faultline.*', () => {
    for (const name of Object.values(FaultlineAttribute)) expect(name).toMatch(/^faultline\./);
    expect(FaultlineAttribute).toMatchObject({ GraphNodeId: 'faultline.graph.node.id', GraphNodeType: 'faultline.graph.node.type', GraphStep: 'faultline.graph.step' });
    expect(TelemetryEvent).toEqual({
      Exception: 'exception',
      Retry: 'faultline.retry',
      Fallback: 'faultline.fallback',
      RecoverableError: 'faultline.recoverable_error',
      Interrupt: 'faultline.interrupt',
      Resume: 'faultline.resume',
    });
  });

  it('are frozen and unique', () => {
    const groups = [GenAIAttribute, MCPAttribute, A2AAttribute, CommonAttribute, FaultlineAttribute];
    for (const group of groups) expect(Object.isFrozen(group)).toBe(true);
    const names = groups.flatMap((group) => Object.values(group));
    expect(new Set(names).size).toBe(names.length);
  });
});

describe('the internal name constants the span builders set', () => {
  it('are the values of the public tables, one for one (the tables are built from them)', () => {
    const tables = [GenAIAttribute, GenAIOperation, GenAIToolType, MCPAttribute, A2AAttribute, CommonAttribute, FaultlineAttribute, TelemetryEvent];
    const tabled = tables.flatMap((table) => Object.values(table)).sort();
    const { ERROR_TYPE_OTHER: _other, RPC_SYSTEM_JSONRPC: _jsonrpc, ...constants } = names;
    expect(Object.values(constants).sort()).toEqual(tabled);
  });
});

describe('span names', () => {
  it('follow `{operation} {subject}`, and the operation alone without a subject', () => {
    expect(chatSpanName('gpt-4o')).toBe('chat gpt-4o');
    expect(agentSpanName('planner')).toBe('invoke_agent planner');
    expect(toolSpanName('get_weather')).toBe('execute_tool get_weather');
    expect(workflowSpanName('support')).toBe('invoke_workflow support');
    expect(graphNodeSpanName('plan')).toBe('graph.node plan');
    expect(mcpSpanName('tools/call', 'get_weather')).toBe('tools/call get_weather');
    expect(mcpSpanName('initialize')).toBe('initialize');
    expect(a2aSpanName('SendMessage')).toBe('SendMessage');
    expect(chatSpanName(undefined)).toBe('chat');
    expect(agentSpanName('')).toBe('invoke_agent');
    expect(toolSpanName(undefined)).toBe('execute_tool');
  });
});
