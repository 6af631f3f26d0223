// The terminal demo: a tool failing in each way, and the exact JSON the model would receive.
// Runs offline against the built package: `npm run demo`.
import * as z from 'zod';
import {
  DataNotFoundError,
  defineTool,
  NetworkError,
  RateLimitError,
  runTool,
  runToolCall,
  serializeToolResult,
  toolErrorFromResponse,
  ToolResult,
} from 'faultline';

const developerLog = [];
const logger = (record) => developerLog.push(record);

// A fake HTTP API so the demo needs no network: 401 for a bad key, 200 otherwise.
const fakeFetch = async (url, init) =>
  init.headers.Authorization === 'Bearer sk-demo-valid-key-000000'
    ? Response.json({ id: 42, name: 'Ada' })
    : Response.json({ error: { message: 'Incorrect API key provided: sk-demo-expired-key-999999' } }, { status: 401, statusText: 'Unauthorized' });

const getUserProfile = defineTool({
  name: 'get_user_profile',
  description: 'Fetch a user profile by id.',
  parameters: z.object({ user_id: z.number().int().positive() }),
  execute: async ({ user_id }, { signal }) => {
    if (user_id === 404) throw new DataNotFoundError(`No profile found for user_id: ${user_id}.`, { context: { user_id } });
    if (user_id === 500) throw new TypeError("Cannot read properties of undefined (reading 'rows')");
    const key = user_id === 401 ? 'sk-demo-expired-key-999999' : 'sk-demo-valid-key-000000';
    const response = await fakeFetch(`https://users.example/v1/users/${user_id}`, { headers: { Authorization: `Bearer ${key}` }, signal });
    if (!response.ok) throw await toolErrorFromResponse(response, { service: 'User Profile', secrets: [key] });
    return response.json();
  },
});

let weatherCalls = 0;
const getWeather = defineTool({
  name: 'get_weather',
  description: 'Current weather and forecast for a city.',
  parameters: z.object({ city: z.string().min(1) }),
  retry: { maxAttempts: 3, initialDelayMs: 50, maxDelayMs: 200 },
  execute: async ({ city }) => {
    weatherCalls++;
    if (city === 'Atlantis') return ToolResult.error({ type: 'DataNotFoundError', message: `There is no weather station in '${city}'.`, suggestion: 'Check the spelling of the city name.' });
    if (weatherCalls === 1) throw new RateLimitError('The weather API rate limit was reached.', { retryAfterMs: 100 });
    return ToolResult.partial({ city, temperature_c: 21 }, { forecast: new NetworkError('The forecast service could not be reached.') });
  },
});

const slowSearch = defineTool({
  name: 'search',
  description: 'Search the web.',
  parameters: z.object({ query: z.string() }),
  timeoutMs: 200,
  execute: () => new Promise(() => {}), // never settles and ignores its signal
});

const tools = [getUserProfile, getWeather, slowSearch];
const cases = [
  ['Success', 'get_user_profile', '{"user_id": 42}'],
  ['Arguments that are not JSON', 'get_user_profile', '{user_id: 42'],
  ['Arguments that fail the schema', 'get_user_profile', '{"user_id": "forty-two"}'],
  ['A missing required field', 'get_user_profile', '{}'],
  ['An expected failure the tool throws (DataNotFoundError)', 'get_user_profile', '{"user_id": 404}'],
  ['An HTTP 401 from the API the tool calls', 'get_user_profile', '{"user_id": 401}'],
  ['A crash inside the tool (the model sees a sanitized message)', 'get_user_profile', '{"user_id": 500}'],
  ['A rate limit, retried after Retry-After, then a partial result', 'get_weather', '{"city": "Lisbon"}'],
  ['A ToolResult.error the tool returns', 'get_weather', '{"city": "Atlantis"}'],
  ['A tool that hangs past its timeout', 'search', '{"query": "faultline"}'],
  ['A tool that does not exist', 'get_wether', '{"city": "Paris"}'],
];

const bold = (text) => (process.stdout.isTTY ? `\x1b[1m${text}\x1b[0m` : text);
for (const [title, name, args] of cases) {
  const before = developerLog.length;
  const retries = [];
  const run = await runToolCall(tools, { id: `call_${name}`, name, arguments: args }, {
    logger,
    onRetry: (notice) => retries.push(`   retry: attempt ${notice.attempt} failed (${notice.error.type}), waited ${notice.delayMs} ms`),
  });
  console.log(`\n${bold(title)}`);
  console.log(`   model called: ${name}(${args})`);
  for (const line of retries) console.log(line);
  console.log(`   outcome: ${run.outcome}, attempts: ${run.attempts}`);
  console.log(`   the model receives: ${serializeToolResult(run.result)}`);
  for (const record of developerLog.slice(before)) {
    if (record.level === 'error') console.log(`   developer log [${record.event}]: ${record.error?.name}: ${record.error?.message} (arguments ${JSON.stringify(record.arguments)})`);
  }
}

const flat = await runTool(getWeather, '{"city": "Atlantis"}', { logger });
console.log(`\n${bold("RAF's flat error form (serializer option)")}`);
console.log(`   the model receives: ${serializeToolResult(flat.result, { errorFormat: 'flat' })}`);
