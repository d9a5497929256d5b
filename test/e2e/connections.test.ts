// Connection limits on a real port: slow senders, clients that stop reading or go away mid-body, and
// the graceful close under a scenario's latency fault.
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { request, Agent, type IncomingMessage } from 'node:http';
import net from 'node:net';
import { Agent as UndiciAgent, request as undiciRequest } from 'undici';
import { describe, expect, it } from 'vitest';
import { payout, serversPerTest, startServer, type RunningServer } from '../support/server.js';

const KEY = 'sk_test_conn0000000000000000000000000001';
const auth = { authorization: `Bearer ${KEY}` };
const json = { ...auth, 'content-type': 'application/json' };
const BUNDLE = '/docs/assets/swagger-ui-bundle.js';

const start = serversPerTest();

async function connect(s: RunningServer): Promise<net.Socket> {
  const { hostname, port } = new URL(s.url);
  const socket = net.connect(Number(port), hostname);
  socket.on('error', () => undefined);
  await new Promise((resolve) => socket.once('connect', resolve));
  return socket;
}

/** Everything the server sends until it closes the connection, and when that was. */
function untilClosed(socket: net.Socket, from = Date.now()): Promise<{ text: string; bytes: number; ms: number }> {
  let text = '';
  let bytes = 0;
  socket.on('data', (d: Buffer) => {
    bytes += d.length;
    if (text.length < 1000) text += d.toString('latin1');
  });
  return new Promise((resolve) => socket.once('close', () => resolve({ text, bytes, ms: Date.now() - from })));
}

const head = (path: string, contentType: string, length: number) =>
  `POST ${path} HTTP/1.1\r\nHost: sandbox\r\nAuthorization: Bearer ${KEY}\r\nContent-Type: ${contentType}\r\nContent-Length: ${length}\r\n\r\n`;

async function journal(s: RunningServer, n: number): Promise<{ method: string; path: string; status: number }[]> {
  for (let i = 0; i < 100; i++) {
    const body = await (await fetch(`${s.url}/_sandbox/requests?limit=50`, { headers: auth })).json();
    if (body.data.length >= n) return body.data;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`the journal did not reach ${n} entries`);
}

describe('connection limits', () => {
  it('cuts a body sent too slowly at the request timeout with 408, and headers at the headers timeout', async () => {
    const s = await start(['--request-timeout-ms', '1500', '--headers-timeout-ms', '1000']);
    const body = await connect(s);
    const cut = untilClosed(body);
    body.write(`${head('/api/v1/partners/payouts', 'application/json', 200)}{"reference":`);
    const drip = setInterval(() => body.writable && body.write(' '), 100);
    const res = await cut;
    clearInterval(drip);
    expect(res.text).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\nConnection: close/);
    expect(res.ms).toBeGreaterThanOrEqual(1400);
    expect(res.ms).toBeLessThan(5000);

    const headers = await connect(s);
    const cutHeaders = untilClosed(headers);
    headers.write('GET /_sandbox/health HTTP/1.1\r\nHost: sand');
    const drip2 = setInterval(() => headers.writable && headers.write('b'), 100);
    const res2 = await cutHeaders;
    clearInterval(drip2);
    expect(res2.text).toMatch(/^HTTP\/1\.1 408 Request Timeout/);
    expect(res2.ms).toBeLessThan(4000);

    // The journal keeps the cut request as the 408 its client got; nothing is logged as a failure.
    const [entry] = await journal(s, 1);
    expect(entry).toMatchObject({ method: 'POST', path: '/api/v1/partners/payouts', status: 408 });
    expect(s.output()).not.toMatch(/failed|Error/);
  });

  it('closes an idle keep-alive connection after the keep-alive timeout', async () => {
    const s = await start(['--keep-alive-timeout-ms', '300']);
    const socket = await connect(s);
    const sent = Date.now();
    const closed = untilClosed(socket, sent);
    socket.write('GET /_sandbox/health HTTP/1.1\r\nHost: sandbox\r\n\r\n');
    const { text, ms } = await closed;
    expect(text).toMatch(/^HTTP\/1\.1 200 OK\r\n[\s\S]*Connection: keep-alive\r\n/);
    expect(ms).toBeGreaterThanOrEqual(300);
    expect(ms).toBeLessThan(3000);
  });

  it('closes a connection past --max-connections as it opens, and serves again once one is gone', async () => {
    const s = await start(['--max-connections', '3']);
    expect(s.output()).toContain('sockets:  at most 3 connections open for all keys\n');
    const held = [await connect(s), await connect(s), await connect(s)];
    // Each held connection is accepted: it is answered.
    for (const socket of held) {
      const answered = new Promise<string>((resolve) => socket.once('data', (d: Buffer) => resolve(d.toString('latin1'))));
      socket.write('GET /_sandbox/health HTTP/1.1\r\nHost: sandbox\r\n\r\n');
      expect(await answered).toMatch(/^HTTP\/1\.1 200 OK/);
    }
    const extra = await connect(s);
    const { bytes, ms } = await untilClosed(extra);
    expect(bytes).toBe(0);
    expect(ms).toBeLessThan(2000);
    held[0].destroy();
    await new Promise((r) => setTimeout(r, 100));
    const again = await connect(s);
    const closed = untilClosed(again);
    again.write('GET /_sandbox/health HTTP/1.1\r\nHost: sandbox\r\nConnection: close\r\n\r\n');
    expect((await closed).text).toMatch(/^HTTP\/1\.1 200 OK/);
    for (const socket of held) socket.destroy();
  });

  it('says how many connections it takes by default: half of the open files', async () => {
    const s = await startServer([], {}, { maxOpenFiles: 256 });
    try {
      expect(s.output()).toContain('sockets:  at most 128 connections open for all keys (half of the open files this process may hold)');
    } finally {
      await s.stop('SIGKILL');
    }
  });

  it('closes the connection of a client that stops reading, and keeps serving others', async () => {
    const s = await start(['--unread-timeout-ms', '500', '--max-unread-bytes', '65536']);
    const bundle = (await (await fetch(`${s.url}${BUNDLE}`)).arrayBuffer()).byteLength;
    const socket = await connect(s);
    socket.pause();
    // Six answers of the 1.7 MB Swagger bundle are more than the loopback network buffers hold.
    socket.write(`GET ${BUNDLE} HTTP/1.1\r\nHost: sandbox\r\n\r\n`.repeat(6));
    await new Promise((r) => setTimeout(r, 2500));
    const health = await fetch(`${s.url}/_sandbox/health`);
    expect(health.status).toBe(200);
    const got = untilClosed(socket);
    socket.resume();
    const { bytes } = await got;
    expect(bytes).toBeGreaterThan(0);
    expect(bytes).toBeLessThan(6 * bundle);
  });

  it('does not cut a request held by a latency fault longer than the request timeout', async () => {
    const s = await start(['--request-timeout-ms', '1000', '--headers-timeout-ms', '1000']);
    const faults = [{ route: { path: '/api/**' }, fault: { kind: 'latency', ms: 2000 } }];
    const put = await fetch(`${s.url}/_sandbox/scenario`, { method: 'PUT', headers: json, body: JSON.stringify({ scenario: { faults } }) });
    expect(put.status).toBe(200);
    // 600 kB is more than a connection buffers before the server reads it.
    const big = `<Document>${'x'.repeat(600_000)}</Document>`;
    const res = await fetch(`${s.url}/api/v1/partners/fx/trades`, { method: 'POST', headers: { ...auth, 'content-type': 'application/xml' }, body: big });
    expect(res.status).toBe(400);
    expect(res.headers.get('x-sandbox-fault')).toBe('latency 2000ms');
  });

  it('takes a client that leaves mid-body as its own doing: no error logged, 499 in the journal', async () => {
    const s = await start();
    const sends: [string, string][] = [
      ['/api/v1/partners/payouts', 'application/json'],
      ['/api/v1/partners/fx/trades', 'application/xml'],
      ['/_sandbox/bulk-disbursements', 'application/json'],
    ];
    for (const [path, type] of sends) {
      const socket = await connect(s);
      socket.write(`${head(path, type, 5000)}{"items": [`);
      await new Promise((r) => setTimeout(r, 200));
      socket.destroy();
    }
    const entries = await journal(s, 2);
    expect(entries.map((e) => [e.path, e.status])).toEqual([
      ['/api/v1/partners/fx/trades', 499],
      ['/api/v1/partners/payouts', 499],
    ]);
    // No answer was sent, so the entries carry no responseBody (the one case where it is left out).
    expect(entries.map((e) => Object.hasOwn(e, 'responseBody'))).toEqual([false, false]);
    const ok = await fetch(`${s.url}/api/v1/partners/payouts`, { method: 'POST', headers: json, body: JSON.stringify(payout('after-abort')) });
    expect(ok.status).toBe(201);
    expect(s.output()).not.toMatch(/failed|Error|aborted/);
  });
});

describe('graceful close', () => {
  it('finishes a request held 15 s by a latency fault after SIGTERM, answering it with Connection: close', async () => {
    const s = await start();
    const faults = [{ route: { method: 'POST', path: '/api/v1/partners/payouts' }, fault: { kind: 'latency', ms: 15_000 } }];
    const put = await fetch(`${s.url}/_sandbox/scenario`, { method: 'PUT', headers: json, body: JSON.stringify({ scenario: { faults } }) });
    expect(put.status).toBe(200);
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const send = (method: string, path: string, body?: string) =>
      new Promise<{ res: IncomingMessage; text: string }>((resolve, reject) => {
        const req = request(`${s.url}${path}`, { method, agent, headers: json }, (res) => {
          let text = '';
          res.on('data', (d) => (text += d));
          res.on('end', () => resolve({ res, text }));
        });
        req.on('error', reject);
        req.end(body);
      });
    // The connection is open and kept alive before the held request goes out on it.
    const first = await send('GET', '/_sandbox/clock');
    expect(first.res.headers.connection).toBe('keep-alive');
    const held = send('POST', '/api/v1/partners/payouts', JSON.stringify(payout('held-1')));
    await new Promise((r) => setTimeout(r, 1000));
    const sent = Date.now();
    const exited = s.stop('SIGTERM');
    const { res, text } = await held;
    expect(res.statusCode).toBe(201);
    expect(res.headers.connection).toBe('close');
    expect(res.headers['x-sandbox-fault']).toBe('latency 15000ms');
    expect(JSON.parse(text).data.reference).toBe('held-1');
    expect(Date.now() - sent).toBeGreaterThan(12_000);
    expect(await exited).toBe(0);
    expect(s.output()).toContain('store flushed');
    agent.destroy();
  }, 40_000);

  it('never resets a request a keep-alive client has written: each is answered whole, or its connection closed before it was sent', async () => {
    const s = await start();
    const agent = new UndiciAgent({ keepAliveTimeout: 10_000 });
    // What undici wrote: a request whose headers went out on a socket is one the server must answer.
    const written = new Set<string>();
    const onSend = (m: unknown) => written.add((m as { request: { path: string } }).request.path);
    subscribe('undici:client:sendHeaders', onSend);
    const tally = { answered: 0, refused: 0, closedBeforeSent: 0, resetAfterSent: 0, other: 0 };
    const resets: string[] = [];
    let n = 0;
    let stopping = false;
    // Eight loops of requests, each waiting for its answer before the next, as a test suite's
    // clients do; every fifth a POST (which undici never retries). Bounded: each loop stops at its
    // first failure once the server is stopping, and after 1,500 requests in any case.
    const loop = async (id: number) => {
      for (let i = 0; i < 1500; i++) {
        const path = `/_sandbox/clock?n=${++n}`;
        const post = n % 5 === 0;
        try {
          const res = await undiciRequest(`${s.url}${post ? `/api/v1/partners/payouts?n=${n}` : path}`, {
            dispatcher: agent,
            method: post ? 'POST' : 'GET',
            headers: post ? json : auth,
            body: post ? JSON.stringify(payout(`ka-${id}-${i}`)) : undefined,
          });
          const text = await res.body.text();
          expect(res.statusCode).toBe(post ? 201 : 200);
          expect(JSON.parse(text)).toBeTruthy();
          tally.answered++;
        } catch (err) {
          const code = (err as { code?: string }).code ?? String(err);
          const sentPath = post ? `/api/v1/partners/payouts?n=${n}` : path;
          if (code === 'ECONNREFUSED') tally.refused++;
          else if (code !== 'UND_ERR_SOCKET' && code !== 'ECONNRESET') {
            tally.other++;
            resets.push(`${sentPath}: ${code}`);
          } else if (written.has(sentPath)) {
            tally.resetAfterSent++;
            resets.push(`${sentPath}: ${code}`);
          } else tally.closedBeforeSent++;
          if (stopping) return;
        }
      }
    };
    const loops = Array.from({ length: 32 }, (_, i) => loop(i));
    while (tally.answered < 400) await new Promise((r) => setTimeout(r, 5));
    stopping = true;
    const exited = s.stop('SIGTERM');
    await Promise.all(loops);
    unsubscribe('undici:client:sendHeaders', onSend);
    await agent.close();
    expect(await exited).toBe(0);
    expect(resets).toEqual([]);
    expect(tally.resetAfterSent).toBe(0);
    expect(tally.answered).toBeGreaterThan(400);
  }, 40_000);

  it('answers a request sent on an idle keep-alive connection after SIGTERM, with Connection: close, instead of closing it', async () => {
    const s = await start();
    const socket = await connect(s);
    let text = '';
    let closed = false;
    socket.on('data', (d: Buffer) => (text += d.toString('latin1')));
    socket.on('close', () => (closed = true));
    const get = `GET /_sandbox/clock HTTP/1.1\r\nHost: sandbox\r\nAuthorization: Bearer ${KEY}\r\n\r\n`;
    socket.write(get);
    await expect.poll(() => text, { timeout: 5000 }).toMatch(/Connection: keep-alive[\s\S]*\r\n\r\n\{.*\}$/);
    const exited = s.stop('SIGTERM');
    await expect.poll(() => s.output(), { timeout: 5000 }).toContain('SIGTERM received');
    // The drain has begun; the connection sat idle through it, as a client's pooled one does.
    await new Promise((r) => setTimeout(r, 100));
    expect(closed).toBe(false);
    text = '';
    socket.write(get);
    await expect.poll(() => closed, { timeout: 5000 }).toBe(true);
    expect(text).toMatch(/^HTTP\/1\.1 200 OK\r\n[\s\S]*Connection: close\r\n[\s\S]*"offsetSeconds"/);
    expect(await exited).toBe(0);
  });
});
