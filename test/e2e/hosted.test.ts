// The hosted topology with real processes: one PostgreSQL server and two sandbox processes given its
// URL, as compose.yaml runs them behind a load balancer (here the client picks the replica).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { acceptChain, instruction } from '../support/fx.js';
import { startPostgres, type TestPostgres } from '../support/postgres.js';
import { startServer, type RunningServer } from '../support/server.js';

const PAYOUTS = '/api/v1/partners/payouts';
const FX = '/api/v1/partners/fx';
const KEY = 'sk_test_hosted_0001';

let pg: TestPostgres;
let databases = 0;
let running: RunningServer[] = [];
beforeAll(async () => {
  pg = await startPostgres();
});
afterAll(() => pg?.stop());
afterEach(async () => {
  await Promise.all(running.map((s) => s.stop('SIGKILL')));
  running = [];
});

/** Two replicas on a database of their own. */
async function replicas(): Promise<[RunningServer, RunningServer]> {
  const name = `e2e_${++databases}`;
  const admin = await fetchSql(`CREATE DATABASE ${name}`);
  expect(admin).toBe(true);
  const url = pg.url.replace(/\/postgres$/, `/${name}`);
  const both = await Promise.all([0, 1].map(() => startServer(['--store', url, '--seed', '7'], { SANDBOX_TICK_MS: '50' })));
  running.push(...both);
  return both as [RunningServer, RunningServer];
}

async function fetchSql(statement: string): Promise<boolean> {
  const { default: postgres } = await import('postgres');
  const sql = postgres(pg.url, { max: 1, onnotice: () => undefined });
  try {
    await sql.unsafe(statement);
    return true;
  } finally {
    await sql.end();
  }
}

interface Reply {
  status: number;
  body: any;
  text: string;
}

async function call(s: RunningServer, method: string, path: string, body?: unknown, key = KEY): Promise<Reply> {
  const xml = typeof body === 'string';
  const res = await fetch(s.url + path, {
    method,
    headers: {
      authorization: `Bearer ${key}`,
      ...(body === undefined ? {} : { 'content-type': xml ? 'application/xml' : 'application/json' }),
    },
    body: body === undefined ? undefined : xml ? body : JSON.stringify(body),
  });
  const text = await res.text();
  const json = (res.headers.get('content-type') ?? '').includes('json');
  return { status: res.status, body: json ? JSON.parse(text) : undefined, text };
}

const payout = (reference: string) => ({
  reference,
  amount: 10000,
  currency: 'NGN',
  destination: { accountNumber: '0123456789', accountName: 'John Doe', bankCode: '058' },
});

const tag = (xml: string, name: string) => new RegExp(`<${name}>([^<]*)</${name}>`).exec(xml)?.[1];

describe('two sandbox processes on one database', () => {
  it('agree on a payout, a quote and an FX trade when a client alternates between them', async () => {
    const [a, b] = await replicas();
    const at = (i: number) => (i % 2 ? b : a);
    let i = 0;

    // payout: created on one, read, replayed and advanced on the other
    const created = await call(at(i++), 'POST', PAYOUTS, payout('p-1'));
    expect(created.status).toBe(201);
    const replay = await call(at(i++), 'POST', PAYOUTS, payout('p-1'));
    expect([replay.status, replay.body.data.transactionReference]).toEqual([201, created.body.data.transactionReference]);
    expect((await call(at(i++), 'POST', '/_sandbox/clock/advance', { seconds: 30 })).status).toBe(200);
    expect((await call(at(i++), 'GET', `${PAYOUTS}/p-1`)).body.data.status).toBe('PROCESSING');
    expect((await call(at(i++), 'POST', '/_sandbox/clock/advance', { seconds: 600 })).status).toBe(200);
    expect((await call(at(i++), 'GET', `${PAYOUTS}/p-1`)).body.data.status).toBe('SUCCESSFUL');

    // quote: intent on one, completed on the other, expired by an advance on the first
    const intent = await call(at(i++), 'POST', '/api/v1/partners/marketplace/intent', { sourceCurrency: 'NGN', destinationCurrency: 'USDT', amount: 50000, amountDirection: 'source' });
    expect(intent.status).toBe(201);
    const quoteId = intent.body.quoteId;
    const completed = await call(at(i++), 'PUT', `/api/v1/quotes/complete/${quoteId}`, { destination: { blockChain: { address: '0x52908400098527886E0F7030069857D2E4169EE7' } } });
    expect(completed.status).toBe(200);
    expect((await call(at(i++), 'GET', `/api/v1/partners/marketplace/quote/${quoteId}`)).body.status).toBe('awaiting_payment');
    expect((await call(at(i++), 'POST', '/_sandbox/clock/advance', { seconds: 3600 })).status).toBe(200);
    expect((await call(at(i++), 'GET', `/api/v1/partners/marketplace/quote/${quoteId}`)).body.status).toBe('expired');

    // FX trade: instructed, accepted and confirmed on alternating replicas
    const trade = await call(at(i++), 'POST', `${FX}/trades`, instruction({ amount: '1000' }));
    expect(trade.status, trade.text).toBe(201);
    const txId = tag(trade.text, 'TxId')!;
    expect(tag((await call(at(i++), 'POST', `${FX}/trades/${txId}/accept`, acceptChain)).text, 'Sts')).toBe('SETT');
    expect(tag((await call(at(i++), 'POST', `${FX}/trades/${txId}/confirmation`)).text, 'Sts')).toBe('COMP');
    expect(tag((await call(at(i++), 'GET', `${FX}/trades/${txId}`)).text, 'Sts')).toBe('COMP');

    // both answer the same history and clock
    const [ea, eb] = await Promise.all([a, b].map(async (s) => (await call(s, 'GET', '/_sandbox/events?limit=100')).body.data));
    expect(eb).toEqual(ea);
    expect(ea.filter((e: { event: string }) => e.event.startsWith('payout.')).map((e: { event: string }) => e.event)).toEqual([
      'payout.pending',
      'payout.processing',
      'payout.successful',
    ]);
    expect(ea.filter((e: { event: string }) => e.event.startsWith('fx_trade.')).map((e: { event: string }) => e.event)).toEqual([
      'fx_trade.newt',
      'fx_trade.sett',
      'fx_trade.comp',
    ]);
    const [ca, cb] = await Promise.all([a, b].map(async (s) => (await call(s, 'GET', '/_sandbox/clock')).body));
    expect(Math.round(ca.offsetSeconds)).toBe(4230);
    expect(ca.pendingJobs).toBe(0);
    expect({ ...cb, now: undefined }).toEqual({ ...ca, now: undefined });
  });

  it('lose no acknowledged write and apply each due move once when one is killed under load', async () => {
    const [a, b] = await replicas();
    const keys = Array.from({ length: 6 }, (_, k) => `sk_test_failover_${k}`);
    /** reference → the key that was answered 201 for it */
    const acked = new Map<string, string>();
    let killed = false;
    let afterKill = 0;
    const client = async (k: number) => {
      const key = keys[k];
      for (let n = 0; !killed || afterKill < 60; n++) {
        const reference = `${k}-${n}`;
        // the load balancer's part: a replica that does not answer is taken out, the request retried
        for (const s of killed ? [b] : n % 2 ? [a, b] : [b, a]) {
          try {
            const res = await call(s, 'POST', PAYOUTS, payout(reference), key);
            expect(res.status, res.text).toBe(201);
            acked.set(reference, key);
            if (killed && s === b) afterKill++;
            // 29 s on: the payout's move to PROCESSING falls due 1 s from now, for a tick to apply
            const adv = await call(s, 'POST', '/_sandbox/clock/advance', { seconds: 29 }, key);
            expect(adv.status).toBe(200);
            break;
          } catch (err) {
            if (s === a && (killed || a.proc.exitCode !== null || a.proc.signalCode !== null)) continue;
            throw err;
          }
        }
      }
    };
    const load = Promise.all(keys.map((_, k) => client(k)));
    await new Promise((r) => setTimeout(r, 1500));
    a.proc.kill('SIGKILL');
    killed = true;
    await load;
    expect(acked.size).toBeGreaterThan(60);

    // every acknowledged payout is there on the survivor, and has moved to PROCESSING exactly once
    await new Promise((r) => setTimeout(r, 2000));
    for (const key of keys) {
      const mine = [...acked].filter(([, k]) => k === key).map(([ref]) => ref);
      const events = (await call(b, 'GET', '/_sandbox/events?type=payout&limit=1000', undefined, key)).body.data as { event: string; data: { reference: string } }[];
      for (const ref of mine) {
        const res = await call(b, 'GET', `${PAYOUTS}/${ref}`, undefined, key);
        expect(res.status, `${key} ${ref}`).toBe(200);
        const of = (name: string) => events.filter((e) => e.event === name && e.data.reference === ref).length;
        expect([ref, of('payout.pending'), of('payout.processing')]).toEqual([ref, 1, 1]);
      }
    }
  }, 60_000);
});

describe('a receiver probe on the hosted topology', () => {
  it("lets the key's lock go while it posts: a receiver that calls back with the same key is answered at once, on either replica", async () => {
    const [a, b] = await replicas();
    const calls: { replica: string; status: number; ms: number }[] = [];
    let calledBack: Promise<void> | undefined;
    // The partner's receiver: on the first delivery it reads and writes with the probed key on both
    // replicas, and answers every delivery only after that.
    const server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        calledBack ??= (async () => {
          for (const [replica, s, method, path, body] of [
            ['a', a, 'POST', PAYOUTS, payout('called-back')],
            ['b', b, 'GET', `${PAYOUTS}/called-back`, undefined],
          ] as const) {
            const began = Date.now();
            const r = await call(s, method, path, body);
            calls.push({ replica, status: r.status, ms: Date.now() - began });
          }
        })();
        void calledBack.then(
          () => res.writeHead(200).end('ok'),
          () => res.writeHead(500).end(),
        );
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
      expect((await call(a, 'PUT', '/_sandbox/webhooks', { url })).status).toBe(200);
      const probed = await call(a, 'POST', '/_sandbox/webhooks/probe');
      expect(probed.status, probed.text).toBe(200);
      // The receiver answered every delivery (none timed out waiting for its own call back).
      expect(probed.body.probes.map((p: { status: number }) => p.status)).toEqual([200, 200, 200, 200, 200, 200, 200]);
      expect(probed.body.passed).toBe(false);
      expect(calls.map(({ replica, status }) => [replica, status])).toEqual([
        ['a', 201],
        ['b', 200],
      ]);
      // Well under the attempt timeout (5 s), which a call back waiting for the probe's lock met.
      for (const c of calls) expect(c.ms, `${c.replica}: ${c.ms} ms`).toBeLessThan(2500);
      // The result was recorded for every replica to see.
      const log = (await call(b, 'GET', '/_sandbox/webhooks/deliveries?limit=50')).body;
      expect(log.data.filter((d: { probe?: boolean }) => d.probe)).toHaveLength(7);
      const report = await call(b, 'GET', '/_sandbox/report');
      expect(report.status).toBe(200);
      expect(JSON.stringify(report.body)).toContain('bad-signature was accepted (200)');
    } finally {
      await calledBack?.catch(() => undefined);
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  }, 30_000);
});
