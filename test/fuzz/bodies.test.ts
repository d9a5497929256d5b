// Hostile JSON bodies on every documented route that takes one: never a 5xx, always the error
// envelope when refused, and a refused request leaves nothing stored.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createTestApp } from '../support/app.js';
import { checkOne } from './check.js';
import { documentedRoutes, fillPath, hostileBody, sample, warmUp } from './routes.js';

const RUNS = Number(process.env.FUZZ_RUNS ?? 250);

const probe = await createTestApp();
const { doc, routes } = await documentedRoutes(probe);
const withBody = routes.filter((r) => r.body);

describe('hostile JSON bodies', () => {
  it('finds the routes that take a JSON body in /openapi.json', () => {
    const names = withBody.map((r) => `${r.method} ${r.path}`);
    expect(names).toContain('POST /api/v1/partners/payouts');
    expect(names).toContain('POST /api/v1/transfers');
    expect(names.length).toBeGreaterThanOrEqual(8);
  });

  it.each(withBody.map((r) => [`${r.method} ${r.path}`, r] as const))('%s', async (_name, r) => {
    const t = await createTestApp();
    await warmUp(t);
    const valid = sample(doc, r.body);
    const path = fillPath(r);
    const statuses = new Set<number>();
    await fc.assert(
      fc.asyncProperty(hostileBody(valid), async (body) => {
        statuses.add(await checkOne(t, r, path, { body }));
      }),
      { numRuns: RUNS, seed: 9 },
    );
    // The hostile bodies reached validation and were refused there, not by some earlier gate.
    expect([...statuses].some((s) => s === 400 || s === 404 || s === 409)).toBe(true);
  });
});
