// The demo scenario shared by the terminal demo and the browser demo: tools that fail in every way, and a scripted
// model that calls them. Only Web-standard APIs, so it runs anywhere the SDK runs.
// Every function takes the SDK namespace `F` (the ESM module in Node, `window.Faultline` in the browser), so the same
// scenario runs in the terminal demo and in the script-tag page without a bundler.

/**
 * The tools' parameters: plain JSON Schema through the SDK's own `jsonSchema()`, which validates arguments too, so the
 * scenario needs no schema library — in the terminal, and on a page that loads only the script-tag build (any zod 4 /
 * valibot / arktype schema works the same way).
 */
const schema = (F, properties, required = Object.keys(properties)) => ({ parameters: F.jsonSchema({ type: 'object', properties, required }) });

/** A fake user API: 401 for one user (an expired key), a profile otherwise. */
async function userAPI(userId, key) {
  if (userId === 401 || key.includes('expired')) {
    return Response.json({ error: { message: `Incorrect API key provided: ${key}` } }, { status: 401, statusText: 'Unauthorized' });
  }
  return Response.json({ id: userId, name: 'Ada Lovelace', plan: 'pro' });
}

export function createDemoTools(F) {
  const { DataNotFoundError, defineTool, NetworkError, RateLimitError, toolErrorFromResponse, ToolResult } = F;
  let weatherCalls = 0;
  const getUserProfile = defineTool({
    name: 'get_user_profile',
    description: 'Fetch a user profile by numeric id.',
    ...schema(F, { user_id: { type: 'number' } }),
    execute: async ({ user_id }) => {
      if (user_id === 404) throw new DataNotFoundError(`No profile found for user_id: ${user_id}.`, { context: { user_id } });
      if (user_id === 500) throw new TypeError("Cannot read properties of undefined (reading 'rows')");
      const key = user_id === 401 ? 'sk-demo-expired-key-999999' : 'sk-demo-valid-key-000000';
      const response = await userAPI(user_id, key);
      if (!response.ok) throw await toolErrorFromResponse(response, { service: 'User Profile', secrets: [key] });
      return response.json();
    },
  });
  const getWeather = defineTool({
    name: 'get_weather',
    description: 'Current weather and forecast for a city.',
    ...schema(F, { city: { type: 'string' } }),
    retry: { maxAttempts: 3, initialDelayMs: 50, maxDelayMs: 200 },
    execute: async ({ city }) => {
      weatherCalls++;
      if (city === 'Atlantis') return ToolResult.error({ type: 'DataNotFoundError', message: `There is no weather station in '${city}'.`, suggestion: 'Check the spelling of the city name.' });
      if (weatherCalls === 1) throw new RateLimitError('The weather API rate limit was reached.', { retryAfterMs: 100 });
      return ToolResult.partial({ city, temperature_c: 21, conditions: 'sunny' }, { forecast: new NetworkError('The forecast service could not be reached.') });
    },
  });
  const search = defineTool({
    name: 'search',
    description: 'Search the web.',
    ...schema(F, { query: { type: 'string' } }),
    timeoutMs: 300,
    execute: () => new Promise(() => {}), // never settles and ignores its signal: the timeout still fires
  });
  return [getUserProfile, getWeather, search];
}

/** The scripted model: one round that calls tools in every failing way, then a final answer. */
export function createScriptedModel(F) {
  return F.createScriptedChatClient(
    [
      {
        reasoning: 'I should look up the user, their weather, and some context.',
        text: 'Let me look that up.',
        toolCalls: [
          { name: 'get_user_profile', arguments: { user_id: 42 } },
          { name: 'get_user_profile', arguments: '{user_id: 42' },
          { name: 'get_user_profile', arguments: { user_id: 'forty-two' } },
          { name: 'get_user_profile', arguments: { user_id: 404 } },
          { name: 'get_user_profile', arguments: { user_id: 401 } },
          { name: 'get_user_profile', arguments: { user_id: 500 } },
          { name: 'get_weather', arguments: { city: 'Lisbon' } },
          { name: 'get_weather', arguments: { city: 'Atlantis' } },
          { name: 'search', arguments: { query: 'faultline' } },
          { name: 'get_wether', arguments: { city: 'Paris' } },
        ],
        usage: { promptTokens: 120, completionTokens: 80, totalTokens: 200 },
      },
      {
        text: 'Ada Lovelace (pro plan). Lisbon is 21 °C and sunny; the forecast is unavailable right now. Search timed out.',
        usage: { promptTokens: 900, completionTokens: 40, totalTokens: 940 },
      },
    ],
    { name: 'scripted-model' },
  );
}

/**
 * Model-level failures, offline: an OpenAI-compatible client over a fake `fetch` that answers 429 (with
 * Retry-After) and then streams; a fallback from a failing primary to a backup; a stream cut after output.
 */
export function createModelFailureClients(F) {
  const { ChatClientError, createFallbackChatClient, createOpenAICompatibleClient, createScriptedChatClient, StreamError } = F;
  let calls = 0;
  const fakeFetch = async () => {
    calls++;
    if (calls === 1) {
      return Response.json({ error: { message: 'Rate limit reached for requests', code: 'rate_limit_exceeded' } }, { status: 429, headers: { 'retry-after-ms': '200' } });
    }
    const chunks = ['The ', 'answer ', 'after ', 'a ', 'retry.'].map((content) => ({ id: 'chatcmpl-demo', model: 'demo', choices: [{ index: 0, delta: { content }, finish_reason: null }] }));
    chunks.push({ id: 'chatcmpl-demo', model: 'demo', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] });
    const body = chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`).join('') + 'data: [DONE]\n\n';
    return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
  };
  const retrying = createOpenAICompatibleClient({ baseURL: 'https://llm.example/v1', apiKey: 'sk-demo-key-1234567890', model: 'demo', fetch: fakeFetch, retry: { initialDelayMs: 50 } });
  const fallback = createFallbackChatClient([
    createScriptedChatClient([{ error: new ChatClientError('Chat API (primary.example) returned 503 Service Unavailable', { status: 503 }) }], { name: 'primary' }),
    createScriptedChatClient([{ text: 'The backup model answered instead.' }], { name: 'backup' }),
  ]);
  const cut = createScriptedChatClient([{ text: 'This answer stops half-w', error: new StreamError('The connection to Chat API dropped while reading the answer: terminated', { reason: 'read_failed', afterOutput: true }) }], { name: 'flaky' });
  return { retrying, fallback, cut };
}

/** A real endpoint when OPENAI_API_KEY is set (OPENAI_BASE_URL and OPENAI_MODEL optional). */
export function createRealModel(F, env) {
  if (!env.OPENAI_API_KEY) return undefined;
  return F.createOpenAICompatibleClient({
    baseURL: env.OPENAI_BASE_URL || 'https://api.openai.com/v1',
    apiKey: env.OPENAI_API_KEY,
    model: env.OPENAI_MODEL || 'gpt-4o-mini',
  });
}

export const DEMO_QUESTION =
  'Look up user 42, 404, 401 and 500 with get_user_profile, the weather in Lisbon and Atlantis, and search for "faultline"; then summarise what worked and what failed.';
