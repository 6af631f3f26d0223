// The metadata tails a node step emits are written out as text in src/graph/run/metadata-tails.ts (module scope holds
// literals only, so a bundler can drop them): each must be exactly what metadataTail makes of its object, or node
// events would carry different metadata on the direct path and the general one.
import { describe, expect, it } from 'vitest';
import {
  metadataTail,
  PHASE_AFTER_CALLBACK,
  PHASE_COMPLETE,
  PHASE_COMPLETE_RECOVERED,
  PHASE_ERROR,
  PHASE_REDUCE,
  PHASE_START,
} from '../../src/graph/run/metadata-tails.js';

describe('node event metadata tails', () => {
  it.each([
    ['start', PHASE_START, { phase: 'start' }],
    ['error', PHASE_ERROR, { phase: 'error' }],
    ['complete', PHASE_COMPLETE, { phase: 'complete' }],
    ['complete, recovered', PHASE_COMPLETE_RECOVERED, { phase: 'complete', recovered: true }],
    ['reduce', PHASE_REDUCE, { phase: 'reduce' }],
    ['after_callback', PHASE_AFTER_CALLBACK, { phase: 'after_callback' }],
  ])('%s is metadataTail of its object', (_name, tail, object) => {
    expect(tail).toBe(metadataTail(object));
    // Appended after `{"stepNumber":1`, the tail closes one valid JSON object.
    expect(JSON.parse(`{"stepNumber":1${tail}`)).toEqual({ stepNumber: 1, ...object });
  });
});
