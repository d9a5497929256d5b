// The published XSDs compile and refuse the shapes a partner must not rely on.
import { describe, expect, it } from 'vitest';
import { buildTradeInstructionResponse } from './trade-instruction.js';
import { buildTradeStatus } from './trade-status.js';
import { XSD_NAMES, isXsdName, type XsdName } from './xsd-names.js';
import { validateAgainstXsd } from './xsd.test-helper.js';

const TX = '3f1c2a9e-8b7d-4c6e-9f10-2a3b4c5d6e7f';
const newTrade = buildTradeInstructionResponse({
  txId: TX,
  pair: { baseCcy: 'USDT', quotedCcy: 'NGN' },
  amounts: { trading: '1000', settlement: '1530250.5', counterValue: '1530250.5' },
  totalSettlementAmount: '1530250.5',
  weightedAverageRate: '1530.25',
  ttlSeconds: 300,
  mode: 'sandbox',
});

describe('XSDs', () => {
  it.each(Object.keys(XSD_NAMES) as XsdName[])('%s compiles and refuses a document with another root', (name) => {
    expect(validateAgainstXsd('<Other/>', name)).not.toEqual([]);
  });

  it('registers each root under its own file name', () => {
    for (const [root, file] of Object.entries(XSD_NAMES)) expect(file).toBe(`${root}.xsd`);
    expect([isXsdName('MsgRjct'), isXsdName('toString'), isXsdName('../etc/passwd')]).toEqual([true, false, false]);
  });

  it.each([
    ['a missing element', newTrade.replace(/\s*<TTL>300<\/TTL>/, ''), /Missing child element|expected/i],
    ['a missing OprgMd', newTrade.replace(/\s*<OprgMd>sandbox<\/OprgMd>/, ''), /Missing child element/],
    ['an amount with an exponent', newTrade.replace('<TradgCcyAmt>1000<', '<TradgCcyAmt>1e5<'), /TradgCcyAmt/],
    ['an amount with six decimals', newTrade.replace('<TradgCcyAmt>1000<', '<TradgCcyAmt>1000.123456<'), /TradgCcyAmt/],
    ['an amount with a thousands separator', newTrade.replace('<TradgCcyAmt>1000<', '<TradgCcyAmt>1,000<'), /TradgCcyAmt/],
    ['a rate with eleven decimals', newTrade.replace('<WtdAvrgRate>1530.25<', '<WtdAvrgRate>1.12345678901<'), /WtdAvrgRate/],
    ['a bad UUID', newTrade.replace(TX, 'TX-1'), /TxId/],
    ['an unknown status', newTrade.replace('<Sts>NEWT<', '<Sts>DONE<'), /Sts/],
    ['an unknown mode', newTrade.replace('<OprgMd>sandbox<', '<OprgMd>test<'), /OprgMd/],
    ['a lower-case currency', newTrade.replace('<BaseCcy>USDT<', '<BaseCcy>usdt<'), /BaseCcy/],
    ['both the NEWT and the SETT branch', newTrade.replace('<OprgMd>', '<SttlmInstr><BkPayInDtls><AcctNm>A</AcctNm><AcctNb>1</AcctNb><BkNm>B</BkNm><Ref>R</Ref></BkPayInDtls></SttlmInstr><OprgMd>'), /SttlmInstr/],
  ])('FXTradInstrRspn refuses %s', (_what, xml, message) => {
    const errors = validateAgainstXsd(xml, 'FXTradInstrRspn');
    expect(errors).not.toEqual([]);
    expect(errors.join('\n')).toMatch(message);
  });

  it('FXTradInstrRspn refuses elements out of order', () => {
    const swapped = newTrade.replace(/(\s*<UnqTxIdr>[\s\S]*?<\/UnqTxIdr>)(\s*<TradSts>[\s\S]*?<\/TradSts>)/, '$2$1');
    expect(swapped.indexOf('<TradSts>')).toBeLessThan(swapped.indexOf('<UnqTxIdr>'));
    expect(validateAgainstXsd(swapped, 'FXTradInstrRspn').join('\n')).toMatch(/TradSts.*not expected/);
  });

  it('a time stamp must be UTC', () => {
    const status = buildTradeStatus({
      txId: TX, status: 'NEWT', pair: { baseCcy: 'USDT', quotedCcy: 'NGN' }, tradingAmount: '1', counterValueAmount: '1', ttlSeconds: 1, mode: 'live',
    });
    expect(validateAgainstXsd(status, 'FXTradStsAndDtlsNtfctn')).toEqual([]);
    const rate = (ts: string) =>
      `<FxTradStsAndDtls><SrcCcy>USDT</SrcCcy><TrgtCcy>NGN</TrgtCcy><XchgRate>1530.25</XchgRate><RateSrc>market_maker</RateSrc><TmStmp>${ts}</TmStmp><AgeSecs>4</AgeSecs><PctChg24H>-0.5</PctChg24H><OprgMd>live</OprgMd></FxTradStsAndDtls>`;
    expect(validateAgainstXsd(rate('2026-01-15T09:00:00.000Z'), 'FxTradStsAndDtls')).toEqual([]);
    expect(validateAgainstXsd(rate('2026-01-15T10:00:00+01:00'), 'FxTradStsAndDtls')).not.toEqual([]);
  });
});
