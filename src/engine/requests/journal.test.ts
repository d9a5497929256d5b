import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { BoundedMap } from '../../kernel/bounded-map.js';
import { Journal, JOURNAL_BODY_KEPT, keptBody, redact, type JournalEntry } from './journal.js';

const entry = (path: string): JournalEntry => ({
  id: '',
  at: '2026-01-15T09:00:00.000Z',
  method: 'GET',
  path,
  query: '',
  status: 200,
  sent: 200,
  fault: null,
  durationMs: 1,
  requestHeaders: { accept: 'application/json' },
  requestBody: undefined,
  responseBody: { status: 'success' },
  warnings: [],
});

/** The paths the journal shares between its entries (private: what is kept is not part of what it answers). */
const sharedPaths = (j: Journal) => [...(j as unknown as { paths: BoundedMap<string, string> }).paths.keys()];

describe('the journal', () => {
  it('shares the paths a key sends now, not only the first 64 distinct ones it ever sent', async () => {
    const j = new Journal(200);
    for (let i = 0; i < 100; i++) j.record(entry(`/api/v1/partners/payouts/ref-${i}`));
    // A path read over and over stays among them while other paths come and go.
    for (let i = 100; i < 300; i++) {
      j.record(entry('/api/v1/partners/payouts/polled'));
      j.record(entry(`/api/v1/partners/payouts/ref-${i}`));
    }
    const shared = sharedPaths(j);
    expect(shared.length).toBe(64);
    expect(shared).toContain('/api/v1/partners/payouts/polled');
    expect(shared).toContain('/api/v1/partners/payouts/ref-299');
    expect(shared).not.toContain('/api/v1/partners/payouts/ref-0');
    // What it answers is the entries as recorded, newest first.
    const listed = await j.list(3);
    expect(listed.map((e) => [e.id, e.path])).toEqual([
      ['req_500', '/api/v1/partners/payouts/ref-299'],
      ['req_499', '/api/v1/partners/payouts/polled'],
      ['req_498', '/api/v1/partners/payouts/ref-298'],
    ]);
  });
});

describe('a body cut to its first 16 KiB', () => {
  const pad = 'p'.repeat(JOURNAL_BODY_KEPT);
  const tail = (text: string) => `… [${text.length - JOURNAL_BODY_KEPT} more characters not kept]`;

  it('masks secret fields however their values are written, and API keys', () => {
    const text = `{ "authCode" : "12\\"34",\n  "PIN": 1234, "otp":null, "Password": true, "note": "password", "key": "sk_live_abcDEF-9", "pad": "${pad}" }`;
    const kept = keptBody(text);
    expect(kept.startsWith(`{ "authCode" : "[redacted]",\n  "PIN": "[redacted]", "otp":"[redacted]", "Password": "[redacted]", "note": "password", "key": "sk_live_[redacted]", "pad": "ppp`)).toBe(true);
    expect(kept.endsWith(tail(text))).toBe(true);
  });

  it('masks a secret value the cut runs through', () => {
    const lead = `{"pad":"${'p'.repeat(JOURNAL_BODY_KEPT - 30)}","password":"`;
    const text = `${lead}${'s'.repeat(100)}"}`;
    expect(keptBody(text)).toBe(`${lead.slice(0, -1)}"[redacted]"… [${text.length - JOURNAL_BODY_KEPT} more characters not kept]`);
  });

  it('keeps the start of a body of many fields as written, with its secrets masked as a listing masks them', () => {
    const names = fc.constantFrom('authCode', 'secret', 'PASSWORD', 'pin', 'amount', 'reference', 'note', 'a"b', 'é', '\u0001');
    const scalar = fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom('sk_test_abc', 'x\\"y'), fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.constant(null));
    const value = fc.letrec<{ o: Record<string, unknown> }>((tie) => ({
      o: fc.dictionary(names, fc.oneof({ depthSize: 'small' }, scalar, tie('o'), fc.array(scalar, { maxLength: 3 })), { minKeys: 1, maxKeys: 5 }),
    })).o;
    // Under a secret name a listing masks the whole value; a cut text masks a scalar, as the API's secrets are.
    const scalarSecrets = (o: Record<string, unknown>): Record<string, unknown> =>
      Object.fromEntries(Object.entries(o).map(([k, v]) => [k, /^(authCode|secret|password|pin)$/i.test(k) && v !== null && typeof v === 'object' ? 'x' : v && typeof v === 'object' && !Array.isArray(v) ? scalarSecrets(v as Record<string, unknown>) : v]));
    fc.assert(
      fc.property(value, (o) => {
        const body = JSON.parse(JSON.stringify(scalarSecrets(o)));
        const text = JSON.stringify({ ...body, zz: pad });
        const listed = JSON.stringify(redact(body));
        expect(keptBody(text).startsWith(listed.slice(0, -1))).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('keeps a body within 16 KiB whole, as sent', () => {
    const text = `{"password":"kept until listed","pad":"${'p'.repeat(100)}"}`;
    expect(keptBody(text)).toBe(text);
  });
});
