import { describe, expect, it } from 'vitest';
import { createTestApp, LIVE_KEY } from '../../support/app.js';

describe('GET /api/v1/partners/banks', () => {
  it('lists Nigerian banks with their CBN codes', async () => {
    const t = await createTestApp();
    const res = await t.call('GET', '/api/v1/partners/banks?currency=NGN');
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('success');
    expect(res.body.data.length).toBeGreaterThanOrEqual(20);
    const byCode = Object.fromEntries(res.body.data.map((b: { code: string; name: string }) => [b.code, b.name]));
    expect(byCode['058']).toBe('Guaranty Trust Bank');
    expect(byCode['044']).toBe('Access Bank');
    expect(byCode['011']).toBe('First Bank of Nigeria');
    expect(res.body.data[0]).toMatchObject({ currency: 'NGN', country: 'NG' });
  });

  it('lists at least ten Ghanaian banks', async () => {
    const t = await createTestApp();
    const res = await t.call('GET', '/api/v1/partners/banks?currency=GHS');
    expect(res.body.data.length).toBeGreaterThanOrEqual(10);
    expect(res.body.data.every((b: { currency: string }) => b.currency === 'GHS')).toBe(true);
  });

  it('publishes a Bank schema whose currency and country are exactly what the route answers', async () => {
    const t = await createTestApp();
    const doc = (await t.call('GET', '/openapi.json', { unchecked: true })).body;
    const bank = doc.components.schemas.Bank;
    expect(bank.properties.currency.enum).toEqual(['NGN', 'GHS']);
    expect(bank.properties.country.enum).toEqual(['NG', 'GH']);
    expect(doc.paths['/api/v1/partners/banks'].get.parameters.find((p: { name: string }) => p.name === 'currency').schema.enum).toEqual(['NGN', 'GHS']);
    const answered = new Set<string>();
    for (const currency of ['NGN', 'GHS']) {
      const res = await t.call('GET', `/api/v1/partners/banks?currency=${currency}`);
      for (const b of res.body.data) answered.add(`${b.currency} ${b.country}`);
    }
    expect([...answered].sort()).toEqual(['GHS GH', 'NGN NG']);
  });

  it.each(['USD', 'EUR', ''])('refuses currency %j with 400 naming the parameter', async (currency) => {
    const t = await createTestApp();
    const res = await t.call('GET', `/api/v1/partners/banks?currency=${currency}`);
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual([{ field: 'currency', issue: 'must be one of: NGN, GHS' }]);
  });
});

describe('GET /api/v1/partners/banks/resolve', () => {
  it('resolves any account to John Doe with a test key', async () => {
    const t = await createTestApp();
    const res = await t.call('GET', '/api/v1/partners/banks/resolve?accountNumber=9999999999&bankCode=XYZ&currency=NGN');
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ accountNumber: '9999999999', accountName: 'John Doe', bankCode: 'XYZ', bankName: 'Sandbox Test Bank' });
    const listed = await t.call('GET', '/api/v1/partners/banks/resolve?accountNumber=9999999999&bankCode=058&currency=NGN');
    expect(listed.body.data.bankName).toBe('Guaranty Trust Bank');
  });

  it('requires accountNumber and bankCode', async () => {
    const t = await createTestApp();
    const res = await t.call('GET', '/api/v1/partners/banks/resolve?bankCode=058');
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual([{ field: 'accountNumber', issue: 'is required: send a string' }]);
  });

  it('resolves only fixture accounts at listed banks with a live key', async () => {
    const t = await createTestApp();
    const ok = await t.call('GET', '/api/v1/partners/banks/resolve?accountNumber=0123456789&bankCode=058', { key: LIVE_KEY });
    expect(ok.body.data).toEqual({ accountNumber: '0123456789', accountName: 'Adaeze Okonkwo', bankCode: '058', bankName: 'Guaranty Trust Bank' });
    const ghs = await t.call('GET', '/api/v1/partners/banks/resolve?accountNumber=1400000001&bankCode=040100&currency=GHS', { key: LIVE_KEY });
    expect(ghs.body.data.accountName).toBe('Kwame Mensah');
    const badBank = await t.call('GET', '/api/v1/partners/banks/resolve?accountNumber=0123456789&bankCode=999', { key: LIVE_KEY });
    expect(badBank.status).toBe(400);
    expect(badBank.body.error.code).toBe('INVALID_BANK_CODE');
    const unknown = await t.call('GET', '/api/v1/partners/banks/resolve?accountNumber=1111111111&bankCode=058', { key: LIVE_KEY });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toMatchObject({ type: 'not_found_error', code: 'ACCOUNT_NOT_FOUND' });
  });
});
