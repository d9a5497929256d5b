import { z } from 'zod';
import { defineMachine } from '../../kernel/machine.js';
import { defineLifecycle } from '../../engine/registry/lifecycle.js';
import { pattern } from '../../engine/scenario/scenario.schema.js';
import { ACCOUNT_CURRENCIES } from '../reference/accounts.js';
import { fiatMagic } from '../reference/magic-values.js';
import { CreateWithdrawalRequest, WITHDRAWAL_STATUSES } from './withdrawals.schema.js';

export type WithdrawalStatus = (typeof WITHDRAWAL_STATUSES)[number];

/** PROCESSING → SUCCESSFUL | FAILED. */
export const withdrawalMachine = defineMachine('withdrawal', WITHDRAWAL_STATUSES, {
  complete: { from: ['PROCESSING'], to: 'SUCCESSFUL' },
  fail: { from: ['PROCESSING'], to: 'FAILED' },
});

export type WithdrawalEvent = (typeof withdrawalMachine.events)[number];

/**
 * PROCESSING 300 s, then the end the scenario picks; a scenario may also require a two-factor
 * authCode. The rules match the request, its account's currency and the sandbox's own reference
 * (TRF-…, drawn before the outcome so a scenario can match it).
 */
export const withdrawal = defineLifecycle({
  name: 'withdrawal',
  machine: withdrawalMachine,
  timed: ['PROCESSING'],
  outcomes: { states: ['SUCCESSFUL', 'FAILED'], success: 'SUCCESSFUL' },
  durations: { PROCESSING: 300 },
  timedMoves: { PROCESSING: { succeed: 'complete', fail: 'fail' } },
  // The added fields first, then the request's (it has neither): see the quote's match.
  match: (w: { req: CreateWithdrawalRequest; currency: string; reference: string }) => ({ currency: w.currency, reference: w.reference, ...w.req }),
  magic: fiatMagic('accountNumber'),
  rules: {
    request: CreateWithdrawalRequest,
    added: { currency: ACCOUNT_CURRENCIES, reference: null },
    referenceNote:
      "can never be steered: a withdrawal's reference is drawn by the sandbox (TRF-…), not sent; match accountNumber, amount or fields instead",
  },
  scenario: {
    fields: {
      authCode: z
        .strictObject({
          required: z.boolean(),
          codes: z.array(z.string().min(1).max(100)).min(1).max(100).optional().describe('The codes accepted; any other is refused'),
          pattern: pattern.optional().describe('Accepted codes match this RE2 regular expression'),
        })
        .optional(),
    },
    patterns: (s) => ((s.authCode as { pattern?: string } | undefined)?.pattern !== undefined ? [['authCode', 'pattern']] : []),
  },
});
