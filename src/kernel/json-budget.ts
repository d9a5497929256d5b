// A JSON body's budget beside its size. What JSON.parse costs, and the collection after it, grows
// with what the body makes rather than with its bytes: each object shape it has not met gets a hidden
// class, and each value in an array or object is a slot and often an object of its own. Within the
// 1 MiB limit, 90,000 unknown fields held the event loop, and every key's requests with it, 40 to
// 100 ms; 400,000 nested arrays 80 ms. So a body is counted before it is parsed: at most NAME_BUDGET
// distinct field names at any depth, and at most a budget of values (VALUE_BUDGET unless the route
// reads more: a bulk file). The API's own bodies name a few dozen fields and hold fewer values.
import { randomBytes } from 'node:crypto';
import { nextTurn } from './turns.js';
import { SandboxError } from './errors.js';
import { COLON, COMMA, isSpace, OPEN_BRACE, OPEN_BRACKET, stringEnd } from './json-text.js';

/** The most distinct field names a JSON body may hold, at any depth. */
export const NAME_BUDGET = 1000;
/** The most values (objects, arrays and the items and members in them) a body may hold. */
export const VALUE_BUDGET = 20_000;
/** A body this short cannot hold enough to cost more than a millisecond: not counted. */
const SCAN_FROM = 16 * 1024;

/** Names are told apart by a hash seeded at random per process, so no text sent can be made to
 * collide; a collision by chance only lets one more name in. */
const SEED = randomBytes(4).readUInt32LE(0);

/** A count of a text's names and values under way: scan() goes on from where it stopped. */
class Count {
  private readonly seen = new Set<number>();
  private count = 0;
  /** Where the scan goes on: outside any string. */
  at = 0;
  /** The next quote from `at` (-1: none), when a scan stopped short of it. */
  private pending: number | undefined;
  /** The budget passed, or 'done' once the text is counted within both. */
  result: 'names' | 'values' | 'done' | undefined;

  constructor(
    private readonly text: string,
    private readonly values: number,
    private readonly names: number,
  ) {}

  /** Count on until at least `until` (or the end), stopping at the first budget passed. */
  scan(until: number): void {
    const { text, seen } = this;
    const n = text.length;
    let i = this.at;
    while (this.result === undefined && i < until) {
      // The next quote, as found before this call stopped short of it, or looked for now.
      const open = this.pending ?? text.indexOf('"', i);
      this.pending = undefined;
      // Text without a string (a long run of numbers) is counted up to `until` too, and stops at the
      // first value past the budget.
      const stop = Math.min(open < 0 ? n : open, Math.max(until, i + 1));
      let c = i;
      for (; c < stop; c++) {
        const ch = text.charCodeAt(c);
        if ((ch === COMMA || ch === OPEN_BRACE || ch === OPEN_BRACKET) && ++this.count > this.values) break;
      }
      if (this.count > this.values) this.result = 'values';
      else if (open < 0 && c >= n) this.result = 'done';
      if (this.result !== undefined) break;
      if (c < (open < 0 ? n : open)) {
        i = c;
        this.pending = open;
        continue;
      }
      const start = open + 1;
      const end = stringEnd(text, open);
      if (end < 0) {
        this.result = 'done';
        break;
      }
      let k = end + 1;
      while (k < n && isSpace(text.charCodeAt(k))) k++;
      if (text.charCodeAt(k) === COLON) {
        // FNV-1a over the name's UTF-16 units, kept to 30 bits (a small integer in the set).
        let h = SEED;
        for (let c = start; c < end; c++) h = Math.imul(h ^ text.charCodeAt(c), 16777619);
        seen.add(h & 0x3fffffff);
        if (seen.size > this.names) this.result = 'names';
      }
      i = end + 1;
    }
    this.at = i;
  }

  get over(): 'names' | 'values' | undefined {
    return this.result === 'done' ? undefined : this.result;
  }
}

/**
 * What `text` holds past its budget: more than `names` distinct field names (each string followed by
 * a colon is one), or more than `values` values (counted by the objects, arrays and commas outside
 * strings, which every value but a container's first follows); undefined within both. One pass:
 * strings are skipped by searching for their quotes, a name is hashed where it stands rather than
 * cut out (a bulk file repeats its few names 100,000 times), and the count stops at the first
 * budget passed. Text that is not JSON is left for JSON.parse to refuse.
 */
export function overBudget(text: string, values = VALUE_BUDGET, names = NAME_BUDGET): 'names' | 'values' | undefined {
  const count = new Count(text, values, names);
  count.scan(text.length);
  return count.over;
}

/** Characters counted between turns of the event loop by checkJsonBudgetInSlices: a few milliseconds. */
const SCAN_SLICE = 512 * 1024;

/** checkJsonBudget for a long text (a bulk file of megabytes), with turns of the event loop between
 * slices of the count: 3.4 MB took 8 to 12 ms to count in one go. */
export async function checkJsonBudgetInSlices(text: string, values = VALUE_BUDGET): Promise<void> {
  if (text.length <= SCAN_FROM) return;
  const count = new Count(text, values, NAME_BUDGET);
  while (count.result === undefined) {
    count.scan(count.at + SCAN_SLICE);
    if (count.result === undefined) await nextTurn();
  }
  throwIfOver(count.over, values);
}

function throwIfOver(over: 'names' | 'values' | undefined, values: number): void {
  if (over === 'names') throw overNameBudget();
  if (over === 'values') throw overValueBudget(values);
}

function overNameBudget(): SandboxError {
  return new SandboxError(
    'VALIDATION_ERROR',
    `The request body names more than ${NAME_BUDGET} distinct fields. Send only the fields this request takes (a few dozen at most); unknown fields are ignored, so leave them out.`,
    [{ field: 'body', issue: `names more than ${NAME_BUDGET} distinct fields: send only the fields this request takes` }],
  );
}

function overValueBudget(values: number): SandboxError {
  const most = values.toLocaleString('en-US');
  return new SandboxError(
    'VALIDATION_ERROR',
    `The request body holds more than ${most} values (objects, arrays, and the items and members in them). Send only the fields this request takes, each as its type: a text where a text is asked for.`,
    [{ field: 'body', issue: `holds more than ${most} values: send only the fields this request takes` }],
  );
}

/** Throws the refusal (a SandboxError) of a body over its budget. `values`: the route's own budget of
 * values, if it reads more. */
function checkJsonBudget(text: string, values = VALUE_BUDGET): void {
  if (text.length > SCAN_FROM) throwIfOver(overBudget(text, values), values);
}

/** JSON.parse within the budget: a body over it throws the refusal (a SandboxError), text that is not
 * JSON JSON.parse's SyntaxError. */
export function parseJsonBody(text: string, values = VALUE_BUDGET): unknown {
  checkJsonBudget(text, values);
  return JSON.parse(text);
}
