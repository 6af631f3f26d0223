// The graph engine: µs per node-step on a 100-node linear graph and a 1000-step conditional loop, against a plain
// async loop doing the same work; the error path (a node failing and recovered through the collector) against the
// same graph succeeding; and a zero-delay node retry, which must not pay a timer.
import { ExecutionErrorCollector, recoverableError, StateGraph, StateSchema } from '../dist/index.js';
import { compare, fixed, jsonLine, table } from './lib.mjs';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const increment = (state) => ({ count: state.count + 1 });

function linear(nodes) {
  let graph = new StateGraph(new StateSchema().addField('count', { default: () => 0 }));
  for (let index = 0; index < nodes; index++) {
    graph = graph.addNode(`n${index}`, increment);
    if (index > 0) graph = graph.addEdge(`n${index - 1}`, `n${index}`);
  }
  return graph.setEntryPoint('n0').setFinishPoint(`n${nodes - 1}`).compile();
}

function loop(steps) {
  return new StateGraph(new StateSchema().addField('count', { default: () => 0 }))
    .addNode('step', increment)
    .addNode('done', () => ({}))
    .addConditionalEdges('step', (state) => (state.count < steps ? 'step' : 'done'))
    .setEntryPoint('step')
    .setFinishPoint('done')
    .compile({ stepLimit: steps + 10 });
}

/**
 * Two nodes with the collector wired in; the first fails recoverably when `fail` is set: with an error it builds
 * (`'fresh'`, what real nodes do) or one built once beforehand (`'prebuilt'`: the SDK's own cost, without the stack
 * capture of a new Error).
 */
const PREBUILT = recoverableError('inventory lookup timed out', { code: 'SOFT_TIMEOUT' });
function withCollector(fail) {
  const collector = new ExecutionErrorCollector();
  return new StateGraph(collector.addField(new StateSchema().addField('count', { default: () => 0 })))
    .withNodeCallbacks(collector.nodeCallbacks())
    .addNode('lookup', (state) => {
      if (fail === 'fresh') throw recoverableError('inventory lookup timed out', { code: 'SOFT_TIMEOUT' });
      if (fail === 'prebuilt') throw PREBUILT;
      if (fail === 'build-only') recoverableError('inventory lookup timed out', { code: 'SOFT_TIMEOUT' }); // built, not thrown
      return increment(state);
    })
    .addNode('finalize', increment)
    .addEdge('lookup', 'finalize')
    .setEntryPoint('lookup')
    .setFinishPoint('finalize')
    .compile();
}

/** One node failing once with a retryable error, retried with no delay. */
function retriedOnce() {
  let calls = 0;
  return new StateGraph(new StateSchema().addField('count', { default: () => 0 }))
    .addNode(
      'flaky',
      (state) => {
        if (++calls % 2 === 1) throw Object.assign(new Error('transient'), { retryable: true });
        return increment(state);
      },
      { retry: { maxAttempts: 2, initialDelayMs: 0, jitter: 'none' } },
    )
    .setEntryPoint('flaky')
    .setFinishPoint('flaky')
    .compile();
}

async function plainLoop(steps) {
  let state = { count: 0 };
  for (let index = 0; index < steps; index++) state = { ...state, ...(await increment(state)) };
  return state;
}

const repeat = (times, run) => async () => {
  for (let index = 0; index < times; index++) await run();
};
const linear100 = linear(100);
const loop1000 = loop(1000);
const succeeding = withCollector(false);
const failing = withCollector('fresh');
const failingPrebuilt = withCollector('prebuilt');
const buildsAnError = withCollector('build-only');
const flaky = retriedOnce();
const single = withCollector(false);

const check = async () => {
  if ((await linear100.invoke()).count !== 100) throw new Error('linear graph');
  if ((await loop1000.invoke()).count !== 1000) throw new Error('loop graph');
  const recovered = await failing.invoke();
  if (recovered.execution_errors.length !== 1 || recovered.count !== 1) throw new Error('recovered graph');
  if ((await failingPrebuilt.invoke()).execution_errors.length !== 1) throw new Error('recovered graph (prebuilt error)');
  if ((await flaky.invoke()).count !== 1) throw new Error('retried graph');
};
await check();

const REPS = 200;
const results = await compare(
  {
    'linear 100 nodes': repeat(REPS, () => linear100.invoke()),
    'plain loop 100 steps': repeat(REPS, () => plainLoop(100)),
    'conditional loop 1000 steps': repeat(REPS / 10, () => loop1000.invoke()),
    'plain loop 1000 steps': repeat(REPS / 10, () => plainLoop(1000)),
    'collector graph, success': repeat(REPS * 10, () => succeeding.invoke()),
    'collector graph, a node fails and is recovered': repeat(REPS * 10, () => failing.invoke()),
    'collector graph, a prebuilt error is recovered': repeat(REPS * 10, () => failingPrebuilt.invoke()),
    'collector graph, a node builds an Error and succeeds': repeat(REPS * 10, () => buildsAnError.invoke()),
    'a node retried once with zero delay': repeat(REPS * 10, () => flaky.invoke()),
    'the same graph shape succeeding first time': repeat(REPS * 10, () => single.invoke()),
  },
  { warmup: 2, rounds: ROUNDS },
);
const us = (name, units) => (results[name].median * 1000) / units;
const linearStep = us('linear 100 nodes', REPS * 100);
const loopStep = us('conditional loop 1000 steps', (REPS / 10) * 1000);
const errorExtra = us('collector graph, a node fails and is recovered', REPS * 10) - us('collector graph, success', REPS * 10);
const sdkErrorExtra = us('collector graph, a prebuilt error is recovered', REPS * 10) - us('collector graph, success', REPS * 10);
const buildExtra = us('collector graph, a node builds an Error and succeeds', REPS * 10) - us('collector graph, success', REPS * 10);
const retryRun = us('a node retried once with zero delay', REPS * 10);
const plainStep = us('plain loop 100 steps', REPS * 100);
const plainLoopStep = us('plain loop 1000 steps', (REPS / 10) * 1000);
// The goal: a node-step within 10× the plain loop measured in the same run.
const RATIO_GOAL = 10;
const verdict = (ratio) => `${ratio.toFixed(1)}× the plain loop (goal ≤ ${RATIO_GOAL}×: ${ratio <= RATIO_GOAL ? 'met' : 'missed'})`;
table('Graph: µs per node-step and per run (median of rounds)', ['case', 'µs', 'baseline µs'], [
  ['linear 100 nodes, per step', linearStep.toFixed(2), plainStep.toFixed(3)],
  ['conditional loop 1000 steps, per step', loopStep.toFixed(2), plainLoopStep.toFixed(3)],
  ['collector graph (2 nodes), success, per run', us('collector graph, success', REPS * 10).toFixed(1), ''],
  ['  a node fails and is recovered, per run', us('collector graph, a node fails and is recovered', REPS * 10).toFixed(1), `+${errorExtra.toFixed(1)}`],
  ['  the same with a prebuilt error, per run', us('collector graph, a prebuilt error is recovered', REPS * 10).toFixed(1), `+${sdkErrorExtra.toFixed(1)}`],
  ['  a node only builds the Error, per run', us('collector graph, a node builds an Error and succeeds', REPS * 10).toFixed(1), `+${buildExtra.toFixed(1)}`],
  ['a node retried once with zero delay, per run', retryRun.toFixed(1), '(1 ms = a timer)'],
]);
console.log(`linear step: ${verdict(linearStep / plainStep)}; conditional loop step: ${verdict(loopStep / plainLoopStep)}`);
jsonLine('graph', { linearStepUs: fixed(linearStep), plainLinearStepUs: fixed(plainStep, 4), linearStepRatio: fixed(linearStep / plainStep, 1), loopStepRatio: fixed(loopStep / plainLoopStep, 1), loopStepUs: fixed(loopStep), errorPathExtraUs: fixed(errorExtra, 1), errorPathSdkExtraUs: fixed(sdkErrorExtra, 1), errorBuildInNodeUs: fixed(buildExtra, 1), zeroDelayRetryRunUs: fixed(retryRun, 1), targets: { stepUs: 10, stepRatio: RATIO_GOAL, errorPathExtraUs: 20, zeroDelayRetryRunUs: 1000 } });
