// A field a response always carries is required in its schema, and a field the schema leaves
// optional is really left out of some response: a tour of every JSON operation, each response
// checked against /openapi.json (createTestApp's call) and its fields counted against its schema.
import { describe, expect, it } from 'vitest';
import { createTestApp, LIVE_KEY, type CallOptions, type TestApp } from '../support/app.js';
import { PresenceTracker } from '../support/presence.js';

const ADDRESS = '0x52908400098527886E0F7030069857D2E4169EE7';
const NGN_ACCOUNT = '73fa4f38-0f4d-443c-acf8-4003ed7e9ee9';
const SOURCE = { 'x-service-source': 'payroll-service' };

async function tour(call: (method: string, path: string, o?: CallOptions) => Promise<any>) {
  // Fiat payouts and the bank look-ups: with and without the optional request fields, test and live.
  const dest = { accountNumber: '0123456789', accountName: 'John Doe', bankCode: '058' };
  await call('POST', '/api/v1/partners/payouts', { body: { reference: 'p-1', amount: 100, currency: 'NGN', destination: { ...dest, branchCode: '001' }, narration: 'Invoice 1' } });
  await call('POST', '/api/v1/partners/payouts', { body: { reference: 'p-2', amount: 100, currency: 'NGN', destination: { ...dest, bankCode: 'ANY' } } });
  await call('POST', '/api/v1/partners/payouts', { key: LIVE_KEY, body: { reference: 'p-3', amount: 100, currency: 'NGN', destination: { ...dest, accountName: 'Adaeze Okonkwo' } } });
  await call('GET', '/api/v1/partners/payouts/p-1');
  await call('GET', '/api/v1/partners/payouts/nope');
  await call('GET', '/api/v1/partners/banks?currency=GHS');
  await call('GET', '/api/v1/partners/banks/resolve?accountNumber=1&bankCode=ANY');
  await call('GET', '/api/v1/partners/banks/resolve?accountNumber=0123456789&bankCode=058', { key: LIVE_KEY });
  // Wallet payouts, withdrawals, transfers.
  await call('POST', '/api/v1/partners/wallets/payouts', { body: { reference: 'w-1', chain: 'base', asset: 'usdc', amount: 20, toAddress: ADDRESS, memo: 'm' } });
  await call('POST', '/api/v1/partners/wallets/payouts', { body: { reference: 'w-2', chain: 'base', asset: 'usdt', amount: 20, toAddress: ADDRESS } });
  await call('GET', '/api/v1/partners/wallets/payouts/w-1');
  const withdrawal = { accountId: NGN_ACCOUNT, accountName: 'John Doe', accountNumber: '0123456789', amount: 100, bankCode: '058' };
  await call('POST', '/api/v1/partners/withdrawal', { body: { ...withdrawal, narration: 'June' } });
  const w = await call('POST', '/api/v1/partners/withdrawal', { body: withdrawal });
  await call('GET', `/api/v1/partners/withdrawal/${w.body.reference}`);
  const transfer = { amount: 100, currency: 'NGN', source: { accountNumber: '0011223344' } };
  await call('POST', '/api/v1/transfers', { headers: SOURCE, body: { ...transfer, reference: '3f1c2a9e-8b7d-4c6e-9f10-2a3b4c5d6e70', type: 'BANK', destination: { ...dest, branchCode: '001' }, narrations: 'Salary' } });
  await call('POST', '/api/v1/transfers', { headers: SOURCE, body: { ...transfer, reference: '3f1c2a9e-8b7d-4c6e-9f10-2a3b4c5d6e71', type: 'WALLET', destination: { accountNumber: '9', accountName: 'A B' } } });
  await call('GET', '/api/v1/transfers/3f1c2a9e-8b7d-4c6e-9f10-2a3b4c5d6e70', { headers: SOURCE });
  await call('POST', '/_sandbox/bulk-disbursements/demo');
  await call('GET', '/api/v1/transfers/bulk/bulk_demo_salaries/transfers?size=2', { headers: SOURCE });
  // Marketplace quotes: intent, remove, read, complete (chain and bank).
  const intent = { sourceCurrency: 'NGN', destinationCurrency: 'USDT', amount: 500000, amountDirection: 'source' };
  // Large enough to take two pools, so one allocation can be removed.
  const q1 = (await call('POST', '/api/v1/partners/marketplace/intent', { body: { ...intent, amount: 50000, amountDirection: 'destination' } })).body;
  await call('PUT', `/api/v1/partners/marketplace/quote/${q1.quoteId}/remove/${q1.allocationResult.allocations[1].id}`);
  await call('GET', `/api/v1/partners/marketplace/quote/${q1.quoteId}`);
  await call('PUT', `/api/v1/quotes/complete/${q1.quoteId}`, { body: { destination: { blockChain: { address: ADDRESS } } } });
  const q2 = (await call('POST', '/api/v1/partners/marketplace/intent', { body: { ...intent, sourceCurrency: 'USDT', destinationCurrency: 'NGN', amount: 10 } })).body;
  await call('PUT', `/api/v1/quotes/complete/${q2.quoteId}`, { body: { destination: { bank: dest } } });
  // From the live reference: express and payment-specific quotes, the JSON rate.
  const ex = (await call('POST', '/api/v1/partners/marketplace/express/quote', { body: { sourceCurrency: 'NGN', destinationCurrency: 'USDT', amount: 50000 } })).body[0];
  await call('GET', `/api/v1/partners/marketplace/quote/${ex.quoteId}/complete`);
  const pq = (await call('POST', '/api/v1/quotes', { body: { sourceCurrency: 'NGN', destinationCurrency: 'USDT', amount: 123, destinationNetwork: 'BASE' } })).body[0];
  await call('GET', `/api/v1/quotes/payments/${pq.quoteId}`);
  await call('GET', '/api/v1/partners/rates?from=NGN&to=USDT');
  // The control API.
  await call('GET', '/_sandbox/health', { key: null });
  await call('GET', '/_sandbox/scenario.schema.json', { key: null });
  await call('GET', '/_sandbox/scenarios');
  await call('GET', '/_sandbox/scenario');
  await call('PUT', '/_sandbox/scenario', { body: { name: 'failures' } });
  await call('GET', '/_sandbox/scenario');
  await call('DELETE', '/_sandbox/scenario');
  await call('PUT', '/_sandbox/scenarios/saved-one', { body: { scenario: { description: 'Saved', payout: { timing: { PENDING: 1 } } } } });
  await call('PUT', '/_sandbox/scenarios/saved-two', { body: { scenario: { payout: { timing: { PENDING: 2 } } } } });
  await call('GET', '/_sandbox/scenarios');
  await call('DELETE', '/_sandbox/scenarios/saved-one');
  await call('GET', '/_sandbox/magic-values');
  await call('GET', '/_sandbox/clock');
  await call('POST', '/api/v1/partners/payouts', { body: { reference: 'p-4', amount: 100, currency: 'NGN', destination: dest } });
  await call('GET', '/_sandbox/clock');
  await call('PUT', '/_sandbox/clock', { body: { frozen: true } });
  await call('PUT', '/_sandbox/clock', { body: { frozen: false } });
  await call('POST', '/_sandbox/simulate/payouts/p-4/fail', { raw: '' });
  await call('PUT', '/_sandbox/webhooks', { body: { url: 'http://127.0.0.1:59999/hooks' } });
  await call('PUT', '/_sandbox/webhooks', { body: { url: 'http://127.0.0.1:59998/hooks', faults: { duplicate: true } } });
  await call('GET', '/_sandbox/webhooks');
  await call('POST', '/api/v1/partners/payouts', { body: { reference: 'p-5', amount: 100, currency: 'NGN', destination: dest } });
  await call('POST', '/_sandbox/clock/advance', { body: { seconds: 400 } });
  const deliveries = await call('GET', '/_sandbox/webhooks/deliveries');
  if (deliveries.body.data?.[0]) await call('POST', `/_sandbox/webhooks/deliveries/${deliveries.body.data[0].id}/redeliver`);
  await call('GET', '/_sandbox/webhooks/deliveries');
  await call('POST', '/_sandbox/webhooks/flush');
  await call('POST', '/_sandbox/webhooks/test');
  await call('POST', '/_sandbox/webhooks/probe');
  await call('GET', '/_sandbox/webhooks/deliveries');
  await call('DELETE', '/_sandbox/webhooks');
  await call('GET', '/_sandbox/requests?limit=200');
  await call('GET', '/_sandbox/events');
  await call('GET', '/_sandbox/resources');
  await call('GET', '/_sandbox/balances');
  await call('POST', '/_sandbox/balances/top-up', { body: { key: 'NGN', amount: 1 } });
  await call('GET', '/_sandbox/accounts');
  await call('POST', '/_sandbox/bulk-disbursements', { raw: 'reference,amount,currency,type,source.accountNumber,destination.accountNumber,destination.accountName,category\n3f1c2a9e-8b7d-4c6e-9f10-2a3b4c5d6e72,100,NGN,WALLET,1,2,A B,OTHER\n', headers: { 'content-type': 'text/csv' } });
  await call('POST', '/_sandbox/bulk-disbursements?name=june', { raw: 'reference,amount,currency,type,source.accountNumber,destination.accountNumber,destination.accountName,category\n3f1c2a9e-8b7d-4c6e-9f10-2a3b4c5d6e73,100,NGN,WALLET,1,2,A B,OTHER\n', headers: { 'content-type': 'text/csv' } });
  await call('POST', '/_sandbox/reset');
  // The readiness report of all that (a reset keeps it) and of a failed payout read back, then of nothing.
  await call('POST', '/api/v1/partners/payouts', { body: { reference: 'p-failed', amount: 100, currency: 'NGN', destination: { ...dest, accountNumber: '0000000051' } } });
  await call('POST', '/_sandbox/clock/advance', { body: { seconds: 3600 } });
  await call('GET', '/api/v1/partners/payouts/p-failed');
  await call('GET', '/_sandbox/report');
  await call('GET', '/', { key: null });
  await call('DELETE', '/_sandbox/report');
}

describe('response fields', () => {
  it('a field every response carries is required, and an optional one is left out of some real response', async () => {
    const t = await createTestApp();
    const doc = await (await t.app.request('/openapi.json')).json();
    const tracker = new PresenceTracker(doc);
    const documented = new Set<string>();
    const statuses: string[] = [];
    const call = async (method: string, path: string, o: CallOptions = {}) => {
      const res = await t.call(method, path, o);
      statuses.push(`${res.status} ${method} ${path}`);
      const schema = t.validator.responseSchema(method, new URL(path, 'http://x').pathname, res.status);
      if (schema && typeof res.body === 'object') {
        tracker.record(schema, res.body);
        tracker.optionalFields(schema, documented);
      }
      return res;
    };
    await tour(call);
    expect(statuses.filter((s) => !/^20[012] /.test(s) && !s.includes('/payouts/nope'))).toEqual([]);
    // Every optional field of the responses met was met, and left out at least once: in this tour, or
    // (the cases a request in process cannot make) in the test named.
    const leftOutElsewhere = new Set([
      'JournalEntry.responseBody', // a client that left before the answer: test/e2e/connections.test.ts
    ]);
    const neverLeftOut = [...documented].filter((f) => !leftOutElsewhere.has(f) && (tracker.fields.get(f)?.leftOut ?? 0) === 0);
    expect(neverLeftOut).toEqual([]);
    // Every operation of the document answered at least once.
    type Op = { responses: Record<string, { content?: Record<string, unknown> }> };
    const answersJson = (op: Op) => Object.entries(op.responses).some(([status, r]) => /^2/.test(status) && r.content?.['application/json']);
    const jsonOps = Object.entries(doc.paths as Record<string, Record<string, Op>>).flatMap(([p, item]) =>
      Object.entries(item).filter(([, op]) => answersJson(op)).map(([m]) => `${m.toUpperCase()} ${p}`),
    );
    const met = new Set(statuses.map((s) => s.split(' ').slice(1, 3).join(' ')));
    const templates = jsonOps.filter((o) => {
      const [m, p] = o.split(' ');
      const re = new RegExp(`^${p.replace(/[.]/g, '\\.').replace(/\{[^}]+\}/g, '[^/?]+')}(\\?.*)?$`);
      return ![...met].some((s) => s.startsWith(`${m} `) && re.test(s.slice(m.length + 1)));
    });
    expect(templates).toEqual([]);
  }, 60_000);
});
