/** The random graphs of the property tests: a chain of nodes with random behaviours, extra edges and a step limit. */
import fc from 'fast-check';

/** How a node behaves: succeeds, fails recoverably or fatally, or fails every other time. */
export type Behaviour = 'ok' | 'recoverable' | 'fatal' | 'sometimes';

/** A random graph: node `n<i>` behaves as `behaviours[i]` after a delay of `delays[i]` ms. */
export interface GraphSpec {
  behaviours: Behaviour[];
  /** Extra edges beyond the chain i → i+1 (forward fan-out or loops back). */
  extraEdges: Array<[number, number]>;
  stepLimit: number;
  delays: number[];
}

/** Graphs of 2 to 7 nodes. */
export const specArbitrary: fc.Arbitrary<GraphSpec> = fc
  .integer({ min: 2, max: 7 })
  .chain((count) =>
    fc.record({
      behaviours: fc.array(fc.constantFrom<Behaviour>('ok', 'ok', 'recoverable', 'fatal', 'sometimes'), { minLength: count, maxLength: count }),
      extraEdges: fc.array(fc.tuple(fc.nat({ max: count - 1 }), fc.nat({ max: count - 1 })), { maxLength: count * 2 }),
      stepLimit: fc.integer({ min: 3, max: 15 }),
      delays: fc.array(fc.integer({ min: 0, max: 2 }), { minLength: count, maxLength: count }),
    }),
  );

