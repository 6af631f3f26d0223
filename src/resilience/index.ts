export {
  createCircuitBreaker,
  type CircuitBreaker,
  type CircuitBreakerOptions,
  type CircuitPermit,
  type CircuitSnapshot,
  type CircuitState,
  type CircuitStateChange,
} from './circuit-breaker.js';
export { createRetryBudget, type RetryBudget, type RetryBudgetChange, type RetryBudgetOptions, type RetryBudgetStats } from './retry-budget.js';
export type { ResilienceOptions } from './guard.js';
export { CircuitOpenError, type CircuitOpenErrorOptions } from '../errors/circuit-open-error.js';
