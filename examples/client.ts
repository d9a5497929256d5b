// A small partner client for the sandbox: Bearer key, JSON in and out (XML for the FX interface),
// and the few control calls a test suite needs (advance the clock). Uses only fetch, so it runs on
// Node 20 and later.
import { pathToFileURL } from 'node:url';

export interface RequestOptions {
  body?: unknown;
  /** An XML message, sent as application/xml (the FX interface); the reply body is its text. */
  xml?: string;
  headers?: Record<string, string>;
}

export interface Reply<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export class SandboxClient {
  constructor(
    readonly baseUrl: string,
    private readonly key: string,
    readonly log: (line: string) => void = (line) => console.log(line),
  ) {}

  async request<T = any>(method: string, path: string, opts: RequestOptions = {}): Promise<Reply<T>> {
    const headers: Record<string, string> = { authorization: `Bearer ${this.key}`, ...opts.headers };
    let sent: string | undefined;
    if (opts.xml !== undefined) {
      headers['content-type'] = 'application/xml';
      sent = opts.xml;
    } else if (opts.body !== undefined) {
      headers['content-type'] = 'application/json';
      sent = JSON.stringify(opts.body);
    }
    const res = await fetch(new URL(path, this.baseUrl), { method, headers, body: sent });
    const text = await res.text();
    const body = (res.headers.get('content-type') ?? '').includes('json') && text ? JSON.parse(text) : text;
    this.log(`${method} ${path} → ${res.status}`);
    return { status: res.status, headers: res.headers, body };
  }

  /** The request, or an error carrying the sandbox's message when the status is not the expected one. */
  async expect<T = any>(status: number, method: string, path: string, opts: RequestOptions = {}): Promise<T> {
    const res = await this.request<T>(method, path, opts);
    if (res.status !== status) throw new Error(`${method} ${path}: expected ${status}, got ${res.status}: ${JSON.stringify(res.body)}`);
    return res.body;
  }

  /** The server-sent events of a stream route as they arrive; leaving the loop closes the stream. */
  async *events(path: string): AsyncGenerator<{ event: string; data: any }> {
    const abort = new AbortController();
    const res = await fetch(new URL(path, this.baseUrl), {
      headers: { authorization: `Bearer ${this.key}`, accept: 'text/event-stream' },
      signal: abort.signal,
    });
    this.log(`GET ${path} → ${res.status}`);
    if (res.status !== 200 || !res.body) throw new Error(`GET ${path}: expected 200, got ${res.status}: ${await res.text()}`);
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of res.body) {
        buffer += decoder.decode(chunk, { stream: true });
        for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
          const frame = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event = /^event: (.*)$/m.exec(frame)?.[1] ?? 'message';
          const data = frame.split('\n').filter((l) => l.startsWith('data: ')).map((l) => l.slice(6)).join('\n');
          yield { event, data: JSON.parse(data) };
        }
      }
    } finally {
      abort.abort();
    }
  }

  /** Moves this key's clock forward: every payout step, expiry and webhook due by then happens. */
  advance(seconds: number) {
    return this.expect(200, 'POST', '/_sandbox/clock/advance', { body: { seconds } });
  }
}

/** The text of the first element of that name in an XML message (enough for the FX answers). */
export function xmlText(xml: string, element: string): string {
  const m = new RegExp(`<(?:\\w+:)?${element}>([^<]*)</`).exec(xml);
  if (!m) throw new Error(`No <${element}> in ${xml}`);
  return m[1];
}

/** Seconds from one ISO timestamp to another, at least one. */
export const secondsBetween = (from: string, to: string) => Math.max(1, Math.ceil((Date.parse(to) - Date.parse(from)) / 1000));

/**
 * Runs an example as a script: `npx tsx examples/<flow>.ts [base URL]`, with the key in
 * SANDBOX_KEY (a fresh sk_test_ key by default, so each run starts with an empty tenant).
 */
export function runAsScript(moduleUrl: string, run: (client: SandboxClient) => Promise<unknown>): void {
  if (!process.argv[1] || moduleUrl !== pathToFileURL(process.argv[1]).href) return;
  const base = process.argv[2] ?? process.env.SANDBOX_URL ?? 'http://127.0.0.1:4010';
  const key = process.env.SANDBOX_KEY ?? `sk_test_${crypto.randomUUID().replace(/-/g, '')}`;
  run(new SandboxClient(base, key))
    .then((result) => console.log(JSON.stringify(result, null, 2)))
    .catch((err: Error) => {
      console.error(err.message);
      process.exitCode = 1;
    });
}
