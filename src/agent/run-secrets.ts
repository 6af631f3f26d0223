/**
 * @internal The secrets of a run, kept with its stream so a reader that turns the stream into something else (the
 * web-UI encoder) removes the same strings the run does, without the caller repeating them.
 */
const secretsOf = new WeakMap<object, readonly string[]>();

/** Keeps `secrets` for `stream` (nothing when there are none). */
export function keepRunSecrets(stream: object, secrets: readonly string[]): void {
  if (secrets.length > 0) secretsOf.set(stream, secrets);
}

/** The secrets kept for `stream`: none for a stream this copy of the package did not make. */
export function runSecrets(stream: unknown): readonly string[] {
  return (typeof stream === 'object' && stream !== null && secretsOf.get(stream)) || [];
}
