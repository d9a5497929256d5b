// The default store: everything in memory, fresh at each start.
import { MemoryTenantStore, type Store, type TenantStore } from './store.js';

export class MemoryStore implements Store {
  readonly kind = 'memory' as const;
  private readonly tenants = new Map<string, MemoryTenantStore>();
  private began: number | undefined;

  async origin(now: number): Promise<number> {
    return (this.began ??= now);
  }

  async tenant(tenantId: string): Promise<TenantStore> {
    let t = this.tenants.get(tenantId);
    if (!t) this.tenants.set(tenantId, (t = new MemoryTenantStore()));
    return t;
  }

  tenantIds(): string[] {
    return [...this.tenants.keys()];
  }

  async storedTenantIds(): Promise<string[]> {
    return this.tenantIds();
  }

  async drop(tenantId: string): Promise<void> {
    this.tenants.delete(tenantId);
  }

  async close(): Promise<void> {}
}
