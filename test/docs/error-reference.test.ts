// The error reference (docs/errors/) is complete: every exported error class has its page, every stable code the
// framework raises has its section there, every model-facing error type has its section on the tool-results page,
// and every error's `docs` points at a page and section that exist. A new class, code or type without a page fails
// here; the pages' examples run in code-blocks.test.ts like every other block of docs/.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as errors from '../../src/errors/index.js';
import * as tools from '../../src/tools/index.js';
import { allBlocks } from './blocks.js';

const root = join(import.meta.dirname, '..', '..');
const folder = join(root, 'docs', 'errors');
const pages = new Map(readdirSync(folder).filter((name) => name.endsWith('.md')).map((name) => [name, readFileSync(join(folder, name), 'utf8')]));
/** The package's module entries (`types` + code); `./package.json` and the script-tag build are files. */
const entries = Object.entries((JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { exports: Record<string, unknown> }).exports)
  .filter(([, target]) => typeof target === 'object')
  .map(([entry]) => entry);

/** GitHub's anchor of a heading: lower case, punctuation other than `-` and `_` dropped, spaces as `-`. */
const anchor = (heading: string): string => heading.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
const headings = (text: string, level: number): string[] =>
  [...text.matchAll(new RegExp(`^${'#'.repeat(level)} (.+)$`, 'gm'))].map((match) => match[1]!.replace(/`/g, ''));
/** The text of a `## heading` section, up to the next `## `. */
function section(text: string, heading: string): string {
  const start = text.search(new RegExp(`^## \`?${heading}\`?\\s*$`, 'm'));
  const rest = text.slice(start + 3);
  const end = rest.search(/^## /m);
  return end === -1 ? rest : rest.slice(0, end);
}

async function exportedErrorClasses(): Promise<Array<[string, new (message: string) => errors.AgentError]>> {
  const modules = await Promise.all([
    import('../../src/index.js'), import('../../src/errors/index.js'), import('../../src/tools/index.js'), import('../../src/chat/index.js'),
    import('../../src/agent/index.js'), import('../../src/graph/index.js'), import('../../src/runner/index.js'), import('../../src/a2a/index.js'),
    import('../../src/cloudflare/index.js'), import('../../src/mcp/index.js'), import('../../src/resilience/index.js'),
    import('../../src/telemetry/index.js'), import('../../src/interrupts/index.js'), import('../../src/testing/index.js'),
    import('../../src/node/index.js'), import('../../src/ui/index.js'),
  ]);
  expect(modules.length, 'one module per package entry').toBe(entries.length);
  const found = new Map<string, new (message: string) => errors.AgentError>();
  for (const module of modules as Array<Record<string, unknown>>) {
    for (const [name, value] of Object.entries(module)) {
      if (typeof value === 'function' && (value === errors.AgentError || value.prototype instanceof errors.AgentError)) found.set(name, value as never);
    }
  }
  return [...found].sort(([a], [b]) => a.localeCompare(b));
}

// Upper-case snake strings in src that are not error codes, each with why. Any other such string is a code and needs
// a section in docs/errors/.
const NOT_CODES: Record<string, string> = {
  ERR_MODULE_NOT_FOUND: "Node's own code, read to tell a missing optional peer",
  ROOT_CONTEXT: "@opentelemetry/api's export, read from the API object the caller passes",
  REMOTE_VALIDATION_FAILED: "a remote agent's business code in faultline/testing's A2A fault preset",
  ROLE_AGENT: 'an A2A v1 wire enum value', ROLE_USER: 'an A2A v1 wire enum value', TASK_STATE_UNSPECIFIED: 'an A2A v1 wire enum value',
  ...Object.fromEntries(
    ['RUN_STARTED', 'RUN_FINISHED', 'RUN_ERROR', 'STEP_STARTED', 'STEP_FINISHED', 'TEXT_MESSAGE_START', 'TEXT_MESSAGE_CONTENT', 'TEXT_MESSAGE_END',
      'TOOL_CALL_START', 'TOOL_CALL_ARGS', 'TOOL_CALL_END', 'TOOL_CALL_RESULT', 'REASONING_START', 'REASONING_END', 'REASONING_MESSAGE_START',
      'REASONING_MESSAGE_CONTENT', 'REASONING_MESSAGE_END'].map((type) => [type, 'an AG-UI event type'])),
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? sourceFiles(path) : entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** Every upper-case snake string literal in src outside comments, with where it first appears. */
function sourceCodes(): Map<string, string> {
  const codes = new Map<string, string>();
  for (const file of sourceFiles(join(root, 'src'))) {
    readFileSync(file, 'utf8').split('\n').forEach((line, index) => {
      if (/^\s*(\*|\/\/|\/\*)/.test(line)) return;
      for (const match of line.replace(/\/\/.*$/, '').matchAll(/'([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)'/g)) {
        if (!codes.has(match[1]!)) codes.set(match[1]!, `${relative(root, file)}:${index + 1}`);
      }
    });
  }
  return codes;
}

const documentedCodes = new Map<string, string>();
for (const [name, text] of pages) for (const heading of headings(text, 2)) if (/^[A-Z][A-Z0-9_]+$/.test(heading)) documentedCodes.set(heading, name);

describe('the error reference (docs/errors/)', () => {
  it('has a page for every exported error class, and each error points at it', async () => {
    const classes = await exportedErrorClasses();
    expect(classes.length).toBeGreaterThanOrEqual(20);
    for (const [name, ErrorClass] of classes) {
      const error = new ErrorClass('a message');
      const [page, hash] = error.docs.split('#');
      expect(page, name).toMatch(/^faultline\/docs\/errors\/[a-z0-9-]+\.md$/);
      const text = pages.get(page!.slice('faultline/docs/errors/'.length));
      expect(text, `${name}: ${page} is missing`).toBeDefined();
      expect(text, `${page} does not name ${name}`).toContain(`\`${name}\``);
      if (hash !== undefined) expect(headings(text!, 2).map(anchor), `${name}: #${hash}`).toContain(hash);
    }
  });

  it('gives each class page what a caller needs: meaning, what to do, what the model is told, a running example', () => {
    const runnable = new Set(allBlocks().filter((block) => block.fragment === undefined).map((block) => block.file));
    for (const [name, text] of pages) {
      if (name === 'README.md' || name === 'tool-results.md') continue;
      expect(text, name).toMatch(/^# `[A-Za-z0-9]+`/);
      expect(text, name).toMatch(/^\| retryable \| .+ \|$/m);
      expect(text, name).toMatch(/^\| raised by \| .+ \|$/m);
      expect(headings(text, 2), name).toEqual(expect.arrayContaining(['What to do', 'What the model is told', 'Example']));
      expect(runnable.has(`docs/errors/${name}`), `${name} has no runnable example`).toBe(true);
    }
  });

  it('documents every stable code the framework raises, each section saying who raises it and whether to retry', () => {
    const undocumented = [...sourceCodes()].filter(([code]) => !documentedCodes.has(code) && !(code in NOT_CODES));
    expect(undocumented.map(([code, where]) => `${code} (${where})`)).toEqual([]);
    for (const [code, page] of documentedCodes) {
      const text = section(pages.get(page)!, code);
      expect(text, `${page}#${code.toLowerCase()}`).toMatch(/\*\*Raised by\*\*/);
      expect(text, `${page}#${code.toLowerCase()}`).toMatch(/\*\*Retryable\*\*/);
    }
  });

  it('lists every code and class in its index, with working links', () => {
    const index = pages.get('README.md')!;
    for (const [code, page] of documentedCodes) expect(index, code).toContain(`[\`${code}\`](${page}#${code.toLowerCase()})`);
    for (const name of pages.keys()) if (name !== 'README.md') expect(index, name).toContain(`(${name})`);
    for (const [, target, hash] of index.matchAll(/\]\(([a-z0-9-]+\.md)(?:#([a-z0-9_-]+))?\)/g)) {
      expect(pages.has(target!), target).toBe(true);
      if (hash) expect(headings(pages.get(target!)!, 2).map(anchor), `${target}#${hash}`).toContain(hash);
    }
  });

  it('documents every error type a model can be sent', () => {
    const failures = Object.entries(tools).filter(([, value]) => typeof value === 'function' && value.prototype instanceof tools.ToolFailure);
    const types = new Set([tools.GENERIC_TOOL_ERROR_TYPE, tools.PARTIAL_FAILURE_TYPE, ...failures.map(([name]) => name)]);
    for (const source of sourceFiles(join(root, 'src'))) {
      for (const match of readFileSync(source, 'utf8').matchAll(/export const [A-Z_]+_TYPE = '(Tool[A-Za-z]+)'/g)) types.add(match[1]!);
    }
    expect(types.size).toBeGreaterThanOrEqual(15);
    const page = pages.get('tool-results.md')!;
    for (const type of types) {
      expect(headings(page, 2), type).toContain(type);
      expect(section(page, type), type).toMatch(/\*\*Retryable\*\*/);
    }
  });

  it('keeps the anchor rule of AgentError.docs', () => {
    expect(new errors.WorkflowError('m', { code: 'STATE_INVALID' }).docs).toBe('faultline/docs/errors/workflow-error.md#state_invalid');
    expect(new errors.AgentError('m').docs).toBe('faultline/docs/errors/agent-error.md');
    expect(new errors.InterruptNotFoundError('m').docs).toBe('faultline/docs/errors/resume-error.md#interrupt_not_found');
    // a provider's code is not ours and its page lists none: the class's page, with no anchor that leads nowhere
    expect(new errors.ChatClientError('m', { code: 'invalid_api_key', status: 401 }).docs).toBe('faultline/docs/errors/chat-client-error.md');
    expect(new errors.ChatClientError('m', { code: 'ACCESS_DENIED', status: 403 }).docs).toBe('faultline/docs/errors/chat-client-error.md');
    expect(new errors.StreamError('m', { reason: 'provider_error', code: 'server_error' } as never).docs).toBe('faultline/docs/errors/stream-error.md');
    expect(new errors.JSONRPCError(-32001, 'm').docs).toBe('faultline/docs/errors/jsonrpc-error.md#-32001');
  });
});
