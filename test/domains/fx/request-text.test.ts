// What the reject says of the text of a request: a JSON body sent as XML, a character XML does not
// allow, a code in another letter case; each is named with what to send instead.
import { beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../support/app.js';
import { acceptBank, fx, instruction, newTrade, rejection } from '../../support/fx.js';

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
});

const said = (root: string) =>
  `The request body is JSON, but the FX interface takes XML. Send an XML message whose root element is ${root}, with Content-Type: application/xml.`;

describe('a JSON body sent as application/xml', () => {
  it.each([
    ['POST', '/trades', 'FXTradInstr', '{"sourceCurrency":"NGN","destinationCurrency":"USDT","amount":1000}'],
    ['POST', '/trades/{id}/accept', 'FXTradAccptReq', '\n  {"accountId":"73fa4f38-0f4d-443c-acf8-4003ed7e9ee9"}'],
    ['POST', '/trades/{id}/confirmation', 'FXTradConfReq', '{}'],
    ['PUT', '/trades/{id}/cancellation', 'FXTradCxlReq', '[{"reason":"rate moved"}]'],
  ])('%s %s is 400 MALFORMED_XML saying it is JSON and naming %s', async (method, path, root, json) => {
    const id = await newTrade(t);
    const res = await fx(t, method, path.replace('{id}', id), { xml: json });
    expect(rejection(res)).toEqual({ status: 400, code: 'MALFORMED_XML', location: undefined, text: said(root) });
    expect((await fx(t, 'GET', `/trades/${id}`)).xml.Sts).toBe('NEWT');
  });

  it('a UTF-8 BOM before the JSON is the same answer', async () => {
    const res = await fx(t, 'POST', '/trades', { xml: '\uFEFF{"amount":1}' });
    expect(rejection(res).text).toBe(said('FXTradInstr'));
  });
});

// A character XML 1.0 does not allow was dropped on the way in, and the value read without it:
// AmtDrctn 'B\u0001UY' was refused as "not 'BUY'", an AcctNm 'John&#1;Doe' kept as 'JohnDoe'.
describe('a character XML does not allow', () => {
  const MALFORMED = (why: string) => `The request body is not acceptable XML: ${why}. Send one well-formed UTF-8 XML message.`;

  it.each([
    ['sent as is', instruction().replace('<AmtDrctn>BUY', '<AmtDrctn>B\u0001UY'), 'the character U+0001 at line 6, column 14 is not allowed in XML; remove it'],
    ['sent by reference', instruction().replace('<AmtDrctn>BUY', '<AmtDrctn>B&#1;UY'), "the character reference '&#1;' stands for U+0001, which XML does not allow; remove it"],
    ['a NUL by hexadecimal reference', instruction().replace('<AmtDrctn>BUY', '<AmtDrctn>&#x0;BUY'), "the character reference '&#x0;' stands for U+0000, which XML does not allow; remove it"],
    ['U+FFFE by reference', instruction().replace('<AmtDrctn>BUY', '<AmtDrctn>&#xFFFE;BUY'), "the character reference '&#xFFFE;' stands for U+FFFE, which XML does not allow; remove it"],
    ['a reference past the last character', instruction().replace('<AmtDrctn>BUY', '<AmtDrctn>&#x110000;BUY'), "the character reference '&#x110000;' stands for no character, which XML does not allow; remove it"],
  ])('%s is 400 MALFORMED_XML naming it, and no trade is made', async (_what, xml, why) => {
    const res = await fx(t, 'POST', '/trades', { xml });
    expect(rejection(res)).toEqual({ status: 400, code: 'MALFORMED_XML', location: undefined, text: MALFORMED(why) });
    const events = await t.call('GET', '/_sandbox/events?type=fx_trade.newt');
    expect(events.body.data).toEqual([]);
  });

  it('an accept whose AcctNm holds one is refused, not settled to the name without it', async () => {
    const id = await newTrade(t, { base: 'USDT', quoted: 'NGN', amount: '1000', direction: 'BUY' });
    const xml = acceptBank.replace('John Doe', 'John&#1;Doe');
    const res = await fx(t, 'POST', `/trades/${id}/accept`, { xml });
    expect(rejection(res)).toMatchObject({ status: 400, code: 'MALFORMED_XML' });
    expect((await fx(t, 'GET', `/trades/${id}`)).xml.Sts).toBe('NEWT');
  });

  it('a reference to a character XML allows is taken', async () => {
    const xml = instruction().replace('<AmtDrctn>BUY', '<AmtDrctn>B&#85;&#x59;');
    expect((await fx(t, 'POST', '/trades', { xml })).status).toBe(201);
  });
});

// A case slip is the usual cause of a refused code, as on the JSON routes, whose message names the
// value to send; the XML reject said only what the value must be.
describe('a code sent in another letter case', () => {
  it.each([
    ['AmtDrctn', instruction({ direction: 'buy' }), "AmtDrctn must be one of BUY, SELL, not 'buy' (send 'BUY', in that case)"],
    ['AmtDrctn', instruction({ direction: 'Sell' }), "AmtDrctn must be one of BUY, SELL, not 'Sell' (send 'SELL', in that case)"],
    ['CcyPair/BaseCcy', instruction({ base: 'ngn' }), "CcyPair/BaseCcy must be a currency code of 3 to 5 capital letters, e.g. USD, not 'ngn' (send 'NGN', in that case)"],
    ['CcyPair/QtdCcy', instruction({ quoted: 'Usdt' }), "CcyPair/QtdCcy must be a currency code of 3 to 5 capital letters, e.g. USD, not 'Usdt' (send 'USDT', in that case)"],
  ])('%s is refused naming the code to send', async (location, xml, issue) => {
    const res = await fx(t, 'POST', '/trades', { xml });
    expect(rejection(res)).toEqual({ status: 400, code: 'VALIDATION_ERROR', location, text: `Invalid request body: ${issue}.` });
  });

  it('a value that is no code in any case gets no such hint', async () => {
    const res = await fx(t, 'POST', '/trades', { xml: instruction({ direction: 'HOLD', base: 'N1N' }) });
    expect(res.xml.Rsn).toMatchObject({
      AddtlData: "CcyPair/BaseCcy: must be a currency code of 3 to 5 capital letters, e.g. USD, not 'N1N'; AmtDrctn: must be one of BUY, SELL, not 'HOLD'",
    });
  });
});
