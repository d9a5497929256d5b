// Quote completion: the partner names where the destination amount goes and gets the
// payment-specific quote; the marketplace quote then waits for its pay-in.
import { SandboxError } from '../../kernel/errors.js';
import { fingerprint } from '../../kernel/json.js';
import type { Tenant } from '../../engine/tenancy/tenant.js';
import { checkPayee } from '../reference/banks.service.js';
import { isToken } from '../liquidity/allocation.js';
import { paymentQuote, type QuoteRecord } from './quotes.build.js';
import { quoteMachine } from './quotes.machine.js';
import { PAYMENT_PAY_IN_STATUS, PAYMENT_STATUS, type CompleteQuoteRequest, type PaymentQuote } from './quotes.schema.js';
import { getQuote, moveQuote, schedulePayIn } from './quotes.service.js';

/** The destination that fits the quote's destination currency; the other one, if sent, is ignored. */
function fittingDestination(t: Tenant, q: QuoteRecord, req: CompleteQuoteRequest): Destination {
  const currency = q.destination;
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
    checkPayee(t.mode, currency, bank, 'destination.bank.');
    return { bank };
  }
  throw new SandboxError(
    'VALIDATION_ERROR',
    `The quote delivers ${currency}, a fiat currency: send destination.bank with accountName, accountNumber and bankCode` +
      (blockChain ? ' instead of destination.blockChain.' : '.'),
    [{ field: 'destination.bank', issue: `is required when the destination currency is ${currency}` }],
  );
}

type Destination = CompleteQuoteRequest['destination'];

/** Whether two fitting destinations name the same payee: an EVM address is one address in any letter case. */
function sameDestination(a: Destination, b: Destination): boolean {
  const key = (d: Destination) => fingerprint(d.blockChain ? { blockChain: { address: d.blockChain.address.toLowerCase() } } : d);
  return key(a) === key(b);
}

/** The payment-specific quote as it stands: its statuses follow the quote's. */
export function presentPayment(q: QuoteRecord & { payment: PaymentQuote }): PaymentQuote {
  const p = q.payment;
  const s = q.status;
  return { ...p, status: PAYMENT_STATUS[s], metadata: { ...p.metadata, cryptoPayIn: { ...p.metadata.cryptoPayIn, status: PAYMENT_PAY_IN_STATUS[s] } } };
}

/**
 * Complete a pending quote with its destination. The same request again (a retry after a timeout)
 * answers the same payment-specific quote as it stands, marked replayed; another one is refused by
 * the quote machine (409, the quote is no longer pending).
 */
export function completeQuote(t: Tenant, id: string, req: CompleteQuoteRequest): { payment: PaymentQuote; replayed: boolean } {
  const q = getQuote(t, id);
  const fp = fingerprint(req);
  if (q.payment && q.completion === fp) return { payment: presentPayment({ ...q, payment: q.payment }), replayed: true };
  const payoutTo = fittingDestination(t, q, req);
  // A retry whose destination is the one the quote was completed with (the ignored form added or left
  // out, the address in other letter case) is the same request too.
  if (q.payment && q.payoutTo && sameDestination(payoutTo, q.payoutTo)) return { payment: presentPayment({ ...q, payment: q.payment }), replayed: true };
  if (q.completion !== undefined && q.status !== 'pending') {
    // Completed before with another body: say how to read what was made, rather than only the state.
    throw new SandboxError(
      'INVALID_STATE_TRANSITION',
      `The marketplace quote '${q.quoteId}' was completed already, with another destination, and is ${q.status}. ` +
        `Send the first completion body again to read its payment-specific quote (or GET /api/v1/quotes/payments/${q.quoteId}); ` +
        'to pay out to another destination, create a new quote.',
      [{ field: 'destination', issue: 'differs from the destination the quote was completed with' }],
    );
  }
  quoteMachine.next(q.status, 'complete', q.quoteId);
  const payment = q.payment ?? paymentQuote(t, q);
  const chat = q.chatMetadata;
  const chatMetadata = chat.conversationId ? { ...chat, acceptedAt: t.nowIso() } : chat;
  const moved = moveQuote(t, q.quoteId, 'complete', { chatMetadata, payment, payoutTo, completion: fp });
  schedulePayIn(t, moved);
  return { payment: presentPayment({ ...moved, payment }), replayed: false };
}
