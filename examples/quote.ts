// Marketplace quote: ask for a quote from the liquidity pools, complete it with where the tokens go,
// pay in (simulated here), and see it completed.
import { runAsScript, type SandboxClient } from './client.js';

export async function quote(client: SandboxClient) {
  // 50,000 NGN in (amountDirection "source"); the pools fill it best rate first.
  const created = await client.expect(201, 'POST', '/api/v1/partners/marketplace/intent', {
    body: { sourceCurrency: 'NGN', destinationCurrency: 'USDT', amount: 50000, amountDirection: 'source' },
  });
  // Completing names the destination and answers with the payment quote: what to pay in, and where.
  const payment = await client.expect(200, 'PUT', `/api/v1/quotes/complete/${created.quoteId}`, {
    body: { destination: { blockChain: { address: '0x52908400098527886E0F7030069857D2E4169EE7' } } },
  });
  const waiting = await client.expect(200, 'GET', `/api/v1/partners/marketplace/quote/${created.quoteId}`);
  // In the sandbox no money moves: the control API stands in for the partner's bank transfer.
  await client.expect(200, 'POST', `/_sandbox/simulate/quotes/${created.quoteId}/pay-in`);
  const done = await client.expect(200, 'GET', `/api/v1/partners/marketplace/quote/${created.quoteId}`);
  return {
    created: created.status,
    rate: created.allocationResult.weightedAverageRate,
    receive: created.totalDestinationAmount,
    payIn: { amount: payment.totalAmount, bank: payment.metadata.bankPayIn.bankName, reference: payment.metadata.bankPayIn.reference },
    waiting: waiting.status,
    final: done.status,
  };
}

runAsScript(import.meta.url, quote);
