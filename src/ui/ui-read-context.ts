/** @internal What reading the messages of one chat request shares: its options, the problems found, the ids seen. */
import type { ToolErrorFormat } from '../tools/tool-error-format.js';
import type { UIMessagesIssue } from './ui-messages-error.js';
import type { UIFilePart } from './ui-file-part.js';

/** @internal The reading state of one request. */
export interface ReadContext {
  readonly format: ToolErrorFormat;
  readonly systemMessages: 'refuse' | 'keep';
  readonly fileText: ((file: UIFilePart) => string | undefined) | undefined;
  /** Tool call ids seen so far (every call needs its own). */
  readonly callIds: Set<string>;
  issue(code: UIMessagesIssue['code'], path: ReadonlyArray<string | number>, message: string): void;
}
