/** The SSE parser as a `TransformStream` of bytes (or text) to events. */
import { SSEParser, type SSEEvent, type SSEParserOptions } from './sse-decoder.js';

/** A `TransformStream` of bytes (or text) to SSE events: what `new SSEDecoderStream()` returns. */
export type SSEDecoderStream = TransformStream<Uint8Array | string, SSEEvent>;

/** The constructor of {@link SSEDecoderStream} (a subclass of `TransformStream`). */
export interface SSEDecoderStreamConstructor {
  new (options?: Omit<SSEParserOptions, 'onEvent'>): SSEDecoderStream;
  readonly prototype: SSEDecoderStream;
}

/**
 * `TransformStream` of bytes (or text) to SSE events, using {@link SSEParser}. When a chunk both completes events and
 * breaks a bound, the events are delivered first and the `StreamError` is raised with the next chunk or at the end:
 * erroring at once would discard them.
 *
 * A subclass of `TransformStream` (`instanceof` both, `new` only) linked to it at its first construction rather than
 * at import: a module-scope `class … extends TransformStream` makes Node load its whole streams implementation when
 * this module is imported, for every user of the SSE parser alone.
 * @example `response.body.pipeThrough(new SSEDecoderStream())`
 */
export const SSEDecoderStream = function SSEDecoderStream(this: unknown, options: Omit<SSEParserOptions, 'onEvent'> = {}): SSEDecoderStream {
  if (new.target === undefined) throw new TypeError("Class constructor SSEDecoderStream cannot be invoked without 'new'");
  const constructor = SSEDecoderStream as unknown as SSEDecoderStreamConstructor;
  if (Object.getPrototypeOf(constructor) !== TransformStream) {
    Object.setPrototypeOf(constructor, TransformStream);
    Object.setPrototypeOf(constructor.prototype, TransformStream.prototype);
  }
  return Reflect.construct(TransformStream, [decoderTransformer(options)], new.target) as SSEDecoderStream;
} as unknown as SSEDecoderStreamConstructor;

/** The transformer of one {@link SSEDecoderStream}. */
function decoderTransformer(options: Omit<SSEParserOptions, 'onEvent'>): Transformer<Uint8Array | string, SSEEvent> {
  let parser!: SSEParser;
  let delivered = 0;
  let pending: { error: unknown } | undefined;
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true }); // the parser strips the one BOM the spec allows
  const run = (step: () => void) => {
    if (pending) throw pending.error;
    delivered = 0;
    try {
      step();
    } catch (error) {
      if (delivered === 0) throw error;
      pending = { error };
    }
  };
  return {
    start(controller) {
      parser = new SSEParser({
        ...options,
        onEvent: (event) => {
          delivered++;
          controller.enqueue(event);
        },
      });
    },
    transform(chunk) {
      run(() => parser.feed(typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true })));
    },
    flush() {
      run(() => {
        parser.feed(decoder.decode());
        parser.end();
      });
      if (pending) throw pending.error;
    },
  };
}
