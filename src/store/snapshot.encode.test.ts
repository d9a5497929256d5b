import { describe, expect, it } from 'vitest';
import { crc32 } from 'node:zlib';
import { LOAD_SLICE, SNAPSHOT_SLICE, encodeSnapshot, encodeSnapshotInTurns, readSnapshot, seedOf, type Collections } from './file.format.js';
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
    const read = await readSnapshot(Buffer.from(text), 'snapshot.json');
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

describe('a snapshot read in turns', () => {
  it('gives the event loop its turns while it parses a large tenant, and reads every record in its place', async () => {
    const data = tenant(LOAD_SLICE * 3);
    const text = encodeSnapshot(2, data).text;
    let turns = 0;
    const counting = setInterval(() => turns++, 0);
    const before = await new Promise<number>((resolve) => setImmediate(() => resolve(turns)));
    const read = await readSnapshot(Buffer.from(text), 'snapshot.json');
    clearInterval(counting);
    expect(turns - before).toBeGreaterThanOrEqual(2);
    expect([...read.data.get('jobs')!.keys()]).toEqual([...data.get('jobs')!.keys()]);
    expect([...read.data.get('payouts')!.values()]).toEqual([...data.get('payouts')!.values()]);
  });

  it('reads a body of another form (white space, a name written twice) as JSON.parse does, and refuses one that is no list of pairs', async () => {
    const write = (body: string) => {
      const checksum = crc32(body, seedOf(3)).toString(16).padStart(8, '0');
      return Buffer.from(`{"version":2,"walGen":3,"checksum":"${checksum}","collections":${body}}\n`);
    };
    const spaced = await readSnapshot(write('{ "x": [ ["a", 1], ["b", {"c": "]"}] ], "x": [["z", 2]] }'), 'snapshot.json');
    expect([...spaced.data.get('x')!]).toEqual([['z', 2]]);
    const odd = await readSnapshot(write('{"x":[["a",1],["b","\\\\\\"]"]]}'), 'snapshot.json');
    expect([...odd.data.get('x')!]).toEqual([['a', 1], ['b', '\\"]']]);
    await expect(readSnapshot(write('{"x":[["a",1],[2,3]]}'), 'snapshot.json')).rejects.toThrow("collection 'x' is not a list of [id, record] pairs");
  });
});
