// A JSON body's unknown or misspelt fields are accepted (live services ignore them) and named in
// X-Sandbox-Warning and the request's journal entry, with "did you mean" when a known field is close.
import { beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { unknownFields } from '../../src/http/unknown-fields.js';
import { createTestApp, payoutRequest, type TestApp } from '../support/app.js';

const SOURCE = { 'x-service-source': 'payroll-service' };
let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
});

const lastEntry = async () => (await t.call('GET', '/_sandbox/requests?limit=2')).body.data.find((e: { method: string }) => e.method === 'POST');

describe('unknown JSON body fields', () => {
  it('payouts: narrations for narration is accepted, warned of with did you mean, and kept in the journal', async () => {
    const res = await t.call('POST', '/api/v1/partners/payouts', { body: { ...payoutRequest('warn-1'), narrations: 'June rent' } });
    expect(res.status).toBe(201);
    expect(res.body.data).not.toHaveProperty('narration');
    expect(res.headers.get('x-sandbox-warning')).toBe("unknown field 'narrations' was ignored: did you mean 'narration'?");
    expect((await lastEntry()).warnings).toEqual(["unknown field 'narrations' was ignored: did you mean 'narration'?"]);
  });

  it('transfers: narration for narrations, and a nested misspelling, each named with its path', async () => {
    const body = {
      reference: '3f1c2a9e-8b7d-4c6e-9f10-2a3b4c5d6e7f',
      amount: 25000,
      currency: 'NGN',
      type: 'BANK',
      source: { accountNumber: '1000200030' },
      destination: { accountNumber: '0123456789', accountName: 'Ada Obi', bankCode: '058', brachCode: '001' },
      narration: 'January salary',
      colour: 'blue',
    };
    const res = await t.call('POST', '/api/v1/transfers', { body, headers: SOURCE });
    expect(res.status).toBe(201);
    expect(res.body[0]).not.toHaveProperty('narrations');
    expect(res.headers.get('x-sandbox-warning')).toBe(
      "unknown field 'destination.brachCode' was ignored: did you mean 'destination.branchCode'?; " +
        "unknown field 'narration' was ignored: did you mean 'narrations'?; unknown field 'colour' was ignored",
    );
    expect((await lastEntry()).warnings).toHaveLength(3);
  });

  it('names of Object.prototype are unknown fields like any other', async () => {
    const raw = JSON.stringify({ ...payoutRequest('warn-4'), constructor: 1, toString: 'x' }).replace('"toString"', '"__proto__"');
    const res = await t.call('POST', '/api/v1/partners/payouts', { raw, headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(201);
    expect(res.headers.get('x-sandbox-warning')).toBe("unknown field 'constructor' was ignored; unknown field '__proto__' was ignored");
  });

  it('a body of known fields gets no header, and its journal entry no warning', async () => {
    const res = await t.call('POST', '/api/v1/partners/payouts', { body: payoutRequest('warn-2') });
    expect(res.status).toBe(201);
    expect(res.headers.get('x-sandbox-warning')).toBeNull();
    expect((await lastEntry()).warnings).toEqual([]);
  });

  it('a body refused for another reason is refused as before', async () => {
    const res = await t.call('POST', '/api/v1/partners/payouts', { body: { ...payoutRequest('warn-3'), amount: -1, narrations: 'x' } });
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual([{ field: 'amount', issue: expect.any(String) }]);
  });
});

describe('unknownFields', () => {
  it('names a field by its path through objects and arrays, and did-you-mean at the same level', () => {
    const schema = z.object({ rows: z.array(z.object({ amount: z.number(), payee: z.object({ name: z.string() }) })), note: z.string().optional() });
    const body = { rows: [{ amount: 1, payee: { name: 'a' } }, { amount: 2, payee: { nmae: 'b', 'tab\there': 1 } }], notes: 'x' };
    expect(unknownFields(schema, body)).toEqual([
      "unknown field 'rows[1].payee.nmae' was ignored: did you mean 'rows[1].payee.name'?",
      "unknown field 'rows[1].payee.tab\\u0009here' was ignored",
      "unknown field 'notes' was ignored: did you mean 'note'?",
    ]);
    expect(unknownFields(schema, body, 'body')).toContain("unknown field 'body.notes' was ignored: did you mean 'body.note'?");
  });
});

describe('query parameters sent to an operation that takes none', () => {
  it('a read-back and a create name each one in X-Sandbox-Warning and the journal, and answer as without them', async () => {
    const created = await t.call('POST', '/api/v1/partners/payouts?dryRun=true', { body: payoutRequest('warn-q') });
    expect(created.status).toBe(201);
    expect(created.headers.get('x-sandbox-warning')).toBe("unknown query parameter 'dryRun' was ignored");
    const read = await t.call('GET', '/api/v1/partners/payouts/warn-q?expand=events&expand=fees');
    expect(read.status).toBe(200);
    expect(read.body.data.reference).toBe('warn-q');
    expect(read.headers.get('x-sandbox-warning')).toBe("unknown query parameter 'expand' was ignored");
    const journal = (await t.call('GET', '/_sandbox/requests?limit=2')).body.data;
    expect(journal.map((e: { warnings: string[] }) => e.warnings)).toEqual([["unknown query parameter 'expand' was ignored"], ["unknown query parameter 'dryRun' was ignored"]]);
    expect((await t.call('GET', '/api/v1/partners/payouts/warn-q')).headers.get('x-sandbox-warning')).toBeNull();
  });
});

describe('a body sent to an operation that takes none', () => {
  it('is named in X-Sandbox-Warning and the journal, and the operation answers as without it', async () => {
    const quote = (await t.call('POST', '/api/v1/partners/marketplace/intent', { body: { sourceCurrency: 'NGN', destinationCurrency: 'USDT', amount: 50000, amountDirection: 'destination' } })).body;
    const [, second] = quote.allocationResult.allocations;
    const removed = await t.call('PUT', `/api/v1/partners/marketplace/quote/${quote.quoteId}/remove/${second.id}`, { body: { reason: 'too dear' } });
    expect(removed.status).toBe(200);
    expect(removed.headers.get('x-sandbox-warning')).toBe('a request body was sent and ignored: this operation takes none');
    expect(removed.body.allocationResult.allocations).toHaveLength(1);
    const [entry] = (await t.call('GET', '/_sandbox/requests?limit=1')).body.data;
    expect([entry.method, entry.warnings]).toEqual(['PUT', ['a request body was sent and ignored: this operation takes none']]);
    // The control routes alike; without a body, no word.
    expect((await t.call('POST', '/_sandbox/reset', { body: { everything: true } })).headers.get('x-sandbox-warning')).toBe('a request body was sent and ignored: this operation takes none');
    expect((await t.call('POST', '/_sandbox/reset')).headers.get('x-sandbox-warning')).toBeNull();
  });
});
