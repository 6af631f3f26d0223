// The terminal demo: an agent whose tools fail in every way, run on the built-in scripted model (offline) or on a
// real endpoint when OPENAI_API_KEY is set. It prints what the model called, the exact tool message the model
// received, recoverable and terminal errors, and the events developers get. Run: `npm run demo`.
import * as F from 'faultline';
import { createDemoTools, createModelFailureClients, createRealModel, createScriptedModel, DEMO_QUESTION } from './scenario.mjs';

const tty = process.stdout.isTTY;
const bold = (text) => (tty ? `\x1b[1m${text}\x1b[0m` : text);
const dim = (text) => (tty ? `\x1b[2m${text}\x1b[0m` : text);
const red = (text) => (tty ? `\x1b[31m${text}\x1b[0m` : text);
const short = (text, limit = 400) => (text.length > limit ? `${text.slice(0, limit - 1)}…` : text);

const { AgentBuilder, collectAgentRun } = F;
const real = createRealModel(F, process.env);
const model = real ?? createScriptedModel(F);
const developerLog = [];
const agent = new AgentBuilder('demo-agent')
  .chatClient(model)
  .instructions('You are a support assistant. Use the tools; when a tool fails, read its error and suggestion, then carry on.')
  .tools(createDemoTools(F))
  .maxIterations(4)
  .toolLogger((record) => developerLog.push(record))
  .build();
agent.on('retry', (event) => console.log(dim(`   ↻ ${event.source}${event.toolName ? ` ${event.toolName} (${event.callId})` : ''} retry after attempt ${event.attempt}: waiting ${event.delayMs} ms${event.fallbackTo ? ` (falling back to ${event.fallbackTo})` : ''}`)));

console.log(bold(`\n== The agent loop on ${real ? `a real endpoint (${model.name})` : 'the built-in scripted model (offline)'} ==`));
console.log(`user: ${DEMO_QUESTION}`);
await print(agent.run(DEMO_QUESTION));

console.log(bold('\n== Model-level failures (offline) =='));
const { retrying, fallback, cut } = createModelFailureClients(F);
for (const [title, client] of [
  ['429 with Retry-After, retried before any output, then streamed', retrying],
  ['A failing primary model, and a fallback to a backup', fallback],
  ['A connection dropped after output: reported, never replayed', cut],
]) {
  console.log(bold(`\n-- ${title}`));
  const modelAgent = new AgentBuilder('model-demo').chatClient(client).build();
  modelAgent.on('retry', (event) => console.log(dim(`   ↻ model retry after attempt ${event.attempt}: waiting ${event.delayMs} ms${event.fallbackTo ? ` (falling back to ${event.fallbackTo})` : ''}`)));
  await print(modelAgent.run('Say something.'));
}

console.log(bold('\n== The same run, collected =='));
try {
  const result = await collectAgentRun(new AgentBuilder('collect-demo').chatClient(createModelFailureClients(F).cut).build().run('Say something.'));
  console.log(result.text);
} catch (error) {
  console.log(`collectAgentRun rejected with the terminal error: ${error.name} (${error.reason}): ${error.message}`);
}

console.log(bold(`\n== The developer's layer: ${developerLog.length} tool log records (kept as data by toolLogger; arguments redacted) ==`));
for (const record of developerLog) {
  const said = record.error && !record.message.includes(record.error.message) ? ` — ${record.error.name}: ${short(record.error.message, 160)}` : '';
  const error = `${said}${record.error?.stack ? dim(' (stack kept)') : ''}`;
  console.log(`${record.level === 'error' ? red(record.level.padEnd(5)) : dim(record.level.padEnd(5))} ${record.event} ${bold(record.toolName)} ${dim(record.callId)}: ${short(record.message, 200)}${error}`);
}

async function print(stream) {
  let text = '';
  let reasoning = '';
  const flush = () => {
    if (reasoning) console.log(dim(`reasoning: ${reasoning}`));
    if (text) console.log(`assistant: ${text}`);
    text = '';
    reasoning = '';
  };
  for await (const item of stream) {
    switch (item.type) {
      case 'text-delta':
        text += item.delta;
        break;
      case 'reasoning-delta':
        reasoning += item.delta;
        break;
      case 'tool-call':
        flush();
        console.log(`model called ${bold(item.call.name)}(${item.call.arguments})  ${dim(item.call.id)}`);
        break;
      case 'tool-result':
        console.log(`\n${dim(item.callId)} ${bold(item.toolName)} → ${item.ok ? 'ok' : red(item.outcome)} after ${item.attempts} attempt(s); the model receives:\n   ${short(item.content)}`);
        // The same failure on the developer's side: the real error behind what the model was told (redacted).
        if (item.outcome === 'crash' && item.cause) console.log(dim(`   the developer sees the real crash: ${item.cause.name}: ${short(String(item.cause.message), 200)}`));
        break;
      case 'error':
        flush();
        console.log(item.terminal ? red(`terminal error (last item): ${item.error.name}: ${item.error.message}`) : `recoverable error (the run goes on)${item.error.callId ? ` ${dim(item.error.callId)}` : ''}: ${item.error.name}: ${item.error.message}`);
        break;
      case 'finish':
        flush();
        console.log(dim(`finish: ${item.finishReason} after ${item.iterations} model call(s), ${item.usage.totalTokens} tokens`));
        break;
      default:
        break;
    }
  }
  flush();
}
