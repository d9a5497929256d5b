// A create that replays an earlier one says so in Idempotent-Replayed: true, and /openapi.json lists
// that header on each such operation's 201, so a client generated from the document can read it.
import { describe, expect, it } from 'vitest';
import { createTestApp } from '../support/app.js';

const ADDRESS = '0x52908400098527886E0F7030069857D2E4169EE7';
const SOURCE = { 'x-service-source': 'payroll-service' };

const creates: { path: string; body: object; headers: Record<string, string> }[] = [
  {
    path: '/api/v1/partners/payouts',
    body: { reference: 'rp-1', amount: 100, currency: 'NGN', destination: { accountNumber: '0123456789', accountName: 'John Doe', bankCode: '058' } },
    headers: {},
  },
  { path: '/api/v1/partners/wallets/payouts', body: { reference: 'rw-1', chain: 'base', asset: 'usdc', amount: 20, toAddress: ADDRESS }, headers: {} },
  {
    path: '/api/v1/partners/withdrawal',
    body: { accountId: '73fa4f38-0f4d-443c-acf8-4003ed7e9ee9', accountName: 'John Doe', accountNumber: '0123456789', amount: 100, bankCode: '058' },
    headers: { 'idempotency-key': 'rk-1' },
  },
  {
    path: '/api/v1/transfers',
    body: {
      reference: '3f1c2a9e-8b7d-4c6e-9f10-2a3b4c5d6e7f',
      amount: 100,
      currency: 'NGN',
      type: 'BANK',
      source: { accountNumber: '1000200030' },
      destination: { accountNumber: '0123456789', accountName: 'John Doe', bankCode: '058' },
    },
    headers: SOURCE,
  },
];

describe('Idempotent-Replayed in /openapi.json', () => {
  it.each(creates)('POST $path documents the header it sends on a replay', async ({ path, body, headers }) => {
    const t = await createTestApp();
    const first = await t.call('POST', path, { body, headers });
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const again = await t.call('POST', path, { body, headers });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    const doc = (await t.call('GET', '/openapi.json', { unchecked: true })).body;
    expect(doc.paths[path].post.responses['201'].headers['Idempotent-Replayed']).toMatchObject({ schema: { type: 'string', enum: ['true'] } });
  });

  it("the quote's completion and allocation removal, which replay a retried PUT, document it on their 200", async () => {
    const t = await createTestApp();
    const doc = (await t.call('GET', '/openapi.json', { unchecked: true })).body;
    for (const path of ['/api/v1/quotes/complete/{id}', '/api/v1/partners/marketplace/quote/{id}/remove/{itemId}']) {
      expect(doc.paths[path].put.responses['200'].headers['Idempotent-Replayed'], path).toMatchObject({ schema: { type: 'string', enum: ['true'] } });
    }
  });
});
