/**
 * @internal Structured output on Anthropic, which has no JSON response format: a forced tool. A request with a
 * `responseFormat` offers one more tool, named after the format, whose `input_schema` is the format's schema, and makes
 * the model call a tool (`tool_choice: tool` when it is the only tool, `any` when the agent's tools are offered too, so
 * the model can still use them first). Its answer comes back as text: the output tool's `input` JSON, streamed as
 * text deltas, with the finish `stop` — so the agent checks it like any final answer, and the transcript holds no
 * `tool_use` without a result. Extended thinking forbids a forced tool choice, so with `thinking` enabled the tool
 * is offered with `auto` and the agent's feedback loop asks again if the model answers otherwise.
 * @see https://docs.anthropic.com/en/docs/build-with-claude/tool-use#json-mode
 */
import type { ChatChunk, ChatRequest, ChatResponse } from '../core/types.js';

/** The output tool's name: the format's name, made unique among the request's tools and valid for Anthropic. */
export function outputToolName(request: ChatRequest): string | undefined {
  if (!request.responseFormat) return undefined;
  const base = request.responseFormat.name.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 48) || 'output';
  const taken = new Set((request.tools ?? []).map((tool) => tool.name));
  let name = base;
  for (let n = 2; taken.has(name); n++) name = `${base}_${n}`;
  return name;
}

/** The output tool and the tool choice that goes with it, added to a Messages request body. */
export function addOutputTool(body: Record<string, unknown>, request: ChatRequest, name: string): void {
  const format = request.responseFormat;
  if (!format) return;
  const tools = Array.isArray(body.tools) ? (body.tools as unknown[]) : [];
  tools.push({ name, description: 'Give your final answer as the input of this tool: it must match the required output format.', input_schema: format.schema });
  body.tools = tools;
  const thinking = body.thinking as { type?: unknown } | undefined;
  if (thinking && thinking.type === 'enabled') body.tool_choice = { type: 'auto' };
  else if (request.toolChoice === 'none' || tools.length === 1) body.tool_choice = { type: 'tool', name };
  else if (request.toolChoice === undefined || request.toolChoice === 'auto' || request.toolChoice === 'required') body.tool_choice = { ...(body.tool_choice as object | undefined), type: 'any' };
}

/**
 * A stream's batches with the output tool's call turned into text (its arguments as they stream), finish `stop`. Only
 * the first call of the output tool is the answer; a second one (a model that answered twice) is dropped, as in
 * {@link outputResponseAsText}, so the text stays one JSON value.
 */
export async function* outputAsText(batches: AsyncGenerator<ChatChunk[], void, undefined>, name: string): AsyncGenerator<ChatChunk[], void, undefined> {
  let outputId: string | undefined;
  const dropped = new Set<string>();
  let streamed = false;
  let otherCalls = 0;
  for await (const batch of batches) {
    const mapped: ChatChunk[] = [];
    for (const chunk of batch) {
      if (chunk.type === 'tool-call-start' && chunk.name === name) {
        if (outputId === undefined) outputId = chunk.id;
        else dropped.add(chunk.id);
      } else if ((chunk.type === 'tool-call-delta' || chunk.type === 'tool-call-end') && dropped.has(chunk.id)) continue;
      else if (chunk.type === 'tool-call-delta' && chunk.id === outputId) {
        streamed = true;
        mapped.push({ type: 'text-delta', delta: chunk.argumentsDelta });
      } else if (chunk.type === 'tool-call-end' && chunk.id === outputId) {
        if (!streamed && chunk.arguments !== '') mapped.push({ type: 'text-delta', delta: chunk.arguments });
      } else if (chunk.type === 'finish' && outputId !== undefined && otherCalls === 0 && chunk.reason === 'tool_calls') mapped.push({ ...chunk, reason: 'stop' });
      else {
        if (chunk.type === 'tool-call-start') otherCalls++;
        mapped.push(chunk);
      }
    }
    if (mapped.length > 0) yield mapped;
  }
}

/** A whole response with the output tool's first call turned into text (later calls of it dropped). */
export function outputResponseAsText(response: ChatResponse, name: string): ChatResponse {
  const calls = response.message.toolCalls ?? [];
  const output = calls.find((call) => call.name === name);
  if (!output) return response;
  const others = calls.filter((call) => call.name !== name);
  const message = { ...response.message, content: `${response.message.content ?? ''}${output.arguments}` };
  if (others.length > 0) message.toolCalls = others;
  else delete message.toolCalls;
  return { ...response, message, finishReason: others.length === 0 && response.finishReason === 'tool_calls' ? 'stop' : response.finishReason };
}
