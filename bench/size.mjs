// Size of what ships (min+gzip; each entry bundled with its dependencies and tree-shaken — scripts/size.mjs), printed
// with the budgets npm test enforces and the size targets.
import { measureAll } from '../scripts/size.mjs';
import { jsonLine, table } from './lib.mjs';

const TARGETS = {
  'faultline.iife.js (script tag)': 30 * 1024,
  'an agent with tools (chat+agent+tools+errors)': 15 * 1024,
  'the A2A client': 10 * 1024,
  // this round's bundle goals, for the apps they name (esbuild, browser)
  'an agent with one zod tool (browser app, esbuild)': 46 * 1024,
  "the README's graph app: two nodes, collector, Runner (browser app, esbuild)": 23 * 1024,
};
const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
const results = await measureAll();
table('Size (min+gzip)', ['entry', 'min', 'gzip', 'budget', 'target'], results.map((result) => [result.name, kb(result.minified), kb(result.gzip), kb(result.budget), TARGETS[result.name] ? `${kb(TARGETS[result.name])}${result.gzip <= TARGETS[result.name] ? ' ✓' : ' ✗'}` : '']));
jsonLine('size', Object.fromEntries(results.map((result) => [result.name, { gzip: result.gzip, minified: result.minified, budget: result.budget, ...(TARGETS[result.name] ? { target: TARGETS[result.name] } : {}) }])));
