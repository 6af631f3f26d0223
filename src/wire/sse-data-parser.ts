/**
 * @internal An {@link SSEParser} that hands each event to a callback as arguments, `(type, data)`: no event object
 * per event, for the chat decoders, which read one event per token (and never its id).
 */
import { SSEParser, type SSEParserOptions } from './sse-decoder.js';

const ignore = (): void => {};

export class SSEDataParser extends SSEParser {
  constructor(
    private readonly onData: (type: string, data: string) => void,
    options: Omit<SSEParserOptions, 'onEvent'> = {},
  ) {
    super({ ...options, onEvent: ignore });
  }

  protected override emit(type: string, data: string): void {
    this.onData(type, data);
  }
}
