/**
 * @internal A run's `output` schema: the format asked of the model (JSON Schema where the schema can give one), and
 * the check of its final answer — JSON, then the schema — with the problems as `{path, message}` issues, fed back to
 * the model once like invalid tool arguments.
 */
import type { ChatMessage } from '../chat/core/types.js';
import type { OutputIssue } from '../errors/output-validation-error.js';
import { messageOf } from '../internal/error-chain.js';
import { isPlainObject, truncate } from '../internal/json.js';
import type { JSONSchema, StandardSchemaV1 } from '../tools/standard-schema.js';
import { formatPath } from '../tools/tool-arguments.js';

/** The response format for `schema`, when it can be written as JSON Schema (zod 4, arktype, `jsonSchema()`…). */
export function outputFormat(schema: StandardSchemaV1): { name: string; schema: JSONSchema } | undefined {
  const converter = schema['~standard'].jsonSchema;
  if (!converter || typeof converter.input !== 'function') return undefined;
  try {
    const json: unknown = converter.input({ target: 'draft-2020-12' });
    if (!isPlainObject(json)) return undefined;
    const { $schema: _ignored, ...rest } = json;
    return { name: 'output', schema: rest as JSONSchema };
  } catch {
    return undefined;
  }
}

/** The final answer checked against `schema`: its value, or every issue. */
export async function checkOutput(schema: StandardSchemaV1, text: string): Promise<{ ok: true; value: unknown } | { ok: false; issues: OutputIssue[] }> {
  let candidate: unknown;
  try {
    candidate = JSON.parse(stripFence(text));
  } catch (error) {
    return { ok: false, issues: [{ path: '', message: `the answer is not JSON (${truncate(messageOf(error), 120)})` }] };
  }
  try {
    const result = await schema['~standard'].validate(candidate);
    if (!result.issues) return { ok: true, value: result.value };
    return { ok: false, issues: result.issues.slice(0, 100).map((issue) => ({ path: formatPath(issue.path), message: truncate(issue.message, 300) })) };
  } catch (error) {
    return { ok: false, issues: [{ path: '', message: `the output schema could not check the answer: ${truncate(messageOf(error), 200)}` }] };
  }
}

/** A model may wrap JSON in a Markdown fence: the JSON inside it. */
function stripFence(text: string): string {
  const fenced = /^\s*```(?:json)?\s*\n([\s\S]*?)\n?```\s*$/.exec(text);
  return fenced ? (fenced[1] as string) : text;
}

/** What the model is told when its answer failed the schema: each issue, and what to do. */
export function outputFeedback(issues: readonly OutputIssue[], format: { schema: JSONSchema } | undefined): ChatMessage {
  const listed = issues.map((issue) => `${issue.path === '' ? '(the answer)' : issue.path}: ${issue.message}`).join('; ');
  const schema = format ? ` It must match this JSON Schema: ${truncate(JSON.stringify(format.schema), 4_000)}` : '';
  return { role: 'user', content: `Your final answer does not match the required output format: ${listed}. Answer again with only the JSON value, nothing else.${schema}` };
}
