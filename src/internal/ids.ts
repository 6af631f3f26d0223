/**
 * Identifiers from one place: random v4 UUIDs from the platform's CSPRNG. `crypto.randomUUID` where it exists (Node,
 * Deno, Workers, secure browser contexts); elsewhere (pages served over plain HTTP) `crypto.getRandomValues`, drawn
 * 4 KB at a time — one call per id costs microseconds, and runs create an id per event.
 */
let HEX: string[] | undefined; // built on first use: most runtimes never need it
const POOL_SIZE = 4096;
let pool: Uint8Array | undefined;
let offset = POOL_SIZE;

function fromPool(): string {
  if (!pool || offset + 16 > POOL_SIZE) {
    pool ??= new Uint8Array(POOL_SIZE);
    globalThis.crypto.getRandomValues(pool);
    offset = 0;
  }
  HEX ??= Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));
  const table = HEX;
  const bytes = pool;
  const at = offset;
  offset += 16;
  const hex = (index: number) => table[bytes[at + index] as number] as string;
  const version = table[((bytes[at + 6] as number) & 0x0f) | 0x40] as string;
  const variant = table[((bytes[at + 8] as number) & 0x3f) | 0x80] as string;
  return `${hex(0)}${hex(1)}${hex(2)}${hex(3)}-${hex(4)}${hex(5)}-${version}${hex(7)}-${variant}${hex(9)}-${hex(10)}${hex(11)}${hex(12)}${hex(13)}${hex(14)}${hex(15)}`;
}

export function randomUUID(): string {
  const crypto = globalThis.crypto as Crypto & { randomUUID?: () => string };
  return typeof crypto.randomUUID === 'function' ? crypto.randomUUID() : fromPool();
}

/** `<prefix>-<uuid>`, e.g. `call-3f0c…`. */
export function createId(prefix: string): string {
  return `${prefix}-${randomUUID()}`;
}
