// FX trade over the XML interface: create a trade (NEWT), accept it with a settlement destination
// (SETT, with the pay-in details), confirm it (COMP), and read it back.
import { runAsScript, xmlText, type SandboxClient } from './client.js';

const FX = '/api/v1/partners/fx';

export async function fxTrade(client: SandboxClient) {
  // BUY: TradgCcyAmt is the quoted currency bought (100 USDT), paid for in the base currency (NGN).
  const created: string = await client.expect(201, 'POST', `${FX}/trades`, {
    xml: `<?xml version="1.0" encoding="UTF-8"?>
<FXTradInstr>
  <CcyPair><BaseCcy>NGN</BaseCcy><QtdCcy>USDT</QtdCcy></CcyPair>
  <TradAmts><TradgCcyAmt>100</TradgCcyAmt></TradAmts>
  <AmtDrctn>BUY</AmtDrctn>
</FXTradInstr>`,
  });
  const txId = xmlText(created, 'TxId');
  // Accept within the TTL; USDT settles to a blockchain address (a bank destination takes fiat only).
  const accepted: string = await client.expect(200, 'POST', `${FX}/trades/${txId}/accept`, {
    xml: `<?xml version="1.0" encoding="UTF-8"?>
<FXTradAccptReq>
  <SttlmDstn><BlkChnDstn><Adr>0x52908400098527886E0F7030069857D2E4169EE7</Adr></BlkChnDstn></SttlmDstn>
</FXTradAccptReq>`,
  });
  // Confirmation takes an empty body.
  const confirmed: string = await client.expect(200, 'POST', `${FX}/trades/${txId}/confirmation`);
  const status: string = await client.expect(200, 'GET', `${FX}/trades/${txId}`);
  return {
    created: xmlText(created, 'Sts'),
    ttl: Number(xmlText(created, 'TTL')),
    pay: `${xmlText(created, 'TtlSttlmAmt')} NGN`,
    accepted: xmlText(accepted, 'Sts'),
    payInReference: xmlText(accepted, 'Ref'),
    confirmed: xmlText(confirmed, 'Sts'),
    final: xmlText(status, 'Sts'),
  };
}

runAsScript(import.meta.url, fxTrade);
