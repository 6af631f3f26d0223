/**
 * Identifiers from one place: random v4 UUIDs from the platform's CSPRNG. `crypto.randomUUID` where it exists (Node,
 * Deno, Workers, secure browser contexts); elsewhere (pages served over plain HTTP) `crypto.getRandomValues`, drawn
 * 4 KB at a time — one call per id costs microseconds, and runs create an id per event.
 */
const POOL_SIZE = 4096;
let pool: Uint8Array | undefined;
let offset = POOL_SIZE;

function fromPool(): string {
  if (!pool || offset + 16 > POOL_SIZE) {
    pool ??= new Uint8Array(POOL_SIZE);
    globalThis.crypto.getRandomValues(pool);
    offset = 0;
  }
  const bytes = pool.subarray(offset, (offset += 16)); // each 16 bytes are used once: set the version and variant in place
  bytes[6] = ((bytes[6] as number) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] as number) & 0x3f) | 0x80;
  let id = '';
  bytes.forEach((byte, index) => (id += (index === 4 || index === 6 || index === 8 || index === 10 ? '-' : '') + (byte | 256).toString(16).slice(1)));
  return id;
}

export function randomUUID(): string {
  const crypto = globalThis.crypto as Crypto & { randomUUID?: () => string };
  return typeof crypto.randomUUID === 'function' ? crypto.randomUUID() : fromPool();
}

/** `<prefix>-<uuid>`, e.g. `call-3f0c…`. */
export function createId(prefix: string): string {
  return `${prefix}-${randomUUID()}`;
}
