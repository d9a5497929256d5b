import { describe, expect, it } from 'vitest';
import { createTestApp } from '../support/app.js';
import { fx, instruction, rejection } from '../support/fx.js';

const payout = (reference: string) => ({
  reference,
  amount: 100,
  currency: 'NGN',
  destination: { accountNumber: '0123456789', accountName: 'John Doe', bankCode: '058' },
});

// Every one is a valid spelling of a JSON type under RFC 9110 §8.3.
const JSON_SPELLINGS = [
  'application/json',
  'application/json ; charset=utf-8',
  'application/json\t;\tcharset=utf-8',
  'APPLICATION/JSON; CHARSET=UTF-8',
  'Application/Json;Charset="utf-8"',
  'application/json;charset=utf-8;',
  'application/json; charset=utf-8; profile=partner_v1',
];

const NOT_JSON = ['text/plain', 'application/jsonx', 'application/json charset=utf-8', 'application/json, text/plain', 'json'];

describe('JSON bodies', () => {
  it.each(JSON_SPELLINGS)('are taken with Content-Type %j on the API and the control API', async (type) => {
    const t = await createTestApp();
    const res = await t.call('POST', '/api/v1/partners/payouts', { raw: JSON.stringify(payout('media-1')), headers: { 'content-type': type } });
    expect(res.status, res.text).toBe(201);
    expect(res.body.data.reference).toBe('media-1');
    const clock = await t.call('POST', '/_sandbox/clock/advance', { raw: '{"seconds": 60}', headers: { 'content-type': type } });
    expect(clock.status, clock.text).toBe(200);
    const sim = await t.call('POST', '/_sandbox/simulate/payouts/media-1/fail', { raw: '{"reason": "closed"}', headers: { 'content-type': type } });
    expect(sim.status, sim.text).toBe(200);
    expect((await t.call('GET', '/api/v1/partners/payouts/media-1')).body.data.failureReason).toBe('closed');
    const bulk = await t.call('POST', '/_sandbox/bulk-disbursements', {
      raw: JSON.stringify({ items: [{ reference: '3f1c2a9e-8b7d-4c6e-9f10-2a3b4c5d6e7f', amount: 100, currency: 'NGN', type: 'WALLET', source: { accountNumber: '1' }, destination: { accountNumber: '2', accountName: 'A B' }, category: 'OTHER' }] }),
      headers: { 'content-type': type },
    });
    expect(bulk.status, bulk.text).toBe(201);
  });

  it.each(NOT_JSON)('are refused with 415 under Content-Type %j', async (type) => {
    const t = await createTestApp();
    const res = await t.call('POST', '/api/v1/partners/payouts', { raw: JSON.stringify(payout('media-2')), headers: { 'content-type': type } });
    expect(res.status).toBe(415);
    expect(res.body.error).toMatchObject({ type: 'invalid_request_error', code: 'UNSUPPORTED_MEDIA_TYPE' });
    expect(res.body.message).toBe('This endpoint takes a JSON body. Send it with Content-Type: application/json.');
    expect((await t.call('GET', '/api/v1/partners/payouts/media-2')).status).toBe(404);
  });
});

describe('An empty JSON body', () => {
  it.each([
    ['POST', '/api/v1/partners/payouts'],
    ['POST', '/api/v1/partners/marketplace/intent'],
    ['PUT', '/api/v1/quotes/complete/3b241101-e2bb-4255-8caf-4136c566a962'],
  ])('is 400 MALFORMED_JSON saying the body is empty on %s %s', async (method, path) => {
    const t = await createTestApp();
    // As over HTTP, an empty body comes with Content-Length: 0.
    const res = await t.call(method, path, { raw: '', headers: { 'content-type': 'application/json', 'content-length': '0' } });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ type: 'invalid_request_error', code: 'MALFORMED_JSON' });
    expect(res.body.message).toBe('The request body is empty. Send a JSON object with Content-Type: application/json.');
  });

  it.each([
    ['POST', '/api/v1/partners/payouts'],
    ['POST', '/api/v1/partners/wallets/payouts'],
    ['POST', '/api/v1/transfers'],
    ['POST', '/_sandbox/clock/advance'],
  ])('is the same 400 on %s %s sent with no body and no Content-Type, not a list of missing fields', async (method, path) => {
    const t = await createTestApp();
    const headers: Record<string, string> = path === '/api/v1/transfers' ? { 'x-service-source': 'media-test' } : {};
    const res = await t.call(method, path, { headers });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ type: 'invalid_request_error', code: 'MALFORMED_JSON' });
    expect(res.body.message).toBe('The request body is empty. Send a JSON object with Content-Type: application/json.');
    expect(res.body.error.details).toEqual([{ field: 'body', issue: 'is empty: send a JSON object' }]);
  });
});

describe('XML bodies of the FX interface', () => {
  it.each(['application/xml', 'text/xml', 'application/xml ; charset=utf-8', 'TEXT/XML;CHARSET="UTF-8"', 'Application/XML;\tcharset=utf-8;'])(
    'are taken with Content-Type %j',
    async (type) => {
      const t = await createTestApp();
      const res = await fx(t, 'POST', '/trades', { xml: instruction(), headers: { 'content-type': type } });
      expect(res.status, res.text).toBe(201);
    },
  );

  it.each(['application/json', 'application/xmlx', 'application/xml charset=utf-8', 'text/html'])('are refused with the 415 reject under %j', async (type) => {
    const t = await createTestApp();
    const r = rejection(await fx(t, 'POST', '/trades', { xml: instruction(), headers: { 'content-type': type } }));
    expect(r).toMatchObject({ status: 415, code: 'UNSUPPORTED_MEDIA_TYPE', location: 'Content-Type' });
  });
});
