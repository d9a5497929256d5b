// The outbox: sends webhook attempts outside the request path, fairly across tenants. Each tenant
// has its own queue, sent one attempt at a time in the order handed over, and the tenants with
// something to send are served in turn. The slots are shared in two parts: keys whose receivers
// answer promptly use the larger one; keys whose last attempt was slow (or is taking long: it
// moves over after slowMs) only get the smaller one. So receivers that hang cost their own keys
// time, never another key's. Each attempt is one signed POST (post.ts).
import { systemClock, type Clock } from '../../kernel/clock.js';
import type { Tenant } from '../../engine/tenancy/tenant.js';
import { LIMITS, planAttempt, recordAttempt, type AttemptPlan, type Sender } from './deliveries.service.js';
import { postWebhook, type PostResult } from './post.js';
import { targetsFor, type TargetPolicy, type Targets } from './targets.js';
import type { Trigger } from './webhooks.schema.js';

export interface OutboxOptions {
  /** Attempts in flight at once, over all tenants. */
  concurrency: number;
  /** Of those, the most that keys with slow receivers may hold. */
  slowSlots: number;
  /** An attempt still unanswered after this long makes its key slow, until one answers sooner. */
  slowMs: number;
  /** Attempts waiting per tenant; one past this is not queued but logged as not sent. */
  queuedMax: number;
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

type Lane = 'prompt' | 'slow';

export class Outbox implements Sender {
  readonly options: OutboxOptions;
  private readonly targets: Targets;
  private readonly queues = new Map<Tenant, TenantQueue>();
  private readonly ready: Record<Lane, TenantQueue[]> = { prompt: [], slow: [] };
  private readonly active: Record<Lane, number> = { prompt: 0, slow: 0 };
  private readonly slowTenants = new WeakSet<Tenant>();
  private pumpScheduled = false;
  private waiters: (() => void)[] = [];
  private closed = false;
  private readonly tenantWaiters = new Map<Tenant, (() => void)[]>();

  constructor(options: Partial<OutboxOptions> = {}) {
    this.options = {
      concurrency: 16,
      slowSlots: 4,
      slowMs: 1000,
      queuedMax: LIMITS.pendingMax,
      timeoutMs: 5000,
      wallClock: systemClock,
      targets: 'any',
      ...options,
    };
    if (!(this.options.slowSlots >= 1 && this.options.slowSlots < this.options.concurrency)) {
      throw new Error('The outbox needs at least one slot for slow receivers and one for prompt ones.');
    }
    this.targets = targetsFor(this.options.targets);
  }

  /** Queue an attempt. A delivery already waiting in the queue is not queued twice. */
  send(t: Tenant, id: string, trigger: Trigger, opts: { first?: boolean } = {}): void {
    if (this.closed) return;
    let q = this.queues.get(t);
    if (!q) this.queues.set(t, (q = { tenant: t, items: [], busy: false }));
    if (q.items.some((i) => i.id === id)) return;
    if (q.items.length >= this.options.queuedMax) return this.refuse(t, id, trigger);
    if (opts.first) q.items.unshift({ id, trigger });
    else q.items.push({ id, trigger });
    const lane = this.laneOf(t);
    if (!q.busy && !this.ready[lane].includes(q)) this.ready[lane].push(q);
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

  /**
   * Resolves once nothing of this tenant is queued or in flight, or after `maxMs` of real time;
   * answers whether it got there. Retries waiting on the tenant's clock do not count.
   */
  settled(t: Tenant, maxMs: number): Promise<boolean> {
    if (!this.has(t)) return Promise.resolve(true);
    return new Promise((resolve) => {
      const list = this.tenantWaiters.get(t) ?? [];
      this.tenantWaiters.set(t, list);
      const timer = setTimeout(() => {
        const at = list.indexOf(done);
        if (at >= 0) list.splice(at, 1);
        resolve(false);
      }, maxMs);
      const done = () => {
        clearTimeout(timer);
        resolve(true);
      };
      list.push(done);
    });
  }

  /** Resolves once nothing is queued or in flight (retries waiting on a tenant clock do not count). */
  idle(): Promise<void> {
    if (this.isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /**
   * Start no more attempts, hand each queued one to `keep` (which writes it down as due), wait (at
   * most one attempt's timeout) for those in flight to be answered and recorded, then release the
   * connections.
   */
  async close(keep?: (t: Tenant, id: string, trigger: Trigger) => void): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const lane of ['prompt', 'slow'] as const) this.ready[lane].length = 0;
    for (const q of this.queues.values()) {
      for (const item of q.items) keep?.(q.tenant, item.id, item.trigger);
      q.items.length = 0;
    }
    this.queues.clear();
    if (this.active.prompt + this.active.slow > 0) {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, this.options.timeoutMs + 1000)));
      await Promise.race([this.idle(), late]);
      clearTimeout(timer);
    }
    await this.targets.close?.();
  }

  /**
   * One POST now, outside the queues and their slots, under the same target policy, timeout and
   * real clock as every attempt: for probes, whose route awaits their answers (one probe per key at
   * a time, so at most one set of probe POSTs per key).
   */
  postAtOnce(plan: AttemptPlan): Promise<PostResult> {
    const { timeoutMs, wallClock } = this.options;
    return postWebhook(plan, { timeoutMs, wallClock, targets: this.targets });
  }

  stats() {
    let queued = 0;
    for (const q of this.queues.values()) queued += q.items.length;
    return { queued, inFlight: this.active.prompt + this.active.slow, tenants: this.queues.size };
  }

  private laneOf(t: Tenant): Lane {
    return this.slowTenants.has(t) ? 'slow' : 'prompt';
  }

  private capacity(lane: Lane): number {
    const { concurrency, slowSlots } = this.options;
    return lane === 'slow' ? slowSlots : concurrency - slowSlots;
  }

  /** Past the tenant's queue budget: the attempt is logged as not sent (a first try or retry is retried later). */
  private refuse(t: Tenant, id: string, trigger: Trigger): void {
    const at = t.nowIso();
    const url = planAttempt(t, id, trigger)?.url;
    if (url === undefined) return;
    const error = `Not sent: ${this.options.queuedMax} attempts of this key were already waiting to be sent`;
    recordAttempt(t, id, { at, trigger, url, statusCode: null, durationMs: 0, error, requestHeaders: null, responseBody: null }, this);
  }

  private isIdle(): boolean {
    const waiting = (lane: Lane) => this.ready[lane].some((q) => q.items.length > 0);
    return this.active.prompt + this.active.slow === 0 && !this.pumpScheduled && !waiting('prompt') && !waiting('slow');
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
    for (; !this.closed; ) {
      const open = (lane: Lane) => this.ready[lane].length > 0 && this.active[lane] < this.capacity(lane);
      const lane: Lane | undefined = open('prompt') ? 'prompt' : open('slow') ? 'slow' : undefined;
      if (!lane) break;
      const q = this.ready[lane].shift()!;
      const item = q.items.shift();
      if (!item) {
        this.queues.delete(q.tenant);
        continue;
      }
      this.start(q, item, lane);
    }
    if (this.isIdle()) {
      for (const w of this.waiters.splice(0)) w();
    }
  }

  private start(q: TenantQueue, item: Item, lane: Lane): void {
    q.busy = true;
    this.active[lane]++;
    // An attempt that is taking long gives its prompt slot back and counts as slow from then on.
    const slow = () => {
      this.slowTenants.add(q.tenant);
      if (lane === 'slow') return;
      this.active.prompt--;
      this.active.slow++;
      lane = 'slow';
      this.pump();
    };
    const timer = setTimeout(slow, this.options.slowMs).unref();
    const answered = (durationMs?: number) => {
      clearTimeout(timer);
      if (durationMs === undefined) return;
      if (durationMs < this.options.slowMs) this.slowTenants.delete(q.tenant);
      else this.slowTenants.add(q.tenant);
    };
    void this.attempt(q.tenant, item, answered)
      .catch((err: unknown) => console.error('[sandbox] a webhook attempt failed unexpectedly:', err))
      .finally(() => {
        clearTimeout(timer);
        q.busy = false;
        this.active[lane]--;
        if (q.items.length > 0) this.ready[this.laneOf(q.tenant)].push(q);
        else {
          this.queues.delete(q.tenant);
          const waiting = this.tenantWaiters.get(q.tenant);
          this.tenantWaiters.delete(q.tenant);
          for (const w of waiting ?? []) w();
        }
        this.pump();
      });
  }

  /** Make one attempt; `answered` hears how long the POST took (nothing when no POST was wanted). */
  private async attempt(t: Tenant, item: Item, answered: (durationMs?: number) => void): Promise<void> {
    const plan = planAttempt(t, item.id, item.trigger);
    if (!plan) return answered();
    const { timeoutMs, wallClock } = this.options;
    const result = await postWebhook(plan, { timeoutMs, wallClock, targets: this.targets });
    answered(result.durationMs);
    const { statusCode, durationMs, error, requestHeaders, responseBody } = result;
    recordAttempt(t, item.id, { at: plan.at, trigger: item.trigger, url: plan.url, statusCode, durationMs, error, requestHeaders, responseBody }, this);
    await t.store.flush().catch((e: Error) => console.error('[sandbox] could not persist a webhook attempt:', e));
  }
}
