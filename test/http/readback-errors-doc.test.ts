// A read-back refuses a reference no create could have taken (blank, or longer than the create's
// limit) with 400 VALIDATION_ERROR, and /openapi.json lists that 400 on the operation, as it does on
// the quote reads, so a client generated from the document has a type for it; so does every
// operation whose path or query parameters the sandbox checks.
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

/** Operations whose path or query parameters carry a check (a pattern, a length, a range, a format,
 * values), which a value failing it gets as 400. */
function checkedOperations(doc: { paths: Record<string, Record<string, { parameters?: { in: string; schema?: Record<string, unknown> }[]; responses: Record<string, unknown> }>> }) {
  const out: { op: string; responses: string[] }[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      const checked = (op.parameters ?? []).some(
        (p) => (p.in === 'path' || p.in === 'query') && p.schema !== undefined && ['pattern', 'minLength', 'maxLength', 'minimum', 'maximum', 'format', 'enum'].some((k) => k in p.schema!),
      );
      if (checked) out.push({ op: `${method.toUpperCase()} ${path}`, responses: Object.keys(op.responses) });
    }
  }
  return out;
}

describe('operations with checked parameters', () => {
  it('list 400 in /openapi.json', async () => {
    const t = await createTestApp();
    const doc = (await t.call('GET', '/openapi.json', { unchecked: true })).body;
    const checked = checkedOperations(doc);
    expect(checked.map((c) => c.op)).toContain('DELETE /_sandbox/scenarios/{name}');
    expect(checked.map((c) => c.op)).toContain('POST /_sandbox/webhooks/deliveries/{id}/redeliver');
    expect(checked.filter((c) => !c.responses.includes('400')).map((c) => c.op)).toEqual([]);
  });

  it('answer 400 to a scenario name or delivery id no such record could have', async () => {
    const t = await createTestApp();
    const name = await t.call('DELETE', '/_sandbox/scenarios/Not_A_Name', { unchecked: true });
    expect([name.status, name.body.error.code, name.body.error.details[0].field]).toEqual([400, 'VALIDATION_ERROR', 'name']);
    const id = await t.call('POST', `/_sandbox/webhooks/deliveries/${'x'.repeat(101)}/redeliver`, { unchecked: true });
    expect([id.status, id.body.error.code, id.body.error.details[0].field]).toEqual([400, 'VALIDATION_ERROR', 'id']);
  });
});
