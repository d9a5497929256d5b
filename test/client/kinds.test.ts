// Resource kinds: the client's ResourceKind union is the kinds the sandbox serves (as /openapi.json
// lists them), and a kind that is none of them is refused by the route with a "did you mean".
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { ResourceKind, ResourcesQuery } from '../../src/client/index.js';
import { createTestApp } from '../support/app.js';

/** Every member of the union, once: the type test below fails if one is missing or extra. */
const KINDS = ['payouts', 'wallet-payouts', 'withdrawals', 'transfers', 'bulk-disbursements', 'quotes', 'fx-trades'] as const;

describe('resource kinds', () => {
  it('the client’s union is every kind the sandbox serves', async () => {
    expectTypeOf<(typeof KINDS)[number]>().toEqualTypeOf<ResourceKind>();
    expectTypeOf<NonNullable<ResourcesQuery['kind']>>().toEqualTypeOf<ResourceKind>();
    const { app } = await createTestApp();
    const doc = await (await app.request('/openapi.json')).json();
    const kind = doc.paths['/_sandbox/resources'].get.parameters.find((p: { name: string }) => p.name === 'kind');
    expect([...kind.schema.enum].sort()).toEqual([...KINDS].sort());
  });

  it('an unknown kind is 400 saying which was meant, or listing them all', async () => {
    const t = await createTestApp();
    const near = await t.call('GET', '/_sandbox/resources?kind=payout');
    expect(near.status).toBe(400);
    expect(near.body.message).toBe("No resource kind 'payout': did you mean 'payouts'?");
    expect(near.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ field: 'kind', issue: expect.stringContaining("did you mean 'payouts'?") }] });
    expect((await t.call('GET', '/_sandbox/resources?kind=wallet_payouts')).body.message).toContain("did you mean 'wallet-payouts'?");
    const far = await t.call('GET', '/_sandbox/resources?kind=refunds');
    expect(far.status).toBe(400);
    expect(far.body.message).toBe(`No resource kind 'refunds': use one of: ${KINDS.join(', ')}.`);
  });

  it('an empty kind is no filter', async () => {
    const t = await createTestApp();
    const res = await t.call('GET', '/_sandbox/resources?kind=');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.counts).sort()).toEqual([...KINDS].sort());
  });
});
