import { defineMachine } from '../../kernel/machine.js';
import { defineLifecycle } from '../../engine/lifecycle.js';
import type { TradeStatus } from '../../iso20022/parts.js';

export const TRADE_STATUSES: readonly TradeStatus[] = ['NEWT', 'SETT', 'COMP', 'CANC'];

/**
 * NEWT → SETT (accept, only while the TTL runs) → COMP (confirmation); NEWT or SETT → CANC.
 * The TTL check is the service's: the machine only knows states.
 */
export const tradeMachine = defineMachine('FX trade', TRADE_STATUSES, {
  accept: { from: ['NEWT'], to: 'SETT' },
  confirm: { from: ['SETT'], to: 'COMP' },
  cancel: { from: ['NEWT', 'SETT'], to: 'CANC' },
});

export type TradeEvent = (typeof tradeMachine.events)[number];

/** No timed move: a trade moves on the partner's accept, confirmation and cancellation; a scenario sets its ttl. */
export const fxTrade = defineLifecycle({
  name: 'fx_trade',
  machine: tradeMachine,
  ttl: 'Trade TTL in seconds',
  scenario: { description: "FX trades move only on the partner's accept, confirmation and cancellation: a scenario sets their TTL, nothing else" },
});
