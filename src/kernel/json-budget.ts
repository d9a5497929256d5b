// A JSON body's budget beside its size. JSON.parse gives every object shape it has not seen a new
// hidden class, so the cost of a body within the 1 MiB limit depends on how many distinct field names
// it holds: 90,000 of them (unknown fields, which the API ignores) held the event loop, and every
// key's requests with it, 40 to 80 ms per request. A body naming more than NAME_BUDGET distinct
// fields is refused before it is parsed; the API's own bodies name a few dozen.
import { randomBytes } from 'node:crypto';
import { SandboxError } from './errors.js';

/** The most distinct field names a JSON body may hold, at any depth. */
export const NAME_BUDGET = 1000;
/** A body this short cannot name enough fields to cost more than a millisecond: not scanned. */
const SCAN_FROM = 16 * 1024;

const QUOTE = 34;
const BACKSLASH = 92;
const COLON = 58;
const isSpace = (c: number) => c === 32 || c === 10 || c === 13 || c === 9;

/** Names are told apart by a hash seeded at random per process, so no text sent can be made to
 * collide; a collision by chance only lets one more name in. */
const SEED = randomBytes(4).readUInt32LE(0);

/**
 * Whether `text` names more than `budget` distinct fields: each string followed by a colon is a
 * field name. One pass: the search for each quote starts after the last one, and a name is hashed
 * where it stands, not cut out (a bulk file of 10,000 rows repeats its few names 80,000 times).
 * Text that is not JSON is left for JSON.parse to refuse.
 */
export function namesOverBudget(text: string, budget = NAME_BUDGET): boolean {
  const names = new Set<number>();
  const n = text.length;
  for (let i = text.indexOf('"'); i >= 0; i = text.indexOf('"', i + 1)) {
    const start = i + 1;
    let end = start - 1;
    // The closing quote: the first one not escaped, that is not after an odd run of backslashes.
    for (;;) {
      end = text.indexOf('"', end + 1);
      if (end < 0) return false;
      let slashes = 0;
      while (end - 1 - slashes >= start && text.charCodeAt(end - 1 - slashes) === BACKSLASH) slashes++;
      if (slashes % 2 === 0) break;
    }
    let k = end + 1;
    while (k < n && isSpace(text.charCodeAt(k))) k++;
    if (text.charCodeAt(k) === COLON) {
      // FNV-1a over the name's UTF-16 units, kept to 30 bits (a small integer in the set).
      let h = SEED;
      for (let c = start; c < end; c++) h = Math.imul(h ^ text.charCodeAt(c), 16777619);
      names.add(h & 0x3fffffff);
      if (names.size > budget) return true;
    }
    i = end;
  }
  return false;
}

export const overNameBudget = () =>
  new SandboxError(
    'VALIDATION_ERROR',
    `The request body names more than ${NAME_BUDGET} distinct fields. Send only the fields this request takes (a few dozen at most); unknown fields are ignored, so leave them out.`,
    [{ field: 'body', issue: `names more than ${NAME_BUDGET} distinct fields: send only the fields this request takes` }],
  );

/** JSON.parse within the budget: a body over it throws overNameBudget()'s error (a SandboxError),
 * text that is not JSON JSON.parse's SyntaxError. */
export function parseJsonBody(text: string): unknown {
  if (text.length > SCAN_FROM && namesOverBudget(text)) throw overNameBudget();
  return JSON.parse(text);
}
