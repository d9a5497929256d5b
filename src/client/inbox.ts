// A webhook receiver for a test: it listens on a free loopback port, is set as the key's webhook, and
// verifies every delivery with the key's secret as Standard Webhooks says (signature and timestamp,
// on the raw body). Verified deliveries are handed out in order of arrival; the others are answered
// 401, counted, and never handed out.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import type { WebhookFilter } from './partner-api.js';
import type { WebhookEventType, WebhookPayloadOf } from './webhook-events.js';
import type { WebhookSettingsRequest, WebhookSettingsWithSecret } from './types.js';

export interface InboxOptions {
  /** Which events the sandbox sends (the webhook's filter): names, resources (payout, payout.*) or '*'. Default: all. */
  events?: WebhookFilter[];
  /** Delivery faults the sandbox plays on this webhook (docs/webhooks.md). */
  faults?: WebhookSettingsRequest['faults'];
  /** The signing secret (whsec_...); default: a fresh one the sandbox makes. */
  secret?: string;
  /** Where to listen: default 127.0.0.1, on a free port (`port`, default 0). */
  host?: string;
  port?: number;
  /** The URL the sandbox posts to, when it reaches this process by another address than `host`
   * (a sandbox in a container: http://host.docker.internal:PORT/...). Default: the listening address. */
  url?: string;
  /** How long next() and waitFor() wait by default, in ms; default 10000. */
  timeoutMs?: number;
}

/** One verified delivery. */
export interface InboxDelivery<E extends string = WebhookEventType> {
  /** webhook-id: the same on every attempt and duplicate of one delivery. */
  id: string;
  /** The event, e.g. payout.failed. */
  type: E;
  /** The resource after the change, snake_case keys, as the body carries it. */
  data: WebhookPayloadOf<E>;
  /** The request's headers, lower-case names. */
  headers: Record<string, string>;
  /** The body as received (the bytes the signature covers). */
  body: string;
  receivedAt: Date;
}

export interface WaitInboxOptions {
  /** Give up after this many ms (real time); the inbox's timeoutMs by default. */
  timeoutMs?: number;
}

export interface WebhookInbox {
  /** Where the sandbox posts, e.g. http://127.0.0.1:41234/webhooks */
  readonly url: string;
  /** The secret deliveries are verified with. */
  readonly secret: string;
  /** Deliveries that failed verification (answered 401, not handed out). */
  readonly rejected: number;
  /** The next delivery of `type` (an event name, a resource as in payout or payout.*, or '*') that no
   * earlier next() handed out, waiting for it; rejects after timeoutMs naming what did arrive. */
  next<E extends WebhookEventType>(type: E, options?: WaitInboxOptions): Promise<InboxDelivery<E>>;
  next(type?: string, options?: WaitInboxOptions): Promise<InboxDelivery>;
  /** Every verified delivery so far, in order of arrival (duplicates and retries included). */
  all(): InboxDelivery[];
  /** The first delivery, received or to come, that `predicate` accepts. */
  waitFor(predicate: (d: InboxDelivery) => boolean, options?: WaitInboxOptions): Promise<InboxDelivery>;
  /** Stop listening and, when the key's webhook still points here, remove it (so the sandbox stops retrying). */
  close(): Promise<void>;
}

/** What the inbox needs of the tenant: set and remove its webhook. */
export interface InboxTenant {
  webhooks: {
    set(url: string, options?: Omit<WebhookSettingsRequest, 'url'>): Promise<WebhookSettingsWithSecret>;
    get(): Promise<{ url: string }>;
    remove(): Promise<unknown>;
  };
}

/** Whether an event passes a filter: '*', the name itself, or its resource (payout, payout.*). */
export function eventMatches(filter: string, event: string): boolean {
  if (filter === '*' || filter === event) return true;
  const prefix = filter.endsWith('.*') ? filter.slice(0, -2) : filter;
  return event.startsWith(`${prefix}.`);
}

/** Most bytes of one delivery's body read; past it the delivery is refused (413) and counted. */
const MAX_BODY = 1024 * 1024;

interface Waiter {
  test(d: InboxDelivery): boolean;
  resolve(d: InboxDelivery): void;
  reject(err: unknown): void;
}

export async function openInbox(tenant: InboxTenant, options: InboxOptions = {}): Promise<WebhookInbox> {
  const timeoutDefault = options.timeoutMs ?? 10_000;
  const received: InboxDelivery[] = [];
  const taken = new Set<InboxDelivery>();
  const waiters = new Set<Waiter>();
  let rejected = 0;
  let verifier: Webhook | undefined;
  /** Requests that arrived before the secret was known (the set() answer): verified once it is. */
  const early: (() => void)[] = [];

  function accept(d: InboxDelivery): void {
    received.push(d);
    for (const w of waiters) {
      // A predicate that throws rejects its own wait: it runs in the receiver's request handler,
      // where a throw would end the test process.
      let matches: boolean;
      try {
        matches = w.test(d);
      } catch (err) {
        waiters.delete(w);
        w.reject(err);
        continue;
      }
      if (matches) (waiters.delete(w), w.resolve(d));
    }
  }

  function handle(req: IncomingMessage, res: ServerResponse, body: string): void {
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : v;
    let payload: { event?: unknown; data?: unknown };
    try {
      payload = verifier!.verify(body, headers) as typeof payload;
      if (typeof payload?.event !== 'string') throw new Error('no event');
    } catch {
      rejected++;
      res.writeHead(401, { 'content-type': 'text/plain' }).end('webhook verification failed');
      return;
    }
    res.writeHead(204).end();
    accept({
      id: headers['webhook-id'],
      type: payload.event as WebhookEventType,
      data: (payload.data ?? {}) as InboxDelivery['data'],
      headers,
      body,
      receivedAt: new Date(),
    });
  }

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY) chunks.push(chunk);
    });
    req.on('end', () => {
      if (req.method !== 'POST' || size > MAX_BODY) {
        rejected++;
        res.writeHead(req.method !== 'POST' ? 405 : 413).end();
        return;
      }
      const body = Buffer.concat(chunks).toString('utf8');
      if (verifier) handle(req, res, body);
      else early.push(() => handle(req, res, body));
    });
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => (server.off('error', reject), resolve()));
  });
  const { port } = server.address() as AddressInfo;
  const url = options.url ?? `http://${host.includes(':') ? `[${host}]` : host}:${port}/webhooks`;
  const stop = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });

  let settings: WebhookSettingsWithSecret;
  try {
    settings = await tenant.webhooks.set(url, {
      ...(options.events ? { events: options.events } : {}),
      ...(options.faults ? { faults: options.faults } : {}),
      ...(options.secret ? { secret: options.secret } : {}),
    });
  } catch (err) {
    await stop();
    throw err;
  }
  verifier = new Webhook(settings.secret);
  for (const run of early.splice(0)) run();

  /** Waits for a delivery `test` accepts; `take`, when given, claims it at once, before any other waiter is tested. */
  function wait(test: (d: InboxDelivery) => boolean, timeoutMs: number, describe: () => string, take?: (d: InboxDelivery) => void): Promise<InboxDelivery> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        waiters.delete(waiter);
        reject(new Error(describe()));
      }, timeoutMs);
      const waiter: Waiter = {
        test,
        resolve: (d) => {
          clearTimeout(timer);
          take?.(d);
          resolve(d);
        },
        reject: (err) => {
          clearTimeout(timer);
          reject(err);
        },
      };
      waiters.add(waiter);
    });
  }

  const seen = () => {
    const types = received.map((d) => d.type);
    return `received ${types.length ? types.join(', ') : 'nothing'}${rejected ? `; ${rejected} failed verification` : ''}`;
  };

  let closing: Promise<void> | undefined;
  const inbox: WebhookInbox = {
    url,
    secret: settings.secret,
    get rejected() {
      return rejected;
    },
    next(type: string = '*', opts: WaitInboxOptions = {}): Promise<InboxDelivery> {
      const test = (d: InboxDelivery) => !taken.has(d) && eventMatches(type, d.type);
      const take = (d: InboxDelivery) => (taken.add(d), d);
      const found = received.find(test);
      if (found) return Promise.resolve(take(found));
      const timeoutMs = opts.timeoutMs ?? timeoutDefault;
      return wait(test, timeoutMs, () => `No '${type}' delivery within ${timeoutMs} ms at ${url}; ${seen()}.`, take);
    },
    all: () => [...received],
    waitFor(predicate, opts = {}) {
      const found = received.find(predicate);
      if (found) return Promise.resolve(found);
      const timeoutMs = opts.timeoutMs ?? timeoutDefault;
      return wait(predicate, timeoutMs, () => `No delivery the predicate accepts within ${timeoutMs} ms at ${url}; ${seen()}.`);
    },
    close: () =>
      (closing ??= (async () => {
        await stop();
        try {
          if ((await tenant.webhooks.get()).url === url) await tenant.webhooks.remove();
        } catch {
          // The sandbox is gone, or the webhook was removed already: nothing to stop.
        }
      })()),
  };
  return inbox;
}
