// How resources behave over time: how long each state lasts, how a lifecycle ends, how long quotes
// and trades live, and what a domain's own scenario settings say. Scenarios supply these; without
// one, each resource's own defaults apply (its lifecycle's durations, a 300-second ttl).
import type { LifecycleInfo, MagicValue } from './types.js';
import { at } from '../scenario/scenario.predicates.js';

export interface Outcome<S extends string = string> {
  succeed: boolean;
  reason?: string;
  /** The terminal state a scenario named, when it named one (e.g. 'expired' for a quote). */
  status?: S;
  /** Seconds from creation to the end state, when a scenario rule says (`after`): the timed states
   * before it are shortened or lengthened to fit. */
  after?: number;
}

/** The part of a lifecycle a behaviour reads. */
export type BehaviourResource = Pick<LifecycleInfo, 'name' | 'durations' | 'success' | 'magic'>;

export interface Behaviour {
  readonly name: string;
  /** Seconds a resource stays in `state` before its next timed move. Domains read it through their lifecycle. */
  duration(resource: BehaviourResource, state: string): number;
  /** How the lifecycle of a new resource with these fields ends. */
  outcome(resource: BehaviourResource, fields: Record<string, unknown>): Outcome;
  /** Lifetime in seconds of a resource that lives for a ttl (quotes, FX trades). */
  ttl(resource: BehaviourResource): number;
  /** A scenario section as written (a domain's own settings: a withdrawal's authCode, webhook faults). */
  section(key: string): unknown;
}

/** The outcome of a lifecycle that succeeds, shared by every such record (records are never changed). */
export const SUCCEEDS: Outcome = Object.freeze({ succeed: true });

/** How long a timed state lasts when neither the scenario nor the resource says. */
export const DEFAULT_SECONDS = 60;
export const DEFAULT_TTL = 300;

/** Seconds a test value holds a resource: until simulated, in practice (ten years). */
export const HOLD_SECONDS = 10 * 365 * 86_400;

/** A table of test values by field: the field's path, and the first value of the table for each text. */
type MagicIndex = { path: string; first: Map<string, { m: MagicValue; i: number }> }[];
const magicIndexes = new WeakMap<readonly MagicValue[], MagicIndex>();

function magicIndex(magic: readonly MagicValue[]): MagicIndex {
  let index = magicIndexes.get(magic);
  if (index === undefined) {
    index = [];
    magic.forEach((m, i) => {
      let byField = index!.find((f) => f.path === m.field);
      if (!byField) index!.push((byField = { path: m.field, first: new Map() }));
      if (!byField.first.has(m.value)) byField.first.set(m.value, { m, i });
    });
    magicIndexes.set(magic, index);
  }
  return index;
}

/** The end a test value sets for a resource with these fields, if one of its values is there (the
 * table's first, as a search of the table in order finds it): one read per field of the table. */
export function magicOutcome(resource: BehaviourResource, fields: Record<string, unknown>): Outcome | undefined {
  if (!resource.magic?.length) return undefined;
  let hit: { m: MagicValue; i: number } | undefined;
  for (const { path, first } of magicIndex(resource.magic)) {
    const value = at(fields, path);
    const found = typeof value === 'string' ? first.get(value) : undefined;
    if (found && (!hit || found.i < hit.i)) hit = found;
  }
  if (!hit) return undefined;
  const { m } = hit;
  if (m.hold) return { succeed: true, after: HOLD_SECONDS };
  return { succeed: m.status === resource.success, status: m.status, ...(m.reason !== undefined ? { reason: m.reason } : {}) };
}

export const defaultBehaviour: Behaviour = {
  name: 'default',
  duration: (resource, state) => resource.durations[state] ?? DEFAULT_SECONDS,
  outcome: () => SUCCEEDS,
  ttl: () => DEFAULT_TTL,
  section: () => undefined,
};
