// The settlement lifecycle that fiat payouts and disbursement transfers share: PENDING for 30 s,
// PROCESSING for 270 s, then SUCCESSFUL or FAILED as the scenario decides.
import { defineLifecycle, type MagicValue } from '../../engine/registry/lifecycle.js';
import type { RuleVocabulary } from '../../engine/scenario/scenario.lint.js';
import { defineMachine } from '../../kernel/machine.js';

export const SETTLEMENT_STATUSES = ['PENDING', 'PROCESSING', 'SUCCESSFUL', 'FAILED'] as const;
export type SettlementStatus = (typeof SETTLEMENT_STATUSES)[number];

/** A settlement lifecycle named `name` (also how its 409s name it), whose scenario rules match what `match` gives. */
export function settlementLifecycle<const N extends string, M>(name: N, match: (input: M) => Record<string, unknown>, rules?: RuleVocabulary, magic?: readonly MagicValue[]) {
  const machine = defineMachine(name, SETTLEMENT_STATUSES, {
    process: { from: ['PENDING'], to: 'PROCESSING' },
    complete: { from: ['PROCESSING'], to: 'SUCCESSFUL' },
    fail: { from: ['PROCESSING'], to: 'FAILED' },
  });
  return defineLifecycle({
    name,
    machine,
    timed: ['PENDING', 'PROCESSING'],
    outcomes: { states: ['SUCCESSFUL', 'FAILED'], success: 'SUCCESSFUL' },
    durations: { PENDING: 30, PROCESSING: 270 },
    timedMoves: { PENDING: 'process', PROCESSING: { succeed: 'complete', fail: 'fail' } },
    match,
    rules,
    magic,
  });
}

export type SettlementEvent = 'process' | 'complete' | 'fail';

/**
 * A simulated `complete` or `fail` on a PENDING resource first runs `process`, so the end stays one
 * call and the events keep the lifecycle's order.
 */
export function throughProcessing(status: SettlementStatus, event: SettlementEvent, process: () => unknown): void {
  if (status === 'PENDING' && (event === 'complete' || event === 'fail')) process();
}
