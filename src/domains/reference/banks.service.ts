// The bank list and account resolution. Test keys accept any bank code and resolve every account
// to the placeholder name (a code outside the list to the placeholder bank); live keys need a listed
// bank and an account from the fixtures.
import { UNRESOLVED_ACCOUNT } from './magic-values.js';
import banks from '../../../fixtures/banks.json' with { type: 'json' };
import accounts from '../../../fixtures/accounts.json' with { type: 'json' };
import { SandboxError } from '../../kernel/errors.js';
import type { Mode } from '../../engine/tenancy/tenant.js';
import type { LOOKUP_COUNTRIES, LOOKUP_CURRENCIES } from './banks.schema.js';

export const TEST_ACCOUNT_NAME = 'John Doe';
/** The bank name shown for a code outside the bank list, which only test keys may send. */
export const TEST_BANK_NAME = 'Sandbox Test Bank';

type Currency = 'NGN' | 'GHS' | 'USD';
/** A currency Get All Banks and Resolve Bank Account take. */
type LookupCurrency = (typeof LOOKUP_CURRENCIES)[number];
const COUNTRY: Record<LookupCurrency, (typeof LOOKUP_COUNTRIES)[number]> = { NGN: 'NG', GHS: 'GH' };
const BANKS = banks as Record<Currency, { name: string; code: string; slug: string }[]>;
const BY_CODE = new Map<string, { name: string; code: string; slug: string }>(
  (Object.keys(BANKS) as Currency[]).flatMap((c) => BANKS[c].map((b) => [`${c}:${b.code}`, b] as const)),
);

export function listBanks(currency: LookupCurrency) {
  return BANKS[currency].map((b) => ({ ...b, currency, country: COUNTRY[currency] }));
}

/** The name of the bank with this code: a listed bank's, else the test placeholder (test keys take
 * any code; live keys are refused one outside the list before a name is needed). */
export function bankName(currency: string, code: string): string {
  return BY_CODE.get(`${currency}:${code}`)?.name ?? TEST_BANK_NAME;
}

/** Live rules: the bank code must be one of the currency's banks. */
export function checkBankCode(mode: Mode, currency: string, code: string, field: string): void {
  if (mode === 'sandbox' || BY_CODE.has(`${currency}:${code}`)) return;
  throw new SandboxError(
    'INVALID_BANK_CODE',
    currency === 'USD'
      ? `Bank code '${code}' is not a USD bank. Live-simulation keys take the US routing numbers of the sandbox's fixtures/banks.json (Get All Banks lists NGN and GHS only).`
      : `Bank code '${code}' is not a ${currency} bank. Send a code from GET /api/v1/partners/banks?currency=${currency}.`,
    [{ field, issue: `is not a known ${currency} bank code` }],
  );
}

/** The fixture account at this bank, if any (live keys resolve only these). */
function fixtureAccount(currency: string, bankCode: string, accountNumber: string) {
  return accounts.find((a) => a.currency === currency && a.bankCode === bankCode && a.accountNumber === accountNumber);
}

/** `magic`: whether test values are honoured (test keys, unless the scenario turns them off). */
export function resolveAccount(mode: Mode, q: { accountNumber: string; bankCode: string; currency: Currency }, magic = false) {
  const name = bankName(q.currency, q.bankCode);
  if (mode === 'sandbox') {
    if (magic && q.accountNumber === UNRESOLVED_ACCOUNT) {
      throw new SandboxError('ACCOUNT_NOT_FOUND', `No account ${q.accountNumber} exists at bank ${q.bankCode} (${UNRESOLVED_ACCOUNT} is the test value that never resolves).`, [
        { field: 'accountNumber', issue: 'no such account at this bank' },
      ]);
    }
    return { accountNumber: q.accountNumber, accountName: TEST_ACCOUNT_NAME, bankCode: q.bankCode, bankName: name };
  }
  checkBankCode(mode, q.currency, q.bankCode, 'bankCode');
  const found = fixtureAccount(q.currency, q.bankCode, q.accountNumber);
  if (!found) {
    throw new SandboxError(
      'ACCOUNT_NOT_FOUND',
      `No account ${q.accountNumber} exists at bank ${q.bankCode}. Check the number with the recipient; live-simulation keys resolve only the sandbox's fixture accounts.`,
      [{ field: 'accountNumber', issue: 'no such account at this bank' }],
    );
  }
  return { accountNumber: found.accountNumber, accountName: found.accountName, bankCode: found.bankCode, bankName: name };
}

/** Names compared as a bank does: case, and spaces around and between words, do not count. */
const sameName = (a: string, b: string) => a.trim().replace(/\s+/g, ' ').toLowerCase() === b.trim().replace(/\s+/g, ' ').toLowerCase();

/** Where a bank destination's three fields sit in a request, as its errors name them. */
export interface PayeeFields {
  accountNumber: string;
  accountName: string;
  bankCode: string;
}

/** The fields of a JSON destination under `prefix` (`destination.`, `destination.bank.`, or '' at the top). */
export const payeeFields = (prefix: string): PayeeFields => ({
  accountNumber: `${prefix}accountNumber`,
  accountName: `${prefix}accountName`,
  bankCode: `${prefix}bankCode`,
});

/**
 * Live rules for paying a bank account, the one check of every bank destination (payouts,
 * withdrawals, BANK transfers and bulk rows, quote completion to a bank, an FX accept's BkDstn): a
 * listed bank, an account that resolves, and the name it resolves to. `at` is where the fields sit
 * in the request: a JSON prefix (`destination.`) or the fields' own names (the XML paths). Test
 * keys pass.
 */
export function checkPayee(
  mode: Mode,
  currency: string,
  d: { accountNumber: string; accountName: string; bankCode: string },
  at: string | PayeeFields,
): void {
  if (mode === 'sandbox') return;
  const fields = typeof at === 'string' ? payeeFields(at) : at;
  checkBankCode(mode, currency, d.bankCode, fields.bankCode);
  const resolve =
    currency === 'USD'
      ? "Live-simulation keys pay only the USD accounts of the sandbox's fixtures/accounts.json (Resolve Bank Account covers NGN and GHS)."
      : `Resolve it first with GET /api/v1/partners/banks/resolve?accountNumber=${d.accountNumber}&bankCode=${d.bankCode}&currency=${currency}.`;
  const found = fixtureAccount(currency, d.bankCode, d.accountNumber);
  if (!found) {
    throw new SandboxError('ACCOUNT_NOT_FOUND', `No account ${d.accountNumber} exists at bank ${d.bankCode}, so a live payout cannot reach it. ${resolve}`, [
      { field: fields.accountNumber, issue: 'does not resolve at this bank' },
    ]);
  }
  if (!sameName(found.accountName, d.accountName)) {
    throw new SandboxError(
      'ACCOUNT_NAME_MISMATCH',
      `Account ${d.accountNumber} at bank ${d.bankCode} is not in the name '${d.accountName}'. Send the accountName that Resolve Bank Account returns for it. ${resolve}`,
      [{ field: fields.accountName, issue: 'differs from the name the account resolves to' }],
    );
  }
}
