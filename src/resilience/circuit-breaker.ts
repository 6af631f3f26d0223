/**
 * A circuit breaker keyed per dependency, shared by every client and run that is given it: closed → open after too
 * many *retryable* failures in a sliding window → half-open after a cool-down, letting a bounded number of probes
 * through → closed after a successful probe (open again after a failed one). It keeps no timer: every transition is
 * decided when a call asks, from the clock, so an idle breaker costs nothing and holds nothing alive.
 */
import { createNanoEvents } from 'nanoevents';
import { CircuitOpenError } from '../errors/circuit-open-error.js';
import { ConfigError } from '../errors/config-error.js';
import { isPlainObject, refusedValue } from '../internal/json.js';
import { SlidingCounts } from './sliding-counts.js';
import { unknownOptionProblems } from '../internal/option-names.js';
import { clockProblems } from './clock-option.js';

/** The state of one dependency's circuit. */
export type CircuitState = 'closed' | 'open' | 'half_open';

/** Options of {@link createCircuitBreaker}; every field is optional. */
export interface CircuitBreakerOptions {
  /** Retryable failures within `windowMs` that open a circuit. @default 5 */
  failureThreshold?: number | undefined;
  /**
   * Open on a failure *rate* instead (0 < rate ≤ 1): retryable failures / calls within `windowMs`, once at least
   * `minimumCalls` were made. When set, `failureThreshold` is not used.
   */
  failureRate?: number | undefined;
  /** Calls within the window before `failureRate` is judged. @default 10 */
  minimumCalls?: number | undefined;
  /** The sliding window failures are counted in, in ms (10 buckets). @default 30000 */
  windowMs?: number | undefined;
  /** How long an open circuit fails calls fast before it lets a probe through, in ms. @default 30000 */
  openMs?: number | undefined;
  /** Probes let through at once while half-open. @default 1 */
  halfOpenProbes?: number | undefined;
  /** Successful probes that close the circuit. @default 1 */
  successesToClose?: number | undefined;
  /**
   * A probe whose outcome never came (its caller vanished) stops holding its slot after this long, in ms.
   * @default 60000
   */
  probeTimeoutMs?: number | undefined;
  /** Circuits kept; past it the least recently used one is forgotten (it starts closed again). @default 1000 */
  maxDependencies?: number | undefined;
  /** The clock, in ms. @default Date.now */
  now?: (() => number) | undefined;
}

/** A circuit changed state (the payload of the `state` event). */
export interface CircuitStateChange {
  dependency: string;
  from: CircuitState;
  to: CircuitState;
  /** Clock time of the change, in ms. */
  at: number;
  /** Retryable failures and calls in the window when it changed. */
  failures: number;
  calls: number;
  /** Why: `failure_threshold`, `failure_rate`, `probe_failed`, `cooled_down`, `probe_succeeded`, `reset`. */
  reason: 'failure_threshold' | 'failure_rate' | 'probe_failed' | 'cooled_down' | 'probe_succeeded' | 'reset';
}

/** What one call reports back, exactly once (later reports are ignored). */
export interface CircuitPermit {
  /** The dependency answered (a non-retryable failure such as a 400 or a 401 counts as an answer). */
  success(): void;
  /** The call failed; only a `retryable` failure (429, 5xx, a timeout, the network) counts against the circuit. */
  failure(retryable: boolean): void;
  /** The call was abandoned (aborted): it counts for nothing and frees its probe slot. */
  release(): void;
}

/** One dependency's circuit, as `snapshot()` reports it. */
export interface CircuitSnapshot {
  dependency: string;
  state: CircuitState;
  failures: number;
  calls: number;
  /** Time until an open circuit lets a probe through, in ms (0 when closed or half-open). */
  retryAfterMs: number;
}

/**
 * A circuit breaker shared across clients and runs (see {@link createCircuitBreaker}).
 * @example `const permit = breaker.acquire('https://api.example.com'); try { … permit.success(); } catch { permit.failure(true); }`
 */
export interface CircuitBreaker {
  /** Lets a call through (a permit to report its outcome on) or throws a `CircuitOpenError` at once. */
  acquire(dependency: string): CircuitPermit;
  /** The dependency's current state (`closed` for one never seen). */
  state(dependency: string): CircuitState;
  /** Every circuit kept, least recently used first. */
  snapshot(): CircuitSnapshot[];
  /** Closes one circuit (or all) and forgets its counts. */
  reset(dependency?: string): void;
  /** Observes state changes; returns the function that unbinds the listener. A listener that throws is ignored. */
  on(event: 'state', listener: (change: CircuitStateChange) => void): () => void;
}

interface Circuit {
  state: CircuitState;
  counts: SlidingCounts;
  openedAt: number;
  /** Start times of the probes in flight. */
  probes: number[];
  successes: number;
}

/**
 * Creates a circuit breaker. Give the same one to every client of a dependency — chat clients, MCP clients, A2A
 * clients, tools (`circuitBreaker` option) — and each dependency gets its own circuit, keyed by the client: a chat
 * client by base URL and model, an MCP client by server URL, an A2A client by agent URL, a tool by its name. Invalid
 * options throw a `ConfigError` listing each problem.
 *
 * @example
 * ```ts
 * const breaker = createCircuitBreaker({ failureThreshold: 5, windowMs: 30_000, openMs: 15_000 });
 * breaker.on('state', (change) => console.warn(`${change.dependency}: ${change.from} → ${change.to}`));
 * const model = createOpenAICompatibleClient({ baseURL, apiKey, model: 'gpt-4.1', circuitBreaker: breaker });
 * ```
 */
export function createCircuitBreaker(options: CircuitBreakerOptions = {}): CircuitBreaker {
  const settings = resolve(options);
  const { now } = settings;
  const circuits = new Map<string, Circuit>();
  const emitter = createNanoEvents<{ state: (change: CircuitStateChange) => void }>();

  const circuitOf = (dependency: string): Circuit => {
    let circuit = circuits.get(dependency);
    if (circuit) {
      circuits.delete(dependency); // least recently used first
    } else {
      circuit = { state: 'closed', counts: new SlidingCounts(settings.windowMs), openedAt: 0, probes: [], successes: 0 };
      if (circuits.size >= settings.maxDependencies) circuits.delete(circuits.keys().next().value as string);
    }
    circuits.set(dependency, circuit);
    return circuit;
  };

  const move = (dependency: string, circuit: Circuit, to: CircuitState, reason: CircuitStateChange['reason'], at: number): void => {
    const from = circuit.state;
    if (from === to) return;
    const { failures, calls } = circuit.counts.totals(at);
    circuit.state = to;
    if (to === 'open') circuit.openedAt = at;
    if (to !== 'half_open') {
      circuit.probes = [];
      circuit.successes = 0;
    }
    if (to === 'closed') circuit.counts.clear();
    try {
      emitter.emit('state', { dependency, from, to, at, failures, calls, reason });
    } catch {
      // an observer's failure is not the call's
    }
  };

  const tripReason = (circuit: Circuit, at: number): CircuitStateChange['reason'] | undefined => {
    const { failures, calls } = circuit.counts.totals(at);
    if (settings.failureRate !== undefined) return calls >= settings.minimumCalls && failures / calls >= settings.failureRate ? 'failure_rate' : undefined;
    return failures >= settings.failureThreshold ? 'failure_threshold' : undefined;
  };

  const refused = (dependency: string, circuit: Circuit, at: number): CircuitOpenError => {
    const half = circuit.state === 'half_open';
    const retryAfterMs = half ? Math.max(0, Math.min(...circuit.probes) + settings.probeTimeoutMs - at) : Math.max(0, circuit.openedAt + settings.openMs - at);
    const why = half ? 'its probe is in flight' : `it failed too often; the next probe in ${Math.ceil(retryAfterMs / 1000)} s`;
    return new CircuitOpenError(`The circuit of ${dependency} is open: ${why}`, { dependency, retryAfterMs, state: half ? 'half_open' : 'open' });
  };

  return {
    acquire(given) {
      const dependency = String(given); // one key, one name: the circuit, its error and its events agree (plain JS may pass any value)
      const at = now();
      const circuit = circuitOf(dependency);
      if (circuit.state === 'open') {
        if (at < circuit.openedAt + settings.openMs) throw refused(dependency, circuit, at);
        move(dependency, circuit, 'half_open', 'cooled_down', at);
      }
      let probe = false;
      if (circuit.state === 'half_open') {
        circuit.probes = circuit.probes.filter((started) => at - started < settings.probeTimeoutMs); // forgotten probes
        if (circuit.probes.length >= settings.halfOpenProbes) throw refused(dependency, circuit, at);
        circuit.probes.push(at);
        probe = true;
      }
      const started = at;
      let settled = false;
      const settle = (outcome: 'success' | 'failure' | 'release'): void => {
        if (settled) return;
        settled = true;
        const when = now();
        if (probe) {
          const index = circuit.probes.indexOf(started);
          if (index >= 0) circuit.probes.splice(index, 1);
        }
        if (outcome === 'release') return;
        circuit.counts.add(when, outcome === 'failure');
        if (probe && circuit.state === 'half_open') {
          if (outcome === 'failure') move(dependency, circuit, 'open', 'probe_failed', when);
          else if (++circuit.successes >= settings.successesToClose) move(dependency, circuit, 'closed', 'probe_succeeded', when);
          return;
        }
        if (circuit.state === 'closed' && outcome === 'failure') {
          const reason = tripReason(circuit, when);
          if (reason) move(dependency, circuit, 'open', reason, when);
        }
      };
      return {
        success: () => settle('success'),
        failure: (retryable) => settle(retryable === true ? 'failure' : 'success'),
        release: () => settle('release'),
      };
    },
    state(dependency) {
      const circuit = circuits.get(String(dependency));
      if (!circuit) return 'closed';
      if (circuit.state === 'open' && now() >= circuit.openedAt + settings.openMs) return 'half_open'; // as the next call will find it
      return circuit.state;
    },
    snapshot() {
      const at = now();
      return [...circuits].map(([dependency, circuit]) => {
        const { failures, calls } = circuit.counts.totals(at);
        const retryAfterMs = circuit.state === 'open' ? Math.max(0, circuit.openedAt + settings.openMs - at) : 0;
        return { dependency, state: circuit.state === 'open' && retryAfterMs === 0 ? 'half_open' : circuit.state, failures, calls, retryAfterMs };
      });
    },
    reset(dependency) {
      const at = now();
      const targets = dependency === undefined ? [...circuits.keys()] : [String(dependency)];
      for (const key of targets) {
        const circuit = circuits.get(key);
        if (!circuit) continue;
        move(key, circuit, 'closed', 'reset', at);
        circuit.counts.clear();
      }
    },
    on(event, listener) {
      if (event !== 'state' || typeof listener !== 'function') throw ConfigError.fromProblems('circuit breaker listener', ["on() takes 'state' and a function"]);
      return emitter.on('state', listener);
    },
  };
}

type Resolved = Required<Omit<CircuitBreakerOptions, 'failureRate'>> & { failureRate?: number | undefined };

function resolve(options: CircuitBreakerOptions): Resolved {
  if (!isPlainObject(options as unknown)) throw ConfigError.fromProblems('circuit breaker options', ['options must be an object']);
  const problems: string[] = [];
  const count = (key: keyof CircuitBreakerOptions, fallback: number): number => {
    const value = options[key];
    if (value === undefined) return fallback;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) problems.push(`${key} must be an integer ≥ 1 (got ${refusedValue(value)})`);
    return value as number;
  };
  const duration = (key: keyof CircuitBreakerOptions, fallback: number): number => {
    const value = options[key];
    if (value === undefined) return fallback;
    if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) problems.push(`${key} must be a finite number of ms > 0 (got ${refusedValue(value)})`);
    return value as number;
  };
  const resolved: Resolved = {
    failureThreshold: count('failureThreshold', 5),
    minimumCalls: count('minimumCalls', 10),
    windowMs: duration('windowMs', 30_000),
    openMs: duration('openMs', 30_000),
    halfOpenProbes: count('halfOpenProbes', 1),
    successesToClose: count('successesToClose', 1),
    probeTimeoutMs: duration('probeTimeoutMs', 60_000),
    maxDependencies: count('maxDependencies', 1_000),
    now: options.now ?? (() => Date.now()),
  };
  if (options.failureRate !== undefined) {
    if (typeof options.failureRate !== 'number' || !(options.failureRate > 0 && options.failureRate <= 1)) problems.push(`failureRate must be a number in (0, 1] (got ${refusedValue(options.failureRate)})`);
    resolved.failureRate = options.failureRate;
  }
  problems.push(...clockProblems(resolved.now));
  problems.push(...unknownOptionProblems(options, ['failureThreshold', 'failureRate', 'minimumCalls', 'windowMs', 'openMs', 'halfOpenProbes', 'successesToClose', 'probeTimeoutMs', 'maxDependencies', 'now']));
  if (problems.length > 0) throw ConfigError.fromProblems('circuit breaker options', problems);
  return resolved;
}
