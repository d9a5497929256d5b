// The test-suite kit as a partner's Vitest suite uses it, installed from the tarball (see
// test/e2e/package.test.ts): the partner API through openapi-fetch typed by payments-sandbox/api, a
// sandbox whose clock begins at a set instant, the webhook inbox, and the request assertions. It is
// type-checked with tsc --strict and holds no `any`.
import createClient from 'openapi-fetch';
import { afterAll, beforeAll, expect, expectTypeOf, it } from 'vitest';
import 'payments-sandbox/vitest';
import { startSandbox, type Sandbox, type SandboxTenant } from 'payments-sandbox';
import type { CreatePayoutRequest, EventData, Payout, paths } from 'payments-sandbox/api';

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ scenario: 'failures', seed: 1, clock: '2030-01-01T00:00:00Z' });
});
afterAll(() => sb.close());

/** The partner API as the integration calls it, here pointed at the sandbox with the tenant's key. */
const partnerApi = (t: SandboxTenant) => createClient<paths>({ baseUrl: sb.url, headers: { authorization: `Bearer ${t.key}` } });

const order: CreatePayoutRequest = {
  reference: 'kit-1',
  amount: 2500,
  currency: 'NGN',
  destination: { accountNumber: '0123456789', accountName: 'John Doe', bankCode: '058' },
};

it('a payout fails under the failures scenario: typed calls, a verified webhook, the journal asserted, the clock set', async () => {
  const t = sb.tenant();
  expect((await t.clock()).now.slice(0, 16)).toBe('2030-01-01T00:00');
  const inbox = await t.webhookInbox({ events: ['payout.*'] });
  const api = partnerApi(t);

  const created = await api.POST('/api/v1/partners/payouts', { body: order });
  expect(created.response.status).toBe(201);
  expectTypeOf(created.data?.data).toExtend<Payout | undefined>();
  expect(created.data?.data.status).toBe('PENDING');
  expect(created.data?.data.createdAt.slice(0, 16)).toBe('2030-01-01T00:00');

  await t.advanceClock(300);
  const failed = await inbox.next('payout.failed', { timeoutMs: 5000 });
  expectTypeOf(failed.data).toEqualTypeOf<EventData<'payout.failed'>>();
  expect(failed.data).toMatchObject({ reference: 'kit-1', status: 'FAILED', failure_reason: expect.any(String) });
  expect(inbox.rejected).toBe(0);

  const read = await api.GET('/api/v1/partners/payouts/{reference}', { params: { path: { reference: 'kit-1' } } });
  expect(read.data?.data.status).toBe('FAILED');
  await expect(t).toHaveReceived({ method: 'POST', path: '/api/v1/partners/payouts' }, { times: 1 });
  await expect(t).toHaveReceived({ method: 'GET', path: '/api/v1/partners/payouts/{reference}', status: 200 });
  await expect(t).not.toHaveReceived({ status: '5xx' });
  await inbox.close();
});

it('a failed assertion lists the requests that matched', async () => {
  const t = sb.tenant();
  const api = partnerApi(t);
  await api.POST('/api/v1/partners/payouts', { body: { ...order, reference: 'kit-2' } });
  await api.POST('/api/v1/partners/payouts', { body: { ...order, reference: 'kit-3' } });
  const failure = await expect(t)
    .toHaveReceived({ method: 'POST', path: '/api/v1/partners/payouts' }, { times: 1 })
    .then(() => undefined, (e: Error) => e.message);
  expect(failure).toMatch(/2 matched \(newest first\):\n {2}req_\d+ .* POST \/api\/v1\/partners\/payouts → 201\n {2}req_\d+ .* POST/);
});

it('resources() takes the union of kinds', async () => {
  const t = sb.tenant();
  expect((await t.resources({ kind: 'payouts' })).counts).toEqual({ payouts: 0 });
  // @ts-expect-error: 'payout' is not a kind, and the sandbox refuses it too
  await expect(t.resources({ kind: 'payout' })).rejects.toThrow("did you mean 'payouts'?");
});
