// Crypto wallet payout: send USDC on a chain, see it broadcast (transactionHash set) and complete.
import { runAsScript, secondsBetween, type SandboxClient } from './client.js';

export async function walletPayout(client: SandboxClient) {
  const reference = `wd-${crypto.randomUUID()}`;
  const created = await client.expect(201, 'POST', '/api/v1/partners/wallets/payouts', {
    body: { reference, chain: 'polygon', asset: 'usdc', amount: 25, toAddress: '0x52908400098527886E0F7030069857D2E4169EE7', memo: 'Payout 7' },
  });
  await client.advance(secondsBetween(created.createdAt, created.estimatedCompletionAt));
  const done = await client.expect(200, 'GET', `/api/v1/partners/wallets/payouts/${reference}`);
  return { created: created.status, hashAtCreation: created.transactionHash, final: done.status, hashed: /^0x[0-9a-f]{64}$/.test(done.transactionHash) };
}

runAsScript(import.meta.url, walletPayout);
