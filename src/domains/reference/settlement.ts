// The settlement shape fiat payouts and disbursement transfers share: PENDING → PROCESSING →
// SUCCESSFUL | FAILED, 30 s then 270 s by default, the end the scenario picks. Each resource names
// its own machine and lifecycle from these, so the two cannot drift apart.

export const SETTLEMENT_STATUSES = ['PENDING', 'PROCESSING', 'SUCCESSFUL', 'FAILED'] as const;
type SettlementStatus = (typeof SETTLEMENT_STATUSES)[number];

/** The machine's moves. */
export const SETTLEMENT_MOVES = {
  process: { from: ['PENDING'], to: 'PROCESSING' },
  complete: { from: ['PROCESSING'], to: 'SUCCESSFUL' },
  fail: { from: ['PROCESSING'], to: 'FAILED' },
} as const satisfies Record<string, { from: readonly SettlementStatus[]; to: SettlementStatus }>;

/** The lifecycle's timing: which states are timed, how long each lasts, and what ends each. */
export const SETTLEMENT_TIMING = {
  timed: ['PENDING', 'PROCESSING'],
  outcomes: { states: ['SUCCESSFUL', 'FAILED'], success: 'SUCCESSFUL' },
  durations: { PENDING: 30, PROCESSING: 270 },
  timedMoves: { PENDING: 'process', PROCESSING: { succeed: 'complete', fail: 'fail' } },
} as const;

/**
 * A simulated move of a settlement resource: `complete` or `fail` on a PENDING one runs `process`
 * first, so the end is one call and the events keep the lifecycle's order.
 */
export function throughProcessing<R>(status: string, move: (event: 'process' | 'complete' | 'fail') => R, event: 'process' | 'complete' | 'fail'): R {
  if (event !== 'process' && status === 'PENDING') move('process');
  return move(event);
}
