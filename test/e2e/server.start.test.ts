// startServer in process: several sandboxes side by side, each with its own store and port, each
// closed on its own.
import { afterEach, expect, it } from 'vitest';
import { ConfigSchema } from '../../src/config.js';
import { startServer, type SandboxServer } from '../../src/server.js';

const headers = { authorization: 'Bearer sk_test_start000000000000000000000001', 'content-type': 'application/json' };
const payout = JSON.stringify({
  reference: 'side-1',
  amount: 2500,
  currency: 'NGN',
  destination: { accountNumber: '0123456789', accountName: 'John Doe', bankCode: '058' },
});

let open: SandboxServer[] = [];
afterEach(async () => {
  await Promise.all(open.map((s) => s.close()));
  open = [];
});

it('runs two sandboxes in one process that share nothing, and closes each on its own', async () => {
  const [a, b] = await Promise.all([startServer(ConfigSchema.parse({ port: 0, seed: 3 })), startServer(ConfigSchema.parse({ port: 0, scenario: 'instant' }))]);
  open = [a, b];
  expect(a.port).not.toBe(b.port);
  expect(a.url).toBe(`http://127.0.0.1:${a.port}`);
  expect([a.scenario.name, b.scenario.name]).toEqual(['default', 'instant']);

  const created = await fetch(`${a.url}/api/v1/partners/payouts`, { method: 'POST', headers, body: payout });
  expect(created.status).toBe(201);
  expect((await fetch(`${a.url}/api/v1/partners/payouts/side-1`, { headers })).status).toBe(200);
  expect((await fetch(`${b.url}/api/v1/partners/payouts/side-1`, { headers })).status).toBe(404);

  const closing = a.close();
  expect(a.close()).toBe(closing);
  await closing;
  await expect(fetch(`${a.url}/_sandbox/health`)).rejects.toThrow();
  expect((await fetch(`${b.url}/_sandbox/health`)).status).toBe(200);
});

it('refuses a port already in use, with the reason', async () => {
  const a = await startServer(ConfigSchema.parse({ port: 0 }));
  open = [a];
  await expect(startServer(ConfigSchema.parse({ port: a.port }))).rejects.toThrow(/EADDRINUSE/);
});

it('lets webhook attempts in flight finish before closing, and keeps the queued ones due for the next start', async () => {
  const { createServer } = await import('node:http');
  const { mkdtemp } = await import('node:fs/promises');
  const { tmpdir } = await import('node:os');
  const received: string[] = [];
  // The receiver answers each attempt 3 s late, so one attempt is in flight and the next queued when close() is called
  // and still when the drain ends (it waits 1.5 s for this client's idle keep-alive connection).
  const receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => setTimeout(() => {
      received.push((JSON.parse(body) as { event: string }).event);
      res.writeHead(200).end('ok');
    }, 3000));
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const hook = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hooks`;
  const data = await mkdtemp(`${tmpdir()}/close-`);
  try {
    const first = await startServer(ConfigSchema.parse({ port: 0, data }));
    expect((await fetch(`${first.url}/_sandbox/webhooks`, { method: 'PUT', headers, body: JSON.stringify({ url: hook }) })).status).toBe(200);
    for (const reference of ['hook-1', 'hook-2']) {
      const body = JSON.stringify({ ...JSON.parse(payout), reference });
      expect((await fetch(`${first.url}/api/v1/partners/payouts`, { method: 'POST', headers, body })).status).toBe(201);
    }
    await first.close();
    // The attempt in flight was answered and written down before the store closed.
    expect(received).toEqual(['payout.pending']);

    const second = await startServer(ConfigSchema.parse({ port: 0, data }));
    open = [second];
    const list = async () => {
      const res = await fetch(`${second.url}/_sandbox/webhooks/deliveries`, { headers });
      return ((await res.json()) as { data: { status: string; attempts: { statusCode: number | null }[] }[] }).data;
    };
    await expect.poll(async () => (await list()).map((d) => [d.status, d.attempts.map((a) => a.statusCode)]), { timeout: 10_000 }).toEqual([
      ['succeeded', [200]],
      ['succeeded', [200]],
    ]);
    expect(received).toEqual(['payout.pending', 'payout.pending']);
  } finally {
    await new Promise((resolve) => receiver.close(resolve));
  }
});

it('prices the market from the first start: a restart with --data shows the same rate at the same instant of the key', async () => {
  const { mkdtemp } = await import('node:fs/promises');
  const { tmpdir } = await import('node:os');
  const { ManualClock } = await import('../../src/kernel/clock.js');
  const data = await mkdtemp(`${tmpdir()}/origin-`);
  const rateAt = async (clock: InstanceType<typeof ManualClock>, freeze: boolean) => {
    const s = await startServer(ConfigSchema.parse({ port: 0, data, seed: 5 }), { clock });
    open = [s];
    if (freeze) expect((await fetch(`${s.url}/_sandbox/clock`, { method: 'PUT', headers, body: JSON.stringify({ frozen: true }) })).status).toBe(200);
    const res = await fetch(`${s.url}/api/v1/partners/rates?from=NGN&to=USDT`, { headers });
    const body = (await res.json()) as { rate: number; timestamp: string };
    await s.close();
    open = [];
    return body;
  };
  const first = await rateAt(new ManualClock(), true);
  // Started again 90 minutes later: the key's clock stands where it was frozen, and so does its market.
  const later = new ManualClock();
  later.advance(90 * 60);
  const second = await rateAt(later, false);
  expect(second).toEqual(first);
});
