// One tenant (one API key): its store, clock, scheduler, event log, journal and randomness.
// Everything a handler touches comes through its tenant, so isolation is structural.
import { iso, type Clock } from '../kernel/clock.js';
import { TenantRandom } from '../kernel/random.js';
import type { TenantStore } from '../store/store.js';
import type { Behaviour } from './behaviour.js';
import { EventLog, type SandboxEvent } from './events.js';
import { Journal } from './journal.js';
import { Scheduler, type Job } from './scheduler.js';

export type Mode = 'sandbox' | 'live';

export type JobHandler = (tenant: Tenant, job: Job) => void;

/** What every tenant shares: the base clock, job handlers, scenario lookup, limits. */
export interface TenantEnv {
  clock: Clock;
  jobHandlers: Record<string, JobHandler>;
  behaviourFor(tenant: Tenant, name?: string): Behaviour;
  onEvent?(tenant: Tenant, event: SandboxEvent): void;
  journalSize: number;
  eventLogSize: number;
  /** The server's --seed, if any: what every key shares (the market's rates) derives from it. */
  seed?: number;
}

/** Collections that hold a tenant's settings rather than its data: a reset keeps them. */
export const SETTINGS_COLLECTIONS = ['scenario', 'webhook_settings'] as const;

interface ClockState {
  offsetMs: number;
}

export class Tenant {
  readonly scheduler: Scheduler;
  readonly events: EventLog;
  readonly journal: Journal;
  private offsetMs: number;
  private pinnedAt: number | undefined;
  private running = false;

  constructor(
    readonly id: string,
    readonly mode: Mode,
    readonly store: TenantStore,
    readonly random: TenantRandom,
    private readonly env: TenantEnv,
  ) {
    this.scheduler = new Scheduler(store.collection<Job>('jobs'));
    this.events = new EventLog(store.collection<SandboxEvent>('events'), env.eventLogSize, (e) =>
      env.onEvent?.(this, e),
    );
    this.journal = new Journal(env.journalSize);
    this.offsetMs = store.collection<ClockState>('meta').get('clock')?.offsetMs ?? 0;
  }

  /** The tenant's time in ms. While a due job runs, the time it fell due. */
  now(): number {
    return this.pinnedAt ?? this.env.clock.now() + this.offsetMs;
  }

  nowIso(): string {
    return iso(this.now());
  }

  /** The server's --seed, shared by every key; undefined when none was set. */
  get globalSeed(): number | undefined {
    return this.env.seed;
  }

  get offsetSeconds(): number {
    return this.offsetMs / 1000;
  }

  behaviour(name?: string): Behaviour {
    return this.env.behaviourFor(this, name);
  }

  /** Record a state change; `data` is the resource's view, never changed afterwards. */
  emit(event: string, data: object): SandboxEvent {
    return this.events.emit(event, this.nowIso(), data);
  }

  /** Apply every job due by now, in order. Returns how many ran. */
  catchUp(): number {
    if (this.running) return 0;
    const now = this.now();
    const next = this.scheduler.nextDueAt();
    if (next === undefined || next > now) return 0;
    this.running = true;
    let count = 0;
    try {
      for (let job = this.scheduler.takeDue(now); job; job = this.scheduler.takeDue(now)) {
        const handler = this.env.jobHandlers[job.kind];
        if (!handler) continue;
        this.pinnedAt = job.dueAt;
        try {
          handler(this, job);
        } finally {
          this.pinnedAt = undefined;
        }
        count++;
      }
    } finally {
      this.running = false;
    }
    return count;
  }

  /** Move the tenant's clock forward and apply everything that fell due, in order. */
  advance(seconds: number): number {
    this.offsetMs += Math.round(seconds * 1000);
    this.store.collection<ClockState>('meta').put('clock', { offsetMs: this.offsetMs });
    return this.catchUp();
  }

  /** Forget resources, jobs, events, journal and clock offset; keep settings (scenario, webhooks). */
  reset(): void {
    this.store.clear(SETTINGS_COLLECTIONS);
    this.scheduler.clear();
    this.events.reset();
    this.journal.clear();
    this.offsetMs = 0;
  }
}
