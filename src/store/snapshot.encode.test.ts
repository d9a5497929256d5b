import { describe, expect, it } from 'vitest';
import { SNAPSHOT_SLICE, encodeSnapshot, encodeSnapshotInTurns, readSnapshot, type Collections } from './file.format.js';
import { mapFor } from './store.js';

/** A tenant's collections: `n` payouts, as many jobs, one empty collection. */
function tenant(n: number): Collections {
  const data: Collections = new Map();
  const payouts = mapFor('payouts');
  const jobs = mapFor('jobs');
  for (let i = 0; i < n; i++) {
    payouts.set(`p-${i}`, { reference: `p-${i}`, amount: i, note: 'naïve "quoted" \u2028' });
    jobs.set(`job_${i + 1}`, { seq: i + 1, dueAt: 1_000 + i, kind: 'payout.advance', ref: `p-${i}` });
  }
  data.set('payouts', payouts);
  data.set('jobs', jobs);
  data.set('empty', mapFor('empty'));
  return data;
}

describe('a compaction snapshot encoded in turns', () => {
  it('is byte for byte the snapshot encoded at once, and loads back to the same records', async () => {
    const data = tenant(SNAPSHOT_SLICE * 2 + 7);
    const whole = encodeSnapshot(5, data);
    const turns = await encodeSnapshotInTurns(5, data);
    const text = turns.pieces.join('');
    expect(text).toBe(whole.text);
    expect(turns.checksum).toBe(whole.checksum);
    expect(turns.bytes).toBe(Buffer.byteLength(text));
    const read = readSnapshot(Buffer.from(text), 'snapshot.json');
    expect(read.gen).toBe(5);
    expect([...read.data.keys()]).toEqual(['payouts', 'jobs']);
    expect(read.data.get('payouts')!.get('p-2000')).toEqual({ reference: 'p-2000', amount: 2000, note: 'naïve "quoted" \u2028' });
    expect([...read.data.get('jobs')!.keys()].slice(-2)).toEqual(['job_2006', 'job_2007']);
  });

  it('gives the event loop its turns while it encodes, and holds the collections as they stood when it began', async () => {
    const data = tenant(SNAPSHOT_SLICE * 3);
    const before = encodeSnapshot(1, data).text;
    let turns = 0;
    const counting = setInterval(() => turns++, 0);
    const encoding = encodeSnapshotInTurns(1, data);
    // Writes while it runs: a record replaced, one removed, one added, a collection cleared.
    await new Promise((resolve) => setImmediate(resolve));
    data.get('payouts')!.set('p-0', { replaced: true });
    data.get('payouts')!.delete('p-1');
    data.get('payouts')!.set('p-new', { added: true });
    data.get('jobs')!.clear();
    const snap = await encoding;
    clearInterval(counting);
    expect(snap.pieces.join('')).toBe(before);
    expect(turns).toBeGreaterThanOrEqual(2);
  });
});
