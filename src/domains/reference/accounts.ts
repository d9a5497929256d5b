// The partner's fiat balance accounts: fixed ids per currency (fixtures/balance-accounts.json), the
// same for every key. A withdrawal names one by accountId, which fixes its currency.
import accounts from '../../../fixtures/balance-accounts.json' with { type: 'json' };
import { SandboxError } from '../../kernel/errors.js';
import type { Tenant } from '../../engine/tenant.js';
import { balanceOf, formatBalance } from './balances.service.js';

/** The currencies of the balance accounts: one account each. */
export const ACCOUNT_CURRENCIES = ['NGN', 'GHS', 'USD'] as const;

type Currency = (typeof ACCOUNT_CURRENCIES)[number];

const ID_OF = accounts as Record<Currency, string>;
const BY_ID = new Map<string, Currency>(ACCOUNT_CURRENCIES.map((c) => [ID_OF[c].toLowerCase(), c]));

export function listAccounts(t: Tenant) {
  return ACCOUNT_CURRENCIES.map((currency) => ({
    accountId: ID_OF[currency],
    currency,
    available: formatBalance(currency, balanceOf(t, currency)),
  }));
}

/** The currency of a balance account. Test keys map an unknown id to the NGN account; live keys refuse it. */
export function accountCurrency(t: Tenant, accountId: string): Currency {
  const found = BY_ID.get(accountId.toLowerCase());
  if (found) return found;
  if (t.mode === 'sandbox') return 'NGN';
  throw new SandboxError(
    'ACCOUNT_NOT_FOUND',
    `No balance account '${accountId}' belongs to this API key. Send the accountId of one of your accounts (GET /_sandbox/accounts).`,
    [{ field: 'accountId', issue: 'is not one of your balance accounts' }],
  );
}
