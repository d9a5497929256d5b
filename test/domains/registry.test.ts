// The resource registry: every spelling of a resource comes from its one name, the stored collection
// names stay those existing --data directories hold, and a misspelt state or resource name does not
// compile (each line under @ts-expect-error must fail `tsc --noEmit`, which npm test runs first).
import { describe, expect, it } from 'vitest';
import { domains, resourceNamed, resourcesOf, type ResourceName } from '../../src/domains/index.js';
import { payout } from '../../src/domains/payouts/payouts.machine.js';
import { quote } from '../../src/domains/quotes/quotes.machine.js';
import { defaultBehaviour } from '../../src/engine/registry/behaviour.js';
import { resourceNames } from '../../src/engine/registry/lifecycle.js';
import type { Tenant } from '../../src/engine/tenancy/tenant.js';

describe('the naming rule', () => {
  it('derives collection, URL segment, event prefix and scenario key from one name', () => {
    expect(resourceNames('wallet_payout')).toEqual({ name: 'wallet_payout', collection: 'wallet_payouts', segment: 'wallet-payouts' });
    expect(() => resourceNames('WalletPayout')).toThrow("A resource name is lower case words joined by _ (wallet_payout), not 'WalletPayout'");
  });

  it('gives every resource of the domain list its spellings by that rule, each name once', () => {
    const resources = resourcesOf(domains);
    for (const r of resources) expect({ name: r.name, collection: r.collection, segment: r.segment }).toEqual(resourceNames(r.name));
    expect(new Set(resources.map((r) => r.name)).size).toBe(resources.length);
  });

  it('keeps the collections and segments the stores and the control API have always used', () => {
    // What --data directories written before hold, and the URLs clients call: a resource may be
    // added without a line here, none renamed.
    expect(resourcesOf(domains).map((r) => [r.name, r.collection, r.segment])).toEqual(
      expect.arrayContaining([
        ['payout', 'payouts', 'payouts'],
        ['wallet_payout', 'wallet_payouts', 'wallet-payouts'],
        ['withdrawal', 'withdrawals', 'withdrawals'],
        ['transfer', 'transfers', 'transfers'],
        ['bulk_disbursement', 'bulk_disbursements', 'bulk-disbursements'],
        ['quote', 'quotes', 'quotes'],
        ['fx_trade', 'fx_trades', 'fx-trades'],
      ]),
    );
    expect(resourceNamed('quote').lifecycle?.events).toEqual([
      'quote.pending',
      'quote.awaiting_payment',
      'quote.completed',
      'quote.expired',
      'quote.cancelled',
      'order.successful',
    ]);
  });
});

describe('typed descriptions', () => {
  it("read durations and outcomes by the resource's own states only", () => {
    expect(payout.duration(defaultBehaviour, 'PENDING')).toBe(30);
    expect(quote.duration(defaultBehaviour, 'awaiting_payment')).toBe(60);
    // @ts-expect-error PENDNG is not a state of payouts
    expect(payout.duration(defaultBehaviour, 'PENDNG')).toBe(60);
    // @ts-expect-error quotes name their states in lower case
    expect(quote.duration(defaultBehaviour, 'PENDING')).toBe(60);
  });

  it("emit only the resource's own states and extra events", () => {
    const neverRun = (t: Tenant) => {
      payout.emit(t, 'FAILED', {});
      quote.emitExtra(t, 'order.successful', {});
      // @ts-expect-error COMPLETED is a wallet payout's state, not a payout's
      payout.emit(t, 'COMPLETED', {});
      // @ts-expect-error quotes have no order.failed event
      quote.emitExtra(t, 'order.failed', {});
    };
    expect(typeof neverRun).toBe('function');
  });

  it('name resources of the domain list only', () => {
    const named: ResourceName = 'wallet_payout';
    expect(resourceNamed(named).segment).toBe('wallet-payouts');
    // @ts-expect-error payuot is not a resource
    const misspelt: ResourceName = 'payuot';
    // @ts-expect-error the collection is not the name
    expect(resourceNamed('payouts')).toBeUndefined();
    expect(misspelt).toBe('payuot');
  });
});
