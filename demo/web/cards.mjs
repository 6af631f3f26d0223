// The pieces the page is drawn with: elements, badges, JSON blocks, and the tool cards — each card shows the code that
// produced it, what the model receives, and, beside it, what the developer log got. Everything is set with
// textContent: nothing from a tool or a model is ever parsed as HTML.
import { SNIPPET_SOURCE, snippetFor } from './snippets.mjs';

export const $ = (selector) => document.querySelector(selector);

export const element = (tag, text, attributes = {}) => {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  return node;
};

const TONES = { success: 'ok', partial: 'warn', recoverable: 'warn', fatal: 'bad', recovered: 'ok', terminal: 'bad', 'run completed': 'ok', 'run failed': 'bad' };

/** A badge; `key` names its entry in the legend (#legend [data-key]), falling back to the kind's generic entry. */
export function badge(kind, label, key) {
  const known = key && document.querySelector(`#legend [data-key="${CSS.escape(key)}"]`) ? key : kind;
  return element('span', label, { class: `badge ${kind}`, 'data-key': known, 'data-tone': TONES[label] ?? (kind === 'outcome' ? 'bad' : 'neutral') });
}

/** A JSON value, pretty-printed in a <details>: collapsed to a one-line summary (title, size), all of it when opened. */
export function jsonDetails(title, value, preClass, detailsClass = '') {
  const pretty = JSON.stringify(value, null, 2);
  const details = element('details', undefined, { class: `json ${detailsClass}`.trim() });
  const summary = element('summary');
  summary.append(element('span', title, { class: 'json-title' }), element('span', `${pretty.split('\n').length} lines of JSON`, { class: 'json-peek' }));
  details.append(summary, element('pre', pretty, { class: preClass }));
  return details;
}

/** A stack as the log shows it, cut to its first frames: where it was thrown, not the whole trace. */
function stackSummary(stack) {
  const frames = String(stack).split('\n').filter((line) => /^\s*at\s/.test(line)).map((line) => line.trim());
  return frames.length > 2 ? [...frames.slice(0, 2), `… ${frames.length - 2} more frame(s)`] : frames;
}

/** A developer log record as the panel shows it: every field the sink got, the stack summarised. */
export function developerRecord(record) {
  const { toolName: _tool, callId: _call, timestamp: _time, ...shown } = record;
  if (!record.error) return shown;
  const { stack, ...error } = record.error;
  return { ...shown, error: stack === undefined ? error : { ...error, stack: stackSummary(stack) } };
}

/** An empty card for a tool call the model made: its name and arguments, until its result arrives. */
export function toolCard(container, call) {
  const card = element('article', undefined, { class: 'card', 'data-call-id': call.id, 'data-ok': 'pending' });
  const head = element('div', undefined, { class: 'card-head' });
  head.append(element('h3', call.name, { class: 'tool-name' }));
  if (call.arguments) head.append(element('code', call.arguments, { class: 'call-args' }));
  card.append(head, element('p', 'running…', { class: 'note pending' }));
  container.append(card);
  return card;
}

/** The excerpt of the scenario's code that produced this result. */
function codePanel(item) {
  const snippet = snippetFor(item);
  const figure = element('figure', undefined, { class: 'code', 'data-snippet': snippet?.id ?? 'none' });
  figure.append(element('figcaption', `The code · ${SNIPPET_SOURCE}`));
  figure.append(element('pre', snippet ? snippet.lines.join('\n') : '(a tool this page does not define)', { class: 'code-text' }));
  return figure;
}

/** What the developer got for this call: its log records (real error, cause, stack summary, redacted arguments). */
function developerPanel(item, records) {
  const value = { records: records.map(developerRecord), ...(item.cause === undefined ? {} : { failure: item.cause }), durationMs: item.durationMs };
  const details = jsonDetails('Developer log', value, 'dev-json', 'dev');
  // Expected endings are not logged: a success, and an error result the tool chose to return.
  const quiet = { success: 'the call succeeded', error_result: 'the tool returned this error result itself' }[item.outcome] ?? 'none for this call';
  details.querySelector('.json-peek').textContent = records.length ? `${records.length} record(s): ${records.map((record) => record.event).join(', ')}` : `no records: ${quiet}`;
  return details;
}

/** Fills a card with how the call ended: badges, retries, then the code, the model's side and the developer's. */
export function settleCard(card, item, { retries = [], records = [], open = false } = {}) {
  card.dataset.ok = String(item.ok);
  card.dataset.outcome = item.outcome;
  card.querySelector('.pending')?.remove();
  const meta = element('p', undefined, { class: 'badges' });
  meta.append(badge('outcome', item.outcome, `outcome:${item.outcome}`), badge('attempts', `${item.attempts} attempt(s)`, 'attempts'));
  if (item.result.error) meta.append(badge('error-type', item.result.error.type, `error-type:${item.result.error.type}`));
  card.querySelector('.card-head').append(meta);
  for (const retry of retries) card.querySelector('.card-head').append(element('p', `retried after attempt ${retry.attempt}: waited ${retry.delayMs} ms (${retry.error.type})`, { class: 'note retry' }));
  const model = jsonDetails('Model receives', JSON.parse(item.content), 'model-json', 'model');
  model.open = open;
  const sides = element('div', undefined, { class: 'sides' });
  sides.append(model, developerPanel(item, records));
  const body = element('div', undefined, { class: 'card-body' });
  body.append(codePanel(item), sides);
  card.append(body);
}
