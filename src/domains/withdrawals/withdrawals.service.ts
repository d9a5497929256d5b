// Bank withdrawal use cases: create (debit at once), read, timed settlement, simulated moves.
import { iso } from '../../kernel/clock.js';
import { notFound, SandboxError } from '../../kernel/errors.js';
import type { TenantRandom } from '../../kernel/random.js';
import type { Behaviour, Outcome } from '../../engine/registry/behaviour.js';
import { recordsOf } from '../../engine/registry/records.js';
import { regexMatches } from '../../engine/scenario/scenario.regex.js';
import type { Tenant } from '../../engine/tenancy/tenant.js';
import { credit, debit } from '../reference/balances.service.js';
import { checkPayee } from '../reference/banks.service.js';
import { accountCurrency, accountIdOf } from '../reference/accounts.js';
import { withdrawal, type WithdrawalEvent } from './withdrawals.machine.js';
import type { CreateWithdrawalRequest, Withdrawal } from './withdrawals.schema.js';

/** A withdrawal's reference: TRF- plus 32 hex digits. */
const withdrawalReference = (r: TenantRandom) => `TRF-${r.hex(32, 'upper')}`;

export interface WithdrawalRecord extends Withdrawal {
  outcome: Outcome;
  scenario?: string;
}

const withdrawals = recordsOf(withdrawal, { view: present, failure: 'The beneficiary bank rejected the transfer' });

export function present(w: WithdrawalRecord): Withdrawal {
  const { outcome: _o, scenario: _s, ...view } = w;
  return view;
}

/** What a scenario makes of an authCode sent (or not) with a withdrawal. */
export type AuthCodeCheck = 'ok' | 'missing' | 'invalid';

/** Whether this authCode passes the scenario's rule: 'missing' when required and absent, 'invalid' when not accepted. */
export function authCodeCheck(b: Behaviour, code: string | undefined): AuthCodeCheck {
  const rule = withdrawal.section(b)?.authCode as { required: boolean; codes?: string[]; pattern?: string } | undefined;
  if (!rule) return 'ok';
  if (code === undefined || code === '') return rule.required ? 'missing' : 'ok';
  if (rule.codes && !rule.codes.includes(code)) return 'invalid';
  if (rule.pattern && !regexMatches(rule.pattern, code)) return 'invalid';
  return 'ok';
}

/** The scenario decides whether an authCode is needed and which codes pass (two-factor: only 123456). */
function checkAuthCode(t: Tenant, authCode: string | undefined, scenario?: string): void {
  const check = authCodeCheck(t.behaviour(scenario), authCode);
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

export function createWithdrawal(t: Tenant, req: CreateWithdrawalRequest, scenario?: string): WithdrawalRecord {
  t.checkRoom();
  checkAuthCode(t, req.authCode, scenario);
  const currency = accountCurrency(req.accountId);
  checkPayee(t.mode, currency, req, '');
  debit(t, currency, req.amount, false);
  const behaviour = t.behaviour(scenario);
  const now = t.now();
  const reference = withdrawalReference(t.random);
  const outcome = withdrawal.outcome(behaviour, { req, currency, reference });
  const processingFor = withdrawal.duration(behaviour, 'PROCESSING', outcome);
  const record: WithdrawalRecord = {
    amount: req.amount,
    currency,
    destination: { accountNumber: req.accountNumber, accountName: req.accountName, bankCode: req.bankCode },
    providerStatus: 'PROCESSING',
    reference,
    status: 'PROCESSING',
    // The account's own id, as the accounts list spells it, whatever the letter case sent.
    accountId: accountIdOf(currency),
    ...(req.narration !== undefined ? { narration: req.narration } : {}),
    failureReason: null,
    createdAt: iso(now),
    updatedAt: iso(now),
    estimatedCompletionAt: iso(now + processingFor * 1000),
    outcome,
    ...(scenario ? { scenario } : {}),
  };
  return withdrawals.save(t, record, processingFor, now);
}

/** The withdrawal of `reference`, in any letter case: the sandbox draws it (TRF- plus upper-case hex),
 * so one stored or typed in lower case names the same withdrawal, as a quote id or an FX TxId does. */
export function getWithdrawal(t: Tenant, reference: string): WithdrawalRecord {
  const kept = withdrawals.of(t);
  const w = kept.get(reference) ?? kept.get(reference.toUpperCase());
  if (!w) throw notFound(withdrawal.name, reference);
  return w;
}

/** Apply one move of the machine; a failure refunds the amount to its balance account. */
export function moveWithdrawal(t: Tenant, reference: string, event: WithdrawalEvent, reason?: string): WithdrawalRecord {
  const w = getWithdrawal(t, reference);
  const status = withdrawals.next(w, event);
  const failureReason = status === 'FAILED' ? withdrawals.failure(w, reason) : null;
  const next: WithdrawalRecord = { ...w, status, providerStatus: status, failureReason, updatedAt: t.nowIso() };
  if (status === 'FAILED') credit(t, w.currency, w.amount);
  return withdrawals.save(t, next);
}

/** The timed move: PROCESSING → the planned outcome. */
export const withdrawalJobs = withdrawals.jobs(moveWithdrawal);
