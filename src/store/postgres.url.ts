// What a --store URL says beyond where the database is: the pool size each replica opens (`?max=N`),
// which the driver does not take from a URL. No driver is loaded here, so the config can check it.
import { availableParallelism } from 'node:os';

/** Connections each replica's pool holds by default: two per core of the machine the replica runs
 * on, at least 4 and at most 20 (4 on 2 cores). A busy backend wants a core of its own: on 2 cores,
 * 4 connections a replica served 100 keys faster and with a shorter tail than 20 (docs/hosted.md). */
export const DEFAULT_POOL = Math.min(20, Math.max(4, 2 * availableParallelism()));

/** The pool size a --store URL asks for with `?max=N` (1 to 1,000), else DEFAULT_POOL; undefined
 * when `max` is there but not such a number (the config refuses it, naming the flag). */
export function poolSizeOf(url: string): number | undefined {
  let max: string | null;
  try {
    max = new URL(url).searchParams.get('max');
  } catch {
    // Not a URL this parser reads: the driver says what is wrong with it when it connects.
    return DEFAULT_POOL;
  }
  if (max === null) return DEFAULT_POOL;
  const n = Number(max);
  return /^\d+$/.test(max) && n >= 1 && n <= 1000 ? n : undefined;
}

/** Whether the URL sets a driver option itself (`?connect_timeout=10`): the sandbox's default for it
 * is then not passed, since an option passed beside the URL would win over the URL's. */
export function urlSets(url: string, option: string): boolean {
  try {
    return new URL(url).searchParams.has(option);
  } catch {
    return false;
  }
}
