// A large JSON object whose bulk is one array (a bulk file: {"name": ..., "items": [ ...10,000 rows ]})
// parsed a piece at a time: JSON.parse of 3.4 MB in one go held the event loop 12 to 20 ms, on top of
// the reading and counting before it. The text is scanned once for the array's items; the object
// around it is parsed with the array left empty, and each item on its own, which gives the same
// values as parsing the whole.

import { CLOSE_BRACE, CLOSE_BRACKET, COLON, COMMA, isSpace, OPEN_BRACE, OPEN_BRACKET, QUOTE, stringEnd } from './json-text.js';

export interface SplitArray {
  /** The object's text with the array's items left out (`"items":[]`). */
  envelope: string;
  /** Each item's text. */
  items: string[];
}

/** text[from, to) without the JSON white space at its end (space, tab, CR, LF: JavaScript's trimEnd
 * would also take characters JSON refuses there, such as U+00A0 or U+2028). */
function trimmed(text: string, from: number, to: number): string {
  let end = to;
  while (end > from && isSpace(text.charCodeAt(end - 1))) end--;
  return text.slice(from, end);
}

/**
 * The items of the array under `key` of the object `text` is, with the rest of the object; undefined
 * when the text is not plainly of that form (not an object, the key written with escapes or more than
 * once, its value not an array), for the caller to parse whole. Text that is not JSON may come back
 * split: its pieces then fail to parse where the whole would.
 */
export function splitArray(text: string, key: string): SplitArray | undefined {
  const n = text.length;
  let i = 0;
  while (i < n && isSpace(text.charCodeAt(i))) i++;
  if (text.charCodeAt(i) !== OPEN_BRACE) return undefined;
  let depth = 0;
  let found = false;
  let inArray = false;
  let arrayOpen = -1;
  let arrayClose = -1;
  let itemStart = -1;
  const items: string[] = [];
  // The last string closed at depth 1: a name if a colon follows it.
  let lastString: string | undefined;
  // The key's colon is passed: its value is next.
  let valueNext = false;
  for (; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const end = stringEnd(text, i);
      if (end < 0) return undefined;
      if (valueNext) return undefined;
      if (depth === 1) lastString = text.slice(i + 1, end);
      else if (inArray && depth === 2 && itemStart < 0) itemStart = i;
      i = end;
      continue;
    }
    if (isSpace(c)) continue;
    if (valueNext) {
      // The key's value: an array, or the text is not of the form.
      if (c !== OPEN_BRACKET) return undefined;
      valueNext = false;
      inArray = true;
      arrayOpen = i;
      depth++;
      continue;
    }
    if (depth === 1 && c === COLON) {
      // A name written with escapes could spell the key another way: parse whole.
      if (lastString?.includes('\\')) return undefined;
      if (lastString === key) {
        if (found) return undefined;
        found = true;
        valueNext = true;
      }
      lastString = undefined;
      continue;
    }
    if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (inArray && depth === 2 && itemStart < 0) itemStart = i;
      depth++;
      continue;
    }
    if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      depth--;
      if (inArray && depth === 1) {
        if (itemStart >= 0) items.push(trimmed(text, itemStart, i));
        // A comma before the end (`[1,]`): an empty last item, which fails to parse as the whole would.
        else if (items.length > 0) items.push('');
        itemStart = -1;
        inArray = false;
        arrayClose = i;
      }
      if (depth < 0) return undefined;
      continue;
    }
    if (inArray && depth === 2) {
      if (c === COMMA) {
        // An empty item (`[1,,2]`, `[,1]`) is kept empty: it fails to parse, as the whole would.
        items.push(itemStart >= 0 ? trimmed(text, itemStart, i) : '');
        itemStart = -1;
      } else if (itemStart < 0) itemStart = i;
    }
  }
  if (!found || arrayClose < 0) return undefined;
  return { envelope: text.slice(0, arrayOpen + 1) + text.slice(arrayClose), items };
}
