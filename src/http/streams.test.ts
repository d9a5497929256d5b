import { describe, expect, it } from 'vitest';
import { streamCapFor, Streams, type StreamConnection } from './streams.js';

/** A connection whose unsent bytes the test sets. */
function connection(): StreamConnection & { bytes: number; destroyed: boolean } {
  const c = { bytes: 0, destroyed: false, unsent: () => c.bytes, destroy: () => void (c.destroyed = true) };
  return c;
}

describe('Streams', () => {
  it('caps the streams of the whole server, whatever the key, and frees a slot when one ends', () => {
    const streams = new Streams({ maxOpen: 3 });
    const keys = [{}, {}, {}];
    const slots = keys.map((k) => streams.add(k, () => undefined));
    expect(streams.full).toBe(true);
    expect(streams.openFor(keys[0])).toBe(1);
    slots[1].release();
    slots[1].release();
    expect([streams.full, streams.size, streams.openFor(keys[1])]).toEqual([false, 2, 0]);
  });

  it('derives the server-wide cap from the file limit: a quarter of it', () => {
    expect([streamCapFor(1024), streamCapFor(256), streamCapFor(20_000), streamCapFor(3)]).toEqual([256, 64, 5000, 1]);
    expect(new Streams().maxOpen).toBe(256);
  });

  it('ends a stream, cuts its connection and frees its slot when bytes are still unsent at two heartbeats in a row', () => {
    const streams = new Streams({ maxOpen: 1 });
    const conn = connection();
    let ended = 0;
    const slot = streams.add({}, () => ended++, conn);
    expect(slot.beat()).toBe(true);
    conn.bytes = 120;
    // Once is a client reading a burst: it goes on.
    expect(slot.beat()).toBe(true);
    conn.bytes = 0;
    expect(slot.beat()).toBe(true);
    conn.bytes = 80;
    expect(slot.beat()).toBe(true);
    expect([ended, conn.destroyed, streams.full]).toEqual([0, false, true]);
    expect(slot.beat()).toBe(false);
    expect([ended, conn.destroyed, streams.full, streams.size]).toEqual([1, true, false, 0]);
    expect(slot.beat()).toBe(false);
    expect(ended).toBe(1);
  });

  it('ends a stream at the first heartbeat past its lifetime, cleanly: the connection stays unless bytes are unsent', () => {
    let now = 0;
    const streams = new Streams({ lifetimeMs: 3_600_000 }, () => now);
    const conn = connection();
    let ended = 0;
    const slot = streams.add({}, () => ended++, conn);
    now = 3_599_999;
    expect(slot.beat()).toBe(true);
    now = 3_600_000;
    expect(slot.beat()).toBe(false);
    expect([ended, conn.destroyed, streams.size]).toEqual([1, false, 0]);
    // One whose answer is stuck at that heartbeat could not finish it: its connection is cut too.
    const stuck = connection();
    const late = streams.add({}, () => ended++, stuck);
    stuck.bytes = 10;
    now += 3_600_000;
    expect(late.beat()).toBe(false);
    expect([ended, stuck.destroyed, streams.size]).toEqual([2, true, 0]);
  });

  it('watches only the lifetime of a stream without a connection (in process)', () => {
    let now = 0;
    const streams = new Streams({ lifetimeMs: 1000 }, () => now);
    const slot = streams.add({}, () => undefined);
    for (let i = 0; i < 5; i++) expect(slot.beat()).toBe(true);
    now = 1000;
    expect(slot.beat()).toBe(false);
  });

  it('ends at once a stream added after closeAll', () => {
    const streams = new Streams();
    let ended = 0;
    streams.add({}, () => ended++);
    streams.closeAll();
    const late = streams.add({}, () => ended++);
    expect(ended).toBe(2);
    expect(late.beat()).toBe(false);
  });
});
