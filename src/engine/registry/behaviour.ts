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

/** The end a test value sets for a resource with these fields, if one of its values is there. */
export function magicOutcome(resource: BehaviourResource, fields: Record<string, unknown>): Outcome | undefined {
  const hit: MagicValue | undefined = resource.magic?.find((m) => at(fields, m.field) === m.value);
  if (!hit) return undefined;
  if (hit.hold) return { succeed: true, after: HOLD_SECONDS };
  return { succeed: hit.status === resource.success, status: hit.status, ...(hit.reason !== undefined ? { reason: hit.reason } : {}) };
}

export const defaultBehaviour: Behaviour = {
  name: 'default',
  duration: (resource, state) => resource.durations[state] ?? DEFAULT_SECONDS,
  outcome: () => SUCCEEDS,
  ttl: () => DEFAULT_TTL,
  section: () => undefined,
};
