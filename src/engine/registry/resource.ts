// One description per resource, exported by its domain (principle 13): its names and lifecycle
// (lifecycle.ts), how GET /_sandbox/resources shows a record, the moves POST /_sandbox/simulate may
// push, and its timed jobs. The domain list gives every description; the scenario format, the event
// names, the simulators, the resource listing and the job table are all derived from them.
import type { Machine } from '../../kernel/machine.js';
import type { LifecycleInfo, Ownership, ResourceNames } from './types.js';
export type { Ownership } from './types.js';
import type { JobHandler, Tenant } from '../tenancy/tenant.js';

/** How the control API pushes a resource along its machine. */
export interface Simulator {
  /** The events this resource accepts through /_sandbox/simulate. */
  readonly events: readonly string[];
  /** Apply the event and return the resource as the API shows it. */
  apply(tenant: Tenant, id: string, event: string, body: Record<string, unknown>): Record<string, unknown>;
  /** The body fields `event` reads; another one sent is named in X-Sandbox-Warning. Left out: none. */
  reads?(event: string): readonly string[];
}

export interface ResourceSpec<R, E extends string> {
  /** The id a record is read by. */
  id(r: R): string;
  /** Its current state; null for a resource without states. */
  status(r: R): string | null;
  /** The record as the API shows it. */
  view(t: Tenant, r: R): Record<string, unknown>;
  /** The moves of its machine the control API may push. */
  simulate?: {
    events: readonly E[];
    apply(t: Tenant, id: string, event: E, body: Record<string, unknown>): Record<string, unknown>;
    reads?(event: E): readonly string[];
  };
  /** Its timed moves, by job kind. */
  jobs?: Record<string, JobHandler>;
  /** Its records belong to a record of another resource (a bulk file's rows), named in `field`. */
  ownedBy?: { field: keyof R & string; owner: ResourceNames };
  /** Its records own records of another resource, listed in `field`. */
  owns?: { field: keyof R & string; owned: ResourceNames };
}


export interface Resource<N extends string = string> extends ResourceNames<N> {
  /** Absent for a resource without states (a bulk file). */
  readonly lifecycle: LifecycleInfo | undefined;
  id(r: unknown): string;
  status(r: unknown): string | null;
  view(t: Tenant, r: unknown): Record<string, unknown>;
  readonly simulator: Simulator | undefined;
  /** The simulate events its machine allows from `status` (an event outside the machine always). */
  moves(status: string | null): string[];
  readonly jobs: Readonly<Record<string, JobHandler>>;
  readonly ownedBy: Ownership | undefined;
  readonly owns: Ownership | undefined;
}

type Described<N extends string, E extends string> = ResourceNames<N> & { machine?: Machine<string, E> };

/** A resource whose records carry their `reference` and `status`. */
export interface RecordSpec<E extends string, R> {
  /** The record as the API shows it. */
  present(r: R): Record<string, unknown>;
  /** One move of its machine, with its side effects; a simulated move passes the body's reason. */
  move(t: Tenant, reference: string, event: E, reason?: string): R;
  /** The events whose move keeps the body's reason; default `fail`. */
  reasonOn?: readonly E[];
  jobs?: Record<string, JobHandler>;
  ownedBy?: ResourceSpec<R, E>['ownedBy'];
}

/** The description of a resource read by reference, shown by `present`, and moved through every event of its machine by simulate. */
export function recordResource<N extends string, E extends string, R extends { reference: string; status: string }>(
  lifecycle: ResourceNames<N> & { machine: Machine<string, E> },
  spec: RecordSpec<E, R>,
): Resource<N> {
  return defineResource(lifecycle, {
    id: (r: R) => r.reference,
    status: (r) => r.status,
    view: (_t, r) => spec.present(r),
    simulate: {
      events: lifecycle.machine.events,
      apply: (t, id, event, body) => spec.present(spec.move(t, id, event, body.reason as string | undefined)),
      reads: (event) => ((spec.reasonOn ?? (['fail'] as readonly string[])).includes(event) ? ['reason'] : []),
    },
    jobs: spec.jobs,
    ownedBy: spec.ownedBy,
  });
}

/** A resource from its lifecycle (or, without states, its names) and how it is shown and moved. */
export function defineResource<N extends string, R, E extends string = never>(of: Described<N, E>, spec: ResourceSpec<R, E>): Resource<N> {
  const lifecycle = 'machine' in of ? (of as unknown as LifecycleInfo) : undefined;
  return {
    name: of.name,
    collection: of.collection,
    segment: of.segment,
    lifecycle,
    id: spec.id as (r: unknown) => string,
    status: spec.status as (r: unknown) => string | null,
    view: spec.view as (t: Tenant, r: unknown) => Record<string, unknown>,
    simulator: spec.simulate as Simulator | undefined,
    moves: (status) => {
      const events = (spec.simulate?.events ?? []) as readonly string[];
      const machine = of.machine as Machine<string, string> | undefined;
      if (!machine || status === null) return [...events];
      return events.filter((e) => !machine.isEvent(e) || machine.can(status, e));
    },
    jobs: spec.jobs ?? {},
    ownedBy: spec.ownedBy && { field: spec.ownedBy.field, collection: spec.ownedBy.owner.collection },
    owns: spec.owns && { field: spec.owns.field, collection: spec.owns.owned.collection },
  };
}
