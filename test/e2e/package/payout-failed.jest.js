// The same package under jest, run as ES modules (NODE_OPTIONS=--experimental-vm-modules), as
// test/e2e/package.test.ts runs it in the directory the tarball was installed in.
import { startSandbox } from 'payments-sandbox';

let sb;
beforeAll(async () => {
  sb = await startSandbox({ scenario: 'failures' });
});
afterAll(() => sb.close());

test('a payout ends FAILED under the failures scenario', async () => {
  const t = sb.tenant();
  const created = await t.fetch('/api/v1/partners/payouts', {
    method: 'POST',
    body: JSON.stringify({ reference: 'jest-1', amount: 2500, currency: 'NGN', destination: { accountNumber: '0123456789', accountName: 'John Doe', bankCode: '058' } }),
  });
  expect(created.status).toBe(201);
  await t.advanceClock(300);
  const failed = await t.waitForEvent('payout.failed', { timeout: 5000 });
  expect(failed.data).toMatchObject({ reference: 'jest-1', status: 'FAILED' });
});
