import { defineMachine } from '../../kernel/machine.js';
import { defineLifecycle } from '../../engine/registry/lifecycle.js';
import { CHAINS, TOKEN_CURRENCIES } from '../liquidity/pools.js';
import { CreateIntentRequest, QUOTE_STATUSES, type QuoteStatus } from './quotes.schema.js';

/**
 * pending → awaiting_payment (completed with a destination) → completed (pay-in received);
 * pending or awaiting_payment → expired (ttl ran out) or cancelled. Removing an allocation keeps
 * the quote pending and is only allowed there.
 */
export const quoteMachine = defineMachine<QuoteStatus, 'remove' | 'complete' | 'pay-in' | 'expire' | 'cancel'>(
  'marketplace quote',
  QUOTE_STATUSES,
  {
    remove: { from: ['pending'], to: 'pending' },
    complete: { from: ['pending'], to: 'awaiting_payment' },
    'pay-in': { from: ['awaiting_payment'], to: 'completed' },
    expire: { from: ['pending', 'awaiting_payment'], to: 'expired' },
    cancel: { from: ['pending', 'awaiting_payment'], to: 'cancelled' },
  },
);

export type QuoteEvent = (typeof quoteMachine.events)[number];

/**
 * Pending for its ttl; once completed, its pay-in arrives after the scenario's awaiting_payment time
 * (none by default: it is pushed through the control API) unless the ttl runs out first. The rules
 * match the intent plus the chain and token of its pools and its order reference.
 */
export const quote = defineLifecycle({
  name: 'quote',
  machine: quoteMachine,
  timed: ['awaiting_payment'],
  outcomes: { states: ['completed', 'expired'], success: 'completed' },
  ttl: 'Quote lifetime in seconds',
  // A completed quote is also the order's success.
  extraEvents: ['order.successful'],
  // The added fields first, then the request's (which has none of them): V8 is slow to add a field
  // to an object made by a spread (microseconds a create), not to spread into one that has fields.
  match: (q: { req: CreateIntentRequest; chain: string; token: string; reference: string }) => ({ chain: q.chain, token: q.token, reference: q.reference, ...q.req }),
  rules: { request: CreateIntentRequest, added: { chain: CHAINS, token: TOKEN_CURRENCIES, reference: null } },
});

/** The moves the control API may push: the partner's own moves (remove, complete) go through the API. */
export const SIMULATED_QUOTE_EVENTS = ['pay-in', 'cancel', 'expire'] as const satisfies readonly QuoteEvent[];
