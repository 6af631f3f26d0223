// The code behind each tool card: short excerpts of demo/scenario.mjs, the tool definitions the agent on this page runs.
// Every line is a line of that file, verbatim ('…' marks lines left out), and `key` is the call that produced the card:
// test/demo/web-demo-product.test.ts checks both against the file, so an excerpt cannot drift from the code it shows.

export const SNIPPET_SOURCE = 'demo/scenario.mjs';

/**
 * One excerpt per way a call of the demo's tools ends, chosen by tool, outcome and the model-facing error type. The
 * first that matches wins; the last ones are the catch-alls (any other call of a tool, a tool that does not exist).
 */
export const SNIPPETS = [
  {
    id: 'profile-success',
    match: { tool: 'get_user_profile', outcome: 'success' },
    key: 'return response.json();',
    lines: ['const response = await userAPI(user_id, key);', '…', 'return response.json();'],
  },
  {
    id: 'profile-schema',
    match: { tool: 'get_user_profile', outcome: 'invalid_arguments' },
    key: "...schema(F, { user_id: { type: 'number' } }),",
    lines: [
      'const schema = (F, properties, required = Object.keys(properties)) => ({ parameters: F.jsonSchema({ type: \'object\', properties, required }) });',
      '…',
      "name: 'get_user_profile',",
      '…',
      "...schema(F, { user_id: { type: 'number' } }),",
    ],
  },
  {
    id: 'profile-not-found',
    match: { tool: 'get_user_profile', outcome: 'failure', type: 'DataNotFoundError' },
    key: 'throw new DataNotFoundError(',
    lines: ['if (user_id === 404) throw new DataNotFoundError(`No profile found for user_id: ${user_id}.`, { context: { user_id } });'],
  },
  {
    id: 'profile-auth',
    match: { tool: 'get_user_profile', outcome: 'failure' },
    key: 'throw await toolErrorFromResponse(',
    lines: [
      "const key = user_id === 401 ? 'sk-demo-expired-key-999999' : 'sk-demo-valid-key-000000';",
      'const response = await userAPI(user_id, key);',
      "if (!response.ok) throw await toolErrorFromResponse(response, { service: 'User Profile', secrets: [key] });",
    ],
  },
  {
    id: 'profile-crash',
    match: { tool: 'get_user_profile', outcome: 'crash' },
    key: 'throw new TypeError(',
    lines: ['if (user_id === 500) throw new TypeError("Cannot read properties of undefined (reading \'rows\')");'],
  },
  {
    id: 'weather-partial',
    match: { tool: 'get_weather', outcome: 'partial' },
    key: 'return ToolResult.partial(',
    lines: [
      'retry: { maxAttempts: 3, initialDelayMs: 50, maxDelayMs: 200 },',
      '…',
      "if (weatherCalls === 1) throw new RateLimitError('The weather API rate limit was reached.', { retryAfterMs: 100 });",
      "return ToolResult.partial({ city, temperature_c: 21, conditions: 'sunny' }, { forecast: new NetworkError('The forecast service could not be reached.') });",
    ],
  },
  {
    id: 'weather-error-result',
    match: { tool: 'get_weather', outcome: 'error_result' },
    key: 'return ToolResult.error(',
    lines: [
      "if (city === 'Atlantis') return ToolResult.error({ type: 'DataNotFoundError', message: `There is no weather station in '${city}'.`, suggestion: 'Check the spelling of the city name.' });",
    ],
  },
  {
    id: 'search-timeout',
    match: { tool: 'search', outcome: 'timeout' },
    key: 'timeoutMs: 300,',
    lines: ['timeoutMs: 300,', 'execute: () => new Promise(() => {}), // never settles and ignores its signal: the timeout still fires'],
  },
  {
    id: 'unknown-tool',
    match: { outcome: 'not_found' },
    key: 'return [getUserProfile, getWeather, search];',
    lines: ['return [getUserProfile, getWeather, search];'],
  },
  { id: 'profile-tool', match: { tool: 'get_user_profile' }, key: "name: 'get_user_profile',", lines: ["name: 'get_user_profile',", "description: 'Fetch a user profile by numeric id.',"] },
  { id: 'weather-tool', match: { tool: 'get_weather' }, key: "name: 'get_weather',", lines: ["name: 'get_weather',", "description: 'Current weather and forecast for a city.',"] },
  { id: 'search-tool', match: { tool: 'search' }, key: "name: 'search',", lines: ["name: 'search',", "description: 'Search the web.',"] },
];

/** The excerpt behind a tool result (`{ toolName, outcome, result }` of a `tool-result` item), or undefined. */
export function snippetFor({ toolName, outcome, result }) {
  const type = result?.error?.type;
  return SNIPPETS.find(({ match }) => (match.tool === undefined || match.tool === toolName) && (match.outcome === undefined || match.outcome === outcome) && (match.type === undefined || match.type === type));
}
