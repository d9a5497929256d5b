// Express quote: read the rate, let the sandbox choose the pools for the amount, complete it, pay in
// (simulated here), and read the session's final details and the payment-specific quote back.
import { runAsScript, type SandboxClient } from './client.js';

export async function expressQuote(client: SandboxClient) {
  // The rate is a multiplier: NGN times rate is USDT.
  const rate = await client.expect(200, 'GET', '/api/v1/partners/rates?from=NGN&to=USDT');
  // 50,000 NGN in, on BASE; the answer is an array of one quote.
  const [created] = await client.expect(201, 'POST', '/api/v1/partners/marketplace/express/quote', {
    body: { sourceCurrency: 'NGN', destinationCurrency: 'USDT', amount: 50000, destinationNetwork: 'BASE' },
  });
  const payment = await client.expect(200, 'PUT', `/api/v1/quotes/complete/${created.quoteId}`, {
    body: { destination: { blockChain: { address: '0x52908400098527886E0F7030069857D2E4169EE7' } } },
  });
  await client.expect(200, 'POST', `/_sandbox/simulate/quotes/${created.quoteId}/pay-in`);
  const session = await client.expect(200, 'GET', `/api/v1/partners/marketplace/quote/${created.quoteId}/complete`);
  const paid = await client.expect(200, 'GET', `/api/v1/quotes/payments/${created.quoteId}`);
  // The quote trades on the market the rate described: its NGN per USDT is close to 1 / rate.
  const marketNgnPerUsdt = 1 / rate.rate;
  return {
    created: created.status,
    chain: created.chain,
    nearTheRate: Math.abs(created.allocationResult.weightedAverageRate / marketNgnPerUsdt - 1) < 0.01,
    payment: payment.status,
    final: session.status,
    paid: paid.status,
  };
}

runAsScript(import.meta.url, expressQuote);
