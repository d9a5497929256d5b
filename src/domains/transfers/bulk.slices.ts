// A bulk file of 10,000 rows takes a large share of a second to check and build. Done in one go it
// would hold every other request of every key that long; done here, it runs in slices of a few
// milliseconds with a turn of the event loop between them, so other requests are answered meanwhile.
import { nextTurn } from '../../kernel/turns.js';

const SLICE_MS = 4;

/** Call fn on each item in order, letting other work run whenever a slice has taken SLICE_MS. */
export async function eachInSlices<T>(items: Iterable<T>, fn: (item: T, index: number) => void): Promise<void> {
  let sliceStart = performance.now();
  let i = 0;
  for (const item of items) {
    fn(item, i++);
    if (performance.now() - sliceStart >= SLICE_MS) {
      await nextTurn();
      sliceStart = performance.now();
    }
  }
}

export async function mapInSlices<T, R>(items: Iterable<T>, fn: (item: T, index: number) => R): Promise<R[]> {
  const out: R[] = [];
  await eachInSlices(items, (item, i) => void out.push(fn(item, i)));
  return out;
}

