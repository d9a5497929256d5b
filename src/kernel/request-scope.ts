// What ties a callback to the request that registered it. A request's work that runs outside its
// own await chain (a timer, a stream's callbacks, a parser's events) is wrapped with `guard`: an
// exception escaping it becomes that request's failure (its 500, or its connection cut when the
// answer has begun) and never ends the process. Framework-free: http/request-scope.ts makes one
// per request and answers the failure.

let lastId = 0;

/** Wraps a callback so that its failure is its request's, not the process's. */
export type Guard = <A extends unknown[]>(fn: (...args: A) => unknown) => (...args: A) => void;

export class RequestScope {
  /** Names the request in the log and in its 500's message. */
  readonly id = `r${(++lastId).toString(36)}`;
  private failure: { error: unknown } | undefined;
  private rejectAnswer: ((err: unknown) => void) | undefined;
  /** Set once the answer's headers are out: a later failure can only cut this connection. */
  private connection: { destroy(): void } | undefined;

  constructor(private readonly log: (message: string, err: unknown) => void = defaultLog) {}

  /**
   * The request's own work, answered by whichever comes first: the work, or a guarded callback's
   * failure (the work is then left to end by itself; its result is dropped).
   */
  run<T>(work: Promise<T>): Promise<T> {
    if (this.failure) return Promise.reject(this.failure.error);
    return new Promise<T>((resolve, reject) => {
      this.rejectAnswer = reject;
      work.then(resolve, reject);
    });
  }

  /** The answer has begun: from now on a failure cuts its connection (none in process), there being no status left to send. */
  answered(connection: { destroy(): void } | undefined): void {
    this.rejectAnswer = undefined;
    this.connection = connection;
  }

  /** A guarded callback failed: the request answers 500, or its connection is cut. Only the first failure counts. */
  fail(error: unknown): void {
    if (this.failure) return;
    this.failure = { error };
    this.log(`[sandbox] request ${this.id} failed in a callback it registered:`, error);
    if (this.rejectAnswer) this.rejectAnswer(error);
    else this.connection?.destroy();
  }

  get failed(): boolean {
    return this.failure !== undefined;
  }

  /**
   * `fn`, made safe to hand to a timer, a stream or an event emitter: a throw (or a rejection of
   * the promise it returns) fails this request instead of escaping.
   */
  guard<A extends unknown[]>(fn: (...args: A) => unknown): (...args: A) => void {
    return (...args: A) => {
      try {
        const out = fn(...args);
        if (out instanceof Promise) out.catch((err: unknown) => this.fail(err));
      } catch (err) {
        this.fail(err);
      }
    };
  }
}

const defaultLog = (message: string, err: unknown) => console.error(message, err);
