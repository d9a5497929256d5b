import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { payout, serversPerTest, waitExit } from '../support/server.js';

const KEY = 'sk_test_e2e00000000000000000000000000001';
const headers = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };

const start = serversPerTest();

describe('the sandbox process', () => {
  it('answers health and a payout on a real port', async () => {
    const s = await start();
    const health = await fetch(`${s.url}/_sandbox/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: 'ok', store: 'memory' });
    const res = await fetch(`${s.url}/api/v1/partners/payouts`, { method: 'POST', headers, body: JSON.stringify(payout('e2e-1')) });
    expect(res.status).toBe(201);
    expect(s.output()).toContain('docs:');
  });

  it('journals a request with only the shown headers, Authorization redacted, over a real port', async () => {
    const s = await start();
    const sent = { ...headers, 'x-trace-id': 'not-shown', 'user-agent': 'e2e-client/1.0' };
    const res = await fetch(`${s.url}/api/v1/partners/payouts`, { method: 'POST', headers: sent, body: JSON.stringify(payout('j-1')) });
    expect(res.status).toBe(201);
    const journal = await (await fetch(`${s.url}/_sandbox/requests?limit=1`, { headers })).json();
    expect(journal.data[0].requestHeaders).toEqual({
      authorization: 'Bearer [redacted]…0001',
      'content-type': 'application/json',
      accept: '*/*',
      'user-agent': 'e2e-client/1.0',
    });
    expect(journal.data[0].requestBody).toMatchObject({ reference: 'j-1' });
  });

  it('refuses a JSON body that is not UTF-8 as malformed, and keeps nothing', async () => {
    const s = await start();
    const text = JSON.stringify(payout('bad-REF'));
    const bytes = Buffer.from(text);
    const at = text.indexOf('REF');
    bytes[at] = 0xff;
    bytes[at + 1] = 0xfe;
    const res = await fetch(`${s.url}/api/v1/partners/payouts`, { method: 'POST', headers, body: bytes });
    expect(res.status).toBe(400);
    expect((await res.json()).error.code).toBe('MALFORMED_JSON');
    const resources = await fetch(`${s.url}/_sandbox/resources`, { headers });
    expect((await resources.json()).data).toEqual([]);
    // A real U+FFFD, sent as UTF-8, is text like any other.
    const ok = await fetch(`${s.url}/api/v1/partners/payouts`, { method: 'POST', headers, body: JSON.stringify(payout('ok-\uFFFD')) });
    expect(ok.status).toBe(201);
    expect((await ok.json()).data.reference).toBe('ok-\uFFFD');
  });

  it('counts a chunked body against the 1 MiB limit and answers a POST that has no body at all', async () => {
    const s = await start();
    const { request } = await import('node:http');
    const send = (path: string, write: (req: import('node:http').ClientRequest) => void) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = request(`${s.url}${path}`, { method: 'POST', headers: { authorization: headers.authorization, 'content-type': 'application/json' } }, (res) => {
          let body = '';
          res.on('data', (d) => (body += d));
          res.on('end', () => resolve({ status: res.statusCode!, body }));
        });
        req.on('error', reject);
        write(req);
      });
    // Chunked (no Content-Length): counted as it arrives.
    const big = await send('/api/v1/partners/payouts', (req) => {
      req.setHeader('transfer-encoding', 'chunked');
      req.write(`{"reference":"${'x'.repeat(1024 * 1024)}"}`);
      req.end();
    });
    expect(big.status).toBe(413);
    expect(JSON.parse(big.body).error.code).toBe('PAYLOAD_TOO_LARGE');
    // Neither Content-Length nor Transfer-Encoding: a request with no body, as a simulated pay-in is sent.
    const intent = await fetch(`${s.url}/api/v1/partners/marketplace/intent`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ sourceCurrency: 'NGN', destinationCurrency: 'USDT', amount: 1000, amountDirection: 'source' }),
    });
    const { quoteId } = await intent.json();
    const complete = await fetch(`${s.url}/api/v1/quotes/complete/${quoteId}`, {
      method: 'PUT',
      headers,
      body: JSON.stringify({ destination: { blockChain: { address: '0x52908400098527886E0F7030069857D2E4169EE7' } } }),
    });
    expect(complete.status).toBe(200);
    // Node's client would send Content-Length: 0; autocannon and curl -X POST send neither header.
    const { connect } = await import('node:net');
    const { host, hostname, port } = new URL(s.url);
    const payIn = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), hostname.replace(/^\[|\]$/g, ''));
      let text = '';
      socket.on('data', (d) => (text += d));
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
      socket.end(`POST /_sandbox/simulate/quotes/${quoteId}/pay-in HTTP/1.1\r\nHost: ${host}\r\nAuthorization: ${headers.authorization}\r\nConnection: close\r\n\r\n`);
    });
    expect(payIn).toMatch(/^HTTP\/1\.1 200 /);
    const read = await (await fetch(`${s.url}/api/v1/partners/marketplace/quote/${quoteId}`, { headers })).json();
    expect(read.status).toBe('completed');
  });

  it('checks the declared request headers over a real port: x-service-source and Idempotency-Key', async () => {
    const s = await start();
    const ref = '0000beef-0000-4000-8000-00000000e2e1';
    const transfer = JSON.stringify({
      reference: ref,
      amount: 1000,
      currency: 'NGN',
      type: 'BANK',
      source: { accountNumber: '1000200030' },
      destination: { accountNumber: '0123456789', accountName: 'John Doe', bankCode: '058' },
    });
    const missing = await fetch(`${s.url}/api/v1/transfers`, { method: 'POST', headers, body: transfer });
    expect(missing.status).toBe(400);
    expect((await missing.json()).error).toMatchObject({ code: 'MISSING_HEADER', details: [{ field: 'x-service-source', issue: 'is required' }] });
    const made = await fetch(`${s.url}/api/v1/transfers`, { method: 'POST', headers: { ...headers, 'x-service-source': '  payroll  ' }, body: transfer });
    expect(made.status).toBe(201);
    const read = await fetch(`${s.url}/api/v1/transfers/${ref}`, { headers: { ...headers, 'x-service-source': 'payroll' } });
    expect(read.status).toBe(200);
    expect(await read.json()).toMatchObject({ reference: ref, serviceSource: 'payroll' });
    // Two x-service-source lines (a client's default header beside the request's own) reach the route joined: 400.
    const { request } = await import('node:http');
    const twice = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(`${s.url}/api/v1/transfers/${ref}`, { headers: { authorization: headers.authorization, 'x-service-source': ['payroll', 'billing'] } }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode!, body }));
      });
      req.on('error', reject);
      req.end();
    });
    expect(twice.status).toBe(400);
    expect(JSON.parse(twice.body).error.details).toEqual([{ field: 'x-service-source', issue: 'is given 2 times: send it once' }]);

    const withdrawal = JSON.stringify({ accountId: '73fa4f38-0f4d-443c-acf8-4003ed7e9ee9', accountName: 'John Doe', accountNumber: '0123456789', amount: 1000, bankCode: '058' });
    const long = await fetch(`${s.url}/api/v1/partners/withdrawal`, { method: 'POST', headers: { ...headers, 'Idempotency-Key': 'k'.repeat(101) }, body: withdrawal });
    expect(long.status).toBe(400);
    expect(await long.json()).toMatchObject({
      message: 'Invalid request headers: Idempotency-Key must be at most 100 characters long.',
      error: { code: 'VALIDATION_ERROR', details: [{ field: 'Idempotency-Key', issue: 'must be at most 100 characters long' }] },
    });
    const first = await fetch(`${s.url}/api/v1/partners/withdrawal`, { method: 'POST', headers: { ...headers, 'Idempotency-Key': 'settle-e2e' }, body: withdrawal });
    expect(first.status).toBe(201);
    const again = await fetch(`${s.url}/api/v1/partners/withdrawal`, { method: 'POST', headers: { ...headers, 'idempotency-key': 'settle-e2e' }, body: withdrawal });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await again.json()).toEqual(await first.json());
  });

  it('accepts only the keys listed in --keys FILE', async () => {
    const file = path.join(await mkdtemp(path.join(tmpdir(), 'sandbox-keys-')), 'keys.txt');
    await writeFile(file, `# CI keys\n${KEY}\n\n`);
    const s = await start(['--keys', file]);
    const ok = await fetch(`${s.url}/api/v1/partners/payouts`, { method: 'POST', headers, body: JSON.stringify(payout('keys-1')) });
    expect(ok.status).toBe(201);
    const other = await fetch(`${s.url}/api/v1/partners/payouts`, {
      method: 'POST',
      headers: { ...headers, authorization: 'Bearer sk_test_notinthefile' },
      body: JSON.stringify(payout('keys-2')),
    });
    expect(other.status).toBe(403);
    expect((await other.json()).error.code).toBe('PERMISSION_DENIED');
    expect(s.output()).toContain('1 from');
  });

  it('keeps every tenant across a restart with --data', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'sandbox-data-'));
    const a = await start(['--data', dir]);
    for (let i = 0; i < 5; i++) {
      const res = await fetch(`${a.url}/api/v1/partners/payouts`, { method: 'POST', headers, body: JSON.stringify(payout(`keep-${i}`)) });
      expect(res.status).toBe(201);
    }
    await fetch(`${a.url}/_sandbox/clock/advance`, { method: 'POST', headers, body: JSON.stringify({ seconds: 3600 }) });
    expect(await a.stop('SIGTERM')).toBe(0);
    const b = await start(['--data', dir]);
    const res = await fetch(`${b.url}/api/v1/partners/payouts/keep-4`, { headers });
    expect(res.status).toBe(200);
    expect((await res.json()).data.status).toBe('SUCCESSFUL');
    const clock = await (await fetch(`${b.url}/_sandbox/clock`, { headers })).json();
    expect(clock.offsetSeconds).toBe(3600);
    const replay = await fetch(`${b.url}/api/v1/partners/payouts`, { method: 'POST', headers, body: JSON.stringify(payout('keep-0')) });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    // The journal too: the requests before the restart, redacted as listed, and the new ones numbered on.
    const journal = (await (await fetch(`${b.url}/_sandbox/requests?limit=10`, { headers })).json()).data;
    expect(journal.map((e: { id: string; path: string; status: number }) => `${e.id} ${e.path} ${e.status}`)).toEqual([
      'req_7 /api/v1/partners/payouts 201',
      'req_6 /api/v1/partners/payouts/keep-4 200',
      'req_5 /api/v1/partners/payouts 201',
      'req_4 /api/v1/partners/payouts 201',
      'req_3 /api/v1/partners/payouts 201',
      'req_2 /api/v1/partners/payouts 201',
      'req_1 /api/v1/partners/payouts 201',
    ]);
    expect(journal[2].requestHeaders.authorization).toBe(`Bearer [redacted]…${KEY.slice(-4)}`);
    expect(journal[2].requestBody.reference).toBe('keep-4');
  });

  it('keeps a write acknowledged with a 2xx when killed with SIGKILL right after', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'sandbox-data-'));
    const a = await start(['--data', dir]);
    const res = await fetch(`${a.url}/api/v1/partners/payouts`, { method: 'POST', headers, body: JSON.stringify(payout('kill-1')) });
    expect(res.status).toBe(201);
    a.proc.kill('SIGKILL');
    await waitExit(a);
    const b = await start(['--data', dir]);
    const read = await fetch(`${b.url}/api/v1/partners/payouts/kill-1`, { headers });
    expect(read.status).toBe(200);
    expect((await read.json()).data.amount).toBe(2500);
    const balances = await (await fetch(`${b.url}/_sandbox/balances`, { headers })).json();
    expect(balances.data.find((x: { key: string }) => x.key === 'NGN').available).toBe('499997490.00');
  });

  it('starts over a damaged data file and refuses only its key, naming the file', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'sandbox-data-'));
    const a = await start(['--data', dir]);
    await fetch(`${a.url}/api/v1/partners/payouts`, { method: 'POST', headers, body: JSON.stringify(payout('d-1')) });
    await a.stop('SIGTERM');
    const tenantDir = path.join(dir, 'tenants');
    const { readdirSync } = await import('node:fs');
    const [tenant] = readdirSync(tenantDir);
    await writeFile(path.join(tenantDir, tenant, 'snapshot.json'), 'not json');
    const b = await start(['--data', dir]);
    const res = await fetch(`${b.url}/api/v1/partners/payouts/d-1`, { headers });
    expect(res.status).toBe(503);
    expect((await res.json()).message).toContain(`tenants/${tenant}/snapshot.json: it is not valid JSON`);
  });

  it('finishes in-flight requests on SIGTERM and exits 0', async () => {
    const s = await start();
    const inflight = Array.from({ length: 20 }, (_, i) =>
      fetch(`${s.url}/api/v1/partners/payouts`, { method: 'POST', headers, body: JSON.stringify(payout(`term-${i}`)) }),
    );
    await new Promise((r) => setTimeout(r, 5));
    const code = s.stop('SIGTERM');
    const settled = await Promise.allSettled(inflight);
    expect(await code).toBe(0);
    for (const r of settled) if (r.status === 'fulfilled') expect(r.value.status).toBe(201);
    expect(s.output()).toContain('store flushed');
  });
});
