/**
 * @internal Answers to the requests a server sends the client (a ping, or a method the client does not offer: a
 * refusal), sent in order, {@link MAX_ANSWERS_IN_FLIGHT} at a time. A server that sends thousands in one stream gets
 * each answered without thousands of POSTs at once: while {@link ANSWERS_BEFORE_PAUSE} answers wait, the streams
 * that carry such requests are not read further (the rest of the stream waits on the server, not in our memory),
 * and past {@link MAX_ANSWERS_WAITING} (only a JSON body or one huge chunk gets there, since they cannot be paused)
 * the message is refused as a protocol violation: the call that carried it fails, the requests before it are still
 * answered.
 */

/** Answers sent at once. */
export const MAX_ANSWERS_IN_FLIGHT = 4;
/** Answers waiting at which the streams that carry the server's requests pause. */
export const ANSWERS_BEFORE_PAUSE = 256;
/** Answers waiting at most; one more is refused. */
export const MAX_ANSWERS_WAITING = 4_096;

export class AnswerQueue {
  private readonly waiting: string[] = [];
  private inFlight = 0;
  declare private room: { promise: Promise<void>; resolve: () => void } | undefined; // declared only: no field definition to bundle

  /** `send` posts one answer body and settles (never rejects) when the server took it or gave up on it. */
  declare private readonly send: (body: string) => Promise<void>;

  constructor(send: (body: string) => Promise<void>) {
    this.send = send;
  }

  /** Queues one answer body; false when {@link MAX_ANSWERS_WAITING} already wait (nothing is queued). */
  push(body: string): boolean {
    if (this.waiting.length >= MAX_ANSWERS_WAITING) return false;
    this.waiting.push(body);
    this.pump();
    return true;
  }

  /** A promise to wait on before reading more of a stream while {@link ANSWERS_BEFORE_PAUSE} answers wait. */
  backlog(): Promise<void> | undefined {
    if (this.waiting.length < ANSWERS_BEFORE_PAUSE) return undefined;
    if (!this.room) {
      let resolve!: () => void;
      const promise = new Promise<void>((done) => (resolve = done));
      this.room = { promise, resolve };
    }
    return this.room.promise;
  }

  /** Drops every waiting answer (the session is over) and lets paused readers go on to their end. */
  clear(): void {
    this.waiting.length = 0;
    this.release();
  }

  private pump(): void {
    while (this.inFlight < MAX_ANSWERS_IN_FLIGHT && this.waiting.length > 0) {
      const body = this.waiting.shift() as string;
      this.inFlight++;
      const done = (): void => {
        this.inFlight--;
        this.pump();
      };
      void this.send(body).then(done, done);
    }
    if (this.waiting.length < ANSWERS_BEFORE_PAUSE) this.release();
  }

  private release(): void {
    const room = this.room;
    this.room = undefined;
    room?.resolve();
  }
}
