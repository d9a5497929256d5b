// A replay answers the first response byte for byte, also after the resource has moved on: the
// response is rebuilt from the record as it was created rather than kept as sent.
import { describe, expect, it } from 'vitest';
import { advance, createTestApp } from '../support/app.js';

const ADDRESS = '0x52908400098527886E0F7030069857D2E4169EE7';
interface Case {
  name: string;
  path: string;
  headers?: Record<string, string>;
  body: unknown;
  read: string | ((first: any) => string);
  status(body: any): string;
}

const cases: Case[] = [
  {
    name: 'payout',
    path: '/api/v1/partners/payouts',
    body: { reference: 'replay-1', amount: 2500, currency: 'NGN', destination: { accountNumber: '0123456789', accountName: 'John Doe', bankCode: '058' } },
    read: '/api/v1/partners/payouts/replay-1',
    status: (b: any) => b.data.status,
  },
  {
    name: 'wallet payout',
    path: '/api/v1/partners/wallets/payouts',
    body: { reference: 'replay-1', chain: 'base', asset: 'usdc', amount: 10, toAddress: ADDRESS },
    read: '/api/v1/partners/wallets/payouts/replay-1',
    status: (b: any) => b.status,
  },
  {
    name: 'withdrawal',
    path: '/api/v1/partners/withdrawal',
    headers: { 'idempotency-key': 'replay-1' },
    body: { accountId: '73fa4f38-0f4d-443c-acf8-4003ed7e9ee9', accountName: 'John Doe', accountNumber: '0123456789', amount: 1000, bankCode: 'SPB-17646' },
    read: (first: any) => `/api/v1/partners/withdrawal/${first.reference}`,
    status: (b: any) => b.status,
  },
  {
    name: 'transfer',
    path: '/api/v1/transfers',
    headers: { 'x-service-source': 'payroll-service' },
    body: { reference: '3f1c2a9e-8b7d-4c6e-9f10-2a3b4c5d6e7f', amount: 1000, currency: 'NGN', type: 'BANK', source: { accountNumber: '1000200030' }, destination: { accountNumber: '0123456789', accountName: 'John Doe', bankCode: '058' } },
    read: '/api/v1/transfers/3f1c2a9e-8b7d-4c6e-9f10-2a3b4c5d6e7f',
    status: (b: any) => b.status,
  },
];

describe('an idempotent replay after the resource has moved', () => {
  for (const c of cases) {
    it(`answers the ${c.name}'s first response, byte for byte`, async () => {
      const t = await createTestApp({ config: { seed: 11 } });
      if (c.name === 'wallet payout') await t.call('POST', '/_sandbox/balances/top-up', { body: { key: 'usdc:base', amount: 1000 } });
      const first = await t.call('POST', c.path, { body: c.body, headers: c.headers });
      expect(first.status).toBe(201);
      await advance(t, 3600);
      const read = typeof c.read === 'function' ? c.read(first.body) : c.read;
      const now = await t.call('GET', read, { headers: c.headers });
      expect(c.status(now.body)).not.toBe(c.status(Array.isArray(first.body) ? first.body[0] : first.body));
      const again = await t.call('POST', c.path, { body: c.body, headers: c.headers });
      expect(again.status).toBe(201);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(again.text).toBe(first.text);
    });
  }
});
