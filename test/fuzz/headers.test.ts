// Headers over a real socket (app.request knows nothing of Node's header limits): oversized headers,
// doubled or odd Authorization values, raw bytes. The process answers, refuses in the envelope where
// it can, and keeps serving.
import { request } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../support/server.js';
import { isErrorEnvelope } from './routes.js';

const KEY = 'sk_test_headers000000000000000000000001';
const OTHER = 'sk_test_headers000000000000000000000002';
let s: RunningServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(async () => {
  await s.stop('SIGKILL');
});

interface Answer {
  status: number;
  body: string;
}

/** node:http request, which lets a header be sent twice (an array value) and raw bytes in values. */
function send(path: string, headers: Record<string, string | string[]>, body?: string): Promise<Answer> {
  const { hostname, port } = new URL(s.url);
  return new Promise((resolve, reject) => {
    const req = request({ hostname, port, path, method: body === undefined ? 'GET' : 'POST', headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode!, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Bytes written straight to the socket, for header values no client library would send. Collects
 * whatever the server answered before it closed the connection. */
function sendRaw(head: string, body = ''): Promise<string> {
  const { hostname, port } = new URL(s.url);
  return new Promise((resolve) => {
    const sock = connect(Number(port), hostname, () => {
      sock.write(Buffer.from(`${head}\r\n\r\n`, 'utf8'));
      if (body) sock.write(body);
    });
    let out = '';
    sock.on('data', (d) => (out += d.toString('utf8')));
    sock.on('error', () => undefined);
    sock.on('close', () => resolve(out));
    sock.setTimeout(5000, () => sock.destroy());
  });
}

const statusOf = (raw: string) => Number(/^HTTP\/1\.1 (\d{3})/.exec(raw)?.[1]);

const envelopeOf = (a: Answer) => JSON.parse(a.body) as { status: string; error: { code: string } };
const healthy = async () => expect((await send('/_sandbox/health', {})).status).toBe(200);

describe('hostile headers on a real server', () => {
  it('answers 431 to a 64 KB header and keeps serving', async () => {
    const head = `GET /api/v1/partners/payouts/x HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${KEY}`;
    expect(statusOf(await sendRaw(`${head}\r\nX-Padding: ${'a'.repeat(64 * 1024)}`))).toBe(431);
    const many = Array.from({ length: 3000 }, (_, i) => `X-H${i}: v`).join('\r\n');
    expect(statusOf(await sendRaw(`${head}\r\n${many}`))).toBe(431);
    await healthy();
  });

  it('refuses a doubled Authorization header in the envelope, even with one valid key', async () => {
    for (const pair of [[`Bearer ${KEY}`, `Bearer ${OTHER}`], [`Bearer ${KEY}`, `Bearer ${KEY}`], [`Bearer ${KEY}`, '']]) {
      const res = await send('/_sandbox/balances', { authorization: pair });
      expect(res.status, pair.join(' | ')).toBe(401);
      expect(isErrorEnvelope(JSON.parse(res.body))).toBe(true);
    }
  });

  it.each([
    ['missing', {}, 'AUTHENTICATION_REQUIRED'],
    ['a key with spaces', { authorization: 'Bearer sk_test_ab cd ef' }, 'INVALID_API_KEY'],
    ['tabs and padding', { authorization: '\tBearer\t sk_test_abc ' }, 'INVALID_API_KEY'],
    ['a latin-1 byte', { authorization: 'Bearer sk_test_cl\u00e9' }, 'INVALID_API_KEY'],
    ['a 10 KB key', { authorization: `Bearer sk_test_${'a'.repeat(10_000)}` }, 'INVALID_API_KEY'],
    ['only the scheme', { authorization: 'Bearer' }, 'INVALID_API_KEY'],
  ])('refuses %s with 401 in the envelope', async (_n, headers, code) => {
    const res = await send('/api/v1/partners/payouts/x', headers as Record<string, string>);
    expect(res.status).toBe(401);
    expect(envelopeOf(res).error.code).toBe(code);
  });

  it('refuses UTF-8 and control bytes in the key, or drops the request, without falling over', async () => {
    for (const value of ['Bearer sk_test_ключ', 'Bearer sk_test_🙂🙂', 'Bearer sk_test_a\u0001b']) {
      const out = await sendRaw(`GET /_sandbox/balances HTTP/1.1\r\nHost: x\r\nConnection: close\r\nAuthorization: ${value}`);
      const status = statusOf(out);
      expect([400, 401], `${value}: ${out.slice(0, 200)}`).toContain(status);
      if (status === 401) expect(out).toContain('"INVALID_API_KEY"');
    }
    await healthy();
  });

  it('survives a body nested 200,000 levels deep and a 1 MiB body', async () => {
    const headers = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };
    const post = (body: string) => fetch(`${s.url}/api/v1/partners/payouts`, { method: 'POST', headers, body });
    const deep = await post('['.repeat(200_000) + ']'.repeat(200_000));
    expect(deep.status).toBe(400);
    const big = await post(JSON.stringify({ reference: 'x'.repeat(2 * 1024 * 1024) }));
    expect(big.status).toBe(413);
    expect(((await big.json()) as { error: { code: string } }).error.code).toBe('PAYLOAD_TOO_LARGE');
    const journal = await send('/_sandbox/requests', { authorization: `Bearer ${KEY}` });
    expect(journal.status).toBe(200);
    await healthy();
  });
});
