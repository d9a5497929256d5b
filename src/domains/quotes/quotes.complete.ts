// Quote completion: the partner names where the destination amount goes and gets the
// payment-specific quote; the marketplace quote then waits for its pay-in.
import { SandboxError } from '../../kernel/errors.js';
import { ids } from '../../kernel/ids.js';
import { dec, toNumber } from '../../kernel/money.js';
import type { Tenant } from '../../engine/tenant.js';
import { checkBankCode } from '../reference/banks.service.js';
import { isToken } from '../liquidity/allocation.js';
import { PROCESSING_FEE, type QuoteRecord } from './quotes.build.js';
import { quoteMachine } from './quotes.machine.js';
import type { CompleteQuoteRequest, PaymentQuote } from './quotes.schema.js';
import { getQuote, moveQuote, schedulePayIn } from './quotes.service.js';

/** The destination that fits the quote's destination currency; the other one, if sent, is ignored. */
function fittingDestination(t: Tenant, q: QuoteRecord, req: CompleteQuoteRequest): CompleteQuoteRequest['destination'] {
  const currency = q.view.destination;
  const { bank, blockChain } = req.destination;
  if (isToken(currency)) {
    if (blockChain) return { blockChain };
    throw new SandboxError(
      'VALIDATION_ERROR',
      `The quote delivers ${currency}, a token: send destination.blockChain.address (an EVM address, 0x and 40 hex digits)` +
        (bank ? ' instead of destination.bank.' : '.'),
      [{ field: 'destination.blockChain.address', issue: `is required when the destination currency is ${currency}` }],
    );
  }
  if (bank) {
    checkBankCode(t.mode, currency, bank.bankCode, 'destination.bank.bankCode');
    return { bank };
  }
  throw new SandboxError(
    'VALIDATION_ERROR',
    `The quote delivers ${currency}, a fiat currency: send destination.bank with accountName, accountNumber and bankCode` +
      (blockChain ? ' instead of destination.blockChain.' : '.'),
    [{ field: 'destination.bank', issue: `is required when the destination currency is ${currency}` }],
  );
}

function paymentQuote(t: Tenant, q: QuoteRecord): PaymentQuote {
  const v = q.view;
  const best = v.allocationResult.allocations[0];
  const { status: _s, ...crypto } = v.metadata.cryptoPayIn;
  return {
    quoteId: v.quoteId,
    merchantId: v.clientId,
    sourceCurrency: v.source,
    destinationCurrency: v.destination,
    destinationNetwork: isToken(v.destination) ? v.chain : 'BANK',
    rate: v.allocationResult.weightedAverageRate,
    providerId: best.clientId,
    providerBalanceId: best.poolAccountId,
    amount: v.totalSourceAmount,
    receiveAmount: v.totalDestinationAmount,
    totalAmount: toNumber(dec(v.totalSourceAmount).plus(PROCESSING_FEE.amount), v.source),
    expiresAt: q.expiresAt,
    createdAt: t.nowIso(),
    HyperRailReference: ids.hyperRailReference(t.random),
    status: 'PENDING',
    metadata: {
      bankPayIn: v.metadata.bankPayIn,
      cryptoPayIn: { ...crypto, status: isToken(v.source) ? 'AWAITING_PAYMENT' : 'INACTIVE' },
    },
    fees: [{ ...PROCESSING_FEE }],
  };
}

export function completeQuote(t: Tenant, id: string, req: CompleteQuoteRequest): PaymentQuote {
  const q = getQuote(t, id);
  const payoutTo = fittingDestination(t, q, req);
  quoteMachine.next(q.view.status, 'complete', q.view.quoteId);
  const payment = paymentQuote(t, q);
  const chat = q.view.chatMetadata;
  const view = chat.conversationId ? { ...q.view, chatMetadata: { ...chat, acceptedAt: t.nowIso() } } : q.view;
  const moved = moveQuote(t, q.view.quoteId, 'complete', { view, payment, payoutTo });
  schedulePayIn(t, moved);
  return payment;
}
