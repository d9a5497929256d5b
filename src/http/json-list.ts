// A long JSON list answered a slice at a time. Stringified, measured and written in one go, a journal
// listing of 200 bodies of 16 KiB (3 MB) held every key's requests about 15 ms in the adapter alone;
// written 25 items at a time, the event loop given its turn between slices, no slice holds it more
// than a millisecond or two. The answer is the same JSON, sent chunked instead of with a length.
// An item that cannot be written as JSON errors the stream, and the server cuts the connection: its
// status is out already, and a client meets an error rather than a clean end of half a page.
import type { Context } from 'hono';
import { nextTurn } from '../kernel/turns.js';

const SLICE = 25;

/** `{"<field>":[...items],...rest}` as a stream, `items` stringified a slice at a time. */
export function streamedList(c: Context, field: string, items: readonly unknown[], rest: Record<string, unknown> = {}): Response {
  return streamedIn(c, { [field]: LIST_HERE, ...rest }, items, 200, {}, SLICE);
}

/** Stands for the list in the answer given to streamedIn: a text no answer holds. */
export const LIST_HERE = '\u0000the list\u0000';

/**
 * `answer` as JSON, with `items` in place of the one LIST_HERE it holds, stringified `slice` items at
 * a time with a turn of the event loop between slices: an error listing every problem of a 10,000-row
 * bulk file (100,000 details, 9 MB) was stringified and encoded in one go, 100 ms of every key's time.
 */
export function streamedIn(c: Context, answer: unknown, items: readonly unknown[], status: number, headers: Record<string, string> = {}, slice = 500): Response {
  const text = JSON.stringify(answer);
  const marker = JSON.stringify(LIST_HERE);
  const at = text.indexOf(marker);
  const head = `${text.slice(0, at)}[`;
  const tail = `]${text.slice(at + marker.length)}`;
  const encoder = new TextEncoder();
  let i = 0;
  const stream = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (i > 0) await nextTurn();
        let out = i === 0 ? head : '';
        const end = Math.min(items.length, i + slice);
        for (; i < end; i++) out += (i > 0 ? ',' : '') + JSON.stringify(items[i]);
        if (i === items.length) out += tail;
        controller.enqueue(encoder.encode(out));
        if (i === items.length) controller.close();
      },
    },
    { highWaterMark: 0 },
  );
  return c.body(stream, status as 400, { ...headers, 'content-type': 'application/json' });
}
