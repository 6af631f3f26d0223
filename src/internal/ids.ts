/**
 * Identifiers from one place. Uses `crypto.getRandomValues` (available in every runtime, including pages served
 * over plain HTTP where `crypto.randomUUID` is missing).
 */
export function randomUUID(): string {
  const bytes = new Uint8Array(16);
  globalThis.crypto.getRandomValues(bytes);
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  let hex = '';
  for (const byte of bytes) hex += byte.toString(16).padStart(2, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** `<prefix>-<uuid>`, e.g. `call-3f0c…`. */
export function createId(prefix: string): string {
  return `${prefix}-${randomUUID()}`;
}
