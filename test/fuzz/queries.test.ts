// Random path and query values on every documented GET route: never a 5xx, the error envelope when
// refused, and reading changes nothing stored.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createTestApp } from '../support/app.js';
import { changedCollections, documentedRoutes, exampleHeaders, fillPath, isErrorEnvelope, storedState, warmUp } from './routes.js';

const RUNS = Number(process.env.FUZZ_RUNS ?? 150);
const probe = await createTestApp();
const { routes } = await documentedRoutes(probe);
const gets = routes.filter((r) => r.method === 'GET');

const oddText = fc.oneof(
  fc.constantFrom('', ' ', '..', '../../etc/passwd', '%00', '\u0000', 'NaN', '-1', '1e309', '0x1F', '9'.repeat(400), 'ü🙂\u202e', 'a'.repeat(5000), '[]', '{}', 'null'),
  fc.string({ unit: 'binary', maxLength: 60 }),
  fc.integer().map(String),
  fc.double().map(String),
);

describe('hostile query strings and path values', () => {
  it('finds the GET routes in /openapi.json', () => {
    expect(gets.map((r) => r.path)).toContain('/api/v1/partners/payouts/{reference}');
  });

  it.each(gets.map((r) => [r.path, r] as const))('GET %s', async (_name, r) => {
    const t = await createTestApp();
    await warmUp(t);
    const pathNames = r.params.filter((p) => p.in === 'path').map((p) => p.name);
    const queryNames = r.params.filter((p) => p.in === 'query').map((p) => p.name);
    const before = await storedState(t);
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          path: fc.tuple(...pathNames.map(() => oddText)),
          query: fc.array(fc.tuple(fc.oneof(fc.constantFrom(...queryNames, 'extra'), fc.string({ maxLength: 10 })), oddText), { maxLength: 5 }),
        }),
        async ({ path, query }) => {
          const values = Object.fromEntries(pathNames.map((n, i) => [n, path[i]]));
          const qs = new URLSearchParams(query).toString();
          const url = `${fillPath(r, values)}${qs ? `?${qs}` : ''}`;
          const res = await t.call('GET', url, { headers: exampleHeaders(r) });
          const label = `GET ${url.slice(0, 300)}\n${res.status} ${res.text.slice(0, 300)}`;
          expect(res.status, label).toBeLessThan(500);
          // JSON routes refuse in the JSON envelope, XML routes in an XML document.
          const type = res.headers.get('content-type') ?? '';
          if (res.status >= 400 && type.includes('json')) expect(isErrorEnvelope(res.body), label).toBe(true);
          if (res.status >= 400 && type.includes('xml')) expect(res.text.startsWith('<?xml'), label).toBe(true);
        },
      ),
      { numRuns: RUNS, seed: 11 },
    );
    expect(changedCollections(before, await storedState(t))).toEqual([]);
  });
});
