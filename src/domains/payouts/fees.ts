// Payout fees per currency: a flat fee by amount band (fixtures/fees.json).
import fees from '../../../fixtures/fees.json' with { type: 'json' };
import { dec, type Decimal } from '../../kernel/money.js';

type Band = { upTo: string | null; fee: string };
const PAYOUT = fees.payout as Record<string, Band[]>;

export function payoutFee(currency: string, amount: Decimal.Value): Decimal {
  const bands = PAYOUT[currency] ?? [];
  const band = bands.find((b) => b.upTo === null || dec(amount).lte(b.upTo));
  return dec(band?.fee ?? '0');
}
