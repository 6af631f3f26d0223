// Bundles an ES module with its dependencies resolved from node_modules, as wrangler (or any bundler) would, for
// runtimes without node_modules: miniflare here, the workerd conformance suite in test/.
import nodeResolve from '@rollup/plugin-node-resolve';
import { rollup } from 'rollup';

/**
 * @param {string} entry path of the module to bundle
 * @param {string[]} [conditions] package export conditions, most specific first
 * @returns {Promise<string>} one ES module
 */
export async function bundle(entry, conditions = ['workerd', 'worker', 'browser']) {
  const build = await rollup({ input: entry, plugins: [nodeResolve({ browser: true, exportConditions: conditions })], onwarn: () => {} });
  try {
    const { output } = await build.generate({ format: 'es', inlineDynamicImports: true });
    return output[0].code;
  } finally {
    await build.close();
  }
}
