/**
 * Collecting everything the SDK produced in a scenario, as text, each piece labelled with where it came from — every
 * rendering of every error of a chain, tool log records, agent events, run items, runner events, raw payloads — and
 * finding planted needles (secrets) in it. Shared by the planted-secret suites.
 */
import { inspect } from 'node:util';
import type { AgentRunItem } from '../../src/agent/index.js';
import type { RunEvent } from '../../src/runner/index.js';
import type { ToolLogRecord } from '../../src/tools/index.js';

export interface Sighting {
  where: string;
  secret: string;
  around: string;
}

/** Every link of an error's chain: itself, its `cause`s and `AggregateError` members (cycle-safe, bounded). */
export function chainOf(error: unknown): unknown[] {
  const links: unknown[] = [];
  const queue: unknown[] = [error];
  while (queue.length > 0 && links.length < 50) {
    const link = queue.shift();
    if (link === undefined || link === null || links.includes(link)) continue;
    links.push(link);
    if (typeof link !== 'object') continue;
    const { cause, errors } = link as { cause?: unknown; errors?: unknown };
    if (cause !== undefined) queue.push(cause);
    if (Array.isArray(errors)) queue.push(...errors);
  }
  return links;
}

function attempt(render: () => unknown): string | undefined {
  try {
    const text = render();
    return typeof text === 'string' ? text : undefined;
  } catch (error) {
    return `[render failed: ${String(error)}]`;
  }
}

/** What the SDK produced in one scenario, as text, each piece labelled with where it came from. */
export class Evidence {
  constructor(private readonly needles: readonly string[]) {}

  private readonly texts: Array<{ where: string; text: string }> = [];
  readonly counts = { errors: 0, records: 0, events: 0, items: 0, values: 0 };
  /** The `event` of each tool log record, in order. */
  readonly logEvents: string[] = [];

  /** Raw text the SDK produced (an HTTP body it answered with, a console line). */
  text(where: string, text: string | undefined): void {
    this.add(where, text);
  }

  private add(where: string, text: string | undefined): void {
    if (text !== undefined) this.texts.push({ where, text });
  }

  /** An error: every rendering of every link of its chain. */
  error(where: string, error: unknown): void {
    this.counts.errors++;
    this.add(`${where} util.inspect`, inspect(error, { depth: 10 }));
    chainOf(error).forEach((link, index) => {
      const at = index === 0 ? where : `${where} cause[${index}]`;
      const object = typeof link === 'object' ? (link as Record<string, unknown>) : undefined;
      this.add(`${at} .message`, typeof object?.message === 'string' ? object.message : undefined);
      this.add(`${at} String()`, attempt(() => String(link)));
      this.add(`${at} JSON.stringify`, attempt(() => JSON.stringify(link)));
      if (typeof object?.toJSON === 'function') this.add(`${at} .toJSON()`, attempt(() => JSON.stringify((object.toJSON as () => unknown)())));
      this.add(`${at} .stack`, typeof object?.stack === 'string' ? object.stack : undefined);
    });
  }

  /** A plain value (a chunk, a notice, a tool result): its JSON. */
  value(where: string, value: unknown): void {
    this.counts.values++;
    this.add(where, attempt(() => JSON.stringify(value)));
  }

  record(record: ToolLogRecord): void {
    this.counts.records++;
    this.logEvents.push(record.event);
    this.add(`log ${record.event}`, JSON.stringify(record));
  }

  event(where: string, payload: unknown): void {
    this.counts.events++;
    this.add(`event ${where}`, attempt(() => JSON.stringify(payload)));
  }

  /** A run item: its JSON, and for an error item every rendering of the error. */
  item(item: AgentRunItem): void {
    this.counts.items++;
    this.add(`item ${item.type}`, attempt(() => JSON.stringify(item)));
    if (item.type === 'error') this.error(`item error (terminal: ${item.terminal})`, item.error);
  }

  runEvent(event: RunEvent): void {
    this.counts.events++;
    this.add(`run event ${event.response?.object ?? 'state'}`, JSON.stringify(event));
  }

  /** Where a secret appears, with a little context. */
  sightings(): Sighting[] {
    const found: Sighting[] = [];
    for (const { where, text } of this.texts) {
      for (const secret of this.needles) {
        const at = text.indexOf(secret);
        if (at !== -1) found.push({ where, secret, around: text.slice(Math.max(0, at - 60), at + secret.length + 20) });
      }
    }
    return found;
  }
}

