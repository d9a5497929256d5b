// The records of a resource with a lifecycle, kept by reference in the tenant's store: what every
// create and every move of such a resource does with its record (store it, start its state's timer,
// record its state's event), reading one back, and its timers' handler, written once. A service
// builds the record and does what only it knows (checks, debits, refunds).
import { notFound } from '../../kernel/errors.js';
import type { Collection } from '../../store/store.js';
import type { Outcome } from './behaviour.js';
import type { EventView } from './events.js';
import type { Lifecycle } from './lifecycle.js';
import type { JobHandler, Tenant } from '../tenancy/tenant.js';

/** What a record of a lifecycle carries besides its own fields. */
export interface LifecycleRecord<S extends string> {
  readonly reference: string;
  readonly status: S;
  /** How its lifecycle ends, decided at creation. */
  readonly outcome: Outcome;
  /** The scenario it was created under (X-Sandbox-Scenario), whose timing its later states take. */
  readonly scenario?: string;
}

export interface RecordsSpec<R> {
  /** Its events' data (`present`, or more than the API shows). */
  view: EventView<R>;
  /** Why a record fails when neither the move nor its outcome says. */
  failure?: string;
}

export interface Records<S extends string, E extends string, R extends LifecycleRecord<S>> {
  /** The tenant's collection of them. */
  of(t: Tenant): Collection<R>;
  /** The record of `reference`, or 404 naming the resource as its machine does. */
  get(t: Tenant, reference: string): R;
  /** The state `event` leads `r` to, or 409 when its machine does not allow it from `r.status`. */
  next(r: R, event: E): S;
  /** Why `r` failed: the reason the move gave, else its outcome's, else the resource's own. */
  failure(r: R, reason?: string): string;
  /**
   * Store `r` (new, or moved), start the timer of its state (`after` seconds from `now`, or as long as
   * the behaviour of its scenario says for its outcome) and record its state's event.
   */
  save(t: Tenant, r: R, after?: number, now?: number): R;
  /** The handler of its timers: each moves its record by the timed event of its state. */
  jobs(move: (t: Tenant, reference: string, event: E) => unknown): Record<string, JobHandler>;
}

export function recordsOf<N extends string, S extends string, E extends string, X extends string, M, R extends LifecycleRecord<S>>(
  lifecycle: Lifecycle<N, S, E, X, M>,
  spec: RecordsSpec<R>,
): Records<S, E, R> {
  const of = (t: Tenant) => t.store.collection<R>(lifecycle.collection);
  return {
    of,
    get(t, reference) {
      const r = of(t).get(reference);
      if (!r) throw notFound(lifecycle.machine.name, reference);
      return r;
    },
    next: (r, event) => lifecycle.machine.next(r.status, event, r.reference),
    failure: (r, reason) => reason ?? r.outcome.reason ?? spec.failure ?? `The ${lifecycle.machine.name} failed`,
    save(t, r, after, now) {
      of(t).put(r.reference, r);
      lifecycle.retime(t, r.reference, r.status, after ?? t.behaviour(r.scenario), now, r.outcome);
      lifecycle.emit(t, r.status, r, spec.view);
      return r;
    },
    jobs: (move) => lifecycle.timerJobs((t, reference) => of(t).get(reference), move),
  };
}
