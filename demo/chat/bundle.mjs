// Bundles a React page (JSX, @ai-sdk/react, ai, react-dom) for the browser with esbuild, from node_modules, in memory:
// the chat demo bundles its page when it starts, and the browser test of `useChat` bundles its own.
import { build } from 'esbuild';

/**
 * @param {string} entry path of the page's entry module (`.jsx`)
 * @returns {Promise<string>} one ES module for a `<script type="module">`
 */
export async function bundlePage(entry) {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    jsx: 'automatic',
    minify: true,
    legalComments: 'none',
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'silent',
  });
  return result.outputFiles[0].text;
}

/** The HTML page around a bundled module. */
export function pageHTML({ title, script = '/page.js', styles = '' }) {
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>${title}</title>
    ${styles ? `<link rel="stylesheet" href="${styles}" />` : ''}
  </head>
  <body>
    <div id="root"></div>
    <script type="module" src="${script}"></script>
  </body>
</html>
`;
}
