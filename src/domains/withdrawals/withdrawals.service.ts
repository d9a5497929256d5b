// Bank withdrawal use cases: create (debit at once), read, timed settlement, simulated moves.
import { iso } from '../../kernel/clock.js';
import { SandboxError, notFound } from '../../kernel/errors.js';
import { ids } from '../../kernel/ids.js';
import type { Outcome } from '../../engine/behaviour.js';
import type { Job } from '../../engine/scheduler.js';
import type { Tenant } from '../../engine/tenant.js';
import { credit, debit } from '../balances/balances.service.js';
import { checkBankCode } from '../payouts/banks.service.js';
import { accountCurrency } from './accounts.js';
import { withdrawalMachine, type WithdrawalEvent, type WithdrawalStatus } from './withdrawals.machine.js';
import type { CreateWithdrawalRequest, Withdrawal } from './withdrawals.schema.js';

export interface WithdrawalRecord extends Withdrawal {
  outcome: Outcome;
  scenario?: string;
}

const ADVANCE = 'withdrawal.advance';
const withdrawals = (t: Tenant) => t.store.collection<WithdrawalRecord>('withdrawals');

export function present(w: WithdrawalRecord): Withdrawal {
  const { outcome: _o, scenario: _s, ...view } = w;
  return view;
}

/** The scenario decides whether an authCode is needed and which codes pass (two-factor: only 123456). */
function checkAuthCode(t: Tenant, authCode: string | undefined, scenario?: string): void {
  const check = t.behaviour(scenario).checkAuthCode(authCode);
  if (check === 'missing') {
    throw new SandboxError('AUTH_CODE_REQUIRED', 'This withdrawal needs a two-factor code under the scenario in force. Send authCode (the bundled two-factor scenario accepts 123456).', [
      { field: 'authCode', issue: 'is required by the current scenario' },
    ]);
  }
  if (check === 'invalid') {
    throw new SandboxError('INVALID_AUTH_CODE', 'The authCode is not one the scenario in force accepts. Send the current two-factor code (123456 under the bundled two-factor scenario).', [
      { field: 'authCode', issue: 'is not a valid code' },
    ]);
  }
}

export function createWithdrawal(t: Tenant, req: CreateWithdrawalRequest, scenario?: string) {
  t.checkRoom();
  checkAuthCode(t, req.authCode, scenario);
  const currency = accountCurrency(t, req.accountId);
  checkBankCode(t.mode, currency, req.bankCode, 'bankCode');
  debit(t, currency, req.amount, false);
  const behaviour = t.behaviour(scenario);
  const now = t.now();
  const processingFor = behaviour.duration('withdrawal', 'PROCESSING');
  const reference = ids.withdrawalReference(t.random);
  const record: WithdrawalRecord = {
    amount: req.amount,
    currency,
    destination: { accountNumber: req.accountNumber, accountName: req.accountName, bankCode: req.bankCode },
    providerStatus: 'PROCESSING',
    reference,
    status: 'PROCESSING',
    accountId: req.accountId,
    ...(req.narration !== undefined ? { narration: req.narration } : {}),
    failureReason: null,
    createdAt: iso(now),
    updatedAt: iso(now),
    estimatedCompletionAt: iso(now + processingFor * 1000),
    // The reference is the sandbox's own (TRF-…), drawn before the outcome so a scenario can match it.
    outcome: behaviour.outcome('withdrawal', { ...req, currency, reference }),
    ...(scenario ? { scenario } : {}),
  };
  withdrawals(t).put(record.reference, record);
  t.scheduler.enqueue(ADVANCE, record.reference, now + processingFor * 1000);
  t.emit('withdrawal.processing', present(record));
  return { status: 201, body: present(record) };
}

export function getWithdrawal(t: Tenant, reference: string): WithdrawalRecord {
  const w = withdrawals(t).get(reference);
  if (!w) throw notFound('withdrawal', reference);
  return w;
}

/** Apply one move of the machine; a failure refunds the amount to its balance account. */
export function moveWithdrawal(t: Tenant, reference: string, event: WithdrawalEvent, reason?: string): WithdrawalRecord {
  const w = getWithdrawal(t, reference);
  const status: WithdrawalStatus = withdrawalMachine.next(w.status, event, reference);
  t.scheduler.cancelFor(reference, ADVANCE);
  const failureReason = status === 'FAILED' ? (reason ?? w.outcome.reason ?? 'The beneficiary bank rejected the transfer') : null;
  const next: WithdrawalRecord = { ...w, status, providerStatus: status, failureReason, updatedAt: t.nowIso() };
  withdrawals(t).put(reference, next);
  if (status === 'FAILED') credit(t, w.currency, w.amount);
  t.emit(`withdrawal.${status.toLowerCase()}`, present(next));
  return next;
}

function advance(t: Tenant, job: Job): void {
  const w = withdrawals(t).get(job.ref);
  if (w?.status === 'PROCESSING') moveWithdrawal(t, w.reference, w.outcome.succeed ? 'complete' : 'fail');
}

export const withdrawalJobs = { [ADVANCE]: advance };
