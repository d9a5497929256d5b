// API key → tenant. Every key is its own tenant; its id on disk is a hash, never the key itself.
import { createHash } from 'node:crypto';
import { TenantRandom, tenantSeed } from '../kernel/random.js';
import type { Store } from '../store/store.js';
import { Tenant, type Mode, type TenantEnv } from './tenant.js';

export function tenantIdOf(key: string): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 32);
}

export class Tenants {
  private readonly byKey = new Map<string, Tenant>();
  private readonly opening = new Map<string, Promise<Tenant>>();

  constructor(
    private readonly store: Store,
    private readonly env: TenantEnv,
    private readonly seed: number | undefined,
  ) {}

  get(key: string, mode: Mode): Promise<Tenant> {
    const t = this.byKey.get(key);
    if (t) return Promise.resolve(t);
    let p = this.opening.get(key);
    if (!p) {
      const id = tenantIdOf(key);
      p = this.store.tenant(id).then((ts) => {
        const tenant = new Tenant(id, mode, ts, new TenantRandom(tenantSeed(this.seed, id)), this.env);
        this.byKey.set(key, tenant);
        this.opening.delete(key);
        return tenant;
      });
      this.opening.set(key, p);
    }
    return p;
  }

  loaded(): IterableIterator<Tenant> {
    return this.byKey.values();
  }

  /** Background tick: apply due jobs of every loaded tenant, then persist. */
  async tick(): Promise<void> {
    for (const t of this.byKey.values()) {
      if (t.catchUp() > 0) await t.store.flush();
    }
  }
}
