// @ts-check
// The kit under Jest in its default CommonJS mode, installed from the tarball in a CommonJS project
// set up as docs/ci.md says (the command started with --clock by its global setup): the control
// client and the matchers required as CommonJS, the partner API through openapi-fetch typed by
// payments-sandbox/api, and the inbox. Type-checked with tsc --strict (checkJs).
require('payments-sandbox/jest');
const createClient = require('openapi-fetch').default;
const { SandboxClient } = require('payments-sandbox/client');

const sandbox = new SandboxClient(process.env.SANDBOX_URL ?? 'http://127.0.0.1:4010');

/**
 * The partner API as the integration calls it, here pointed at the sandbox with the key.
 * @param {string} key
 * @returns {import('openapi-fetch').Client<import('payments-sandbox/api').paths>}
 */
const partnerApi = (key) => createClient({ baseUrl: sandbox.url, headers: { authorization: `Bearer ${key}` } });

/** @type {import('payments-sandbox/api').CreatePayoutRequest} */
const order = { reference: 'jest-kit-1', amount: 2500, currency: 'NGN', destination: { accountNumber: '0123456789', accountName: 'John Doe', bankCode: '058' } };

test('the clock begins at --clock; a failing payout is received verified and asserted in the journal', async () => {
  const t = sandbox.tenant();
  expect((await t.clock()).now.slice(0, 13)).toBe('2030-01-01T00');
  await t.useScenario('failures');
  const inbox = await t.webhookInbox({ events: ['payout.failed'] });
  try {
    const api = partnerApi(t.key);
    const created = await api.POST('/api/v1/partners/payouts', { body: order });
    expect(created.response.status).toBe(201);
    expect(created.data?.data.createdAt.slice(0, 13)).toBe('2030-01-01T00');
    await t.advanceClock(300);
    const failed = await inbox.next('payout.failed', { timeoutMs: 5000 });
    /** @type {string | null} */
    const reason = failed.data.failure_reason;
    expect(reason).toEqual(expect.any(String));
    await expect(t).toHaveReceived({ method: 'POST', path: '/api/v1/partners/payouts' }, { times: 1 });
    await expect(t).not.toHaveReceived({ method: 'DELETE' });
  } finally {
    await inbox.close();
  }
});
