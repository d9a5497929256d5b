// Guided flows for marketplace quotes and the XML FX interface. Quote responses are the bare
// quote objects (no data envelope); FX requests and responses are XML, read with tools.xmlText.
// A module of the console's browser bundle (./index.ts); the server reads the flow names from it too.
import type { Flow } from './flow.js';
import type { Envelope, Quote } from './types.js';

const asQuote = (body: unknown) => body as Quote;

export function makeQuoteFxFlows(): Flow[] {
  const FX = '/api/v1/partners/fx';
  const XML_DECL = '<?xml version="1.0" encoding="UTF-8"?>';
  return [
    {
      id: 'marketplace-quote',
      title: 'Marketplace quote',
      outline: 'intent → complete → simulate pay-in (if still waiting) → completed',
      async run(step) {
        const intent = await step('Create an intent: 50,000 NGN to USDT', 'POST', '/api/v1/partners/marketplace/intent', {
          expect: 201,
          body: { sourceCurrency: 'NGN', destinationCurrency: 'USDT', amount: 50000, amountDirection: 'source' },
        });
        const quoteId = asQuote(intent.responseBody).quoteId;
        const id = encodeURIComponent(quoteId);
        await step('Complete the quote with a blockchain destination', 'PUT', `/api/v1/quotes/complete/${id}`, {
          body: { destination: { blockChain: { address: '0x52908400098527886E0F7030069857D2E4169EE7' } } },
        });
        const read = () => step('Read the quote back', 'GET', `/api/v1/partners/marketplace/quote/${id}`);
        // A scenario that settles at once (instant) has completed the quote before any pay-in is simulated.
        const waiting = await step('Read the quote: is it waiting for its pay-in?', 'GET', `/api/v1/partners/marketplace/quote/${id}`);
        const now = asQuote(waiting.responseBody).status;
        if (now !== 'awaiting_payment') return { text: `Quote ${quoteId} is ${now}`, state: now };
        await step('Simulate the pay-in', 'POST', `/_sandbox/simulate/quotes/${id}/pay-in`);
        const done = asQuote((await read()).responseBody);
        return { text: `Quote ${quoteId} is ${done.status}`, state: done.status };
      },
    },
    {
      id: 'express-quote',
      title: 'Rate and express quote',
      outline: 'read the rate → express quote → complete → pay-in → session details',
      async run(step, tools) {
        const rate = await step('Read the NGN to USDT rate', 'GET', '/api/v1/partners/rates?from=NGN&to=USDT');
        const [quote] = (
          await step('Create an express quote: 50,000 NGN to USDT, pools chosen by the sandbox', 'POST', '/api/v1/partners/marketplace/express/quote', {
            expect: 201,
            body: { sourceCurrency: 'NGN', destinationCurrency: 'USDT', amount: 50000 },
          })
        ).responseBody as Quote[];
        const id = encodeURIComponent(quote.quoteId);
        await step('Complete the quote with a blockchain destination', 'PUT', `/api/v1/quotes/complete/${id}`, {
          body: { destination: { blockChain: { address: '0x52908400098527886E0F7030069857D2E4169EE7' } } },
        });
        const waiting = await step('Read the quote: is it waiting for its pay-in?', 'GET', `/api/v1/partners/marketplace/quote/${id}`);
        if (asQuote(waiting.responseBody).status === 'awaiting_payment') await step('Simulate the pay-in', 'POST', `/_sandbox/simulate/quotes/${id}/pay-in`);
        const session = await step('Read the quote session\'s final details', 'GET', `/api/v1/partners/marketplace/quote/${id}/complete`);
        // The quote's own rate (NGN per USDT, the pools' weighted average), else the market's read before it.
        const perUsdt = quote.allocationResult?.weightedAverageRate;
        const at = perUsdt ? tools.rate('USDT', 'NGN', perUsdt) : tools.rate('NGN', 'USDT', (rate.responseBody as { rate: string }).rate);
        const state = asQuote(session.responseBody).status ?? asQuote(waiting.responseBody).status;
        return { text: `Express quote ${quote.quoteId} at ${at} is ${state}`, state };
      },
    },
    {
      id: 'payment-quote',
      title: 'Payment-specific quote',
      outline: 'create a payment quote → read it back by id',
      async run(step) {
        const [quote] = (
          await step('Create a payment quote: 25,000 NGN to USDC on Base', 'POST', '/api/v1/quotes', {
            expect: 201,
            body: { sourceCurrency: 'NGN', destinationCurrency: 'USDC', amount: 25000, destinationNetwork: 'BASE' },
          })
        ).responseBody as Quote[];
        const read = await step('Read the payment quote back', 'GET', `/api/v1/quotes/payments/${encodeURIComponent(quote.quoteId)}`);
        const state = asQuote(read.responseBody).status;
        return { text: `Payment quote ${quote.quoteId} is ${state}`, state };
      },
    },
    {
      id: 'fx-trade',
      title: 'FX trade in XML',
      outline: 'create → accounts → accept → confirm',
      async run(step, tools) {
        const created = await step('Create a trade: buy 100 USDT with NGN at the market rate (FXTradInstr)', 'POST', `${FX}/trades`, {
          expect: 201,
          xml:
            `${XML_DECL}<FXTradInstr><CcyPair><BaseCcy>NGN</BaseCcy><QtdCcy>USDT</QtdCcy></CcyPair>` +
            '<TradAmts><TradgCcyAmt>100</TradgCcyAmt></TradAmts><AmtDrctn>BUY</AmtDrctn></FXTradInstr>',
        });
        const txId = tools.xmlText(created.responseBody, 'TxId');
        const id = encodeURIComponent(txId);
        const accounts = await step("List this key's balance accounts", 'GET', '/_sandbox/accounts');
        const accountId = (accounts.responseBody as Envelope<{ accountId: string }[]>).data[0].accountId;
        await step('Accept it, settling to one of those accounts (FXTradAccptReq)', 'POST', `${FX}/trades/${id}/accept`, {
          xml: `${XML_DECL}<FXTradAccptReq><AcctId>${accountId}</AcctId></FXTradAccptReq>`,
        });
        const confirmed = await step('Confirm it (empty body)', 'POST', `${FX}/trades/${id}/confirmation`, { headers: { accept: 'application/xml' } });
        const state = tools.xmlText(confirmed.responseBody, 'Sts');
        return { text: `Trade ${txId} is ${tools.state(state)}`, state };
      },
    },
  ];
}
