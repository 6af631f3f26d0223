/**
 * @internal The secrets that travel with what runs: an agent, what wraps it (a runnable agent, a compiled graph with
 * agent nodes, a graph agent, a runner) and each run stream they make. A reader that turns a stream into something a
 * remote party sees (the web-UI and AG-UI encoders, the A2A handler) removes the same strings the agent does, without
 * the caller repeating them, however many wrappers sit between the agent and the reader.
 */
const secretsOf = /* @__PURE__ */ new WeakMap<object, readonly string[]>();

/** Keeps `secrets` for `holder` — an agent, a wrapper of one or a run stream (nothing when there are none). */
export function keepRunSecrets(holder: object, secrets: readonly string[]): void {
  if (secrets.length > 0) secretsOf.set(holder, secrets);
}

/** The secrets kept for `holder`: none for an object this copy of the package did not make or was given none. */
export function runSecrets(holder: unknown): readonly string[] {
  return (typeof holder === 'object' && holder !== null && secretsOf.get(holder)) || [];
}

/** Keeps for `holder` the secrets of every one of `parts` (a wrapper takes on the secrets of what it wraps). */
export function inheritRunSecrets(holder: object, parts: Iterable<unknown>): void {
  const all = new Set<string>();
  for (const part of parts) for (const secret of runSecrets(part)) all.add(secret);
  keepRunSecrets(holder, [...all]);
}
