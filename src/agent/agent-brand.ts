/**
 * @internal The brand of an `Agent`, in a module of its own: code that only needs to tell an `Agent` from other
 * agents (the runner, the A2A handler, the Worker setup) checks the brand instead of `instanceof Agent`, so it does
 * not load the agent loop, the chat clients and the tools to do it (an `instanceof` would make
 * `import('faultline/a2a')` load about 30 more modules). `Symbol.for`: it also holds across bundles and realms, as the errors' brands do.
 */
export const AGENT_BRAND: unique symbol = Symbol.for('faultline.agent') as never;

/** True for an `Agent` built by `AgentBuilder` (from any copy of the package). */
export function isAgent(value: unknown): boolean {
  return typeof value === 'object' && value !== null && (value as { [AGENT_BRAND]?: unknown })[AGENT_BRAND] === true;
}
