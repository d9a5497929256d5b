// Request parsers: what the XSDs accept parses; anything else is a VALIDATION_ERROR naming the elements.
import { describe, expect, it } from 'vitest';
import { SandboxError } from '../kernel/errors.js';
import { parseTradeAccept } from './trade-accept.js';
import { parseTradeCancellation } from './trade-cancellation.js';
import { parseTradeConfirmation } from './trade-confirmation.js';
import { parseTradeInstruction } from './trade-instruction.js';
import { validateAgainstXsd } from './xsd.test-helper.js';

function failure(fn: () => unknown): SandboxError {
  try {
    fn();
  } catch (err) {
    if (err instanceof SandboxError) return err;
    throw err;
  }
  throw new Error('expected a SandboxError');
}

const BANK = '<SttlmDstn><BkDstn><AcctNm>Ada Obi</AcctNm><AcctNb>0123456789</AcctNb><BkCd>044</BkCd></BkDstn></SttlmDstn>';
const ACCOUNT = '<AcctId>3f1c2a9e-8b7d-4c6e-9f10-2a3b4c5d6e7f</AcctId>';
const CHAIN = '<SttlmDstn><BlkChnDstn><Adr>0x52908400098527886E0F7030069857D2E4169EE7</Adr></BlkChnDstn></SttlmDstn>';
const accept = (...forms: string[]) => `<FXTradAccptReq>${forms.join('')}</FXTradAccptReq>`;

describe('FXTradInstr', () => {
  it('takes a request without AgrdRate, and SELL as a direction', () => {
    const xml = '<FXTradInstr><CcyPair><BaseCcy>USDT</BaseCcy><QtdCcy>NGN</QtdCcy></CcyPair><TradAmts><TradgCcyAmt>100.5</TradgCcyAmt></TradAmts><AmtDrctn>SELL</AmtDrctn></FXTradInstr>';
    expect(validateAgainstXsd(xml, 'FXTradInstr')).toEqual([]);
    expect(parseTradeInstruction(xml)).toEqual({ baseCcy: 'USDT', quotedCcy: 'NGN', tradingAmount: '100.5', direction: 'SELL' });
  });

  it('names every element at fault in one VALIDATION_ERROR', () => {
    const xml = '<FXTradInstr><CcyPair><BaseCcy/><QtdCcy>ngn</QtdCcy></CcyPair><TradAmts><TradgCcyAmt>1e5</TradgCcyAmt></TradAmts><AgrdRate><XchgRate>1,530.25</XchgRate></AgrdRate><AmtDrctn/></FXTradInstr>';
    const err = failure(() => parseTradeInstruction(xml));
    expect(err.code).toBe('VALIDATION_ERROR');
    expect(err.details.map((d) => d.field)).toEqual(['CcyPair/BaseCcy', 'CcyPair/QtdCcy', 'TradAmts/TradgCcyAmt', 'AgrdRate/XchgRate', 'AmtDrctn']);
    expect(err.message).toBe(
      'Invalid request body: CcyPair/BaseCcy must not be empty: send a currency code of 3 to 5 capital letters, e.g. USD (and 4 more problems, listed in AddtlData).',
    );
    expect(err.details[2].issue).toMatch(/^must be a plain decimal amount with at most 5 decimals.*, not '1e5'$/);
    expect(err.details[4].issue).toMatch(/^must not be empty: send one of BUY, SELL$/);
  });

  it.each([
    ['six decimals', '1.123456'],
    ['a sign', '-5'],
    ['zero', '0.00'],
    ['a thousands separator', '1,000'],
  ])('refuses an amount with %s', (_what, value) => {
    const xml = `<FXTradInstr><CcyPair><BaseCcy>USDT</BaseCcy><QtdCcy>NGN</QtdCcy></CcyPair><TradAmts><TradgCcyAmt>${value}</TradgCcyAmt></TradAmts><AmtDrctn>BUY</AmtDrctn></FXTradInstr>`;
    expect(failure(() => parseTradeInstruction(xml)).details).toEqual([{ field: 'TradAmts/TradgCcyAmt', issue: expect.any(String) }]);
    expect(validateAgainstXsd(xml, 'FXTradInstr')).not.toEqual([]);
  });

  it('refuses a repeated element before any value, and a pair of one currency', () => {
    const xml = '<FXTradInstr><CcyPair><BaseCcy>NGN</BaseCcy><QtdCcy>NGN</QtdCcy></CcyPair><TradAmts><TradgCcyAmt>1</TradgCcyAmt></TradAmts><AmtDrctn>BUY</AmtDrctn><AmtDrctn>SELL</AmtDrctn></FXTradInstr>';
    expect(failure(() => parseTradeInstruction(xml)).details).toEqual([
      { field: 'AmtDrctn', issue: expect.stringMatching(/^comes more often than FXTradInstr takes it: expected the end of FXTradInstr;/) },
    ]);
    expect(failure(() => parseTradeInstruction(xml.replace('<AmtDrctn>SELL</AmtDrctn>', ''))).details).toEqual([
      { field: 'CcyPair/QtdCcy', issue: 'must differ from CcyPair/BaseCcy' },
    ]);
  });

  it('refuses elements the XSD does not have, one per element holding them', () => {
    const xml = '<FXTradInstr><Note>hi</Note><CcyPair><BaseCcy>USDT</BaseCcy><QtdCcy>NGN</QtdCcy><X/></CcyPair><TradAmts><TradgCcyAmt>1</TradgCcyAmt></TradAmts><AmtDrctn>BUY</AmtDrctn></FXTradInstr>';
    expect(failure(() => parseTradeInstruction(xml)).details.map((d) => d.field)).toEqual(['Note', 'CcyPair/X']);
    expect(validateAgainstXsd(xml, 'FXTradInstr')).not.toEqual([]);
  });
});

describe('FXTradAccptReq', () => {
  it.each([
    ['bank', BANK, { kind: 'bank', accountName: 'Ada Obi', accountNumber: '0123456789', bankCode: '044' }],
    ['internal account', ACCOUNT, { kind: 'account', accountId: '3f1c2a9e-8b7d-4c6e-9f10-2a3b4c5d6e7f' }],
    ['blockchain', CHAIN, { kind: 'blockchain', address: '0x52908400098527886E0F7030069857D2E4169EE7' }],
  ])('takes the %s form alone', (_what, form, expected) => {
    expect(validateAgainstXsd(accept(form), 'FXTradAccptReq')).toEqual([]);
    expect(parseTradeAccept(accept(form))).toEqual(expected);
    expect(parseTradeAccept(`<Document xmlns="urn:iso:std:iso:20022:tech:xsd:fxtr.014.001.05">${accept(form)}</Document>`)).toEqual(expected);
  });

  it('refuses a request with no settlement form, naming the two elements of the choice', () => {
    const err = failure(() => parseTradeAccept(accept()));
    expect(err.code).toBe('VALIDATION_ERROR');
    expect(err.message).toBe(
      'Invalid request body: SttlmDstn | AcctId is required: FXTradAccptReq ends without one of them; FXTradAccptReq holds one of SttlmDstn or AcctId.',
    );
    expect(validateAgainstXsd(accept(), 'FXTradAccptReq')).not.toEqual([]);
  });

  it('refuses two forms, naming the second', () => {
    const err = failure(() => parseTradeAccept(accept(ACCOUNT, CHAIN)));
    expect(err.details).toEqual([
      { field: 'SttlmDstn', issue: 'is not expected here: expected the end of FXTradAccptReq; FXTradAccptReq holds one of SttlmDstn or AcctId' },
    ]);
    expect(validateAgainstXsd(accept(ACCOUNT, CHAIN), 'FXTradAccptReq')).not.toEqual([]);
  });

  it('refuses all three forms, naming the first extra one of each choice', () => {
    const both = '<SttlmDstn><BkDstn><AcctNm>A</AcctNm><AcctNb>1</AcctNb><BkCd>044</BkCd></BkDstn><BlkChnDstn><Adr>0x52908400098527886E0F7030069857D2E4169EE7</Adr></BlkChnDstn></SttlmDstn>';
    const err = failure(() => parseTradeAccept(accept(both, ACCOUNT)));
    expect(err.details.map((d) => d.field)).toEqual(['SttlmDstn/BlkChnDstn', 'AcctId']);
    expect(validateAgainstXsd(accept(both, ACCOUNT), 'FXTradAccptReq')).not.toEqual([]);
  });

  it('checks the elements of the chosen form', () => {
    const err = failure(() => parseTradeAccept(accept('<SttlmDstn><BlkChnDstn><Adr>0x123</Adr></BlkChnDstn></SttlmDstn>')));
    expect(err.details).toEqual([{ field: 'SttlmDstn/BlkChnDstn/Adr', issue: "must be an address matching ^0x[a-fA-F0-9]{40}$, not '0x123'" }]);
    const bank = failure(() => parseTradeAccept(accept('<SttlmDstn><BkDstn><AcctNm/><AcctNb>1</AcctNb><BkCd>0</BkCd></BkDstn></SttlmDstn>')));
    expect(bank.details.map((d) => d.field)).toEqual(['SttlmDstn/BkDstn/AcctNm']);
    const missing = failure(() => parseTradeAccept(accept('<SttlmDstn><BkDstn><AcctNb>1</AcctNb></BkDstn></SttlmDstn>')));
    expect(missing.details.map((d) => d.field)).toEqual(['SttlmDstn/BkDstn/AcctNb']);
    expect(failure(() => parseTradeAccept(accept('<AcctId>not-a-uuid</AcctId>'))).details[0].field).toBe('AcctId');
  });
});

describe('optional cancellation and confirmation bodies', () => {
  it('take an empty body', () => {
    for (const empty of [undefined, null, '', '  \n', new Uint8Array()]) {
      expect(parseTradeCancellation(empty)).toEqual({});
      expect(parseTradeConfirmation(empty)).toEqual({});
    }
  });

  it('take their own root, empty or with the free-text element', () => {
    expect(parseTradeCancellation('<FXTradCxlReq/>')).toEqual({});
    expect(parseTradeCancellation('<FXTradCxlReq><Rsn>Rate moved</Rsn></FXTradCxlReq>')).toEqual({ reason: 'Rate moved' });
    expect(parseTradeConfirmation('<FXTradConfReq><Rmrks>Paid</Rmrks></FXTradConfReq>')).toEqual({ remarks: 'Paid' });
    expect(validateAgainstXsd('<FXTradCxlReq><Rsn>Rate moved</Rsn></FXTradCxlReq>', 'FXTradCxlReq')).toEqual([]);
    expect(validateAgainstXsd('<FXTradConfReq/>', 'FXTradConfReq')).toEqual([]);
  });

  it('refuse another root, and malformed XML', () => {
    expect(failure(() => parseTradeCancellation('<FXTradConfReq/>')).code).toBe('VALIDATION_ERROR');
    expect(failure(() => parseTradeConfirmation('<FXTradConfReq>')).code).toBe('MALFORMED_XML');
  });
});
