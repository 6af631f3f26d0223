// What a tool's parameter schema costs an app (which schema library to pick, by what it adds): the same one-tool agent bundled the way an
// app bundler would (rollup + node-resolve, browser, terser, gzip 9 — scripts/size.mjs), with the schema written each
// way. `zod/mini` has no JSON Schema converter on its Standard Schema, so it passes `jsonSchema: z.toJSONSchema(…)`.
import { bundleSize } from '../scripts/size.mjs';
import { jsonLine, table } from './lib.mjs';

const agent = (head, parameters) => `${head}
import { AgentBuilder, createOpenAICompatibleClient, defineTool } from 'faultline';
const getWeather = defineTool({ name: 'get_weather', description: 'Weather', ${parameters}, execute: ({ city }) => ({ city }) });
export const agent = new AgentBuilder('a').chatClient(createOpenAICompatibleClient({ baseURL: 'https://x.test/v1', model: 'm' })).tools([getWeather]).build();`;

const CASES = {
  "import { z } from 'zod'": agent("import { z } from 'zod';", 'parameters: z.object({ city: z.string() })'),
  "import * as z from 'zod'": agent("import * as z from 'zod';", 'parameters: z.object({ city: z.string() })'),
  "import * as z from 'zod/mini' + z.toJSONSchema": agent("import * as z from 'zod/mini';\nconst Params = z.object({ city: z.string() });", 'parameters: Params, jsonSchema: z.toJSONSchema(Params)'),
  'jsonSchema() from faultline (no zod)': agent("import { jsonSchema } from 'faultline';", "parameters: jsonSchema({ type: 'object', properties: { city: { type: 'string' } }, required: ['city'] })"),
};
const base = (await bundleSize(`import { AgentBuilder, createOpenAICompatibleClient } from 'faultline'; export const agent = new AgentBuilder('a').chatClient(createOpenAICompatibleClient({ baseURL: 'https://x.test/v1', model: 'm' })).build();`)).gzip;
const results = {};
for (const [name, code] of Object.entries(CASES)) results[name] = (await bundleSize(code)).gzip;
const KiB = 1024;
table('A one-tool agent, by how its parameter schema is written (min+gzip)', ['schema', 'bundle KiB', 'the schema’s share KiB'], [
  ...Object.entries(results).map(([name, gzip]) => [name, (gzip / KiB).toFixed(1), ((gzip - base) / KiB).toFixed(1)]),
  ['(the agent without a tool)', (base / KiB).toFixed(1), '0.0'],
]);
jsonLine('tool-schemas', Object.fromEntries(Object.entries(results).map(([name, gzip]) => [name, Number((gzip / KiB).toFixed(2))])));
