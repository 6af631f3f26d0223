/**
 * The parts of Node's `http.IncomingMessage` that {@link toNodeListener} reads: a structural type, so this folder
 * imports nothing from Node (an `IncomingMessage` fits it, as does any look-alike in a test).
 * @example
 * ```ts
 * const listener: (request: NodeIncomingRequest, response: NodeServerResponse) => void = toNodeListener(handler);
 * ```
 */
export interface NodeIncomingRequest {
  /** `GET`, `POST`, … */
  readonly method?: string | undefined;
  /** The request target, usually origin-form (`/a2a?x=1`). */
  readonly url?: string | undefined;
  /** Lower-cased header names, a list for repeated ones. */
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** True once the whole message (body included) has arrived. */
  readonly complete?: boolean;
  /**
   * The connection: `encrypted: true` on TLS sockets; both ends' addresses, passed on to the handler. `destroy` and
   * `once('close')` let the listener close it, and watch it close, while a handler reads the body after its answer.
   */
  readonly socket?:
    | {
        readonly encrypted?: boolean | undefined;
        readonly remoteAddress?: string | undefined;
        readonly remotePort?: number | undefined;
        readonly localAddress?: string | undefined;
        readonly localPort?: number | undefined;
        readonly destroyed?: boolean | undefined;
        destroy?(): unknown;
        once?(event: 'close', listener: () => void): unknown;
        off?(event: 'close', listener: () => void): unknown;
      }
    | null
    | undefined;
  on(event: 'data', listener: (chunk: Uint8Array) => void): unknown;
  on(event: 'end', listener: () => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  pause(): unknown;
  resume(): unknown;
}

/**
 * The parts of Node's `http.ServerResponse` that {@link toNodeListener} writes: a structural type, as
 * {@link NodeIncomingRequest}.
 * @example
 * ```ts
 * const listener: (request: NodeIncomingRequest, response: NodeServerResponse) => void = toNodeListener(handler);
 * ```
 */
export interface NodeServerResponse {
  statusCode: number;
  statusMessage: string;
  readonly headersSent: boolean;
  readonly writableEnded: boolean;
  readonly writableFinished: boolean;
  /** False when the connection closes after this answer (the client asked for it, or HTTP/1.0). */
  readonly shouldKeepAlive?: boolean | undefined;
  /** Null while a pipelined answer waits for the one before it to finish. */
  readonly socket?: { destroy(): unknown; end(): unknown } | null | undefined;
  setHeader(name: string, value: string | string[]): unknown;
  /** The names set so far (to clear a failed answer's headers before a 500). */
  getHeaderNames?(): string[];
  removeHeader?(name: string): unknown;
  flushHeaders(): void;
  write(chunk: Uint8Array): boolean;
  end(callback?: () => void): unknown;
  destroy(): unknown;
  /** `socket` comes when a pipelined answer, queued behind the one before it, gets the connection to write on. */
  on(event: 'close' | 'drain' | 'finish' | 'socket', listener: () => void): unknown;
  once(event: 'close' | 'drain' | 'finish' | 'socket', listener: () => void): unknown;
  off(event: 'close' | 'drain' | 'finish' | 'socket', listener: () => void): unknown;
}

/**
 * What {@link toNodeListener} passes to the handler after the request, shaped like Deno's `ServeHandlerInfo`: the
 * client's end of the connection, and this server's end. Our handlers read it to tell a caller on this machine from
 * one on the internet (`allowedHosts`): a caller whose address is the server's own end of the connection — a browser
 * on this machine that came in through one of its own addresses — is on this machine, whatever that address is.
 * @example
 * ```ts
 * const handler = async (request: Request, info?: ServeHandlerInfo) => new Response(`hello ${info?.remoteAddr?.hostname}`);
 * ```
 */
export interface ServeHandlerInfo {
  /** The client's address and port (`socket.remoteAddress`, `socket.remotePort`); absent once the socket closed. */
  readonly remoteAddr?: { readonly hostname: string; readonly port: number; readonly transport: 'tcp' } | undefined;
  /** This server's address and port on the connection (`socket.localAddress`, `socket.localPort`); absent once the socket closed. */
  readonly localAddr?: { readonly hostname: string; readonly port: number; readonly transport: 'tcp' } | undefined;
}
