// What a tenant keeps is bounded in count and in time.
//
// Count: a tenant holds at most `maxResources` resources; a create past that is refused before it
// writes anything (checkRoom, called first by every create).
// Time: a resource that has not changed for the retention age of real time, and has no timed move
// waiting, is dropped, with the idempotency record that names it; events older than the age go too.
// Records carry the tenant's time, which may run ahead of real time (clock advances): the cutoff is
// the tenant's time as it read `age` ago (Tenant.timeAt), so advancing a clock never drops anything.
import { iso } from '../../kernel/clock.js';
import { SandboxError } from '../../kernel/errors.js';
import { nextTurn } from '../../kernel/turns.js';
import type { SandboxEvent } from '../registry/events.js';
import { earlierKept, earlierRecords, earlierResponses, idempotencyRecords, keptSources, recordId } from '../requests/idempotency.js';
import type { Resource } from '../registry/resource.js';
import { CATCH_UP_SLICE, type Tenant } from './tenant.js';

export type { Retained } from '../registry/types.js';
import type { Retained } from '../registry/types.js';

type Rec = { createdAt?: string; updatedAt?: string } & Record<string, unknown>;


/** How often a retention pass starts at most (base-clock ms; a quarter of the retention age when
 * that is shorter), and the work it does before yielding. */
export const RETENTION = { everyMs: 60_000, slice: 500 };

/** A sweep writes its drops once it holds this many unwritten (on PostgreSQL it ends its session and
 * begins another): written all at the end, 100,000 drops were one batch built in one go. */
export const SWEEP_WRITES = 1000;

const changedAt = (r: Rec) => r.updatedAt ?? r.createdAt;

/** Counts work done and gives the event loop its turn once a slice's worth is done (a turn of its
 * own, as every slice's: kernel/turns.ts). */
export function slices(size: number): (work: number) => Promise<void> {
  let done = 0;
  return async (work) => {
    done += work;
    if (done < size) return;
    done = 0;
    await nextTurn();
  };
}

/**
 * Drop what has not changed since the base-clock instant `before`. A generator: it yields the work
 * done since the last yield (records looked at), so the caller can give the event loop its turn
 * between slices. Nothing is held across a yield but the position in a collection.
 */
export function* sweepTenant(t: Tenant, before: number, retained: Retained): Generator<number> {
  // Moves that fell due first, so what has settled meanwhile is judged settled: a slice at a time.
  for (let moved = t.catchUp(CATCH_UP_SLICE); moved > 0; moved = moved < CATCH_UP_SLICE ? 0 : t.catchUp(CATCH_UP_SLICE)) yield moved;
  const cutoff = iso(t.timeAt(before));
  // Events are kept in the order they happened; the newest stays, so event ids go on from it.
  const events = t.store.collection<SandboxEvent>('events');
  for (const id of events.keys()) {
    if (events.size <= 1 || events.get(id)!.createdAt >= cutoff) break;
    events.remove(id);
    yield 1;
  }
  const old = (r: Rec | undefined, id: string) => r !== undefined && (changedAt(r) ?? cutoff) < cutoff && !t.scheduler.has(id);
  for (const kind of retained) {
    const records = t.store.collection<Rec>(kind.collection);
    for (const id of records.keys()) {
      const r = records.get(id)!;
      const owner = kind.ownedBy && r[kind.ownedBy.field];
      const owned = typeof owner === 'string' && t.store.collection(kind.ownedBy!.collection).has(owner);
      const children = kind.owns ? ((r[kind.owns.field] as string[] | undefined) ?? []) : [];
      const rows = kind.owns ? t.store.collection<Rec>(kind.owns.collection) : undefined;
      const drop = !owned && old(r, id) && children.every((c) => !rows!.has(c) || old(rows!.get(c), c));
      if (drop) {
        for (const c of children) rows!.remove(c);
        records.remove(id);
      }
      yield 1 + children.length;
    }
  }
  // Idempotency records whose resource is gone: the reference may be used again.
  for (const kind of retained) {
    const records = idempotencyRecords(t, kind.name);
    if (records.size === 0) continue;
    const resources = t.store.collection(kind.collection);
    const kept = keptSources(t, kind.name);
    for (const reference of records.keys()) {
      const id = recordId(records.get(reference)!, reference);
      if (id !== undefined && !resources.has(id)) {
        records.remove(reference);
        kept.remove(reference);
      }
      yield 1;
    }
  }
  // What an earlier version wrote, keyed <scope>:<reference>.
  const records = earlierRecords(t);
  const responses = earlierResponses(t);
  const kept = earlierKept(t);
  for (const key of records.keys()) {
    const rec = records.get(key)!;
    const scope = key.slice(0, key.indexOf(':'));
    const collection = retained.find((k) => k.name === scope)?.collection;
    if (collection && rec.id !== undefined && !t.store.collection(collection).has(rec.id)) {
      records.remove(key);
      responses.remove(key);
      kept.remove(key);
    }
    yield 1;
  }
}
