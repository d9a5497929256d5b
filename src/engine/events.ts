// The tenant's event log: every state change of every resource, newest kept, oldest dropped past
// the bound. Listeners (webhook delivery) hear each event as it is recorded.
import type { Collection } from '../store/store.js';

export interface SandboxEvent {
  id: string;
  /** e.g. payout.processing, quote.expired, order.successful */
  event: string;
  createdAt: string;
  data: Record<string, unknown>;
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

  emit(event: string, createdAt: string, data: Record<string, unknown>): SandboxEvent {
    const e: SandboxEvent = { id: `evt_${String(++this.seq).padStart(10, '0')}`, event, createdAt, data };
    this.events.put(e.id, e);
    while (this.events.size > this.limit) this.events.remove(this.events.keys().next().value!);
    this.listener?.(e);
    return e;
  }

  /** Events oldest first, after an event id, filtered by type. */
  list(opts: { after?: string; limit?: number; type?: string } = {}): SandboxEvent[] {
    const out: SandboxEvent[] = [];
    for (const e of this.events.values()) {
      if (opts.after !== undefined && e.id <= opts.after) continue;
      if (opts.type !== undefined && e.event !== opts.type && !e.event.startsWith(`${opts.type}.`)) continue;
      out.push(e);
      if (opts.limit !== undefined && out.length >= opts.limit) break;
    }
    return out;
  }

  reset(): void {
    this.seq = 0;
  }
}
