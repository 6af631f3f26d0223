// Runs demo/worker in miniflare (workerd, Cloudflare's runtime) on loopback with the settings of wrangler.toml,
// Durable Objects included: `npm run demo:worker [port] [--persist]`. Also used by the conformance suite, which starts
// it on a free port.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Miniflare } from 'miniflare';
import { bundle } from './bundle.mjs';

const HERE = import.meta.dirname;

/**
 * The wrangler.toml keys the demo uses: `name`, `main`, `compatibility_date`, `compatibility_flags`, the
 * `[[durable_objects.bindings]]` tables and the `[[migrations]]` that make a class SQLite-backed. (A TOML subset:
 * `key = value` lines with JSON-compatible values, and `[[array.of.tables]]` headers.)
 * @returns {{ name: string, main: string, compatibilityDate: string, compatibilityFlags: string[],
 *   durableObjects: Array<{ name: string, className: string, useSQLite: boolean }> }}
 */
export function readWranglerConfig(path = join(HERE, 'wrangler.toml')) {
  const top = {};
  const tables = {};
  let current = top;
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    const text = line.replace(/#.*$/, '').trim();
    const header = /^\[\[([a-z_.]+)\]\]$/.exec(text);
    if (header) {
      current = {};
      (tables[header[1]] ??= []).push(current);
      continue;
    }
    const match = /^([a-z_]+)\s*=\s*(.+)$/.exec(text);
    if (match) current[match[1]] = JSON.parse(match[2]);
  }
  const sqlite = new Set((tables.migrations ?? []).flatMap((migration) => migration.new_sqlite_classes ?? []));
  return {
    name: top.name,
    main: top.main,
    compatibilityDate: top.compatibility_date,
    compatibilityFlags: top.compatibility_flags ?? [],
    durableObjects: (tables['durable_objects.bindings'] ?? []).map((binding) => ({ name: binding.name, className: binding.class_name, useSQLite: sqlite.has(binding.class_name) })),
  };
}

/**
 * Starts the Worker on loopback, with its Durable Object bindings.
 * @param {{ port?: number, persist?: string }} [options] port 0 picks a free one; `persist`: a folder that keeps the
 *   objects' storage across restarts (like `wrangler dev --persist-to`)
 * @returns {Promise<{ url: string, close: () => Promise<void> }>}
 */
export async function startWorkerDemo({ port = 8787, persist } = {}) {
  const config = readWranglerConfig();
  const worker = new Miniflare({
    name: config.name,
    modules: true,
    script: await bundle(join(HERE, config.main)),
    compatibilityDate: config.compatibilityDate,
    compatibilityFlags: config.compatibilityFlags,
    durableObjects: Object.fromEntries(config.durableObjects.map((binding) => [binding.name, { className: binding.className, useSQLite: binding.useSQLite }])),
    ...(persist ? { durableObjectsPersist: persist } : {}),
    host: '127.0.0.1',
    port,
  });
  const url = (await worker.ready).href;
  return { url, close: () => worker.dispose() };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const persist = process.argv.includes('--persist') ? join(HERE, '.state') : undefined;
  const server = await startWorkerDemo({ port: Number(process.argv.find((arg) => /^\d+$/.test(arg)) ?? 8787), persist });
  console.log(`A2A demo on Durable Objects (workerd, no nodejs_compat) on ${server.url} — agent card at ${server.url}.well-known/agent-card.json`);
  console.log(persist ? `Tasks and sessions persist in ${persist} across restarts.` : 'Tasks and sessions live until you stop it (add --persist to keep them across restarts).');
  console.log('Try: curl -s -X POST -H content-type:application/json --data \'{"jsonrpc":"2.0","id":1,"method":"message/send","params":{"message":{"kind":"message","messageId":"m1","role":"user","parts":[{"kind":"text","text":"write order 1"}]}}}\' ' + server.url);
  const stop = async () => (await server.close(), process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
