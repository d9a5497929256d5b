// The rate stream's budgets on real sockets: a server-wide cap that keeps other keys answered when
// a process may open few files. Clients that never read are raw sockets that send a GET and pause.
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { payout, startServer, type RunningServer } from '../support/server.js';

const KEY = 'sk_test_00000000000000000000000000000001';
const STREAM = '/api/v1/partners/marketplace/rates/stream';
const auth = (key: string) => ({ authorization: `Bearer ${key}` });

let proc: RunningServer | undefined;
const cleanup: (() => void)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0)) c();
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
    proc = await startServer(['--max-streams', '2']);
    expect(proc.output()).toMatch(/streams: {2}at most 2 rate streams open for all keys, 10 per key\n/);
    const [a, b, c] = [await unreadStream(proc.url, KEY), await unreadStream(proc.url, KEY), await unreadStream(proc.url, KEY)];
    expect([a.head, b.head, c.head].map((h) => h.slice(9, 12))).toEqual(['200', '200', '503']);
  });
});
