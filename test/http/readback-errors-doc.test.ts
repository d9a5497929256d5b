// A read-back refuses a reference no create could have taken (blank, or longer than the create's
// limit) with 400 VALIDATION_ERROR, and /openapi.json lists that 400 on the operation, as it does on
// the quote reads, so a client generated from the document has a type for it.
import { describe, expect, it } from 'vitest';
import { createTestApp } from '../support/app.js';

const reads = [
  { template: '/api/v1/partners/payouts/{reference}', tooLong: 'x'.repeat(51) },
  { template: '/api/v1/partners/wallets/payouts/{reference}', tooLong: 'x'.repeat(101) },
  { template: '/api/v1/partners/withdrawal/{reference}', tooLong: 'x'.repeat(101) },
];

describe('read-backs document the 400 they answer', () => {
  it.each(reads)('GET $template', async ({ template, tooLong }) => {
    const t = await createTestApp();
    for (const reference of ['%20', tooLong]) {
      const res = await t.call('GET', template.replace('{reference}', reference), { unchecked: true });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ type: 'invalid_request_error', code: 'VALIDATION_ERROR' });
      expect(res.body.error.details[0].field).toBe('reference');
    }
    const doc = (await t.call('GET', '/openapi.json', { unchecked: true })).body;
    const responses = doc.paths[template].get.responses;
    expect(Object.keys(responses).sort()).toEqual(['200', '400', '401', '404', 'default']);
    expect(responses['400'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/ErrorEnvelope' });
  });
});
