// Time is injected. The base clock is real time in production and a manual clock in tests;
// each tenant sees the base clock plus its own offset (see engine/tenant.ts).

export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

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

let lastMs = Number.NaN;
let lastIso = '';

/** ISO 8601 UTC with milliseconds. A request formats the same instant several times: the last one is kept. */
export function iso(ms: number): string {
  if (ms !== lastMs) {
    lastIso = new Date(ms).toISOString();
    lastMs = ms;
  }
  return lastIso;
}
