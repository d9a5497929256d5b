// A partner's test suite, as test/e2e/package.test.ts runs it against the installed tarball: the
// package is imported by its name, and the file type-checks against the shipped declarations.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, expect, expectTypeOf, it } from 'vitest';
import { SandboxClient } from 'payments-sandbox/client';
import { startSandbox, type Sandbox, type SandboxEvent } from 'payments-sandbox';

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ scenario: 'failures', seed: 1 });
});
afterAll(() => sb.close());

/** A webhook receiver on a free port: every request's headers and raw body. */
async function receiver() {
  const got: { headers: IncomingHttpHeaders; body: string }[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      got.push({ headers: req.headers, body });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  return { url, got, close: () => new Promise((resolve) => server.close(resolve)) };
}

it('drives a payout to FAILED under the failures scenario and receives its signed webhook', async () => {
  const hooks = await receiver();
  const t = sb.tenant();
  const settings = await t.webhooks.set(hooks.url, { events: ['payout.failed'] });
  expectTypeOf(settings.secret).toEqualTypeOf<string>();

  const created = await t.fetch('/api/v1/partners/payouts', {
    method: 'POST',
    body: JSON.stringify({
      reference: 'order-7',
      amount: 2500,
      currency: 'NGN',
      destination: { accountNumber: '0123456789', accountName: 'John Doe', bankCode: '058' },
    }),
  });
  expect(created.status).toBe(201);

  const advanced = await t.advanceClock(300);
  expect(advanced.applied).toBe(2);
  const failed = await t.waitForEvent('payout.failed', { timeout: 5000 });
  expectTypeOf(failed).toEqualTypeOf<SandboxEvent>();
  expect(failed.data).toMatchObject({ reference: 'order-7', status: 'FAILED' });

  const deadline = Date.now() + 5000;
  while (hooks.got.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  const [delivery] = hooks.got;
  const payload = new Webhook(settings.secret).verify(delivery.body, delivery.headers as Record<string, string>);
  expect(payload).toMatchObject({ event: 'payout.failed', data: { reference: 'order-7', status: 'FAILED' } });
  await hooks.close();
});

it('reaches the same sandbox with the client entry alone', async () => {
  const health = await new SandboxClient(sb.url).health();
  expectTypeOf(health.store).not.toBeAny();
  expectTypeOf(health.store).toExtend<string>();
  expect(health).toMatchObject({ status: 'ok', store: 'memory' });
});

// Never called: tsc fails on this file if the options lost their types.
export function typedOptions() {
  // @ts-expect-error: the port is a number
  return startSandbox({ port: '4010' });
}
