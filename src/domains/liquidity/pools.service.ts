// A tenant's view of the liquidity pools: the fixture pools priced by the tenant's market, with the
// tenant's own balances and trade counts. Quotes and FX trades allocate from these and draw them down when they settle.
import { dec } from '../../kernel/money.js';
import type { Tenant } from '../../engine/tenancy/tenant.js';
import type { Allocation } from './allocation.js';
import { marketTime, poolsAt } from './market.js';
import type { Pool } from './pools.js';

interface PoolState {
  id: string;
  availableBalance: string;
  tradesCount: number;
}

const states = (t: Tenant) => t.store.collection<PoolState>('pools');

/** Every pool as this tenant sees it now: priced by the key's market, with the key's balances. */
export function tenantPools(t: Tenant): Pool[] {
  const priced = poolsAt(marketTime(t));
  const s = states(t);
  if (s.size === 0) return priced as Pool[];
  return priced.map((p) => {
    const own = s.get(p.id);
    return own ? { ...p, availableBalance: own.availableBalance, tradesCount: own.tradesCount } : p;
  });
}

/** Take settled allocations out of the pools' balances and count one trade per pool. */
export function drawDown(t: Tenant, allocations: readonly Pick<Allocation, 'poolId' | 'allocatedAmount'>[]): void {
  // Draws on one pool are summed first: each read from the balance before the settlement, the last
  // would overwrite the others.
  const drawn = new Map<string, ReturnType<typeof dec>>();
  for (const a of allocations) drawn.set(a.poolId, (drawn.get(a.poolId) ?? dec(0)).plus(a.allocatedAmount));
  const current = new Map(tenantPools(t).map((p) => [p.id, p] as const));
  for (const [poolId, amount] of drawn) {
    const p = current.get(poolId);
    if (!p) continue;
    const left = dec(p.availableBalance).minus(amount);
    states(t).put(p.id, { id: p.id, availableBalance: (left.isNegative() ? dec(0) : left).toFixed(), tradesCount: p.tradesCount + 1 });
  }
}
