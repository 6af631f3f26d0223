// The MCP demo: our MCP server (createMCPHandler behind Node's http, on 127.0.0.1) serves tools that fail in every
// way; an agent whose tools come from createMCPClient({ url }).tools() calls each one once. For every call it prints
// what the model saw (the tool message), whether the same tool run locally would have shown the model the same thing,
// and what the developer logs got. Offline on the scripted model; a real endpoint when OPENAI_API_KEY is set (as in
// demo/terminal.mjs). Run: `npm run demo:mcp`.
import * as F from 'faultline';
import { serve } from '../node/serve.mjs';
import { createRealModel } from '../scenario.mjs';
import { createOrderTools, INTERNAL_HOST, PLANTED_KEY, SERVER_INFO } from './orders.mjs';
import { createScriptedOrderModel, MCP_DEMO_QUESTION, SCRIPTED_CALLS } from './script.mjs';

const tty = process.stdout.isTTY && !process.env.NO_COLOR;
const bold = (text) => (tty ? `\x1b[1m${text}\x1b[0m` : text);
const dim = (text) => (tty ? `\x1b[2m${text}\x1b[0m` : text);
const red = (text) => (tty ? `\x1b[31m${text}\x1b[0m` : text);
const green = (text) => (tty ? `\x1b[32m${text}\x1b[0m` : text);
const short = (text, limit = 300) => (text.length > limit ? `${text.slice(0, limit - 1)}…` : text);
const ROOT = new URL('../../', import.meta.url).href;

const { AgentBuilder, createMCPClient, createMCPHandler, runToolCall, toolRunContent } = F;

// The server side: the tools, their developer log, the planted key declared as a secret.
const serverLog = [];
const localTools = createOrderTools(F);
const handler = createMCPHandler({ tools: localTools, serverInfo: SERVER_INFO, secrets: [PLANTED_KEY], logger: (record) => serverLog.push(record) });
const server = await serve(handler);
const url = `${server.url}/mcp`;

// The client side: an agent whose tools are the server's.
const client = createMCPClient({ url, retry: false });
const agentLog = [];
const real = createRealModel(F, process.env);
const model = real ?? createScriptedOrderModel(F);
const seen = [];
try {
  const tools = await client.tools();
  console.log(bold(`\n== An MCP server on ${url} (${client.server?.serverInfo.name} ${client.server?.serverInfo.version}, protocol ${client.server?.protocolVersion}) ==`));
  for (const tool of tools) console.log(`   ${bold(tool.name)}: ${tool.description}  ${dim(JSON.stringify(tool.jsonSchema.properties))}`);

  const agent = new AgentBuilder('order-desk-agent')
    .chatClient(model)
    .instructions('You are a support assistant. Use the tools; when a tool fails, read its error and suggestion, then carry on.')
    .tools(tools)
    .maxIterations(SCRIPTED_CALLS.length + 2)
    .toolLogger((record) => agentLog.push(record))
    .build();

  console.log(bold(`\n== The agent, on ${real ? `a real endpoint (${model.name})` : 'the built-in scripted model (offline)'}, with the MCP tools ==`));
  console.log(`user: ${MCP_DEMO_QUESTION}`);
  let text = '';
  const calls = new Map();
  let logged = { server: 0, agent: 0 };
  for await (const item of agent.run(MCP_DEMO_QUESTION)) {
    if (item.type === 'text-delta') text += item.delta;
    else if (item.type === 'tool-call') calls.set(item.call.id, item.call);
    else if (item.type === 'tool-result') {
      const call = calls.get(item.callId);
      const records = { server: serverLog.slice(logged.server), agent: agentLog.slice(logged.agent) };
      logged = { server: serverLog.length, agent: agentLog.length };
      seen.push({ call, item, records });
    } else if (item.type === 'error') console.log(item.terminal ? red(`terminal error: ${item.error.name}: ${item.error.message}`) : `recoverable error: ${item.error.name}: ${item.error.message}`);
    else if (item.type === 'finish') text = item.text;
  }

  // The same calls against the same tools, locally (no MCP): what the model would have seen then.
  const localLog = [];
  for (const entry of seen) {
    entry.local = toolRunContent(await runToolCall(localTools, entry.call, { logger: (record) => localLog.push(record), secrets: [PLANTED_KEY] }));
  }

  for (const [index, { call, item, records, local }] of seen.entries()) {
    const scripted = real ? undefined : SCRIPTED_CALLS[index];
    const verdict = item.ok ? green('ok') : red(item.result.error?.type ?? 'error');
    console.log(`\n${bold(`${index + 1}. ${call.name}`)}(${call.arguments}) → ${verdict}${scripted ? dim(`  — ${scripted.shows}`) : ''}`);
    console.log(`   model saw:       ${short(item.content, 600)}`);
    if (local === item.content) console.log(`   as a local tool: ${green('identical ✓')}`);
    else {
      const localType = JSON.parse(local).error?.type ?? 'ok';
      const same = localType === (item.result.error?.type ?? 'ok');
      console.log(`   as a local tool: ${same ? green(`the same type (${localType}) ✓`) : red(`a different type: ${localType}`)}; the local wording:`);
      console.log(`                    ${dim(short(local, 600))}`);
    }
    const lines = [...records.server.map((record) => ['server', record]), ...records.agent.map((record) => ['agent', record])];
    if (lines.length === 0) console.log(`   developer log:   ${dim('nothing (nothing went wrong)')}`);
    for (const [position, [side, record]] of lines.entries()) {
      const label = position === 0 ? '   developer log:   ' : '                    ';
      const where = side === 'server' ? 'server (the tool ran there)' : 'agent  (the client side)';
      console.log(`${label}${where}: ${record.level} ${record.event}: ${short(record.message, 400)}`);
      const frame = record.error?.stack?.split('\n').find((line) => line.trim().startsWith('at '));
      if (frame) console.log(`                    ${dim(`${' '.repeat(where.length + 2)}${record.error.name} with its stack, ${frame.trim().replace(ROOT, '')}`)}`);
    }
  }
  console.log(`\nassistant: ${text}`);

  // What must hold: the model never saw the key or the host; nothing anywhere (model, client, logs) held the key.
  const modelFacing = seen.map((entry) => entry.item.content).join('\n');
  const everything = JSON.stringify([seen.map((entry) => [entry.item, entry.local]), serverLog, agentLog, localLog]);
  const clientSide = JSON.stringify([seen.map((entry) => entry.item), agentLog]);
  const identical = seen.filter((entry) => entry.local === entry.item.content).length;
  const sameType = seen.filter((entry) => (JSON.parse(entry.local).error?.type ?? 'ok') === (entry.item.result.error?.type ?? 'ok')).length;
  const leaks = [
    modelFacing.includes(PLANTED_KEY) && 'the planted key reached the model',
    modelFacing.includes(INTERNAL_HOST) && 'the internal host name reached the model',
    clientSide.includes(INTERNAL_HOST) && 'the internal host name reached the client',
    everything.includes(PLANTED_KEY) && 'the planted key reached a result or a log record',
  ].filter(Boolean);
  console.log(bold('\n== Summary =='));
  console.log(
    `${seen.length} MCP tool calls: the model saw the same error type as from the same tool run locally for ${sameType} of them, byte for byte the same tool message for ${identical}` +
      (identical === seen.length
        ? '.'
        : seen.every((entry) => entry.local === entry.item.content || entry.item.result.error?.type === 'InputValidationError')
          ? ` (where the wording differs, the client checked the arguments against the server's JSON Schema, where a local run checks the tool's zod schema).`
          : ' (see above).'),
  );
  console.log(
    leaks.length === 0
      ? green(`The planted key appeared nowhere (model, results, logs); the internal host name only in the server's developer log.`)
      : red(`LEAK: ${leaks.join('; ')}`),
  );
  if (leaks.length > 0) process.exitCode = 1;
} finally {
  await client.close();
  await server.close();
}
