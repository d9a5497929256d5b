// Payout fees per currency: a flat fee by amount band (fixtures/fees.json).
import fees from '../../../fixtures/fees.json' with { type: 'json' };
import { dec, round, type Decimal } from '../../kernel/money.js';

type Band = { upTo: Decimal | null; fee: Decimal };
/** The bands parsed once, fees at their currency's places: a fee is computed on every payout and transfer. */
const PAYOUT: Record<string, Band[]> = Object.fromEntries(
  Object.entries(fees.payout as Record<string, { upTo: string | null; fee: string }[]>).map(([currency, bands]) => [
    currency,
    bands.map((b) => ({ upTo: b.upTo === null ? null : dec(b.upTo), fee: round(b.fee, currency) })),
  ]),
);
const ZERO = dec(0);

export function payoutFee(currency: string, amount: Decimal.Value): Decimal {
  const bands = PAYOUT[currency] ?? [];
  const value = dec(amount);
  const band = bands.find((b) => b.upTo === null || value.lte(b.upTo));
  return band?.fee ?? ZERO;
}
