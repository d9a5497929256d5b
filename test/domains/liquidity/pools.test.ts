// Settling draws the pools down: what a key's pools hold after its quotes and trades settle.
import { describe, expect, it } from 'vitest';
import { drawDown, tenantPools } from '../../../src/domains/liquidity/pools.service.js';
import { dec } from '../../../src/kernel/money.js';
import { createTestApp, KEY } from '../../support/app.js';

describe('drawing pools down', () => {
  it('takes every draw on one pool of a settlement, counted as one trade', async () => {
    const t = await createTestApp();
    const tenant = await t.tenants.get(KEY, 'sandbox');
    const [pool, other] = tenantPools(tenant);
    drawDown(tenant, [
      { poolId: pool!.id, allocatedAmount: dec('10.5') },
      { poolId: other!.id, allocatedAmount: dec('1') },
      { poolId: pool!.id, allocatedAmount: dec('4.5') },
    ]);
    const after = new Map(tenantPools(tenant).map((p) => [p.id, p]));
    expect(after.get(pool!.id)).toMatchObject({ availableBalance: dec(pool!.availableBalance).minus(15).toFixed(), tradesCount: pool!.tradesCount + 1 });
    expect(after.get(other!.id)).toMatchObject({ availableBalance: dec(other!.availableBalance).minus(1).toFixed(), tradesCount: other!.tradesCount + 1 });
  });
});
