// Fiat payout: find the bank code, resolve the account, pay out, and follow it to SUCCESSFUL.
import { runAsScript, secondsBetween, type SandboxClient } from './client.js';

export async function fiatPayout(client: SandboxClient) {
  const banks = await client.expect(200, 'GET', '/api/v1/partners/banks?currency=NGN');
  const bank = banks.data.find((b: { code: string }) => b.code === '058');
  const resolved = await client.expect(200, 'GET', `/api/v1/partners/banks/resolve?accountNumber=0123456789&bankCode=${bank.code}&currency=NGN`);
  const reference = `order-${crypto.randomUUID().slice(0, 8)}`;
  const created = await client.expect(201, 'POST', '/api/v1/partners/payouts', {
    body: {
      reference,
      amount: 10000,
      currency: 'NGN',
      destination: { accountNumber: '0123456789', accountName: resolved.data.accountName, bankCode: bank.code },
      narration: 'Invoice 1042',
    },
  });
  // The sandbox settles on its own clock: move it to the estimated completion instead of waiting.
  await client.advance(secondsBetween(created.data.createdAt, created.data.estimatedCompletionAt));
  const settled = await client.expect(200, 'GET', `/api/v1/partners/payouts/${reference}`);
  return { bank: bank.name, accountName: resolved.data.accountName, created: created.data.status, fee: created.data.fee, final: settled.data.status };
}

runAsScript(import.meta.url, fiatPayout);
