// The tenant's event log: every state change of every resource, newest kept, oldest dropped past
// the bound. Listeners (webhook delivery) hear each event as it is recorded.
//
// An event keeps what the resource's view is built from (the record as it stood: moves replace
// records, never change them) and builds the camelCase view when read, so recording one copies
// nothing and a kept event costs a few fields, not a copy of the resource. Readers get the
// snake_case payload of the wire through `payloadOf()`.
import { nextTurn } from '../../kernel/turns.js';
import { toSnake } from '../../kernel/json.js';
import type { Collection } from '../../store/store.js';

export interface SandboxEvent {
  id: string;
  /** e.g. payout.processing, quote.expired, order.successful */
  event: string;
  createdAt: string;
  readonly data: Record<string, unknown>;
}

/** Builds an event's view from what the event keeps; pure, so every read gives the same view. */
export type EventView<S> = (source: S) => object;

/** Events looked at between turns of the event loop in a listing. */
const LIST_SLICE = 8192;

/** An event's id: evt_ and its number in ten digits. */
const eventId = (seq: number) => `evt_${String(seq).padStart(10, '0')}`;

/** An event recorded in this process: its view is built when read, and its id from its number (the
 * store keeps events by number, so no id is held as text). Written to a file or the database it is
 * the plain event, id and view included. */
class RecordedEvent<S> implements SandboxEvent {
  constructor(
    private readonly seq: number,
    readonly event: string,
    readonly createdAt: string,
    private readonly source: S,
    private readonly view: EventView<S>,
  ) {}

  get id(): string {
    return eventId(this.seq);
  }

  get data(): Record<string, unknown> {
    return this.view(this.source) as Record<string, unknown>;
  }

  toJSON(): { id: string; event: string; createdAt: string; data: Record<string, unknown> } {
    return { id: this.id, event: this.event, createdAt: this.createdAt, data: this.data };
  }
}

const itself: EventView<object> = (data) => data;

/** An event's data as partners see it (event list, webhook payloads): snake_case keys. */
export const payloadOf = (e: SandboxEvent): Record<string, unknown> => toSnake(e.data) as Record<string, unknown>;

/** Whether an event passes a filter list: *, an exact name, or a resource (payout, payout.*). Webhook
 * settings and the event log's `type` take the same filters. */
export function eventMatches(filters: readonly string[], event: string): boolean {
  return filters.some((f) => {
    if (f === '*' || f === event) return true;
    const prefix = f.endsWith('.*') ? f.slice(0, -2) : f;
    return event.startsWith(`${prefix}.`);
  });
}

/**
 * The events of a domain list, by resource (the part before the dot), in the list's order, and the
 * filters webhook settings and the event log's `type` accept: *, each resource, resource.*, and each
 * event name. Built once, when the app is composed, from every resource's lifecycle.
 */
export class EventCatalog {
  readonly names: ReadonlyMap<string, readonly string[]>;
  readonly resources: readonly string[];
  readonly filters: readonly string[];
  private readonly known: ReadonlySet<string>;
  /** An end state's event of the first resource (payout.failed), as the example of an event name. */
  private readonly example: string;
  private readonly finals: ReadonlySet<string>;

  /** `finals`: the events after which their resource has no other (each lifecycle's finalEvents). */
  constructor(events: readonly string[], finals: readonly string[] = []) {
    this.finals = new Set(finals);
    const names = new Map<string, string[]>();
    for (const e of events) {
      const resource = e.slice(0, e.indexOf('.'));
      names.set(resource, [...(names.get(resource) ?? []), e]);
    }
    this.names = names;
    this.resources = [...names.keys()];
    this.filters = ['*', ...this.resources.flatMap((r) => [r, `${r}.*`, ...names.get(r)!])];
    this.known = new Set(this.filters);
    this.example = names.get(this.resources[0])?.at(-1) ?? '';
  }

  /** Whether no other event of its resource comes after this one. */
  isFinal(event: string): boolean {
    return this.finals.has(event);
  }

  /** Why a filter can never match an event, saying what to send instead; undefined when it can. */
  problem(filter: string): string | undefined {
    if (this.known.has(filter)) return undefined;
    const resource = filter.split('.')[0];
    const names = this.names.get(resource);
    if (!names) {
      return `matches no event: send *, a resource (${this.resources.join(', ')}), a resource followed by .*, or an event name such as ${this.example}`;
    }
    return `matches no ${resource} event: send ${resource}, ${resource}.* or one of: ${names.join(', ')}`;
  }
}

export type EventListener = (event: SandboxEvent) => void;

export class EventLog {
  private seq: number;

  constructor(
    private readonly events: Collection<SandboxEvent>,
    private readonly limit: number,
    private readonly listener?: EventListener,
  ) {
    this.seq = 0;
    this.reload();
  }

  /** Continue after the newest stored event (after another replica added some). */
  reload(): void {
    let last = 0;
    for (const id of this.events.keys()) last = Math.max(last, Number(id.slice(4)));
    this.seq = last;
  }

  /** Take in events another replica added or removed (their ids): numbering goes on after the
   * newest; when the newest is gone (a reset), after the newest left. */
  update(changed: Iterable<string>): void {
    let last = this.seq;
    for (const id of changed) {
      const n = Number(id.slice(4));
      if (!this.events.has(id) && n >= this.seq) return this.reload();
      if (this.events.has(id)) last = Math.max(last, n);
    }
    this.seq = last;
  }

  /** Record an event whose view is `view(source)` (`source` itself without a view). */
  emit<S>(event: string, createdAt: string, source: S, view?: EventView<S>): SandboxEvent {
    const seq = ++this.seq;
    const e = new RecordedEvent(seq, event, createdAt, source, view ?? (itself as EventView<S>));
    this.events.put(eventId(seq), e);
    while (this.events.size > this.limit) this.events.remove(this.events.keys().next().value!);
    this.listener?.(e);
    return e;
  }

  /** Events oldest first, after an event id, filtered by type, with snake_case data. Looked through
   * a slice at a time: a log of 100,000 events read to its end for an `after` near it, or a `type`
   * few match, held every key's requests 14 to 22 ms. */
  async list(opts: { after?: string; limit?: number; type?: string } = {}): Promise<SandboxEvent[]> {
    const out: SandboxEvent[] = [];
    let seen = 0;
    // The log as it stands now, taken in one go (references only), then looked through: events the
    // key records between the slices are not in this page, and the map is not read while it changes.
    for (const e of [...this.events.values()]) {
      if (++seen % LIST_SLICE === 0) await nextTurn();
      if (opts.after !== undefined && e.id <= opts.after) continue;
      if (opts.type !== undefined && !eventMatches([opts.type], e.event)) continue;
      out.push({ id: e.id, event: e.event, createdAt: e.createdAt, data: payloadOf(e) });
      if (opts.limit !== undefined && out.length >= opts.limit) break;
    }
    return out;
  }

  reset(): void {
    this.seq = 0;
  }
}
