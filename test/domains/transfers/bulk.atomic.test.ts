// A 10,000-row bulk file is read and built in slices while other requests run: the uploading key's
// other requests see none of the file or all of it, and a reference taken meanwhile refuses the
// whole file, never half of it.
import { describe, expect, it, vi } from 'vitest';
import { transfers } from '../../../src/domains/transfers/transfers.service.js';
import { createTestApp, KEY, type TestApp } from '../../support/app.js';
import { bulkReference as ref, bulkRow as item } from '../../support/bulk.js';

const UPLOAD = '/_sandbox/bulk-disbursements';
const SOURCE = { 'x-service-source': 'payroll-service' };
const N = 10_000;
/** The demo file, asked for first in each test: 1 file and 24 rows beside the upload. */
const DEMO_ROWS = 24;
const withDemo = async () => {
  const t = await createTestApp();
  await t.call('POST', '/_sandbox/bulk-disbursements/demo');
  return t;
};
/** The length of a slice of the upload's work (src/domains/transfers/bulk.slices.ts). */
const SLICE_MS = 4;

const file = JSON.stringify({ name: 'Payroll', items: Array.from({ length: N }, (_, i) => item(i + 1)) });
const upload = (t: TestApp) => t.call('POST', UPLOAD, { raw: file, headers: { 'content-type': 'application/json', ...SOURCE } });

async function counts(t: TestApp): Promise<string> {
  const res = await t.call('GET', '/_sandbox/resources?limit=1');
  return `${res.body.counts.transfers} transfers, ${res.body.counts['bulk-disbursements']} files`;
}

describe('a 10,000-row upload and the same key meanwhile', () => {
  it('shows none of the file or all of it, never part', async () => {
    const t = await withDemo();
    let done = false;
    const uploading = upload(t).finally(() => (done = true));
    const seen = new Set<string>();
    let polls = 0;
    while (!done) {
      seen.add(await counts(t));
      polls++;
      // Requests over HTTP arrive as I/O between the upload's slices; in process, make way the same.
      await new Promise((r) => setImmediate(r));
    }
    expect((await uploading).status).toBe(201);
    expect(polls).toBeGreaterThan(3);
    const before = [`0 transfers, 0 files`, `${DEMO_ROWS} transfers, 1 files`];
    const after = `${DEMO_ROWS + N} transfers, 2 files`;
    expect([...seen].filter((c) => !before.includes(c) && c !== after)).toEqual([]);
    expect([...seen].some((c) => before.includes(c))).toBe(true);
    expect(await counts(t)).toBe(after);
  }, 60_000);

  it('writes one of two uploads of the same file at once whole, and refuses the other whole', async () => {
    const t = await withDemo();
    const [a, b] = await Promise.all([upload(t), upload(t)]);
    // Both pass their checks while neither is written; the second to be written finds every
    // reference taken by the first.
    expect([a.status, b.status].sort()).toEqual([201, 400]);
    const refused = a.status === 400 ? a : b;
    expect(refused.body.error.code).toBe('INVALID_BULK_FILE');
    expect(refused.body.error.details).toHaveLength(N);
    expect(refused.body.error.details[N - 1]).toEqual({ field: `items[${N - 1}].reference`, issue: 'already used by another transfer' });
    expect(await counts(t)).toBe(`${DEMO_ROWS + N} transfers, 2 files`);
  }, 60_000);

  it('refuses the whole file when a row reference is taken while it uploads', async () => {
    const t = await withDemo();
    const rows = transfers(await t.tenants.get(KEY, 'sandbox')) as unknown as { has(ref: string): boolean };
    // The upload checks and builds its rows in slices, with a turn of the event loop between them.
    // Here every row is a slice of its own (each reading of performance.now moves on a slice's
    // length), and the transfer is sent once the upload has checked its first row against the
    // key's transfers: it is certainly made between two slices of the upload.
    let ms = 0;
    const clock = vi.spyOn(performance, 'now').mockImplementation(() => (ms += SLICE_MS));
    let checkedFirst!: () => void;
    const checking = new Promise<void>((resolve) => (checkedFirst = resolve));
    const has = rows.has;
    rows.has = (reference) => {
      if (reference === ref(1)) checkedFirst();
      return has.call(rows, reference);
    };
    try {
      const uploading = upload(t);
      await checking;
      delete (rows as Partial<typeof rows>).has;
      const single = await t.call('POST', '/api/v1/transfers', { body: { ...item(1), category: undefined }, headers: SOURCE });
      expect(single.status).toBe(201);
      const res = await uploading;
      // The file passed its check of that row before the transfer was made; the last check before
      // writing finds it taken and refuses the whole file.
      expect(res.status).toBe(400);
      expect(res.body.error.details).toEqual([{ field: 'items[0].reference', issue: 'already used by another transfer' }]);
      expect(await counts(t)).toBe(`${DEMO_ROWS + 1} transfers, 1 files`);
    } finally {
      clock.mockRestore();
    }
  }, 60_000);

  it('refuses the transfer when the file was written first, and keeps the file whole', async () => {
    const t = await withDemo();
    expect((await upload(t)).status).toBe(201);
    const single = await t.call('POST', '/api/v1/transfers', { body: { ...item(1), category: undefined }, headers: SOURCE });
    expect(single.status).toBe(409);
    expect(await counts(t)).toBe(`${DEMO_ROWS + N} transfers, 2 files`);
  }, 60_000);
});
