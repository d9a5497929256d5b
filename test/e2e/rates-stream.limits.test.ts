// The rate stream's budgets on real sockets: a server-wide cap that keeps other keys answered when
// a process may open few files, a stream whose client stopped reading cut, and every stream ended at
// its lifetime. Clients that never read are raw sockets that send a GET and pause.
import { EventSource } from 'eventsource';
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigSchema } from '../../src/config.js';
import { ManualClock } from '../../src/kernel/clock.js';
import { startServer as startInProcess, type SandboxServer } from '../../src/server.js';
import { payout, startServer, type RunningServer } from '../support/server.js';

const KEY = 'sk_test_00000000000000000000000000000001';
const OTHER = 'sk_test_00000000000000000000000000000002';
const STREAM = '/api/v1/partners/marketplace/rates/stream';
const auth = (key: string) => ({ authorization: `Bearer ${key}` });

let inProcess: SandboxServer | undefined;
let proc: RunningServer | undefined;
const cleanup: (() => void)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0)) c();
  await inProcess?.close();
  inProcess = undefined;
  await proc?.stop('SIGKILL');
  proc = undefined;
});

interface RawStream {
  socket: net.Socket;
  /** The first bytes the server sent (the status line and headers at least); empty if it closed first. */
  head: string;
  closed: Promise<void>;
}

/** A client that asks for a stream, takes the first bytes of the answer and then reads nothing more. */
async function unreadStream(url: string, key: string): Promise<RawStream> {
  const { hostname, port } = new URL(url);
  const socket = net.connect(Number(port), hostname);
  socket.on('error', () => undefined);
  cleanup.push(() => socket.destroy());
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  await new Promise((resolve) => socket.once('connect', resolve));
  socket.write(`GET ${STREAM}?from=USDT&to=NGN HTTP/1.1\r\nHost: sandbox\r\nAuthorization: Bearer ${key}\r\n\r\n`);
  const head = await new Promise<string>((resolve) => {
    socket.once('data', (d: Buffer) => {
      socket.pause();
      resolve(d.toString('latin1'));
    });
    void closed.then(() => resolve(''));
  });
  return { socket, head, closed };
}

async function until(check: () => boolean, what: string, ms = 5_000) {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('rate streams for all keys', () => {
  it('under ulimit -n 256, caps the streams of all keys at 64, refuses more with 503 and Retry-After, and other keys are still answered', async () => {
    proc = await startServer(['--seed', '7'], {}, { maxOpenFiles: 256 });
    // 30 keys × 10 streams that are never read: more than the process may hold files for.
    const statuses: string[] = [];
    for (let k = 0; k < 30; k++) {
      const key = `sk_test_flood${String(k).padStart(27, '0')}`;
      for (let i = 0; i < 10; i++) {
        const s = await unreadStream(proc.url, key);
        const status = /^HTTP\/1\.1 (\d+)/.exec(s.head)?.[1] ?? 'dropped';
        statuses.push(status);
        if (status === '503') {
          expect(s.head).toMatch(/\r\nretry-after: 15\r\n/i);
          expect(s.head).toMatch(/\r\nconnection: close\r\n/i);
          expect(s.head).toContain('"code":"SERVICE_UNAVAILABLE"');
          // The server closes a refused connection itself: it holds no file for it.
          await s.closed;
        }
      }
    }
    // Another key is answered while the 64 streams stay open and unread.
    const other = 'sk_test_other000000000000000000000000001';
    const created = await fetch(`${proc.url}/api/v1/partners/payouts`, {
      method: 'POST',
      headers: { ...auth(other), 'content-type': 'application/json' },
      body: JSON.stringify(payout('after-the-flood')),
    });
    expect(created.status).toBe(201);
    expect((await fetch(`${proc.url}/_sandbox/health`)).status).toBe(200);
    // It is the cap that kept them: 64 streams were let open, every other was refused.
    expect(statuses.filter((s) => s === '200')).toHaveLength(64);
    expect(statuses.filter((s) => s === '503')).toHaveLength(300 - 64);
    const refused = await fetch(`${proc.url}${STREAM}?from=NGN&to=USDT`, { headers: auth(other) });
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('15');
    expect(proc.output()).not.toMatch(/EMFILE|Error/);
    // The banner says the cap and where it comes from.
    expect(proc.output()).toContain('streams:  at most 64 rate streams open for all keys (a quarter of the 256 open files this process may hold), 10 per key');
  }, 60_000);

  it('takes --max-streams over the file limit, and says so at start', async () => {
    proc = await startServer(['--max-streams', '2', '--stream-lifetime', '10m']);
    expect(proc.output()).toMatch(/streams: {2}at most 2 rate streams open for all keys, 10 per key; each ends after 600 s\n/);
    const [a, b, c] = [await unreadStream(proc.url, KEY), await unreadStream(proc.url, KEY), await unreadStream(proc.url, KEY)];
    expect([a.head, b.head, c.head].map((h) => h.slice(9, 12))).toEqual(['200', '200', '503']);
  });
});

describe('one stream', () => {
  const startHere = async ({ maxStreams, ...opts }: { heartbeatMs: number; streamLifetimeMs?: number; maxStreams?: number }) =>
    (inProcess = await startInProcess(ConfigSchema.parse({ port: 0, seed: 7, unreadTimeoutMs: 0, maxStreams }), { clock: new ManualClock(), ...opts }));
  const advance = async (key = KEY) => {
    const res = await fetch(`${inProcess!.url}/_sandbox/clock/advance`, {
      method: 'POST',
      headers: { ...auth(key), 'content-type': 'application/json' },
      body: JSON.stringify({ seconds: 3600 }),
    });
    expect(res.status).toBe(200);
  };

  it('is cut once its answer holds unsent bytes at two heartbeats in a row (its client stopped reading), while a reading one goes on', async () => {
    // Room for two streams, so another key's request tells when the server let one go. The
    // connections' own unread watch is off: only the stream's check can cut it.
    await startHere({ heartbeatMs: 100, maxStreams: 2 });
    const paused = await unreadStream(inProcess!.url, KEY);
    expect(paused.head).toMatch(/^HTTP\/1\.1 200/);
    const reading = await fetch(`${inProcess!.url}${STREAM}?from=USDT&to=NGN`, { headers: auth(KEY) });
    const reader = reading.body!.getReader();
    cleanup.push(() => void reader.cancel().catch(() => undefined));
    let read = 0;
    let ended = false;
    void (async () => {
      for (;;) {
        const { done, value } = await reader.read().catch(() => ({ done: true as const, value: undefined }));
        if (done) return void (ended = true);
        read += value.length;
      }
    })();
    const probe = async () => {
      const res = await fetch(`${inProcess!.url}${STREAM}?from=NGN&to=USDT`, { headers: auth(OTHER) });
      await res.body!.cancel();
      return res.status;
    };
    expect(await probe()).toBe(503);
    // Heartbeats alone fit in the kernel's buffers for hours: each advance sends 60 updates (about
    // 10 kB) to both clients, until the paused one's buffers (a few MB on loopback) are full and
    // what is left stays unsent. Then, two heartbeats later, the stream is cut and its slot freed.
    let advances = 0;
    let status = 503;
    while (status === 503 && advances < 2000) {
      await Promise.all([advance(), advance(), advance(), advance(), advance()]);
      advances += 5;
      status = await probe();
    }
    expect(status, `no slot was freed after ${advances} advances`).toBe(200);
    // The paused client, reading again, finds the bytes sent before the cut and then the end.
    let after = 0;
    paused.socket.on('data', (d: Buffer) => (after += d.length));
    paused.socket.resume();
    await paused.closed;
    expect(after).toBeGreaterThan(0);
    // The reading client goes on.
    const got = read;
    await until(() => read > got, "the reading client's next heartbeat");
    expect(ended).toBe(false);
  }, 90_000);

  it('ends cleanly at the first heartbeat past its lifetime, and an EventSource client reconnects by itself', async () => {
    await startHere({ heartbeatMs: 50, streamLifetimeMs: 400 });
    const opened = Date.now();
    const res = await fetch(`${inProcess!.url}${STREAM}?from=USDT&to=NGN`, { headers: auth(KEY) });
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    cleanup.push(() => void reader.cancel().catch(() => undefined));
    let text = '';
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      text += value;
    }
    const lived = Date.now() - opened;
    expect(lived).toBeGreaterThanOrEqual(400);
    expect(lived).toBeLessThan(3_000);
    // The body ended as a whole answer (no error), on a whole event.
    expect(text.endsWith('\n\n')).toBe(true);
    expect(text.match(/event: heartbeat/g)!.length).toBeGreaterThanOrEqual(2);

    const es = new EventSource(`${inProcess!.url}${STREAM}?from=NGN&to=USDT`, {
      fetch: (url, init) => fetch(url, { ...init, headers: { ...init?.headers, ...auth(KEY) } }),
    });
    cleanup.push(() => es.close());
    let opens = 0;
    es.addEventListener('open', () => opens++);
    // The eventsource package waits 3 s before it reconnects.
    await until(() => opens >= 2, 'the client to reconnect after the lifetime', 8_000);
  }, 20_000);
});
