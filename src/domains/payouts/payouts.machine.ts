import { fiatMagic } from '../reference/magic-values.js';
import { settlementLifecycle, type SettlementEvent, type SettlementStatus } from '../settlement/settlement.js';
import { CreatePayoutRequest } from './payouts.schema.js';

export type PayoutStatus = SettlementStatus;
export type PayoutEvent = SettlementEvent;

/** PENDING → PROCESSING → SUCCESSFUL | FAILED; the scenario rules match the create request. */
export const payout = settlementLifecycle('payout', (req: CreatePayoutRequest) => req, { request: CreatePayoutRequest }, fiatMagic('destination.accountNumber'));
export const payoutMachine = payout.machine;
