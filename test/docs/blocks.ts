// What the docs-execution test reads: every ```ts, ```js and ```tsx block of README.md and docs/**/*.md, with the
// marker on the line before it (`<!-- fragment: what it is -->` for a block that is type-checked only) and what it
// says it prints (each `// prints: …` comment, in order).
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';

export const root = join(import.meta.dirname, '..', '..');

export interface DocsBlock {
  /** Where the block is, as `file:line` of its first code line (repository-relative). */
  where: string;
  file: string;
  line: number;
  tag: 'ts' | 'js' | 'tsx';
  code: string;
  /** The first non-empty line, to name the block in a test. */
  title: string;
  /** Set when the block is marked `<!-- fragment: … -->`: the reason; it is type-checked, not run. */
  fragment: string | undefined;
  /** What the block says it prints, in order (`// prints: …`). */
  prints: string[];
}

function markdownFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return markdownFiles(path);
    return entry.name.endsWith('.md') ? [path] : [];
  });
}

/** The documentation files whose blocks are checked: the README, then every page under docs/. */
export function documentationFiles(): string[] {
  return [join(root, 'README.md'), ...markdownFiles(join(root, 'docs')).sort()];
}

const fragmentMarker = /^\s*<!--\s*fragment\b:?\s*(.*?)\s*-->\s*$/;

/** The checked blocks of one markdown file. */
export function blocksOf(path: string): DocsBlock[] {
  const file = relative(root, path);
  const lines = readFileSync(path, 'utf8').split('\n');
  const blocks: DocsBlock[] = [];
  let open: { tag: string; line: number; body: string[]; fragment: string | undefined } | undefined;
  lines.forEach((text, index) => {
    if (open === undefined) {
      const fence = /^\s*```\s*([\w-]*)/.exec(text);
      if (!fence) return;
      const marker = fragmentMarker.exec(lines[index - 1] ?? '');
      open = { tag: fence[1] ?? '', line: index + 2, body: [], fragment: marker ? marker[1] || 'a fragment' : undefined };
    } else if (/^\s*```\s*$/.test(text)) {
      const { tag } = open;
      if (tag === 'ts' || tag === 'js' || tag === 'tsx') {
        const code = open.body.join('\n');
        const prints = open.body.flatMap((line) => /\/\/\s*prints:\s*(.*?)\s*$/.exec(line)?.[1] ?? []);
        blocks.push({
          where: `${file}:${open.line}`, file, line: open.line, tag, code,
          title: open.body.find((line) => line.trim() !== '')?.trim() ?? '(empty)',
          fragment: open.fragment, prints,
        });
      }
      open = undefined;
    } else {
      open.body.push(text);
    }
  });
  return blocks;
}

export function allBlocks(): DocsBlock[] {
  return documentationFiles().flatMap(blocksOf);
}
