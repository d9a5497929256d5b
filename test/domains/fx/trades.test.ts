import { beforeEach, describe, expect, it } from 'vitest';
import type { XmlElement } from '../../../src/iso20022/xml.js';
import { advance, createTestApp, KEY_B, LIVE_KEY, type TestApp } from '../../support/app.js';
import { acceptAccount, acceptBank, acceptChain, fx, instruction, newTrade, rejection } from '../../support/fx.js';

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
});

const el = (x: XmlElement, path: string) => path.split('/').reduce<unknown>((v, k) => (v as XmlElement)?.[k], x);

async function events(type?: string) {
  const res = await t.call('GET', `/_sandbox/events${type ? `?type=${type}` : ''}`);
  return res.body.data as { event: string; data: Record<string, unknown> }[];
}

async function trade(id: string, key?: string) {
  const res = await fx(t, 'GET', `/trades/${id}`, { key });
  expect(res.status).toBe(200);
  return { status: res.xml.Sts, ttl: res.xml.TTL, xml: res.xml };
}

describe('POST /trades', () => {
  it('BUY: TradgCcyAmt is the QtdCcy bought; the best pool fills it; NEWT with a 300 s TTL', async () => {
    const res = await fx(t, 'POST', '/trades', { xml: instruction({ amount: '1000', direction: 'BUY' }) });
    expect(res.status).toBe(201);
    expect(res.root).toBe('FXTradInstrRspn');
    const x = res.xml;
    expect(el(x, 'UnqTxIdr/TxId')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(el(x, 'TradSts/Sts')).toBe('NEWT');
    expect(x.CcyPair).toEqual({ BaseCcy: 'NGN', QtdCcy: 'USDT' });
    expect(x.TradAmts).toEqual({ TradgCcyAmt: '1000', SttlmCcyAmt: '1000', CntrValCcyAmt: '1580500' });
    expect(x.AllcnDtls).toEqual({ TtlSttlmAmt: '1580500', WtdAvrgRate: '1580.5' });
    expect(x.TTL).toBe('300');
    expect(x.OprgMd).toBe('sandbox');
    const [e] = await events('fx_trade.newt');
    expect(e.data).toMatchObject({ tx_id: el(x, 'UnqTxIdr/TxId'), status: 'NEWT', base_ccy: 'NGN', quoted_ccy: 'USDT', direction: 'BUY', trading_amount: '1000', ttl_seconds: 300, mode: 'sandbox' });
  });

  it('SELL: TradgCcyAmt is the BaseCcy sold; a large trade splits over pools, best rate first', async () => {
    const res = await fx(t, 'POST', '/trades', { xml: instruction({ base: 'NGN', quoted: 'USDT', amount: '79038125', direction: 'SELL' }) });
    expect(res.status).toBe(201);
    // 42,500 USDT at 1580.5 (67,171,250 NGN) then 7,500 USDT at 1582.25 (11,866,875 NGN).
    expect(res.xml.TradAmts).toEqual({ TradgCcyAmt: '79038125', SttlmCcyAmt: '50000', CntrValCcyAmt: '50000' });
    expect(res.xml.AllcnDtls).toEqual({ TtlSttlmAmt: '79038125', WtdAvrgRate: '1580.7625' });
    const [e] = await events('fx_trade.newt');
    expect((e.data.allocations as unknown[]).length).toBe(2);
  });

  it('token to fiat: USDT sold for NGN at the highest pool rate', async () => {
    const res = await fx(t, 'POST', '/trades', { xml: instruction({ base: 'USDT', quoted: 'NGN', amount: '100', direction: 'SELL' }) });
    expect(res.xml.TradAmts).toEqual({ TradgCcyAmt: '100', SttlmCcyAmt: '157500', CntrValCcyAmt: '157500' });
    expect(res.xml.AllcnDtls).toEqual({ TtlSttlmAmt: '100', WtdAvrgRate: '1575' });
  });

  it('trades at the 5 decimals FX messages carry: the XML amounts are the trade\'s, rounded in the pool\'s favour', async () => {
    // 1000 NGN at 1575 NGN per USDT is 0.634920634... USDT: the partner pays 0.63493, never less
    const res = await fx(t, 'POST', '/trades', { xml: instruction({ base: 'USDT', quoted: 'NGN', amount: '1000', direction: 'BUY' }) });
    expect(res.status).toBe(201);
    expect(res.xml.TradAmts).toEqual({ TradgCcyAmt: '1000', SttlmCcyAmt: '1000', CntrValCcyAmt: '0.63493' });
    expect(res.xml.AllcnDtls).toMatchObject({ TtlSttlmAmt: '0.63493' });
    const [e] = await events('fx_trade.newt');
    expect(e.data).toMatchObject({ counter_value_amount: '0.63493', total_settlement_amount: '0.63493', settlement_amount: '1000' });
    expect(e.data.allocations).toEqual([expect.objectContaining({ source_amount: '0.63493', allocated_amount: '1000' })]);
  });

  it.each([
    ['a rate element of another name', '<AgrdRate><Rate>1000</Rate></AgrdRate>', 'AgrdRate/Rate'],
    ['text instead of XchgRate', '<AgrdRate>1000</AgrdRate>', 'AgrdRate'],
    ['an empty AgrdRate', '<AgrdRate></AgrdRate>', 'AgrdRate/XchgRate'],
    ['an empty XchgRate', '<AgrdRate><XchgRate/></AgrdRate>', 'AgrdRate/XchgRate'],
  ])('an AgrdRate without a readable XchgRate (%s) is 400 naming the element at fault, never dropped', async (_, agreed, location) => {
    const xml = instruction({ amount: '100' }).replace('<AmtDrctn>', `${agreed}<AmtDrctn>`);
    const res = await fx(t, 'POST', '/trades', { xml });
    expect(rejection(res)).toMatchObject({ status: 400, code: 'VALIDATION_ERROR', location });
    expect(await events('fx_trade.newt')).toHaveLength(0);
  });

  it('AgrdRate leaves out pools with a worse rate: too strict is 400 naming it, and nothing is stored', async () => {
    const strict = await fx(t, 'POST', '/trades', { xml: instruction({ amount: '50000', rate: '1581' }) });
    expect(rejection(strict)).toMatchObject({ status: 400, code: 'INSUFFICIENT_LIQUIDITY', location: 'TradAmts/TradgCcyAmt, AgrdRate/XchgRate' });
    expect(strict.xml.OprgMd).toBe('sandbox');
    expect(await events('fx_trade.newt')).toHaveLength(0);
    const ok = await fx(t, 'POST', '/trades', { xml: instruction({ amount: '50000', rate: '1582.25' }) });
    expect(ok.status).toBe(201);
    expect(el(ok.xml, 'AllcnDtls/WtdAvrgRate')).toBe('1580.7625');
  });

  it('names every empty or invalid element', async () => {
    const xml = '<FXTradInstr><CcyPair><BaseCcy>NGN</BaseCcy><QtdCcy/></CcyPair><TradAmts><TradgCcyAmt>1e3</TradgCcyAmt></TradAmts><AmtDrctn>HOLD</AmtDrctn></FXTradInstr>';
    const r = rejection(await fx(t, 'POST', '/trades', { xml }));
    expect(r).toMatchObject({ status: 400, code: 'VALIDATION_ERROR', location: 'CcyPair/QtdCcy, TradAmts/TradgCcyAmt, AmtDrctn' });
    expect(r.text).toMatch(/^Invalid request body: CcyPair\/QtdCcy must not be empty/);
  });

  it('refuses an amount that rounds to nothing in its currency, saying the least it takes', async () => {
    const r = rejection(await fx(t, 'POST', '/trades', { xml: instruction({ base: 'NGN', quoted: 'USDT', amount: '0.001', direction: 'SELL' }) }));
    expect(r).toEqual({
      status: 400,
      code: 'VALIDATION_ERROR',
      location: 'TradAmts/TradgCcyAmt',
      text: 'The amount 0.001 NGN rounds to zero at 2 decimal places. Send at least 0.01 NGN.',
    });
  });

  it('refuses a pair no pool converts, and one currency on both sides, naming the elements', async () => {
    const r = rejection(await fx(t, 'POST', '/trades', { xml: instruction({ base: 'USDC', quoted: 'USDT' }) }));
    expect(r).toMatchObject({ status: 400, code: 'UNSUPPORTED_CURRENCY', location: 'CcyPair/QtdCcy' });
    const same = rejection(await fx(t, 'POST', '/trades', { xml: instruction({ base: 'GHS', quoted: 'GHS' }) }));
    expect(same).toMatchObject({ status: 400, code: 'VALIDATION_ERROR', location: 'CcyPair/QtdCcy' });
    expect(same.text).toContain('CcyPair/QtdCcy must differ from CcyPair/BaseCcy');
  });

  it('takes the ISO 20022 Document wrapper, and a live key answers OprgMd live', async () => {
    const body = instruction().replace('<FXTradInstr>', '<Document xmlns="urn:iso:std:iso:20022:tech:xsd:fxtr.014.001.05"><FXTradInstr>').replace('</FXTradInstr>', '</FXTradInstr></Document>');
    const res = await fx(t, 'POST', '/trades', { xml: body, key: LIVE_KEY, headers: { 'content-type': 'text/xml; charset=utf-8' } });
    expect(res.status).toBe(201);
    expect(res.xml.OprgMd).toBe('live');
  });

  it('takes the TTL from the scenario named for the request', async () => {
    const res = await fx(t, 'POST', '/trades', { xml: instruction(), headers: { 'x-sandbox-scenario': 'short-ttl' } });
    expect(res.xml.TTL).toBe('5');
  });
});

describe('GET /trades/{transactionId}', () => {
  it('shows the trade and counts its TTL down on the clock; past it the trade stays NEWT with TTL 0', async () => {
    const id = await newTrade(t, { amount: '250.5' });
    const first = await trade(id);
    expect(first.xml).toMatchObject({ TxId: id, Sts: 'NEWT', CcyPair: { BaseCcy: 'NGN', QtdCcy: 'USDT' }, TTL: '300', OprgMd: 'sandbox' });
    expect(first.xml.TradAmts).toEqual({ TradgCcyAmt: '250.5', CntrValCcyAmt: '395915.25' });
    await advance(t, 100);
    expect((await trade(id)).ttl).toBe('200');
    await advance(t, 200);
    expect(await trade(id)).toMatchObject({ status: 'NEWT', ttl: '0' });
  });

  it('is 404 for an unknown TxId and for another key\'s trade', async () => {
    const id = await newTrade(t);
    expect(rejection(await fx(t, 'GET', '/trades/3f1c2a9e-8b7d-4c6e-9f10-2a3b4c5d6e7f'))).toMatchObject({ status: 404, code: 'RESOURCE_NOT_FOUND' });
    expect(rejection(await fx(t, 'GET', `/trades/${id}`, { key: KEY_B }))).toMatchObject({ status: 404, code: 'RESOURCE_NOT_FOUND' });
  });

  it('is 400 at transactionId for a TxId that is no UUID, on every trade route, before the body is read', async () => {
    const calls: [string, string, string?][] = [
      ['GET', '/trades/trade-1'],
      ['POST', '/trades/trade-1/accept', acceptChain],
      ['POST', '/trades/trade-1/confirmation', '<FXTradConfReq>'],
      ['PUT', '/trades/trade-1/cancellation'],
    ];
    for (const [method, path, xml] of calls) {
      expect(rejection(await fx(t, method, path, { xml })), `${method} ${path}`).toEqual({
        status: 400,
        code: 'VALIDATION_ERROR',
        location: 'transactionId',
        text: 'Invalid request path: transactionId must be a UUID (8-4-4-4-12 hexadecimal digits), e.g. 3f1c2a9e-8b7d-4c6e-9f10-2a3b4c5d6e7f.',
      });
    }
  });
});

describe('accept', () => {
  it('bank settlement of a fiat purchase: SETT with the pay-in details', async () => {
    const id = await newTrade(t, { base: 'USDT', quoted: 'NGN', amount: '100', direction: 'SELL' });
    const res = await fx(t, 'POST', `/trades/${id}/accept`, { xml: acceptBank });
    expect(res.status).toBe(200);
    expect(res.root).toBe('FXTradInstrRspn');
    expect(el(res.xml, 'TradSts/Sts')).toBe('SETT');
    expect(el(res.xml, 'UnqTxIdr/TxId')).toBe(id);
    expect(res.xml.TradAmts).toEqual({ TradgCcyAmt: '100', SttlmCcyAmt: '157500', CntrValCcyAmt: '157500' });
    const payIn = el(res.xml, 'SttlmInstr/BkPayInDtls') as XmlElement;
    expect(payIn).toMatchObject({ AcctNm: 'Sandbox Settlement Ltd', AcctNb: '0690000031', BkNm: 'Access Bank' });
    expect(payIn.Ref).toMatch(/^FX-[0-9A-F]{16}$/);
    expect(await trade(id)).toMatchObject({ status: 'SETT', ttl: '0' });
    const [e] = await events('fx_trade.sett');
    expect(e.data).toMatchObject({ tx_id: id, status: 'SETT', destination: { kind: 'bank', account_number: '0123456789', bank_code: '058' }, pay_in: { reference: payIn.Ref } });
  });

  it('internal balance settlement (AcctId) and blockchain settlement; each trade gets its own reference', async () => {
    const a = await newTrade(t);
    const b = await newTrade(t);
    const ra = await fx(t, 'POST', `/trades/${a}/accept`, { xml: acceptAccount });
    const rb = await fx(t, 'POST', `/trades/${b}/accept`, { xml: acceptChain });
    expect([el(ra.xml, 'TradSts/Sts'), el(rb.xml, 'TradSts/Sts')]).toEqual(['SETT', 'SETT']);
    expect(el(ra.xml, 'SttlmInstr/BkPayInDtls/Ref')).not.toBe(el(rb.xml, 'SttlmInstr/BkPayInDtls/Ref'));
  });

  it('refuses no form, two forms, and a form that cannot receive the bought currency; the trade stays NEWT', async () => {
    const id = await newTrade(t);
    const none = rejection(await fx(t, 'POST', `/trades/${id}/accept`, { xml: '<FXTradAccptReq/>' }));
    expect(none).toMatchObject({ status: 400, code: 'VALIDATION_ERROR', location: 'SttlmDstn | AcctId' });
    const two = rejection(await fx(t, 'POST', `/trades/${id}/accept`, { xml: acceptAccount.replace('</FXTradAccptReq>', '<SttlmDstn><BlkChnDstn><Adr>0x52908400098527886E0F7030069857D2E4169EE7</Adr></BlkChnDstn></SttlmDstn></FXTradAccptReq>') }));
    expect(two).toMatchObject({ status: 400, location: 'SttlmDstn' });
    for (const empty of ['<SttlmDstn/>', '<SttlmDstn><Foo/></SttlmDstn>']) {
      const withAccount = acceptAccount.replace('</FXTradAccptReq>', `${empty}</FXTradAccptReq>`);
      expect(rejection(await fx(t, 'POST', `/trades/${id}/accept`, { xml: withAccount }))).toMatchObject({ status: 400, code: 'VALIDATION_ERROR', location: 'SttlmDstn' });
    }
    const bank = rejection(await fx(t, 'POST', `/trades/${id}/accept`, { xml: acceptBank }));
    expect(bank).toMatchObject({ status: 400, location: 'SttlmDstn/BkDstn' });
    const fiat = await newTrade(t, { base: 'USDT', quoted: 'NGN', amount: '10', direction: 'SELL' });
    expect(rejection(await fx(t, 'POST', `/trades/${fiat}/accept`, { xml: acceptChain }))).toMatchObject({ status: 400, location: 'SttlmDstn/BlkChnDstn/Adr' });
    const badAddress = acceptChain.replace('0x5290', '0xZZ90');
    expect(rejection(await fx(t, 'POST', `/trades/${id}/accept`, { xml: badAddress }))).toMatchObject({ status: 400, location: 'SttlmDstn/BlkChnDstn/Adr' });
    expect((await trade(id)).status).toBe('NEWT');
    expect(await events('fx_trade.sett')).toHaveLength(0);
  });

  it('live keys need a listed bank code', async () => {
    const id = await newTrade(t, { base: 'USDT', quoted: 'NGN', amount: '10', direction: 'SELL' }, LIVE_KEY);
    const r = rejection(await fx(t, 'POST', `/trades/${id}/accept`, { xml: acceptBank.replace('058', '999'), key: LIVE_KEY }));
    expect(r).toMatchObject({ status: 400, code: 'INVALID_BANK_CODE', location: 'SttlmDstn/BkDstn/BkCd' });
  });

  it('live keys settle AcctId only into one of the key\'s balance accounts (404 ACCOUNT_NOT_FOUND, as withdrawals); test keys take any UUID', async () => {
    const other = acceptAccount.replace('73fa4f38-0f4d-443c-acf8-4003ed7e9ee9', '0b7c3c5e-2f43-4d8e-9a51-6c2d8e4f1a90');
    const id = await newTrade(t, {}, LIVE_KEY);
    const r = rejection(await fx(t, 'POST', `/trades/${id}/accept`, { xml: other, key: LIVE_KEY }));
    expect(r).toEqual({
      status: 404,
      code: 'ACCOUNT_NOT_FOUND',
      location: 'AcctId',
      text: "No balance account '0b7c3c5e-2f43-4d8e-9a51-6c2d8e4f1a90' belongs to this API key. Send the accountId of one of your accounts, as listed by GET /_sandbox/accounts.",
    });
    expect((await trade(id, LIVE_KEY)).status).toBe('NEWT');
    const ok = await fx(t, 'POST', `/trades/${id}/accept`, { xml: acceptAccount, key: LIVE_KEY });
    expect(el(ok.xml, 'TradSts/Sts')).toBe('SETT');
    const test = await newTrade(t);
    expect(el((await fx(t, 'POST', `/trades/${test}/accept`, { xml: other })).xml, 'TradSts/Sts')).toBe('SETT');
  });

  it('is 409 once the TTL has run out (clock advance), and 404 for an unknown trade', async () => {
    const id = await newTrade(t);
    await advance(t, 299);
    expect((await trade(id)).ttl).toBe('1');
    await advance(t, 1);
    const late = rejection(await fx(t, 'POST', `/trades/${id}/accept`, { xml: acceptAccount }));
    expect(late).toMatchObject({ status: 409, code: 'INVALID_STATE_TRANSITION' });
    expect(late.text).toMatch(/expired at 2026-01-15T09:05:00.000Z/);
    expect(rejection(await fx(t, 'POST', '/trades/3f1c2a9e-8b7d-4c6e-9f10-2a3b4c5d6e7f/accept', { xml: acceptAccount }))).toMatchObject({ status: 404 });
  });
});

describe('confirmation and cancellation', () => {
  it('confirms a SETT trade: COMP with the same pay-in details, and the pools are drawn down', async () => {
    // Read before the trade too: the listing read afterwards shows the drawn-down pool, not this one.
    const before = await fx(t, 'GET', '/listings?source=NGN&destination=USDT&pageSize=1');
    expect((before.xml.Listgs as XmlElement[])[0]).toMatchObject({ Nm: 'Lagos Liquidity Partners', AvlblBal: '42500', TradsCnt: '1842' });
    const id = await newTrade(t, { amount: '1000' });
    const accepted = await fx(t, 'POST', `/trades/${id}/accept`, { xml: acceptChain });
    const res = await fx(t, 'POST', `/trades/${id}/confirmation`);
    expect(res.status).toBe(200);
    expect(res.root).toBe('FXTradConfStsAdvc');
    expect(res.xml).toMatchObject({ TxId: id, Sts: 'COMP', OprgMd: 'sandbox' });
    expect(res.xml.SttlmInstr).toEqual(accepted.xml.SttlmInstr);
    expect(await trade(id)).toMatchObject({ status: 'COMP', ttl: '0' });
    const listing = await fx(t, 'GET', '/listings?source=NGN&destination=USDT&pageSize=1');
    expect((listing.xml.Listgs as XmlElement[])[0]).toMatchObject({ Nm: 'Lagos Liquidity Partners', AvlblBal: '41500', TradsCnt: '1843' });
    expect((await events()).map((e) => e.event)).toEqual(['fx_trade.newt', 'fx_trade.sett', 'fx_trade.comp']);
  });

  it('takes an optional FXTradConfReq body, but not a JSON one', async () => {
    const id = await newTrade(t);
    await fx(t, 'POST', `/trades/${id}/accept`, { xml: acceptAccount });
    const json = await fx(t, 'POST', `/trades/${id}/confirmation`, { xml: '{"note":"x"}', headers: { 'content-type': 'application/json' } });
    expect(rejection(json)).toMatchObject({ status: 415, code: 'UNSUPPORTED_MEDIA_TYPE' });
    const res = await fx(t, 'POST', `/trades/${id}/confirmation`, { xml: '<FXTradConfReq><Rmrks>paid</Rmrks></FXTradConfReq>' });
    expect(res.xml.Sts).toBe('COMP');
  });

  it('refuses confirmation from NEWT, COMP and CANC with 409', async () => {
    const id = await newTrade(t);
    const early = rejection(await fx(t, 'POST', `/trades/${id}/confirmation`));
    expect(early).toMatchObject({ status: 409, code: 'INVALID_STATE_TRANSITION' });
    expect(early.text).toBe(`The FX trade '${id}' is NEWT; 'confirm' is only allowed from SETT.`);
    await fx(t, 'POST', `/trades/${id}/accept`, { xml: acceptAccount });
    await fx(t, 'POST', `/trades/${id}/confirmation`);
    expect(rejection(await fx(t, 'POST', `/trades/${id}/confirmation`)).status).toBe(409);
    const other = await newTrade(t);
    await fx(t, 'PUT', `/trades/${other}/cancellation`);
    expect(rejection(await fx(t, 'POST', `/trades/${other}/confirmation`)).status).toBe(409);
  });

  it('cancels a NEWT trade (even past its TTL) and a SETT trade: CANC, TTL 0; pools untouched', async () => {
    const a = await newTrade(t);
    await advance(t, 400);
    const ra = await fx(t, 'PUT', `/trades/${a}/cancellation`);
    expect(ra.root).toBe('FXTradCxlRspn');
    expect(ra.xml).toEqual({ TxId: a, Sts: 'CANC', TTL: '0', OprgMd: 'sandbox' });
    const b = await newTrade(t);
    await fx(t, 'POST', `/trades/${b}/accept`, { xml: acceptAccount });
    const rb = await fx(t, 'PUT', `/trades/${b}/cancellation`, { xml: '<FXTradCxlReq><Rsn>changed my mind</Rsn></FXTradCxlReq>' });
    expect(rb.xml.Sts).toBe('CANC');
    expect(await trade(b)).toMatchObject({ status: 'CANC', ttl: '0' });
    // The partner's Rsn is the cancellation reason of its event; a cancellation without one has none.
    const cancelled = await events('fx_trade.canc');
    expect(cancelled.map((e) => [e.data.tx_id ?? e.data.txId, e.data.cancellation_reason])).toEqual([
      [a, undefined],
      [b, 'changed my mind'],
    ]);
    const c2 = await newTrade(t);
    const simulated = await t.call('POST', `/_sandbox/simulate/fx-trades/${c2}/cancel`, { body: { reason: 'rate moved' } });
    expect([simulated.status, simulated.headers.get('x-sandbox-warning')]).toEqual([200, null]);
    expect((await events('fx_trade.canc')).at(-1)?.data.cancellation_reason).toBe('rate moved');
    const listing = await fx(t, 'GET', '/listings?pageSize=1');
    expect((listing.xml.Listgs as XmlElement[])[0]).toMatchObject({ AvlblBal: '42500', TradsCnt: '1842' });
  });

  it('refuses cancelling a COMP or CANC trade, accepting a CANC trade, and any move on an unknown trade', async () => {
    const id = await newTrade(t);
    await fx(t, 'PUT', `/trades/${id}/cancellation`);
    expect(rejection(await fx(t, 'PUT', `/trades/${id}/cancellation`))).toMatchObject({ status: 409, code: 'INVALID_STATE_TRANSITION' });
    expect(rejection(await fx(t, 'POST', `/trades/${id}/accept`, { xml: acceptAccount })).status).toBe(409);
    const done = await newTrade(t);
    await fx(t, 'POST', `/trades/${done}/accept`, { xml: acceptAccount });
    await fx(t, 'POST', `/trades/${done}/confirmation`);
    expect(rejection(await fx(t, 'PUT', `/trades/${done}/cancellation`)).status).toBe(409);
    const unknown = '3f1c2a9e-8b7d-4c6e-9f10-2a3b4c5d6e7f';
    expect(rejection(await fx(t, 'PUT', `/trades/${unknown}/cancellation`)).status).toBe(404);
    expect(rejection(await fx(t, 'POST', `/trades/${unknown}/confirmation`)).status).toBe(404);
  });

  it('the control API pushes a trade along the same machine', async () => {
    const id = await newTrade(t);
    for (const accountId of ['nope', 12]) {
      const bad = await t.call('POST', `/_sandbox/simulate/fx-trades/${id}/accept`, { body: { accountId } });
      expect(bad.status).toBe(400);
      expect(bad.body.error.details[0].field).toBe('accountId');
    }
    expect((await trade(id)).status).toBe('NEWT');
    const account = '73fa4f38-0f4d-443c-acf8-4003ed7e9ee9';
    const settled = await t.call('POST', `/_sandbox/simulate/fx-trades/${await newTrade(t)}/accept`, { body: { accountId: account } });
    expect(settled.body.state.destination).toEqual({ kind: 'account', accountId: account });
    const res = await t.call('POST', `/_sandbox/simulate/fx-trades/${id}/accept`, { body: {} });
    expect(res.status).toBe(200);
    expect(res.body.state).toMatchObject({ txId: id, status: 'SETT', ttlSeconds: 0 });
    expect((await t.call('POST', `/_sandbox/simulate/fx-trades/${id}/accept`, { body: {} })).status).toBe(409);
    expect((await trade(id)).status).toBe('SETT');
  });
});

  it('the control API accepts a live key\'s trade into its own balance account, and names accountId when it refuses one', async () => {
    const id = await newTrade(t, {}, LIVE_KEY);
    const other = await t.call('POST', `/_sandbox/simulate/fx-trades/${id}/accept`, { key: LIVE_KEY, body: { accountId: '0b7c3c5e-2f43-4d8e-9a51-6c2d8e4f1a90' } });
    expect([other.status, other.body.error.code, other.body.error.details]).toEqual([404, 'ACCOUNT_NOT_FOUND', [{ field: 'accountId', issue: 'is not one of your balance accounts' }]]);
    // No body: the NGN→USDT trade settles into the key's NGN account.
    const res = await t.call('POST', `/_sandbox/simulate/fx-trades/${id}/accept`, { key: LIVE_KEY });
    expect(res.status).toBe(200);
    expect(res.body.state).toMatchObject({ status: 'SETT', destination: { kind: 'account', accountId: '73fa4f38-0f4d-443c-acf8-4003ed7e9ee9' } });
    const fiat = await newTrade(t, { base: 'USDT', quoted: 'GHS', amount: '100', direction: 'BUY' }, LIVE_KEY);
    const ghs = await t.call('POST', `/_sandbox/simulate/fx-trades/${fiat}/accept`, { key: LIVE_KEY });
    expect(ghs.body.state.destination).toEqual({ kind: 'account', accountId: '9d1e9f26-ed7b-4255-9ae3-b0b5e3e59112' });
    const sett = (await t.call('GET', '/_sandbox/events?type=fx_trade.sett', { key: LIVE_KEY })).body.data;
    expect(sett.map((e: { data: { destination: { account_id: string } } }) => e.data.destination.account_id)).toEqual([
      '73fa4f38-0f4d-443c-acf8-4003ed7e9ee9',
      '9d1e9f26-ed7b-4255-9ae3-b0b5e3e59112',
    ]);
  });

it('rounds the computed side in the pools\' favour, in exact decimals', async () => {
  // 0.1 USDT at 1.0004 USD costs 0.10004 USD: rounded up to the cent.
  const res = await fx(t, 'POST', '/trades', { xml: instruction({ amount: '0.1', direction: 'BUY', base: 'USD', quoted: 'USDT' }) });
  expect(res.xml.TradAmts).toEqual({ TradgCcyAmt: '0.1', SttlmCcyAmt: '0.1', CntrValCcyAmt: '0.11' });
  expect(el(res.xml, 'AllcnDtls/TtlSttlmAmt')).toBe('0.11');
});
