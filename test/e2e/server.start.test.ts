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
