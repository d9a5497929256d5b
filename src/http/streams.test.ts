import { describe, expect, it } from 'vitest';
import { streamCapFor, Streams } from './streams.js';

describe('Streams', () => {
  it('caps the streams of the whole server, whatever the key, and frees a slot when one ends', () => {
    const streams = new Streams({ maxOpen: 3 });
    const keys = [{}, {}, {}];
    const slots = keys.map((k) => streams.add(k, () => undefined));
    expect(streams.full).toBe(true);
    expect(streams.openFor(keys[0])).toBe(1);
    slots[1]();
    slots[1]();
    expect([streams.full, streams.size, streams.openFor(keys[1])]).toEqual([false, 2, 0]);
  });

  it('derives the server-wide cap from the file limit: a quarter of it', () => {
    expect([streamCapFor(1024), streamCapFor(256), streamCapFor(20_000), streamCapFor(3)]).toEqual([256, 64, 5000, 1]);
    expect(new Streams().maxOpen).toBe(256);
  });

  it('ends at once a stream added after closeAll', () => {
    const streams = new Streams();
    let ended = 0;
    streams.add({}, () => ended++);
    streams.closeAll();
    streams.add({}, () => ended++);
    expect(ended).toBe(2);
  });
});
