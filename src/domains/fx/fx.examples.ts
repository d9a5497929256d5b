// One valid request body per FX operation: the examples /openapi.json gives (so the docs page's
// Try it out sends a body the route takes), and the bodies the tests send.
import type { XsdName } from '../../iso20022/xsd-names.js';

export const instructionExample = (o: { base?: string; quoted?: string; amount?: string; rate?: string; direction?: string } = {}) =>
  `<?xml version="1.0" encoding="UTF-8"?>
<FXTradInstr>
  <CcyPair><BaseCcy>${o.base ?? 'NGN'}</BaseCcy><QtdCcy>${o.quoted ?? 'USDT'}</QtdCcy></CcyPair>
  <TradAmts><TradgCcyAmt>${o.amount ?? '1000'}</TradgCcyAmt></TradAmts>
  ${o.rate ? `<AgrdRate><XchgRate>${o.rate}</XchgRate></AgrdRate>` : ''}
  <AmtDrctn>${o.direction ?? 'BUY'}</AmtDrctn>
</FXTradInstr>`;

export const acceptBankExample =
  '<FXTradAccptReq><SttlmDstn><BkDstn><AcctNm>John Doe</AcctNm><AcctNb>0123456789</AcctNb><BkCd>058</BkCd></BkDstn></SttlmDstn></FXTradAccptReq>';

/** Settlement to a wallet: the example instruction buys USDT, which only an address (or a balance account) receives. */
export const acceptChainExample =
  '<FXTradAccptReq><SttlmDstn><BlkChnDstn><Adr>0x52908400098527886E0F7030069857D2E4169EE7</Adr></BlkChnDstn></SttlmDstn></FXTradAccptReq>';

/** The example request body of each FX request root. */
export const REQUEST_EXAMPLES: Partial<Record<XsdName, string>> = {
  FXTradInstr: instructionExample(),
  FXTradAccptReq: acceptChainExample,
  FXTradConfReq: '<FXTradConfReq><Rmrks>Paid in full</Rmrks></FXTradConfReq>',
  FXTradCxlReq: '<FXTradCxlReq><Rsn>Rate moved</Rsn></FXTradCxlReq>',
};
