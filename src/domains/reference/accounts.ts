// The partner's fiat balance accounts: fixed ids per currency (fixtures/balance-accounts.json), the
// same for every key. A withdrawal names one by accountId, which fixes its currency; an FX accept
// may settle into one (AcctId).
import accounts from '../../../fixtures/balance-accounts.json' with { type: 'json' };
import { SandboxError } from '../../kernel/errors.js';
import type { Tenant } from '../../engine/tenancy/tenant.js';
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

/** The id of the balance account in this currency, as GET /_sandbox/accounts lists it. */
export const accountIdOf = (currency: Currency): string => ID_OF[currency];

/** The currency of one of the tenant's balance accounts; any other id is 404 ACCOUNT_NOT_FOUND naming
 * `field`, under both modes (the test-mode leniency covers bank codes and account numbers only). */
export function accountCurrency(accountId: string, field = 'accountId'): Currency {
  const found = BY_ID.get(accountId.toLowerCase());
  if (found) return found;
  throw new SandboxError(
    'ACCOUNT_NOT_FOUND',
    `No balance account '${accountId}' belongs to this API key. Send the accountId of one of your accounts, as listed by GET /_sandbox/accounts.`,
    [{ field, issue: 'is not one of your balance accounts' }],
  );
}
