import { beforeEach, describe, expect, it } from 'vitest';
import { advance, createTestApp, KEY, KEY_B, LIVE_KEY, type TestApp } from './support/app.js';

const PATH = '/api/v1/transfers';
const REF = '3f1c2a9e-8b7d-4c6e-9f10-2a3b4c5d6e7f';
const SOURCE = { 'x-service-source': 'payroll-service' };

const transfer = (over: Record<string, unknown> = {}) => ({
  reference: REF,
  amount: 25000,
  currency: 'NGN',
  type: 'BANK',
  source: { accountNumber: '1000200030' },
  destination: { accountNumber: '0123456789', accountName: 'Ada Obi', bankCode: '058', branchCode: '001' },
  narrations: 'January salary',
  ...over,
});

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
});

const post = (body: unknown, o: { key?: string; headers?: Record<string, string> } = {}) =>
  t.call('POST', PATH, { body, key: o.key, headers: { ...SOURCE, ...o.headers } });

describe('POST /api/v1/transfers', () => {
  it('answers 201 with an array holding the PENDING transfer', async () => {
    const res = await post(transfer());
    expect(res.status).toBe(201);
    expect(Array.isArray(res.body)).toBe(true);
    expect(res.body).toHaveLength(1);
    expect(res.body[0]).toEqual({
      id: expect.stringMatching(/^trf_[0-9a-f]{24}$/),
      reference: REF,
      amount: 25000,
      currency: 'NGN',
      type: 'BANK',
      source: { accountNumber: '1000200030' },
      destination: { accountNumber: '0123456789', accountName: 'Ada Obi', bankCode: '058', branchCode: '001' },
      narrations: 'January salary',
      status: 'PENDING',
      fee: 50,
      serviceSource: 'payroll-service',
      category: null,
      bulkId: null,
      failureReason: null,
      createdAt: '2026-01-15T09:00:00.000Z',
      updatedAt: '2026-01-15T09:00:00.000Z',
    });
  });
});
