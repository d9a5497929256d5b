// Zero-setup test values: account numbers and wallet addresses that end a payout, withdrawal,
// transfer or wallet payout a set way under test keys, with no scenario to write, and the account
// number Resolve Bank Account does not find. One table, read by the lifecycles (their outcomes),
// the resolve route, GET /_sandbox/magic-values, the console and docs/magic-values.md.
import type { MagicValue } from '../../engine/registry/lifecycle.js';

/** What a test value does, by its last two digits. */
const FIAT_ENDS = [
  { end: '51', status: 'FAILED', reason: 'Insufficient funds at the beneficiary bank' },
  { end: '52', status: 'FAILED', reason: 'The beneficiary account is closed' },
  { end: '53', status: 'FAILED', reason: 'Invalid beneficiary account' },
  { end: '54', status: 'FAILED', reason: 'Timed out at the payment provider' },
] as const;

const CHAIN_ENDS = [
  { end: '51', status: 'FAILED', reason: 'Insufficient funds to cover the network fee' },
  { end: '53', status: 'FAILED', reason: 'Invalid destination address' },
  { end: '54', status: 'FAILED', reason: 'Timed out waiting for the network' },
] as const;

/** The account number Resolve Bank Account answers 404 for, under test keys. */
export const UNRESOLVED_ACCOUNT = '0000000044';

/** A fiat account number of the table: eight zeros and the two digits. */
const account = (end: string) => `00000000${end}`;
/** A wallet address of the table: 0x, 38 zeros and the two digits. */
const address = (end: string) => `0x${'0'.repeat(38)}${end}`;

/** The test values of a resource whose account number sits at `field`. */
export function fiatMagic(field: string): MagicValue[] {
  return [...FIAT_ENDS.map((e) => ({ field, value: account(e.end), status: e.status, reason: e.reason })), { field, value: account('99'), hold: true }];
}

/** The test values of wallet payouts, by destination address. */
export const WALLET_MAGIC: MagicValue[] = [
  ...CHAIN_ENDS.map((e) => ({ field: 'toAddress', value: address(e.end), status: e.status, reason: e.reason })),
  { field: 'toAddress', value: address('99'), hold: true },
];

/** One row of the published table. */
export interface MagicValueRow {
  value: string;
  field: string;
  applies: string;
  effect: string;
}

const effect = (m: MagicValue) => (m.hold ? 'stays PROCESSING until POST /_sandbox/simulate moves it' : `${m.status}: ${m.reason}`);

/** The whole table, as GET /_sandbox/magic-values and the docs show it. */
export function magicValueTable(): MagicValueRow[] {
  const fiat = (applies: string, field: string) => fiatMagic(field).map((m) => ({ value: m.value, field, applies, effect: effect(m) }));
  return [
    ...fiat('fiat payout', 'destination.accountNumber'),
    ...fiat('withdrawal', 'accountNumber'),
    ...fiat('transfer', 'destination.accountNumber'),
    ...WALLET_MAGIC.map((m) => ({ value: m.value, field: 'toAddress', applies: 'wallet payout', effect: effect(m) })),
    { value: UNRESOLVED_ACCOUNT, field: 'accountNumber', applies: 'Resolve Bank Account', effect: '404 ACCOUNT_NOT_FOUND' },
  ];
}
