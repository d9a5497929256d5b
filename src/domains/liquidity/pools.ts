// The liquidity pools (fixtures/pools.json). A pool converts between one fiat and
// one token in one direction. Its rate is always fiat per one token, whichever way it trades,
// and its availableBalance is what it can still deliver, in DESTINATION currency units.
import pools from '../../../fixtures/pools.json' with { type: 'json' };

export type Chain = 'BASE' | 'ETHEREUM' | 'POLYGON' | 'ARBITRUM' | 'OPTIMISM';

export const CHAINS: readonly Chain[] = ['BASE', 'ETHEREUM', 'POLYGON', 'ARBITRUM', 'OPTIMISM'];
export const FIAT_CURRENCIES = ['NGN', 'GHS', 'USD'] as const;
export const TOKEN_CURRENCIES = ['USDT', 'USDC'] as const;

export interface Pool {
  id: string;
  name: string;
  /** Upper-case currency code the partner pays in. */
  source: string;
  /** Upper-case currency code the pool delivers. */
  destination: string;
  /** Fiat units per one token, as decimal text. */
  rate: string;
  /** Destination units the pool can still deliver, as decimal text. */
  availableBalance: string;
  chain: Chain;
  /** The pool's own account: the poolAccountId of an allocation. */
  accountId: string;
  /** The liquidity provider running the pool. */
  clientId: string;
  tradesCount: number;
  /** Percentage as decimal text, e.g. "98.7". */
  completionRate: string;
}

const ALL: readonly Pool[] = Object.freeze((pools as Pool[]).map((p) => Object.freeze({ ...p })));
const BY_ID = new Map(ALL.map((p) => [p.id, p] as const));

/** Every fixture pool, frozen. Copy with initialPools() to track live balances. */
export const POOLS: readonly Pool[] = ALL;

/** Fresh, mutable copies of the fixture pools, e.g. to seed a tenant's store. */
export function initialPools(): Pool[] {
  return ALL.map((p) => ({ ...p }));
}

export function poolById(id: string, from: readonly Pool[] = ALL): Pool | undefined {
  return from === ALL ? BY_ID.get(id) : from.find((p) => p.id === id);
}
