// The bank list and account resolution. Test keys accept any bank code and resolve every account
// to the placeholder name; live keys need a listed bank and an account from the fixtures.
import banks from '../../../fixtures/banks.json' with { type: 'json' };
import accounts from '../../../fixtures/accounts.json' with { type: 'json' };
import { SandboxError } from '../../kernel/errors.js';
import type { Mode } from '../../engine/tenant.js';

export const TEST_ACCOUNT_NAME = 'John Doe';

type Currency = 'NGN' | 'GHS' | 'USD';
const COUNTRY: Record<Currency, string> = { NGN: 'NG', GHS: 'GH', USD: 'US' };
const BANKS = banks as Record<Currency, { name: string; code: string; slug: string }[]>;
const BY_CODE = new Map<string, { name: string; code: string; slug: string }>(
  (Object.keys(BANKS) as Currency[]).flatMap((c) => BANKS[c].map((b) => [`${c}:${b.code}`, b] as const)),
);

export function listBanks(currency: Currency) {
  return BANKS[currency].map((b) => ({ ...b, currency, country: COUNTRY[currency] }));
}

export function bankName(currency: string, code: string): string | undefined {
  return BY_CODE.get(`${currency}:${code}`)?.name;
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

export function resolveAccount(mode: Mode, q: { accountNumber: string; bankCode: string; currency: Currency }) {
  const name = bankName(q.currency, q.bankCode);
  if (mode === 'sandbox') {
    return { accountNumber: q.accountNumber, accountName: TEST_ACCOUNT_NAME, bankCode: q.bankCode, ...(name ? { bankName: name } : {}) };
  }
  checkBankCode(mode, q.currency, q.bankCode, 'bankCode');
  const found = accounts.find(
    (a) => a.currency === q.currency && a.bankCode === q.bankCode && a.accountNumber === q.accountNumber,
  );
  if (!found) {
    throw new SandboxError(
      'ACCOUNT_NOT_FOUND',
      `No account ${q.accountNumber} exists at bank ${q.bankCode}. Check the number with the recipient; live-simulation keys resolve only the sandbox's fixture accounts.`,
      [{ field: 'accountNumber', issue: 'no such account at this bank' }],
    );
  }
  return { accountNumber: found.accountNumber, accountName: found.accountName, bankCode: found.bankCode, bankName: name };
}
