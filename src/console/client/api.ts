// Browser side of the console: the key and the calls to the sandbox's own API.
// A module of the console's browser bundle (./index.ts).

export interface Exchange {
  label: string;
  method: string;
  path: string;
  requestHeaders: Record<string, string>;
  requestBody: unknown;
  status: number;
  responseBody: unknown;
  ms: number;
  /** The Retry-After header of a refusal, when the sandbox sent one (429, 503). */
  retryAfter?: string;
}

export interface CallOptions {
  body?: unknown;
  /** An XML body, sent as application/xml (the FX interface). */
  xml?: string;
  headers?: Record<string, string>;
}

export type Api = ReturnType<typeof makeApi>;

export function makeApi(win: Window) {
  // sessionStorage only: gone when the tab closes, never sent anywhere but in the Authorization header.
  const SLOT = 'payments-sandbox.console.key';
  const KEY_FORMAT = /^sk_(test|live)_[A-Za-z0-9_-]{1,200}$/;

  function key(): string | null {
    return win.sessionStorage.getItem(SLOT);
  }

  function setKey(value: string): void {
    win.sessionStorage.setItem(SLOT, value);
  }

  function forgetKey(): void {
    win.sessionStorage.removeItem(SLOT);
  }

  /** What the console shows of a key: its mode and last four characters. */
  function masked(value: string | null): string {
    if (!value) return '';
    return `${value.slice(0, 8)}…${value.slice(-4)}`;
  }

  async function call(label: string, method: string, path: string, opts: CallOptions = {}, withKey = key()): Promise<Exchange> {
    const shown: Record<string, string> = { ...opts.headers };
    const sent: Record<string, string> = { ...opts.headers };
    let body: string | undefined;
    if (opts.xml !== undefined) {
      body = opts.xml;
      sent['content-type'] = shown['content-type'] = 'application/xml';
      sent.accept = shown.accept = 'application/xml';
    } else if (opts.body !== undefined) {
      body = JSON.stringify(opts.body);
      sent['content-type'] = shown['content-type'] = 'application/json';
    }
    if (withKey) {
      sent.authorization = `Bearer ${withKey}`;
      shown.authorization = `Bearer ${masked(withKey)}`;
    }
    const started = win.performance.now();
    let res: Response;
    try {
      res = await win.fetch(path, { method, headers: sent, body, cache: 'no-store', credentials: 'omit' });
    } catch {
      // fetch says only "Failed to fetch"; say what it means.
      throw new Error(`The sandbox at ${win.location.origin} did not answer ${method} ${path}: it has stopped or cannot be reached. Start it again, then retry.`);
    }
    const text = await res.text();
    const type = res.headers.get('content-type') ?? '';
    let parsed: unknown = text;
    if (type.includes('json') && text) {
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = text;
      }
    }
    return {
      label,
      method,
      path,
      requestHeaders: shown,
      requestBody: opts.xml ?? opts.body,
      status: res.status,
      responseBody: parsed,
      ms: Math.round(win.performance.now() - started),
      ...(res.headers.get('retry-after') ? { retryAfter: res.headers.get('retry-after')! } : {}),
    };
  }

  /** A JSON read of the control API; throws with the sandbox's message on an error. */
  async function read<T>(path: string): Promise<T> {
    const x = await call(path, 'GET', path);
    if (x.status !== 200) {
      const msg = (x.responseBody as { message?: string })?.message ?? `HTTP ${x.status}`;
      throw Object.assign(new Error(msg), { status: x.status });
    }
    return x.responseBody as T;
  }

  return { key, setKey, forgetKey, masked, call, read, KEY_FORMAT };
}
