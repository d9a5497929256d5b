// FX trade use cases: create (allocate over the tenant's pools), read, accept, confirm, cancel.
// Trades are kept as plain records; the routes turn them into XML with src/iso20022.
import { iso } from '../../kernel/clock.js';
import { SandboxError, notFound } from '../../kernel/errors.js';
import type { Decimal } from '../../kernel/money.js';
import type { Outcome } from '../../engine/registry/behaviour.js';
import type { Mode, Tenant } from '../../engine/tenancy/tenant.js';
import type { PayInDetails, TradeStatus } from '../../iso20022/parts.js';
import type { SettlementDestination } from '../../iso20022/trade-accept.js';
import type { AmountDirection, TradeInstruction } from '../../iso20022/trade-instruction.js';
import { allocate, checkPair, isFiat, isToken, type AllocationResult } from '../liquidity/allocation.js';
import { isCrossPool, pairPools, poolDraws, settlementOf, type CrossPool } from '../liquidity/cross.js';
import type { Pool } from '../liquidity/pools.js';
import { drawDown, tenantPools } from '../liquidity/pools.service.js';
import { accountCurrency } from '../reference/accounts.js';
import { checkPayee } from '../reference/banks.service.js';
import { fxTrade, tradeMachine, type TradeEvent } from './fx.machine.js';

export interface TradeAllocation {
  poolId: string;
  poolAccountId: string;
  rate: string;
  sourceAmount: string;
  allocatedAmount: string;
  /** A fiat pair's allocation: how it settles through USDT (cross.ts), amounts as decimal text. */
  settlement?: { token: string; tokenAmount: string; sourcePoolId: string; sourceRate: string; destinationPoolId: string; destinationRate: string };
}

export interface TradeRecord {
  txId: string;
  status: TradeStatus;
  baseCcy: string;
  quotedCcy: string;
  direction: AmountDirection;
  agreedRate?: string;
  /** TradgCcyAmt: the amount as sent (rounded to its currency), in BaseCcy for SELL, QtdCcy for BUY. */
  tradingAmount: string;
  /** CntrValCcyAmt: the other side of tradingAmount. */
  counterValueAmount: string;
  /** SttlmCcyAmt: QtdCcy the partner receives at its settlement destination. */
  settlementAmount: string;
  /** AllcnDtls/TtlSttlmAmt: BaseCcy the partner pays in, summed over the allocations. */
  totalSettlementAmount: string;
  weightedAverageRate: string;
  allocations: TradeAllocation[];
  ttlSeconds: number;
  createdAt: string;
  expiresAt: string;
  updatedAt: string;
  destination?: SettlementDestination;
  payIn?: PayInDetails;
  /** Why the trade was cancelled, when a scenario's outcome rule cancelled it. */
  cancellationReason?: string;
  /** How the trade ends by itself once accepted, when a scenario rule says (else only the partner moves it). */
  outcome?: Outcome;
  /** The scenario it was created under, when a request header chose one. */
  scenario?: string;
}

/** The company account trades are paid into (the same for every key). */
export const PAY_IN_ACCOUNT = { accountName: 'Sandbox Settlement Ltd', accountNumber: '0690000031', bankName: 'Access Bank' };

const trades = (t: Tenant) => t.store.collection<TradeRecord>(fxTrade.collection);

// Allocation errors name the JSON-ish fields of the engine; FX answers name the XML elements.
const ELEMENT: Record<string, string> = {
  amount: 'TradAmts/TradgCcyAmt',
  rate: 'AgrdRate/XchgRate',
  source: 'CcyPair/BaseCcy',
  destination: 'CcyPair/QtdCcy',
};

/** FX messages carry amounts with at most 5 decimals: the trade is made at that precision, so what
 * the XML says is exactly what is paid and delivered. */
const FX_DECIMALS = 5;

function allocateTrade(t: Tenant, req: TradeInstruction): { result: AllocationResult; pools: readonly Pool[] } {
  try {
    checkPair(req.baseCcy, req.quotedCcy, [ELEMENT.source, ELEMENT.destination]);
    const pools = pairPools(tenantPools(t), req.baseCcy, req.quotedCcy);
    const result = allocate({
      source: req.baseCcy,
      destination: req.quotedCcy,
      amount: req.tradingAmount,
      amountDirection: req.direction === 'SELL' ? 'source' : 'destination',
      ...(req.agreedRate === undefined ? {} : { rate: req.agreedRate }),
      pools,
      maxDecimals: FX_DECIMALS,
    });
    return { result, pools };
  } catch (err) {
    if (!(err instanceof SandboxError)) throw err;
    const details = err.details.map((d) => ({ field: ELEMENT[d.field] ?? d.field, issue: d.issue }));
    throw new SandboxError(err.code, err.message, details, err.headers, err.bodyInvalid);
  }
}

export function createTrade(t: Tenant, req: TradeInstruction, scenario?: string): TradeRecord {
  t.checkRoom();
  const { result, pools } = allocateTrade(t, req);
  const sell = req.direction === 'SELL';
  const now = t.now();
  const at = iso(now);
  const behaviour = t.behaviour(scenario);
  const ttlSeconds = fxTrade.ttlOf(behaviour);
  const outcome = fxTrade.outcome(behaviour, req);
  // The totals as text once each: a trade of one allocation has the same three figures in its
  // allocation, and equal texts are kept as one string, not a copy per field.
  const source = result.totalSourceAmount.toFixed();
  const destination = result.totalDestinationAmount.toFixed();
  const rate = result.weightedAverageRate.toFixed();
  const text = (d: Decimal): string => {
    const s = d.toFixed();
    return s === source ? source : s === destination ? destination : s === rate ? rate : s;
  };
  const record: TradeRecord = {
    txId: t.random.uuid(),
    status: 'NEWT',
    baseCcy: result.source,
    quotedCcy: result.destination,
    direction: req.direction,
    ...(req.agreedRate === undefined ? {} : { agreedRate: req.agreedRate }),
    tradingAmount: sell ? source : destination,
    counterValueAmount: sell ? destination : source,
    settlementAmount: destination,
    totalSettlementAmount: source,
    weightedAverageRate: rate,
    allocations: result.allocations.map((a) => {
      // A search of the pools: after a key's first draw its pools are a new array per request, where a map would be built each time.
      const pool = pools.find((p) => p.id === a.poolId);
      return {
        poolId: a.poolId,
        poolAccountId: a.poolAccountId,
        rate: text(a.rate),
        sourceAmount: text(a.sourceAmount),
        allocatedAmount: text(a.allocatedAmount),
        ...(pool && isCrossPool(pool) ? { settlement: settlementText(pool, a.allocatedAmount) } : {}),
      };
    }),
    ttlSeconds,
    createdAt: at,
    expiresAt: iso(now + ttlSeconds * 1000),
    updatedAt: at,
    ...(outcome.status !== undefined ? { outcome } : {}),
    ...(scenario ? { scenario } : {}),
  };
  trades(t).put(record.txId, record);
  fxTrade.emit(t, 'NEWT', eventSource(t, record), eventView);
  return record;
}

function settlementText(pool: CrossPool, allocatedAmount: Decimal.Value): TradeAllocation['settlement'] {
  const s = settlementOf(pool, allocatedAmount, FX_DECIMALS);
  return { ...s, tokenAmount: s.tokenAmount.toFixed() };
}

export function getTrade(t: Tenant, txId: string): TradeRecord {
  const trade = trades(t).get(txId.toLowerCase());
  if (!trade) throw notFound('FX trade', txId, 'TxId', undefined, 'transactionId');
  return trade;
}

/** Seconds left to accept the trade: only a NEWT trade has any; 0 once its TTL has run out. */
export function ttlLeft(t: Tenant, trade: TradeRecord): number {
  if (trade.status !== 'NEWT') return 0;
  return Math.max(0, Math.ceil((Date.parse(trade.expiresAt) - t.now()) / 1000));
}

export function acceptTrade(t: Tenant, txId: string, destination: SettlementDestination): TradeRecord {
  const trade = getTrade(t, txId);
  if (trade.status === 'NEWT' && ttlLeft(t, trade) === 0) {
    throw new SandboxError(
      'INVALID_STATE_TRANSITION',
      `The FX trade '${trade.txId}' expired at ${trade.expiresAt} (its TTL was ${trade.ttlSeconds} seconds) and can no longer be accepted. Create a new trade with POST /api/v1/partners/fx/trades.`,
    );
  }
  tradeMachine.next(trade.status, 'accept', trade.txId);
  checkDestination(t, trade, destination);
  const payIn: PayInDetails = { ...PAY_IN_ACCOUNT, reference: `FX-${t.random.hex(16, 'upper')}` };
  return move(t, trade, 'accept', { destination, payIn });
}

export function confirmTrade(t: Tenant, txId: string): TradeRecord {
  const trade = getTrade(t, txId);
  tradeMachine.next(trade.status, 'confirm', trade.txId);
  drawDown(t, trade.allocations.flatMap(poolDraws));
  return move(t, trade, 'confirm');
}

export function cancelTrade(t: Tenant, txId: string, reason?: string): TradeRecord {
  return move(t, getTrade(t, txId), 'cancel', reason === undefined ? {} : { cancellationReason: reason });
}

function move(t: Tenant, trade: TradeRecord, event: TradeEvent, extra: Partial<TradeRecord> = {}): TradeRecord {
  const status = tradeMachine.next(trade.status, event, trade.txId);
  const next: TradeRecord = { ...trade, ...extra, status, updatedAt: t.nowIso() };
  trades(t).put(next.txId, next);
  // An accepted trade a scenario rule ends by itself gets its timer; any other move drops it.
  t.scheduler.cancelFor(next.txId, fxTrade.timer);
  if (status === 'SETT' && next.outcome) fxTrade.retime(t, next.txId, 'SETT', t.behaviour(next.scenario), undefined, next.outcome);
  fxTrade.emit(t, status, eventSource(t, next), eventView);
  return next;
}

/** The timed end of an accepted trade, as its scenario rule planned it. */
export const fxTradeJobs = fxTrade.timerJobs(
  (t, txId) => {
    const trade = trades(t).get(txId);
    return trade?.outcome && { status: trade.status, outcome: trade.outcome };
  },
  (t, txId, event) => (event === 'cancel' ? cancelTrade(t, txId, trades(t).get(txId)?.outcome?.reason ?? 'Cancelled during settlement') : confirmTrade(t, txId)),
);

/** Where an accept's bank destination fields sit, as its reject's ErrLctn names them. */
const BANK_DESTINATION = { accountNumber: 'SttlmDstn/BkDstn/AcctNb', accountName: 'SttlmDstn/BkDstn/AcctNm', bankCode: 'SttlmDstn/BkDstn/BkCd' };

/** The bought currency must suit the form: a bank takes fiat, a blockchain address takes tokens. */
function checkDestination(t: Tenant, trade: TradeRecord, d: SettlementDestination): void {
  const ccy = trade.quotedCcy;
  if (d.kind === 'bank') {
    if (!isFiat(ccy)) {
      throw new SandboxError('VALIDATION_ERROR', `This trade buys ${ccy}, a token: a bank account cannot receive it. Send SttlmDstn/BlkChnDstn/Adr or AcctId instead.`, [
        { field: 'SttlmDstn/BkDstn', issue: `cannot receive ${ccy}` },
      ]);
    }
    checkPayee(t.mode, ccy, d, BANK_DESTINATION);
  }
  // Under test keys AcctId is any UUID; live keys settle only into one of the tenant's balance accounts.
  if (d.kind === 'account' && t.mode === 'live') accountCurrency(d.accountId, 'AcctId');
  if (d.kind === 'blockchain' && !isToken(ccy)) {
    throw new SandboxError('VALIDATION_ERROR', `This trade buys ${ccy}, a fiat currency: a blockchain address cannot receive it. Send SttlmDstn/BkDstn or AcctId instead.`, [
      { field: 'SttlmDstn/BlkChnDstn/Adr', issue: `cannot receive ${ccy}` },
    ]);
  }
}

/** The trade as JSON (the control API's view): the record with the seconds left to accept it. */
export function tradeView(t: Tenant, trade: TradeRecord) {
  const { outcome: _o, scenario: _s, ...view } = trade;
  return { ...view, ttlSeconds: ttlLeft(t, trade) };
}

/** What a trade's event keeps: the trade, and the seconds it had left then. */
interface TradeEventSource {
  trade: TradeRecord;
  ttlSeconds: number;
  mode: Mode;
}

const eventSource = (t: Tenant, trade: TradeRecord): TradeEventSource => ({ trade, ttlSeconds: ttlLeft(t, trade), mode: t.mode });

/** The event payload: the trade as the status message shows it, with its details, in snake_case. */
function eventView(e: TradeEventSource): Record<string, unknown> {
  const { outcome: _o, scenario: _s, ...view } = e.trade;
  return { ...view, ttlSeconds: e.ttlSeconds, mode: e.mode };
}
