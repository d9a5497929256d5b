import { defineMachine } from '../../kernel/machine.js';
import { QUOTE_STATUSES, type QuoteStatus } from './quotes.schema.js';

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

/** The moves the control API may push: the partner's own moves (remove, complete) go through the API. */
export const SIMULATED_QUOTE_EVENTS = ['pay-in', 'cancel', 'expire'] as const satisfies readonly QuoteEvent[];
