// Guided flows for marketplace quotes and the XML FX interface, written against the API document's
// paths and the sandbox contract. Each names the path it needs: until a build serves it, its button
// says so instead of running. The simulate step's names (quotes / pay-in) are the contract's
// control API applied to quotes.
// Runs in the browser (see ../script.ts): no runtime imports, no module-level values.
import type { Flow } from './flow.js';

export function makeQuoteFxFlows(): Flow[] {
  const FX = '/api/v1/partners/fx';
  return [
    {
      id: 'marketplace-quote',
      title: 'Marketplace quote',
      outline: 'intent → complete → simulate pay-in → completed',
      requires: '/api/v1/partners/marketplace/intent',
      async run(step) {
        const intent = await step('Create an intent: 50,000 NGN to USDT', 'POST', '/api/v1/partners/marketplace/intent', {
          body: { sourceCurrency: 'NGN', destinationCurrency: 'USDT', amount: 50000, amountDirection: 'source' },
        });
        const quote = (intent.responseBody as any).data ?? intent.responseBody;
        const id = encodeURIComponent(quote.quoteId);
        await step('Complete the quote with a blockchain destination', 'PUT', `/api/v1/quotes/complete/${id}`, {
          body: { destination: { blockChain: { address: '0x52908400098527886E0F7030069857D2E4169EE7' } } },
        });
        await step('Simulate the pay-in', 'POST', `/_sandbox/simulate/quotes/${id}/pay-in`);
        const done = await step('Read the quote back', 'GET', `/api/v1/partners/marketplace/quote/${id}`);
        const q = (done.responseBody as any).data ?? done.responseBody;
        return `Quote ${quote.quoteId} is ${q.status}`;
      },
    },
    {
      id: 'fx-trade',
      title: 'FX trade in XML',
      outline: 'create → accept → confirm',
      requires: `${FX}/trades`,
      async run(step, tools) {
        const created = await step(
          'Create a trade (FXTradInstr)',
          'POST',
          `${FX}/trades`,
          {
            xml: '<?xml version="1.0" encoding="UTF-8"?><FXTradInstr><CcyPair><BaseCcy>NGN</BaseCcy><QtdCcy>USDT</QtdCcy></CcyPair>' +
              '<TradAmts><TradgCcyAmt>100</TradgCcyAmt></TradAmts><AgrdRate><XchgRate>1580.5</XchgRate></AgrdRate><AmtDrctn>BUY</AmtDrctn></FXTradInstr>',
          },
        );
        const txId = tools.xmlText(created.responseBody, 'TxId');
        const id = encodeURIComponent(txId);
        await step('Accept it, settling to an internal balance (FXTradAccptReq)', 'POST', `${FX}/trades/${id}/accept`, {
          xml: '<?xml version="1.0" encoding="UTF-8"?><FXTradAccptReq><AcctId>7d3c6a9e-1f52-4b8e-9a41-2c0f5e8b7d10</AcctId></FXTradAccptReq>',
        });
        const confirmed = await step('Confirm it', 'POST', `${FX}/trades/${id}/confirmation`, { headers: { accept: 'application/xml' } });
        return `Trade ${txId} is ${tools.xmlText(confirmed.responseBody, 'Sts')}`;
      },
    },
  ];
}
