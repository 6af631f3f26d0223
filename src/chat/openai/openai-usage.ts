import { read } from '../../internal/error-chain.js';
import { isPlainObject } from '../../internal/json.js';
import type { Usage } from '../core/types.js';

/** Converts OpenAI/DeepSeek usage JSON; `undefined` when absent or malformed. */
export function toUsage(value: unknown): Usage | undefined {
  if (!isPlainObject(value)) return undefined;
  const promptTokens = numberOr(value.prompt_tokens);
  const completionTokens = numberOr(value.completion_tokens);
  const usage: Usage = {
    promptTokens,
    completionTokens,
    totalTokens: typeof value.total_tokens === 'number' ? value.total_tokens : promptTokens + completionTokens,
  };
  const reasoning = read(value.completion_tokens_details, 'reasoning_tokens');
  if (typeof reasoning === 'number') usage.reasoningTokens = reasoning;
  const cached = read(value.prompt_tokens_details, 'cached_tokens') ?? value.prompt_cache_hit_tokens;
  if (typeof cached === 'number') usage.cachedPromptTokens = cached;
  return usage;
}

function numberOr(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}
