/** Reading the media types of `Accept` and `Content-Type` headers, for the servers we ship. */

/** The media types of an `Accept` or `Content-Type` header, lower case, parameters dropped. */
export function mediaTypes(header: string | null): string[] {
  if (header === null) return [];
  return header.split(',').map((part) => (part.split(';')[0] ?? '').trim().toLowerCase());
}

/**
 * True for `application/json` (with any parameters, `charset=utf-8`…), never for a type that merely contains it:
 * `text/plain; x=application/json` is a type a browser sends cross-origin without asking first.
 */
export function isJSONContentType(header: string | null): boolean {
  const types = mediaTypes(header);
  return types.length === 1 && types[0] === 'application/json';
}
