// One of each resource with a lifecycle, created and read over HTTP, for the scenario tests:
// fiat payout, wallet payout, withdrawal, transfer, marketplace quote (intent + completion) and
// FX trade. Every JSON answer is checked against /openapi.json and every XML one against its XSD.
import { expect } from 'vitest';
import { KEY, type TestApp } from '../support/app.js';
import { fx, instruction } from '../support/fx.js';
import { ADDRESS, COMPLETE, INTENT, QUOTE, SIM_QUOTES } from '../support/quotes.js';
import { payout, PAYOUTS } from './support.js';

export { ADDRESS, COMPLETE, INTENT, QUOTE, SIM_QUOTES };

export const WALLET = '/api/v1/partners/wallets/payouts';
export const WITHDRAWAL = '/api/v1/partners/withdrawal';
export const TRANSFERS = '/api/v1/transfers';
export const NGN_ACCOUNT = '73fa4f38-0f4d-443c-acf8-4003ed7e9ee9';
const SOURCE = { 'x-service-source': 'payroll-service' };

export const walletPayout = (reference: string) => ({ reference, chain: 'base', asset: 'usdc', amount: 150, toAddress: ADDRESS });
export const withdrawal = (over: Record<string, unknown> = {}) => ({
  accountId: NGN_ACCOUNT,
  accountName: 'John Doe',
  accountNumber: '0123456789',
  amount: 25000,
  bankCode: 'SPB-17646',
  ...over,
});
export const transfer = (reference: string) => ({
  reference,
  amount: 25000,
  currency: 'NGN',
  type: 'BANK',
  source: { accountNumber: '1000200030' },
  destination: { accountNumber: '0123456789', accountName: 'Ada Obi', bankCode: '058' },
});
export const intent = { sourceCurrency: 'NGN', destinationCurrency: 'USDT', amount: 50000, amountDirection: 'source' };
export const toChain = { destination: { blockChain: { address: ADDRESS } } };

/** What createAll made: the id each resource is read by. */
export interface Made {
  payout: string;
  wallet_payout: string;
  withdrawal: string;
  transfer: string;
  quote: string;
  fx_trade: string;
}

export type Statuses = Record<keyof Made, string>;

/** Distinct UUIDs for transfer references, from a short tag. */
const uuid = (tag: string) => `3f1c2a9e-8b7d-4c6e-9f10-${Buffer.from(tag).toString('hex').padEnd(12, '0').slice(0, 12)}`;

export function resources(t: TestApp, key = KEY) {
  const ok = async (method: string, path: string, body: unknown, headers: Record<string, string> = {}) => {
    const res = await t.call(method, path, { key, body, headers });
    expect(res.status, `${method} ${path}: ${res.text}`).toBe(method === 'PUT' ? 200 : 201);
    return res.body;
  };
  const get = async (path: string, headers: Record<string, string> = {}) => {
    const res = await t.call('GET', path, { key, headers });
    expect(res.status, `GET ${path}: ${res.text}`).toBe(200);
    return res.body;
  };

  return {
    /** Create one of each (the quote is completed at once); `first` holds each creating answer's status. */
    async createAll(tag: string, headers: Record<string, string> = {}): Promise<{ made: Made; first: Statuses }> {
      const p = await ok('POST', PAYOUTS, payout(`${tag}-p`), headers);
      const w = await ok('POST', WALLET, walletPayout(`${tag}-w`), headers);
      const wd = await ok('POST', WITHDRAWAL, withdrawal(), headers);
      const tr = await ok('POST', TRANSFERS, transfer(uuid(tag)), { ...SOURCE, ...headers });
      const q = await ok('POST', INTENT, intent, headers);
      const done = await ok('PUT', `${COMPLETE}/${q.quoteId}`, toChain);
      const trade = await fx(t, 'POST', '/trades', { xml: instruction(), key, headers });
      expect(trade.status, trade.text).toBe(201);
      const txId = (trade.xml.UnqTxIdr as { TxId: string }).TxId;
      const made = { payout: p.data.reference, wallet_payout: w.reference, withdrawal: wd.reference, transfer: tr[0].reference, quote: q.quoteId, fx_trade: txId };
      const first = {
        payout: p.data.status,
        wallet_payout: w.status,
        withdrawal: wd.status,
        transfer: tr[0].status,
        quote: `${q.status}>${done.status}`,
        fx_trade: (trade.xml.TradSts as { Sts: string }).Sts,
      };
      return { made, first };
    },

    /** Each resource as a partner reads it now. */
    async read(m: Made) {
      const trade = await fx(t, 'GET', `/trades/${m.fx_trade}`, { key });
      expect(trade.status).toBe(200);
      return {
        payout: (await get(`${PAYOUTS}/${m.payout}`)).data,
        wallet_payout: await get(`${WALLET}/${m.wallet_payout}`),
        withdrawal: await get(`${WITHDRAWAL}/${m.withdrawal}`),
        transfer: await get(`${TRANSFERS}/${m.transfer}`, SOURCE),
        quote: await get(`${QUOTE}/${m.quote}`),
        fx_trade: { status: trade.xml.Sts as string, ttl: trade.xml.TTL as string },
      };
    },

    async statuses(m: Made): Promise<Statuses> {
      const r = await this.read(m);
      return {
        payout: r.payout.status,
        wallet_payout: r.wallet_payout.status,
        withdrawal: r.withdrawal.status,
        transfer: r.transfer.status,
        quote: r.quote.status,
        fx_trade: r.fx_trade.status,
      };
    },

    /** Available balances by key (NGN, usdc:base, ...). */
    async balances(): Promise<Record<string, string>> {
      const body = await get('/_sandbox/balances');
      return Object.fromEntries(body.data.map((b: { key: string; available: string }) => [b.key, b.available]));
    },

    /** The data of the last event of this name. */
    async lastEvent(name: string): Promise<Record<string, unknown>> {
      const body = await get(`/_sandbox/events?type=${name.split('.')[0]}&limit=1000`);
      const hits = body.data.filter((e: { event: string }) => e.event === name);
      expect(hits.length, name).toBeGreaterThan(0);
      return hits[hits.length - 1].data;
    },
  };
}
