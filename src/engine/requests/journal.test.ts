import { describe, expect, it } from 'vitest';
import type { BoundedMap } from '../../kernel/bounded-map.js';
import { Journal, type JournalEntry } from './journal.js';

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
