// Runs demo/worker in miniflare (workerd, Cloudflare's runtime) on loopback with the settings of wrangler.toml:
// `npm run demo:worker [port]`. Also used by the conformance suite, which starts it on a free port.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Miniflare } from 'miniflare';
import { bundle } from './bundle.mjs';

const HERE = import.meta.dirname;

/**
 * The few wrangler.toml keys the demo uses (`name`, `main`, `compatibility_date`, `compatibility_flags`).
 * @returns {{ name: string, main: string, compatibilityDate: string, compatibilityFlags: string[] }}
 */
export function readWranglerConfig(path = join(HERE, 'wrangler.toml')) {
  const values = {};
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    const match = /^\s*([a-z_]+)\s*=\s*(.+?)\s*$/.exec(line.replace(/#.*$/, ''));
    if (match) values[match[1]] = JSON.parse(match[2]);
  }
  return { name: values.name, main: values.main, compatibilityDate: values.compatibility_date, compatibilityFlags: values.compatibility_flags ?? [] };
}

/**
 * Starts the Worker on loopback.
 * @param {{ port?: number }} [options] port 0 picks a free one
 * @returns {Promise<{ url: string, close: () => Promise<void> }>}
 */
export async function startWorkerDemo({ port = 8787 } = {}) {
  const config = readWranglerConfig();
  const worker = new Miniflare({
    name: config.name,
    modules: true,
    script: await bundle(join(HERE, config.main)),
    compatibilityDate: config.compatibilityDate,
    compatibilityFlags: config.compatibilityFlags,
    host: '127.0.0.1',
    port,
  });
  const url = (await worker.ready).href;
  return { url, close: () => worker.dispose() };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const server = await startWorkerDemo({ port: Number(process.argv[2] ?? 8787) });
  console.log(`A2A demo Worker (workerd, no nodejs_compat) on ${server.url} — agent card at ${server.url}.well-known/agent-card.json`);
  console.log('Try: curl -s -X POST -H content-type:application/json --data \'{"jsonrpc":"2.0","id":1,"method":"message/send","params":{"message":{"kind":"message","messageId":"m1","role":"user","parts":[{"kind":"text","text":"write order 1"}]}}}\' ' + server.url);
  const stop = async () => (await server.close(), process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
