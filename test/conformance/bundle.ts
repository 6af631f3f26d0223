/** Bundles an ES module with its dependencies (as wrangler or any bundler would), for runtimes without node_modules. */
import nodeResolve from '@rollup/plugin-node-resolve';
import { rollup } from 'rollup';

export async function bundle(entry: string, conditions: string[] = ['workerd', 'worker', 'browser']): Promise<string> {
  const build = await rollup({ input: entry, plugins: [nodeResolve({ browser: true, exportConditions: conditions })], onwarn: () => {} });
  try {
    const { output } = await build.generate({ format: 'es', inlineDynamicImports: true });
    return output[0].code;
  } finally {
    await build.close();
  }
}
