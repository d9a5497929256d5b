// FX trades of two fiat currencies (GHS/NGN): priced as the cross of the GHS/USDT and NGN/USDT
// markets over the cross pools (see test/domains/quotes/fiat-to-fiat.test.ts for the figures: the
// BASE cross pool pairs GHS→USDT at 15.62 with USDT→NGN at 1575, 100.83226 NGN per GHS rounded
// down). Every XML answer is checked against its XSD by the fx() helper.
import { beforeEach, describe, expect, it } from 'vitest';
import type { XmlElement } from '../../../src/iso20022/xml.js';
import { createTestApp, LIVE_KEY, type TestApp } from '../../support/app.js';
import { acceptAccount, acceptBank, acceptChain, fx, instruction, newTrade, rejection } from '../../support/fx.js';

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
});

const listing = async (name: string, source: string, destination: string) => {
  const res = await fx(t, 'GET', `/listings?source=${source}&destination=${destination}`);
  return (res.xml.Listgs as XmlElement[]).find((l) => l.Nm === name)!;
};

describe('FX trades of GHS for NGN', () => {
  it('SELL 1000 GHS: the cross rate of the best cross pool, NGN rounded down', async () => {
    const res = await fx(t, 'POST', '/trades', { xml: instruction({ base: 'GHS', quoted: 'NGN', amount: '1000', direction: 'SELL' }) });
    expect(res.status, res.text).toBe(201);
    expect(res.xml.CcyPair).toEqual({ BaseCcy: 'GHS', QtdCcy: 'NGN' });
    expect(res.xml.TradAmts).toEqual({ TradgCcyAmt: '1000', SttlmCcyAmt: '100832.26', CntrValCcyAmt: '100832.26' });
    expect(res.xml.AllcnDtls).toEqual({ TtlSttlmAmt: '1000', WtdAvrgRate: '100.83226' });
    const [e] = (await t.call('GET', '/_sandbox/events?type=fx_trade.newt')).body.data;
    expect(e.data.allocations).toEqual([
      {
        pool_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        pool_account_id: 'ff4cc66b-1df3-4c04-bf9b-0c33533218cd',
        rate: '100.83226',
        source_amount: '1000',
        allocated_amount: '100832.26',
        // 100,832.26 / 1575 rounded up at the 5 decimals FX amounts carry
        settlement: {
          token: 'USDT',
          token_amount: '64.02049',
          source_pool_id: 'e85267cf-6026-412f-8f6a-9c6ad108928d',
          source_rate: '15.62',
          destination_pool_id: '9d6abf8d-16fc-427f-86e5-acc66d38af79',
          destination_rate: '1575',
        },
      },
    ]);
  });

  it('SELL 100,000 NGN for USD: a rate of at most 10 decimals, as the Rate type allows, in a valid answer', async () => {
    // 0.9991 USD per USDT over 1580.5 NGN per USDT = 0.00063214172..., cut to 10 decimals
    const res = await fx(t, 'POST', '/trades', { xml: instruction({ base: 'NGN', quoted: 'USD', amount: '100000', direction: 'SELL' }) });
    expect(res.status, res.text).toBe(201);
    expect(res.xml.TradAmts).toEqual({ TradgCcyAmt: '100000', SttlmCcyAmt: '63.21', CntrValCcyAmt: '63.21' });
    expect(res.xml.AllcnDtls).toEqual({ TtlSttlmAmt: '100000', WtdAvrgRate: '0.0006321417' });
  });

  it('BUY 100,000 NGN: the GHS paid is rounded up; AgrdRate is NGN per GHS and leaves out worse cross pools', async () => {
    const res = await fx(t, 'POST', '/trades', { xml: instruction({ base: 'GHS', quoted: 'NGN', amount: '100000', direction: 'BUY' }) });
    // 100,000 / 100.83226 = 991.7462..., rounded up
    expect(res.xml.TradAmts).toEqual({ TradgCcyAmt: '100000', SttlmCcyAmt: '100000', CntrValCcyAmt: '991.75' });
    const strict = rejection(await fx(t, 'POST', '/trades', { xml: instruction({ base: 'GHS', quoted: 'NGN', amount: '100000', direction: 'BUY', rate: '101' }) }));
    expect(strict).toMatchObject({ status: 400, code: 'INSUFFICIENT_LIQUIDITY', location: 'TradAmts/TradgCcyAmt, AgrdRate/XchgRate' });
    expect(strict.text).toContain('The best rate on offer is 100.83226');
  });

  it('settles to a bank or an account, never to a wallet; confirmation draws both pools down', async () => {
    const before = { ghs: await listing('Accra Digital Exchange', 'GHS', 'USDT'), ngn: await listing('Lagos Liquidity Partners', 'USDT', 'NGN') };
    const id = await newTrade(t, { base: 'GHS', quoted: 'NGN', amount: '1000', direction: 'SELL' });
    const wallet = rejection(await fx(t, 'POST', `/trades/${id}/accept`, { xml: acceptChain }));
    expect(wallet).toMatchObject({ status: 400, code: 'VALIDATION_ERROR', location: 'SttlmDstn/BlkChnDstn/Adr' });
    expect(wallet.text).toContain('Send SttlmDstn/BkDstn or AcctId instead');
    const accepted = await fx(t, 'POST', `/trades/${id}/accept`, { xml: acceptBank });
    expect(accepted.status, accepted.text).toBe(200);
    const done = await fx(t, 'POST', `/trades/${id}/confirmation`);
    expect(done.status, done.text).toBe(200);
    // 28,500 − 64.02049 USDT and 68,000,000 − 100,832.26 NGN, one more trade each
    expect(await listing('Accra Digital Exchange', 'GHS', 'USDT')).toMatchObject({ AvlblBal: '28435.97951', TradsCnt: String(Number(before.ghs.TradsCnt) + 1) });
    expect(await listing('Lagos Liquidity Partners', 'USDT', 'NGN')).toMatchObject({ AvlblBal: '67899167.74', TradsCnt: String(Number(before.ngn.TradsCnt) + 1) });
    const other = await newTrade(t, { base: 'NGN', quoted: 'GHS', amount: '100000', direction: 'SELL' });
    expect((await fx(t, 'POST', `/trades/${other}/accept`, { xml: acceptAccount })).status).toBe(200);
  });

  it('checks a bank destination under a live key as every bank destination', async () => {
    const id = await newTrade(t, { base: 'GHS', quoted: 'NGN', amount: '1000', direction: 'SELL' }, LIVE_KEY);
    const bad = rejection(await fx(t, 'POST', `/trades/${id}/accept`, { key: LIVE_KEY, xml: acceptBank.replace('<BkCd>058</BkCd>', '<BkCd>999</BkCd>') }));
    expect(bad).toMatchObject({ status: 400, code: 'INVALID_BANK_CODE', location: 'SttlmDstn/BkDstn/BkCd' });
  });

  it('reads the pair\'s maker rate: NGN per GHS, the cross of the two USDT maker rates', async () => {
    const res = await fx(t, 'GET', '/rates/makers?from=GHS&to=NGN');
    expect(res.status, res.text).toBe(200);
    // 1569.3625 / 15.72, rounded down to 8 digits
    expect(res.xml).toMatchObject({ SrcCcy: 'GHS', TrgtCcy: 'NGN', XchgRate: '99.83222' });
  });
});
