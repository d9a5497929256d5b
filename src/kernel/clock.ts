// Time is injected. The base clock is real time in production and a manual clock in tests;
// each tenant sees the base clock plus its own offset (see engine/tenant.ts).

export interface Clock {
  now(): number;
}

/**
 * A clock that reads `clock` once per synchronous run and answers that instant until the run ends
 * (its next microtask checkpoint): a create that dates its record and then its event reads one
 * instant for both, where two readings of real time could fall a millisecond apart.
 */
export function turnStable(clock: Clock): Clock {
  let held: number | undefined;
  const forget = () => {
    held = undefined;
  };
  return {
    now() {
      if (held === undefined) {
        held = clock.now();
        queueMicrotask(forget);
      }
      return held;
    },
  };
}

export const systemClock: Clock = turnStable({ now: () => Date.now() });

/** A clock that only moves when told to: the base clock of tests. */
export class ManualClock implements Clock {
  constructor(private ms = Date.parse('2026-01-15T09:00:00.000Z')) {}
  now(): number {
    return this.ms;
  }
  advance(seconds: number): void {
    this.ms += seconds * 1000;
  }
  set(ms: number): void {
    this.ms = ms;
  }
}

// A request formats a few instants several times over (created, due, the event, the journal entry):
// the last two are kept, so each is turned into text once.
let msA = Number.NaN;
let isoA = '';
let msB = Number.NaN;
let isoB = '';

/** The furthest a key's clock goes: a year short of the end of 9999, so that what a resource dates
 * after now (an expiry, a settlement) keeps a four-digit year, as ISO 8601 date-times have. */
export const LAST_CLOCK_INSTANT = Date.parse('9999-01-01T00:00:00.000Z');

/** ISO 8601 UTC with milliseconds. */
export function iso(ms: number): string {
  if (ms === msA) return isoA;
  if (ms === msB) return isoB;
  msB = msA;
  isoB = isoA;
  msA = ms;
  isoA = new Date(ms).toISOString();
  return isoA;
}
