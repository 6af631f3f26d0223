// What installing faultline asks of a user's machine: every runtime dependency and optional peer admits every Node
// version faultline's own `engines` claims (`npm install --engine-strict` on Node 20 works: nanoevents 10 declared
// Node ≥ 22 while we claim ≥ 20, so it was held at 9), and the LICENSE file is the license package.json names.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  license: string;
  engines: { node: string };
  dependencies: Record<string, string>;
  peerDependencies?: Record<string, string>;
};

/** The Node range a package declares (`*` when it declares none). */
function nodeRange(name: string): string {
  const installed = JSON.parse(readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8')) as { engines?: { node?: string } };
  return installed.engines?.node ?? '*';
}

describe('engines', () => {
  it('claims a Node range', () => {
    expect(semver.validRange(manifest.engines.node)).not.toBeNull();
  });

  for (const name of [...Object.keys(manifest.dependencies), ...Object.keys(manifest.peerDependencies ?? {})]) {
    it(`${name} (installed) admits every Node version faultline claims (${manifest.engines.node})`, () => {
      const range = nodeRange(name);
      expect(semver.subset(manifest.engines.node, range), `${name} declares node ${range}`).toBe(true);
    });
  }

  it('the check catches a dependency that wants a newer Node than we claim', () => {
    expect(semver.subset('>=20', '^22.0.0 || ^24.0.0 || >=26.0.0')).toBe(false); // nanoevents 10
    expect(semver.subset('>=20', '^18.0.0 || >=20.0.0')).toBe(true); // nanoevents 9
  });
});

describe('LICENSE', () => {
  it('is the MIT license package.json names', () => {
    expect(manifest.license).toBe('MIT');
    const text = readFileSync(join(root, 'LICENSE'), 'utf8');
    expect(text).toMatch(/^MIT License\n/);
    expect(text).toContain('Permission is hereby granted, free of charge');
  });
});
