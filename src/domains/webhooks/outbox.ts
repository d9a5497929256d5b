// The outbox: sends webhook attempts outside the request path. Each tenant's deliveries go one at a
// time, in the order they were handed over, and a few tenants are served at once. Each attempt is
// one signed POST (post.ts).
import { systemClock, type Clock } from '../../kernel/clock.js';
import type { Tenant } from '../../engine/tenant.js';
import { planAttempt, recordAttempt, type Sender } from './deliveries.service.js';
import { postWebhook } from './post.js';
import { targetsFor, type TargetPolicy, type Targets } from './targets.js';
import type { Trigger } from './webhooks.schema.js';

export interface OutboxOptions {
  /** Attempts in flight at once, over all tenants. */
  concurrency: number;
  /** Real time an attempt may take before it counts as a timeout. */
  timeoutMs: number;
  /** Real time, for the signature timestamp. */
  wallClock: Clock;
  /** Which addresses webhooks may reach. */
  targets: TargetPolicy;
}

interface Item {
  id: string;
  trigger: Trigger;
}

interface TenantQueue {
  tenant: Tenant;
  items: Item[];
  busy: boolean;
}

export class Outbox implements Sender {
  readonly options: OutboxOptions;
  private readonly targets: Targets;
  private readonly queues = new Map<Tenant, TenantQueue>();
  private readonly ready: TenantQueue[] = [];
  private active = 0;
  private pumpScheduled = false;
  private waiters: (() => void)[] = [];

  constructor(options: Partial<OutboxOptions> = {}) {
    this.options = { concurrency: 8, timeoutMs: 5000, wallClock: systemClock, targets: 'any', ...options };
    this.targets = targetsFor(this.options.targets);
  }

  /** Queue an attempt. A delivery already waiting in the queue is not queued twice. */
  send(t: Tenant, id: string, trigger: Trigger, opts: { first?: boolean } = {}): void {
    let q = this.queues.get(t);
    if (!q) this.queues.set(t, (q = { tenant: t, items: [], busy: false }));
    if (q.items.some((i) => i.id === id)) return;
    if (opts.first) q.items.unshift({ id, trigger });
    else q.items.push({ id, trigger });
    if (!q.busy && !this.ready.includes(q)) this.ready.push(q);
    this.schedulePump();
  }

  /** Whether an attempt of this tenant is queued or in flight. */
  has(t: Tenant): boolean {
    const q = this.queues.get(t);
    return q !== undefined && (q.busy || q.items.length > 0);
  }

  forget(t: Tenant, id: string): void {
    const q = this.queues.get(t);
    if (q) q.items = q.items.filter((i) => i.id !== id);
  }

  /** Resolves once nothing is queued or in flight (retries waiting on a tenant clock do not count). */
  idle(): Promise<void> {
    if (this.isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  stats() {
    let queued = 0;
    for (const q of this.queues.values()) queued += q.items.length;
    return { queued, inFlight: this.active, tenants: this.queues.size };
  }

  private isIdle(): boolean {
    return this.active === 0 && !this.pumpScheduled && this.ready.every((q) => q.items.length === 0);
  }

  private schedulePump(): void {
    if (this.pumpScheduled) return;
    this.pumpScheduled = true;
    setImmediate(() => {
      this.pumpScheduled = false;
      this.pump();
    });
  }

  private pump(): void {
    while (this.active < this.options.concurrency && this.ready.length > 0) {
      const q = this.ready.shift()!;
      const item = q.items.shift();
      if (!item) {
        this.queues.delete(q.tenant);
        continue;
      }
      q.busy = true;
      this.active++;
      void this.attempt(q.tenant, item)
        .catch((err: unknown) => console.error('[sandbox] a webhook attempt failed unexpectedly:', err))
        .finally(() => {
          q.busy = false;
          this.active--;
          if (q.items.length > 0) this.ready.push(q);
          else this.queues.delete(q.tenant);
          this.pump();
        });
    }
    if (this.isIdle()) {
      for (const w of this.waiters.splice(0)) w();
    }
  }

  private async attempt(t: Tenant, item: Item): Promise<void> {
    const plan = planAttempt(t, item.id, item.trigger);
    if (!plan) return;
    const { timeoutMs, wallClock } = this.options;
    const { statusCode, durationMs, error } = await postWebhook(plan, { timeoutMs, wallClock, targets: this.targets });
    recordAttempt(t, item.id, { at: plan.at, trigger: item.trigger, url: plan.url, statusCode, durationMs, error }, this);
    await t.store.flush().catch((e: Error) => console.error('[sandbox] could not persist a webhook attempt:', e));
  }
}
