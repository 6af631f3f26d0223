// The browser demo: the SDK from the script tag (window.Faultline), the same scenarios as the terminal demo.
// Everything shown is set with textContent: nothing from a tool or a model is ever parsed as HTML.
import { createDemoTools, createModelFailureClients, createScriptedModel, DEMO_QUESTION } from '../scenario.mjs';
import { consumeUntilCompletion, graphErrorScenarios } from '../graph-errors/scenarios.mjs';
import { $, badge, element, settleCard, toolCard } from './cards.mjs';
import { drawGraph } from './graph-drawing.mjs';

const F = window.Faultline;

/** Shows the fields of the chosen model source only (the OpenAI endpoint fields, or Anthropic's). */
function showModelFields() {
  const source = $('#model-source').value;
  $('#real-fields').hidden = source !== 'real';
  $('#anthropic-fields').hidden = source !== 'anthropic';
}
$('#model-source').addEventListener('change', showModelFields);
showModelFields(); // a browser may restore a choice made before a reload
$('#question').textContent = DEMO_QUESTION;
$('.facts').append(element('a', 'The same failures in a useChat app: npm run demo:chat, then open 127.0.0.1:4174', { href: 'http://127.0.0.1:4174/', class: 'chat-demo-link', style: 'color: #fff' }));

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

/** The transcript: the user's turn, then one block per model call (its reasoning, text and tool calls). */
function createTranscript() {
  for (const turn of document.querySelectorAll('#transcript .turn-model')) turn.remove();
  const turns = new Map();
  const turnFor = (iteration) => {
    if (turns.has(iteration)) return turns.get(iteration);
    const node = element('li', undefined, { class: 'turn turn-model', 'data-speaker': 'model', 'data-iteration': String(iteration) });
    const head = element('div', undefined, { class: 'turn-head' });
    const meta = element('span', `model call ${iteration}`, { class: 'turn-meta' });
    head.append(element('span', 'Model', { class: 'speaker' }), meta);
    node.append(head);
    $('#transcript').append(node);
    const turn = { node, meta, reasoning: undefined, text: undefined, cards: undefined, calls: 0 };
    turns.set(iteration, turn);
    return turn;
  };
  const append = (turn, part, kind, text) => {
    if (!turn[part]) {
      turn[part] = element('p', '', { class: kind });
      turn.node.insertBefore(turn[part], part === 'reasoning' ? turn.node.children[1] ?? null : turn.cards?.parentElement ?? null);
    }
    turn[part].textContent += text;
  };
  return {
    reasoning: (iteration, delta) => append(turnFor(iteration), 'reasoning', 'reasoning', delta),
    text: (iteration, delta) => append(turnFor(iteration), 'text', 'turn-text', delta),
    cardsOf(iteration) {
      const turn = turnFor(iteration);
      if (!turn.cards) {
        const block = element('div', undefined, { class: 'tool-calls' });
        turn.callsTitle = element('p', '', { class: 'tool-calls-title' });
        turn.cards = element('div', undefined, { class: 'cards' });
        block.append(turn.callsTitle, turn.cards);
        turn.node.append(block);
      }
      turn.calls++;
      turn.callsTitle.textContent = `${turn.calls} tool call${turn.calls === 1 ? '' : 's'} · each card is what the model gets back`;
      return turn.cards;
    },
    /** Marks the last turn that said something: the final answer (#answer), or the text kept when the run failed. */
    close(failed) {
      const last = [...turns.values()].reverse().find((turn) => turn.text);
      if (!last) return;
      last.text.id = 'answer';
      last.node.classList.add(failed ? 'turn-cut' : 'turn-final');
      last.meta.textContent += failed ? ' · stopped by the failure' : ' · final answer';
    },
  };
}

$('#toggle-json').addEventListener('click', () => {
  const button = $('#toggle-json');
  const open = button.getAttribute('aria-pressed') !== 'true';
  for (const details of document.querySelectorAll('#transcript details.json')) details.open = open;
  button.setAttribute('aria-pressed', String(open));
  button.textContent = open ? 'Collapse all JSON' : 'Expand all JSON';
});

$('#agent-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  const button = $('#run-agent');
  button.disabled = true;
  $('#toggle-json').setAttribute('aria-pressed', 'false');
  $('#toggle-json').textContent = 'Expand all JSON';
  $('#agent-status').textContent = 'Running…';
  const transcript = createTranscript();
  const cards = new Map();
  const retries = new Map();
  const records = new Map(); // the developer log, by call: what the sink got, never shown to the model
  try {
    const agent = new F.AgentBuilder('web-demo')
      .chatClient(chosenModel())
      .instructions('You are a support assistant. Use the tools; when a tool fails, read its error and suggestion, then carry on.')
      .tools(createDemoTools(F))
      .maxIterations(4)
      .toolLogger((record) => records.set(record.callId, [...(records.get(record.callId) ?? []), record]))
      .build();
    agent.on('retry', (notice) => {
      if (notice.source === 'tool') retries.set(notice.callId, [...(retries.get(notice.callId) ?? []), notice]);
    });
    for await (const item of agent.run(DEMO_QUESTION)) {
      if (item.type === 'reasoning-delta') transcript.reasoning(item.iteration, item.delta);
      if (item.type === 'text-delta') transcript.text(item.iteration, item.delta);
      if (item.type === 'tool-call') cards.set(item.call.id, toolCard(transcript.cardsOf(item.iteration), item.call));
      if (item.type === 'tool-result') {
        const card = cards.get(item.callId) ?? toolCard(transcript.cardsOf(item.iteration), { id: item.callId, name: item.toolName, arguments: '' });
        // The first card opens its payload: what the model gets is the point of the page.
        settleCard(card, item, { retries: retries.get(item.callId) ?? [], records: records.get(item.callId) ?? [], open: card === cards.values().next().value });
      }
      if (item.type === 'error' && item.terminal) throw item.error;
      if (item.type === 'finish') $('#agent-status').textContent = `Finished (${item.finishReason}) after ${item.iterations} model call(s).`;
    }
    transcript.close(false);
  } catch (error) {
    $('#agent-status').textContent = `The run failed: ${error?.name ?? 'Error'}: ${error?.message ?? error}`;
    transcript.close(true); // what the model said before the failure is kept, never replayed
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
    const line = (result, label, text) => {
      const item = element('li', undefined, { 'data-result': result });
      item.append(badge('result', label, `result:${label}`), element('span', `${title}: ${text}`, { class: 'result-text' }));
      list.append(item);
    };
    try {
      const result = await F.collectAgentRun(agent.run('Say something.'));
      line('ok', 'recovered', `“${result.text}” ${notes.join(', ')}${result.errors.length ? ` (recoverable: ${result.errors.map((error) => error.message).join('; ')})` : ''}`);
    } catch (error) {
      line('error', 'terminal', `terminal ${error.name} (${error.reason ?? ''}): ${error.message}`);
    }
  }
});

const COLUMNS = ['severity', 'node', 'path', 'code', 'message'];

/** A record row; a fatal record in a run that completed says the parent recovered (the failure stayed in its child). */
function recordRows(record, completed) {
  const row = element('tr', undefined, { 'data-severity': record.severity });
  const cells = [record.severity, record.nodeName ?? record.nodeId ?? '', record.path?.join(' / ') ?? '', record.error?.code ?? '', record.error?.message ?? ''];
  cells.forEach((cell, index) => {
    const td = element('td', index === 0 ? undefined : cell, { 'data-label': COLUMNS[index] });
    if (index === 0) td.append(badge('severity', cell, `severity:${cell}`));
    row.append(td);
  });
  if (record.severity !== 'fatal' || !completed) return [row];
  const where = record.path?.length ? `the child graph “${record.path.join(' / ')}”` : `node “${cells[1]}”`;
  const note = element('tr', undefined, { class: 'record-note', 'data-note': 'parent-recovered' });
  note.append(element('td', `↳ The parent recovered: this fatal error stopped ${where} only; the parent graph received it as a record and completed the run.`, { colspan: String(COLUMNS.length) }));
  return [row, note];
}

/** The graph that ran, drawn from its compiled structure and the run's records; redrawn when the screen turns narrow. */
const narrow = window.matchMedia('(max-width: 640px)');
let lastGraph;
function showGraphDrawing() {
  if (!lastGraph) return;
  $('#graph-drawing svg')?.remove();
  $('#graph-drawing').prepend(drawGraph(lastGraph.name, lastGraph.parts, lastGraph.records, narrow.matches));
  $('#graph-drawing').hidden = false;
}
narrow.addEventListener('change', showGraphDrawing);

$('#run-graph').addEventListener('click', async () => {
  const name = $('#graph-scenario').value;
  const graph = graphErrorScenarios(F)[name]();
  const runner = new F.Runner({ appName: 'web-demo', agent: F.createGraphAgent(name, graph) });
  const summary = await consumeUntilCompletion(F, runner.run({ userId: 'visitor', sessionId: name, message: 'place order 42' }));
  const error = summary.transportError;
  const verdict = badge('run', error ? 'run failed' : 'run completed', error ? 'run:failed' : 'run:completed');
  verdict.id = 'graph-verdict';
  $('#graph-verdict').replaceWith(verdict);
  $('#transport-error').textContent = error ? `transport error: type=${error.type} code=${error.code ?? ''} message=${error.message}` : 'no transport error: the run completed';
  $('#graph-outcome').hidden = false;
  $('#execution-errors tbody').replaceChildren(...summary.executionErrors.flatMap((record) => recordRows(record, !error)));
  $('#graph-records').hidden = summary.executionErrors.length === 0;
  lastGraph = { name, parts: graph.parts, records: summary.executionErrors };
  showGraphDrawing();
  const state = $('#graph-state');
  const pretty = JSON.stringify(summary.state, null, 2);
  state.querySelector('.json-peek').textContent = `{ ${Object.keys(summary.state).join(', ')} } · ${pretty.split('\n').length} lines`;
  state.querySelector('pre').textContent = pretty;
  state.hidden = false;
});
