// The partner's wallet balances, one per key: a fiat currency (NGN) or a token on a chain
// (usdc:ethereum). A tenant starts with the fixture balances; debits refuse to go below zero.
import initial from '../../../fixtures/balances.json' with { type: 'json' };
import { SandboxError } from '../../kernel/errors.js';
import { Decimal, dec, scaleOf } from '../../kernel/money.js';
import type { Tenant } from '../../engine/tenancy/tenant.js';

export interface Balance {
  key: string;
  available: string;
}

const INITIAL: Record<string, string> = initial;

/** Every balance a tenant has: the fiat currencies and each token on each chain. */
export const BALANCE_KEYS = Object.keys(INITIAL) as [string, ...string[]];

const collection = (t: Tenant) => t.store.collection<Balance>('balances');

/** Each tenant's balances as parsed, with the stored record each was parsed from (records are
 * values, never changed in place, so the same record means the same amount). */
const parsed = new WeakMap<Tenant, Map<string, { record: Balance; value: Decimal }>>();

function parsedOf(t: Tenant): Map<string, { record: Balance; value: Decimal }> {
  let m = parsed.get(t);
  if (!m) parsed.set(t, (m = new Map()));
  return m;
}

export function balanceOf(t: Tenant, key: string): Decimal {
  const record = collection(t).get(key);
  if (!record) return dec(Object.hasOwn(INITIAL, key) ? INITIAL[key] : '0');
  const m = parsedOf(t);
  const kept = m.get(key);
  if (kept?.record === record) return kept.value;
  const value = dec(record.available);
  m.set(key, { record, value });
  return value;
}

/** Decimal places of a balance key: its currency's, or its token's (usdc:base → usdc). */
const scaleOfKey = (key: string) => {
  const colon = key.indexOf(':');
  return scaleOf(colon < 0 ? key : key.slice(0, colon));
};

/** A balance as text, to the places of its currency or token (2 for fiat, 6 for tokens). */
export const formatBalance = (key: string, value: Decimal.Value) => dec(value).toFixed(scaleOfKey(key));

export function listBalances(t: Tenant): Balance[] {
  const out = new Map<string, Balance>(Object.entries(INITIAL).map(([key, available]) => [key, { key, available: formatBalance(key, available) }]));
  for (const b of collection(t).values()) out.set(b.key, b);
  return [...out.values()];
}

function set(t: Tenant, key: string, value: Decimal): void {
  const scale = scaleOfKey(key);
  const rounded = value.toDecimalPlaces(scale);
  const record = { key, available: rounded.toFixed(scale) };
  collection(t).put(key, record);
  parsedOf(t).set(key, { record, value: rounded });
}

/** Check that `amount` can be debited, without debiting; returns the balance. */
export function ensureFunds(t: Tenant, key: string, amount: Decimal.Value, withFee = true): Decimal {
  const available = balanceOf(t, key);
  if (available.lt(amount)) {
    throw new SandboxError(
      'INSUFFICIENT_BALANCE',
      `The ${key} wallet holds ${available.toFixed()}, less than the ${dec(amount).toFixed()} this needs${withFee ? ' (amount plus fee)' : ''}. ` +
        'Send a smaller amount, or top up with POST /_sandbox/balances/top-up.',
      [{ field: 'amount', issue: withFee ? `with its fee, ${dec(amount).toFixed()}, exceeds the available ${key} balance of ${available.toFixed()}` : `exceeds the available ${key} balance of ${available.toFixed()}` }],
    );
  }
  return available;
}

export function debit(t: Tenant, key: string, amount: Decimal.Value, withFee = true): void {
  set(t, key, ensureFunds(t, key, amount, withFee).minus(amount));
}

export function credit(t: Tenant, key: string, amount: Decimal.Value): void {
  set(t, key, balanceOf(t, key).plus(amount));
}
