// The browser demo: the SDK from the script tag (window.Faultline), the same scenarios as the terminal demo.
// Everything shown is set with textContent: nothing from a tool or a model is ever parsed as HTML.
import { createDemoTools, createModelFailureClients, createScriptedModel, DEMO_QUESTION } from '../scenario.mjs';
import { consumeUntilCompletion, graphErrorScenarios } from '../graph-errors/scenarios.mjs';

const F = window.Faultline;
const $ = (selector) => document.querySelector(selector);
const element = (tag, text, attributes = {}) => {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  return node;
};

/** Shows the fields of the chosen model source only (the OpenAI endpoint fields, or Anthropic's). */
function showModelFields() {
  const source = $('#model-source').value;
  $('#real-fields').hidden = source !== 'real';
  $('#anthropic-fields').hidden = source !== 'anthropic';
}
$('#model-source').addEventListener('change', showModelFields);
showModelFields(); // a browser may restore a choice made before a reload
$('#question').textContent = `The user asks: “${DEMO_QUESTION}”`;

/**
 * The model: the scripted one, a real OpenAI-compatible endpoint, or Anthropic — a key lives only in this function
 * call and the client (which keeps it out of every error and event); it is never logged nor shown.
 */
function chosenModel() {
  const source = $('#model-source').value;
  if (source === 'anthropic') {
    const apiKey = $('#anthropic-key').value.trim();
    if (!apiKey) throw new Error('Paste an Anthropic API key to use Claude.');
    const baseURL = $('#anthropic-base-url').value.trim();
    const model = $('#anthropic-model').value.trim() || 'claude-sonnet-4-5';
    // browser: true sends anthropic-dangerous-direct-browser-access: true, without which Anthropic refuses a page's call.
    return F.createAnthropicClient({ apiKey, model, maxTokens: 1024, browser: true, ...(baseURL ? { baseURL } : {}) });
  }
  if (source !== 'real') return createScriptedModel(F);
  const apiKey = $('#api-key').value.trim();
  if (!apiKey) throw new Error('Paste an API key to use a real endpoint.');
  return F.createOpenAICompatibleClient({ baseURL: $('#base-url').value.trim(), model: $('#model-name').value.trim(), apiKey });
}

function toolCard(call) {
  const card = element('article', undefined, { class: 'card', 'data-call-id': call.id, 'data-ok': 'pending' });
  card.append(element('h3', `${call.name}(${call.arguments})`));
  const status = element('p', 'running…', { class: 'note' });
  card.append(status);
  $('#cards').append(card);
  return card;
}

function settleCard(card, item, retries) {
  card.dataset.ok = String(item.ok);
  card.dataset.outcome = item.outcome;
  card.querySelector('.note').remove();
  const meta = element('p');
  meta.append(element('span', item.outcome, { class: 'badge outcome' }), element('span', `${item.attempts} attempt(s)`, { class: 'badge' }));
  if (item.result.error) meta.append(element('span', item.result.error.type, { class: 'badge error-type' }));
  card.append(meta);
  for (const retry of retries) card.append(element('p', `retried after attempt ${retry.attempt}: waited ${retry.delayMs} ms (${retry.error.type})`, { class: 'note retry' }));
  card.append(element('p', 'The model receives:', { class: 'note' }), element('pre', JSON.stringify(JSON.parse(item.content), null, 2), { class: 'model-json' }));
}

$('#agent-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  const button = $('#run-agent');
  button.disabled = true;
  $('#cards').replaceChildren();
  $('#answer').textContent = '';
  $('#agent-status').textContent = 'Running…';
  const cards = new Map();
  const retries = new Map();
  let text = '';
  try {
    const agent = new F.AgentBuilder('web-demo')
      .chatClient(chosenModel())
      .instructions('You are a support assistant. Use the tools; when a tool fails, read its error and suggestion, then carry on.')
      .tools(createDemoTools(F))
      .maxIterations(4)
      .toolLogger(() => {})
      .build();
    agent.on('retry', (notice) => {
      if (notice.source === 'tool') retries.set(notice.callId, [...(retries.get(notice.callId) ?? []), notice]);
    });
    for await (const item of await agent.run(DEMO_QUESTION)) {
      if (item.type === 'tool-call') cards.set(item.call.id, toolCard(item.call));
      if (item.type === 'tool-result') settleCard(cards.get(item.callId) ?? toolCard({ id: item.callId, name: item.toolName, arguments: '' }), item, retries.get(item.callId) ?? []);
      if (item.type === 'text-delta') text += item.delta;
      if (item.type === 'error' && item.terminal) throw item.error;
      if (item.type === 'finish') $('#agent-status').textContent = `Finished (${item.finishReason}) after ${item.iterations} model call(s).`;
    }
    $('#answer').textContent = text;
  } catch (error) {
    $('#agent-status').textContent = `The run failed: ${error?.name ?? 'Error'}: ${error?.message ?? error}`;
    $('#answer').textContent = text; // what the model said before the failure is kept, never replayed
  } finally {
    button.disabled = false;
  }
});

$('#run-model-failures').addEventListener('click', async () => {
  const list = $('#model-results');
  list.replaceChildren();
  const { retrying, fallback, cut } = createModelFailureClients(F);
  for (const [title, client] of [
    ['429 with Retry-After, retried before any output', retrying],
    ['a failing primary model, then the backup', fallback],
    ['a connection dropped after output', cut],
  ]) {
    const notes = [];
    const agent = new F.AgentBuilder('model-demo').chatClient(client).build();
    agent.on('retry', (event) => notes.push(event.fallbackTo ? `fell back to ${event.fallbackTo}` : `retried after ${event.delayMs} ms`));
    try {
      const result = await F.collectAgentRun(await agent.run('Say something.'));
      list.append(element('li', `${title}: “${result.text}” ${notes.join(', ')}${result.errors.length ? ` (recoverable: ${result.errors.map((error) => error.message).join('; ')})` : ''}`, { 'data-result': 'ok' }));
    } catch (error) {
      list.append(element('li', `${title}: terminal ${error.name} (${error.reason ?? ''}): ${error.message}`, { 'data-result': 'error' }));
    }
  }
});

$('#run-graph').addEventListener('click', async () => {
  const name = $('#graph-scenario').value;
  const graph = graphErrorScenarios(F)[name]();
  const runner = new F.Runner({ appName: 'web-demo', agent: F.createGraphAgent(name, graph) });
  const summary = await consumeUntilCompletion(F, runner.run({ userId: 'visitor', sessionId: name, message: 'place order 42' }));
  const error = summary.transportError;
  $('#transport-error').textContent = error ? `transport error: type=${error.type} code=${error.code ?? ''} message=${error.message}` : 'no transport error: the run completed';
  const rows = summary.executionErrors.map((record) => {
    const row = element('tr', undefined, { 'data-severity': record.severity });
    for (const cell of [record.severity, record.nodeName ?? record.nodeId ?? '', record.path?.join(' / ') ?? '', record.error?.code ?? '', record.error?.message ?? '']) row.append(element('td', cell));
    return row;
  });
  $('#execution-errors tbody').replaceChildren(...rows);
  $('#graph-state').textContent = `state: ${JSON.stringify(summary.state)}`;
});
