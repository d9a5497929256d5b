// The tenant's event log: every state change of every resource, newest kept, oldest dropped past
// the bound. Listeners (webhook delivery) hear each event as it is recorded.
//
// An event keeps the resource's view as the service built it (camelCase, never changed after), so
// recording one copies nothing; readers get the snake_case payload of the wire through `payloadOf()`.
import { toSnake } from '../kernel/json.js';
import type { Collection } from '../store/store.js';

export interface SandboxEvent {
  id: string;
  /** e.g. payout.processing, quote.expired, order.successful */
  event: string;
  createdAt: string;
  data: Record<string, unknown>;
}

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

export type EventListener = (event: SandboxEvent) => void;

export class EventLog {
  private seq: number;

  constructor(
    private readonly events: Collection<SandboxEvent>,
    private readonly limit: number,
    private readonly listener?: EventListener,
  ) {
    let last = 0;
    for (const id of events.keys()) last = Math.max(last, Number(id.slice(4)));
    this.seq = last;
  }

  emit(event: string, createdAt: string, data: object): SandboxEvent {
    const e: SandboxEvent = { id: `evt_${String(++this.seq).padStart(10, '0')}`, event, createdAt, data: data as Record<string, unknown> };
    this.events.put(e.id, e);
    while (this.events.size > this.limit) this.events.remove(this.events.keys().next().value!);
    this.listener?.(e);
    return e;
  }

  /** Events oldest first, after an event id, filtered by type, with snake_case data. */
  list(opts: { after?: string; limit?: number; type?: string } = {}): SandboxEvent[] {
    const out: SandboxEvent[] = [];
    for (const e of this.events.values()) {
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
