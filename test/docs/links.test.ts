// Every link in the README and docs/ leads somewhere: a relative link to a file that exists, an anchor to a heading
// of that page (GitHub's slugs: lower case, punctuation dropped, spaces as hyphens, repeats numbered).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');

function markdownFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? markdownFiles(join(folder, entry.name)) : entry.name.endsWith('.md') ? [join(folder, entry.name)] : []));
}

/** The text outside fenced code blocks (links inside code are code). */
function prose(text: string): string {
  return text.replace(/^```[\s\S]*?^```/gm, '');
}

/** GitHub's anchors of a page's headings. */
function anchors(file: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  for (const [, heading] of prose(readFileSync(file, 'utf8')).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = (heading as string)
      .toLowerCase()
      .replace(/<[^>]+>/g, '')
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    result.add(count === 0 ? base : `${base}-${count}`);
  }
  return result;
}

const FILES = [join(ROOT, 'README.md'), join(ROOT, 'CHANGELOG.md'), ...markdownFiles(join(ROOT, 'docs'))];

describe('links in the README and docs/', () => {
  it.each(FILES.map((file) => [relative(ROOT, file), file]))('%s: every relative link and anchor resolves', (_name, file) => {
    const broken: string[] = [];
    for (const [, target] of prose(readFileSync(file, 'utf8')).matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      const link = target as string;
      if (/^[a-z][a-z0-9+.-]*:/i.test(link)) continue; // https:, mailto:…
      const [path = '', anchor] = link.split('#');
      const resolved = path === '' ? file : join(dirname(file), decodeURIComponent(path));
      if (!existsSync(resolved)) {
        broken.push(`${link} (no file ${relative(ROOT, resolved)})`);
        continue;
      }
      if (anchor !== undefined && anchor !== '' && resolved.endsWith('.md') && !anchors(resolved).has(decodeURIComponent(anchor).toLowerCase())) broken.push(`${link} (no heading #${anchor} in ${relative(ROOT, resolved)})`);
    }
    expect(broken).toEqual([]);
  });
});
