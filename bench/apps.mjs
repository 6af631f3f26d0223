// What two small apps cost in the browser, bundled the way most users bundle (esbuild --bundle --minify, browser,
// ESM; gzip -9), from the built dist/ as users get it: an agent with one zod tool on the Chat Completions client, and
// a two-node graph with the execution-error collector under the Runner (the README's graph quick start). Beside them,
// the same agent with a zod/mini tool, and zod's own floor (an app that only builds and checks one z.object), so
// faultline's share of each app can be read off.
import { appProfile, esbuildApp } from './app-bundlers.mjs';
import { agentApp, GRAPH_APP } from './app-sources.mjs';
import { fixed, jsonLine, table } from './lib.mjs';

const KiB = 1024;

const APPS = {
  'agent + one zod tool': agentApp('zod'),
  'agent + one zod/mini tool': agentApp('zod/mini'),
  'zod alone (z.object + safeParse)': "import * as z from 'zod'; console.log(z.object({ city: z.string() }).safeParse({ city: 'Paris' }).success);",
  'two-node graph + collector + Runner': GRAPH_APP,
};

const sizes = {};
for (const [name, source] of Object.entries(APPS)) sizes[name] = await esbuildApp(source);
const zodFloor = sizes['zod alone (z.object + safeParse)'].gzip;
table('Apps in the browser (esbuild --bundle --minify, platform browser, from dist/; gzip -9)', ['app', 'min KiB', 'gzip KiB', 'faultline share (gzip − zod floor)'],
  Object.entries(sizes).map(([name, size]) => [name, fixed(size.minified / KiB, 1), fixed(size.gzip / KiB, 1), name.startsWith('agent + one zod tool') ? fixed((size.gzip - zodFloor) / KiB, 1) : '']));
// The profile behind the two goals: which folders of src/ each app's bytes come from (minified, before gzip).
for (const name of ['agent + one zod tool', 'two-node graph + collector + Runner']) {
  const profile = await appProfile(APPS[name]);
  const total = profile.reduce((sum, [, bytes]) => sum + bytes, 0);
  table(`Where "${name}" comes from (esbuild from src/, minified KiB by folder; the top 12)`, ['folder', 'min KiB', 'share'],
    profile.slice(0, 12).map(([folder, bytes]) => [folder, fixed(bytes / KiB, 1), `${fixed((100 * bytes) / total, 0)}%`]));
}
jsonLine('apps', {
  agentZodKiB: fixed(sizes['agent + one zod tool'].gzip / KiB, 2),
  agentZodMiniKiB: fixed(sizes['agent + one zod/mini tool'].gzip / KiB, 2),
  zodFloorKiB: fixed(zodFloor / KiB, 2),
  graphKiB: fixed(sizes['two-node graph + collector + Runner'].gzip / KiB, 2),
});
