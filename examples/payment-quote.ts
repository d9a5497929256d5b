// Payment-specific quote: ask for one directly, give its destination, pay in (simulated here), and
// poll it until it is completed.
import { runAsScript, type SandboxClient } from './client.js';

export async function paymentQuote(client: SandboxClient) {
  // The answer is an array of one payment-specific quote: what to pay, with fees, and where.
  const [quote] = await client.expect(201, 'POST', '/api/v1/quotes', {
    body: { sourceCurrency: 'USDT', destinationCurrency: 'NGN', amount: 100, destinationNetwork: 'BASE' },
  });
  await client.expect(200, 'PUT', `/api/v1/quotes/complete/${quote.quoteId}`, {
    body: { destination: { bank: { accountName: 'John Doe', accountNumber: '0123456789', bankCode: '058' } } },
  });
  const waiting = await client.expect(200, 'GET', `/api/v1/quotes/payments/${quote.quoteId}`);
  // The partner sends quote.totalAmount USDT to the deposit address; the control API stands in for it.
  await client.expect(200, 'POST', `/_sandbox/simulate/quotes/${quote.quoteId}/pay-in`);
  const done = await client.expect(200, 'GET', `/api/v1/quotes/payments/${quote.quoteId}`);
  return {
    created: quote.status,
    payIn: { token: quote.metadata.cryptoPayIn.token, amount: quote.totalAmount, status: quote.metadata.cryptoPayIn.status },
    waiting: waiting.status,
    final: done.status,
    sameQuote: done.HyperRailReference === quote.HyperRailReference,
  };
}

runAsScript(import.meta.url, paymentQuote);
