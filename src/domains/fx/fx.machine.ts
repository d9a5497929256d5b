import { z } from 'zod';
import { defineMachine } from '../../kernel/machine.js';
import { defineLifecycle } from '../../engine/registry/lifecycle.js';
import type { TradeStatus } from '../../iso20022/parts.js';
import type { TradeInstruction } from '../../iso20022/trade-instruction.js';

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

/**
 * A trade moves on the partner's accept, confirmation and cancellation; a scenario sets its ttl, and
 * an outcome rule can end an accepted trade by itself: COMP (the confirmation arrives) or CANC (it
 * is cancelled mid-settlement, with a reason), `after` seconds in SETT (60 when not said). Without
 * a rule, SETT lasts until the partner moves the trade. The rules match the pair, the amount and
 * the direction of the instruction.
 */
export const fxTrade = defineLifecycle({
  name: 'fx_trade',
  machine: tradeMachine,
  timed: ['SETT'],
  outcomes: { states: ['COMP', 'CANC'], success: 'COMP' },
  timedMoves: { SETT: { succeed: 'confirm', fail: 'cancel' } },
  ttl: 'Trade TTL in seconds',
  match: (req: TradeInstruction) => ({ sourceCurrency: req.baseCcy, destinationCurrency: req.quotedCcy, amount: req.tradingAmount, direction: req.direction }),
  rules: {
    request: z.object({ sourceCurrency: z.string(), destinationCurrency: z.string(), amount: z.string(), direction: z.enum(['BUY', 'SELL']) }),
    referenceNote: "can never match: an FX trade has no reference of the partner's (its TxId is drawn by the sandbox); match currency, amount or fields.direction instead",
  },
  scenario: {
    description:
      "FX trades move on the partner's accept, confirmation and cancellation; a scenario sets their TTL, and an outcome rule ends an accepted trade by itself after some seconds in SETT",
  },
});
