// The partner's token wallets: one per chain and asset, with a stable id, a balance key and a gas fee.
import wallets from '../../../fixtures/wallets.json' with { type: 'json' };
import { BoundedMap } from '../../kernel/bounded-map.js';
import { derivedUuid } from '../../kernel/ids.js';
import { dec, type Decimal } from '../../kernel/money.js';
import type { Asset, Chain } from './wallet-payouts.schema.js';

const GAS = wallets.gasFees as Record<Chain, Record<Asset, string>>;

/** The balance this wallet draws on, e.g. usdc:ethereum. */
export const balanceKey = (chain: Chain, asset: Asset) => `${asset}:${chain}`;

/** Gas fee in token units: dearer on ethereum than on the layer-2 chains. */
export const gasFee = (chain: Chain, asset: Asset): Decimal => dec(GAS[chain][asset]);

/** A version-4-shaped uuid derived from the tenant, chain and asset: the same on every call. */
export function walletId(tenantId: string, chain: Chain, asset: Asset): string {
  const key = `wallet:${tenantId}:${chain}:${asset}`;
  let id = walletIds.get(key);
  if (id === undefined) {
    id = derivedUuid(key);
    walletIds.set(key, id);
  }
  return id;
}

/** Wallet ids worked out (a hash each): a key pays out of the same few wallets again and again. */
const walletIds = new BoundedMap<string, string>(10_000);
