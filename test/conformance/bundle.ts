/** Bundles an ES module with its dependencies (as wrangler or any bundler would), for runtimes without node_modules. */
// @ts-expect-error — plain JavaScript, shared with demo/worker/dev.mjs
export { bundle } from '../../demo/worker/bundle.mjs';
