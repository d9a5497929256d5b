// GET /api/v1/partners/marketplace/rates/stream: server-sent events of one pair's rate. The market
// is re-priced once a minute on the key's clock: an advance of that clock sends the updates of the
// minutes it skipped (at most MAX_CATCH_UP, evenly spread, the last being now), and in real time
// the stream sends a heartbeat every interval, with the updates of any minutes passed since. A price
// a scenario sets inside a minute (a pin bound, a move due) is sent at the next advance or heartbeat.
// Each stream holds one interval timer and one clock listener; a client leaving, the shutdown
// (Streams.closeAll), a fault replacing the answer, the stream's lifetime or a client that stopped
// reading (both seen at a heartbeat, see http/streams.ts) releases both. Past the key's budget of
// streams the answer is 429, past the server's 503 with Retry-After.
import type { Tenant } from '../../engine/tenancy/tenant.js';
import type { OpenStream, StreamConnection, Streams } from '../../http/streams.js';
import { SandboxError } from '../../kernel/errors.js';
import type { Guard } from '../../kernel/request-scope.js';
import { marketTime } from './market.js';
import { rateUpdate, type RatePair } from './rates.service.js';

/** Most rate_update events one clock advance sends. */
export const MAX_CATCH_UP = 60;

const encoder = new TextEncoder();
const frame = (event: string, data: object) => encoder.encode(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);

/** The steps after `from` up to `to` to report: all of them, or MAX_CATCH_UP evenly spread ending at `to`. */
export function catchUpSteps(from: number, to: number, max = MAX_CATCH_UP): number[] {
  const n = to - from;
  if (n <= 0) return [];
  const count = Math.min(n, max);
  return Array.from({ length: count }, (_, i) => to - Math.floor(((count - 1 - i) * n) / count));
}

export function rateStream(t: Tenant, pair: RatePair, streams: Streams, guard: Guard, connection?: StreamConnection): Response {
  if (streams.openFor(t) >= streams.maxPerKey) {
    throw new SandboxError(
      'RATE_LIMITED',
      `This API key already holds ${streams.maxPerKey} rate streams open, the most one key may hold. Close one before opening another; one stream per pair is enough.`,
    );
  }
  if (streams.full) {
    // Connection: close, so a refused client does not keep a socket (a file) open either.
    throw new SandboxError(
      'SERVICE_UNAVAILABLE',
      `This sandbox holds ${streams.maxOpen} rate streams open for all keys, the most it may hold. Retry after ${streams.retryAfterSeconds} s; streams end when their clients leave, stop reading or reach their lifetime.`,
      [],
      { 'Retry-After': String(streams.retryAfterSeconds), Connection: 'close' },
    );
  }
  let stop = () => undefined as void;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      let { step: last, pricedAt: priced } = marketTime(t);
      let open = true;
      const send = (event: string, data: object) => {
        if (open) controller.enqueue(frame(event, data));
      };
      const heartbeat = () => send('heartbeat', { status: 'connected', timestamp: t.nowIso() });
      const moves = () => {
        const { step: now, pricedAt } = marketTime(t);
        // A reset takes the key's clock back: the market now is sent again. So is a price set inside
        // the minute (a scenario's pin bound, one of its moves falling due, or the scenario removed).
        const steps = now < last || (now === last && pricedAt !== priced) ? [now] : catchUpSteps(last, now);
        for (const step of steps) send('rate_update', rateUpdate(t, pair, step));
        last = now;
        priced = pricedAt;
      };
      let slot: OpenStream | undefined;
      // Past its lifetime, or unread, the slot ends the stream at this heartbeat instead.
      // A throw in either callback ends this stream and cuts its connection (the request's scope), nothing more.
      const safely = (fn: () => void) =>
        guard(() => {
          try {
            fn();
          } catch (err) {
            stop();
            throw err;
          }
        });
      const timer = setInterval(
        safely(() => {
          if (slot && !slot.beat()) return;
          moves();
          heartbeat();
        }),
        streams.heartbeatMs,
      );
      const unsubscribe = t.onAdvance(safely(moves));
      stop = () => {
        if (!open) return;
        open = false;
        clearInterval(timer);
        unsubscribe();
        slot?.release();
      };
      heartbeat();
      send('rate_update', rateUpdate(t, pair, last));
      slot = streams.add(
        t,
        () => {
          stop();
          controller.close();
        },
        connection,
      );
    },
    cancel: () => stop(),
  });
  return new Response(body, {
    status: 200,
    headers: { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', 'x-accel-buffering': 'no' },
  });
}
