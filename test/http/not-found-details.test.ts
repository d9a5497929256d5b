// A 404 for a resource the key does not have names, in `details`, the path parameter the unknown id
// was sent in (as /openapi.json names it) and what was not found, on every route that looks a
// resource up, JSON and XML alike; the status and code stay 404 RESOURCE_NOT_FOUND.
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.js';
import { acceptBank, fx, FX } from '../support/fx.js';

const UUID = '3b241101-e2bb-4255-8caf-4136c566a962';
const OTHER = '9c5b94b1-35ad-49bb-b118-8e8fc24abf80';
const TRANSFER = { 'x-service-source': 'payroll' };
const bank = { accountName: 'John Doe', accountNumber: '0123456789', bankCode: '058' };

const json: { method: string; path: string; field: string; issue: string; headers?: Record<string, string>; body?: unknown }[] = [
  { method: 'GET', path: '/api/v1/partners/payouts/no-such-ref', field: 'reference', issue: 'matches no payout of this API key' },
  { method: 'GET', path: '/api/v1/partners/wallets/payouts/no-such-ref', field: 'reference', issue: 'matches no wallet payout of this API key' },
  { method: 'GET', path: '/api/v1/partners/withdrawal/TRF-0000', field: 'reference', issue: 'matches no withdrawal of this API key' },
  { method: 'GET', path: `/api/v1/transfers/${UUID}`, field: 'reference', issue: 'matches no transfer of this API key', headers: TRANSFER },
  { method: 'GET', path: '/api/v1/transfers/bulk/bulk_nope/transfers', field: 'id', issue: 'matches no bulk disbursement file of this API key', headers: TRANSFER },
  { method: 'GET', path: `/api/v1/partners/marketplace/quote/${UUID}`, field: 'id', issue: 'matches no marketplace quote of this API key' },
  { method: 'GET', path: `/api/v1/partners/marketplace/quote/${UUID}/complete`, field: 'id', issue: 'matches no marketplace quote of this API key' },
  { method: 'PUT', path: `/api/v1/partners/marketplace/quote/${UUID}/remove/${OTHER}`, field: 'id', issue: 'matches no marketplace quote of this API key' },
  { method: 'PUT', path: `/api/v1/quotes/complete/${UUID}`, field: 'id', issue: 'matches no marketplace quote of this API key', body: { destination: { bank } } },
  { method: 'GET', path: `/api/v1/quotes/payments/${UUID}`, field: 'id', issue: 'matches no marketplace quote of this API key' },
  { method: 'POST', path: '/_sandbox/webhooks/deliveries/no-such-delivery/redeliver', field: 'id', issue: 'matches no webhook delivery of this API key' },
  { method: 'POST', path: '/_sandbox/simulate/payouts/no-such-ref/process', field: 'id', issue: 'matches no payout of this API key' },
  { method: 'POST', path: `/_sandbox/simulate/quotes/${UUID}/cancel`, field: 'id', issue: 'matches no marketplace quote of this API key' },
  { method: 'POST', path: `/_sandbox/simulate/fx-trades/${UUID}/cancel`, field: 'id', issue: 'matches no FX trade of this API key' },
];

describe('a 404 for an unknown resource names the parameter it was looked up by', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });

  it.each(json)('$method $path', async ({ method, path, field, issue, headers, body }) => {
    const res = await t.call(method, path, { headers, body });
    expect(res.status, res.text).toBe(404);
    expect(res.body.error.code).toBe('RESOURCE_NOT_FOUND');
    expect(res.body.error.details).toEqual([{ field, issue }]);
  });

  it.each([
    ['GET', `/trades/${UUID}`, undefined],
    ['POST', `/trades/${UUID}/accept`, acceptBank],
    ['POST', `/trades/${UUID}/confirmation`, undefined],
    ['PUT', `/trades/${UUID}/cancellation`, undefined],
  ])('%s %s (XML): ErrLctn and AddtlData name transactionId, valid against MsgRjct.xsd', async (method, path, xml) => {
    const res = await fx(t, method, FX + path, { xml });
    expect(res.status, res.text).toBe(404);
    expect(res.root).toBe('MsgRjct');
    expect(res.xml.Rsn).toMatchObject({
      RjctgPtyRsn: 'RESOURCE_NOT_FOUND',
      ErrLctn: 'transactionId',
      AddtlData: 'transactionId: matches no FX trade of this API key',
    });
  });
});
