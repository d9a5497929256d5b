// Bank withdrawal: pick the balance account to draw from, withdraw to a bank, follow it to the end.
import { runAsScript, type SandboxClient } from './client.js';

export async function withdrawal(client: SandboxClient) {
  const accounts = await client.expect(200, 'GET', '/_sandbox/accounts');
  const ngn = accounts.data.find((a: { currency: string }) => a.currency === 'NGN');
  const created = await client.expect(201, 'POST', '/api/v1/partners/withdrawal', {
    body: { accountId: ngn.accountId, accountName: 'John Doe', accountNumber: '0123456789', amount: 25000, bankCode: 'SPB-17646', narration: 'Settlement June' },
  });
  await client.advance(3600);
  const done = await client.expect(200, 'GET', `/api/v1/partners/withdrawal/${created.reference}`);
  return { created: created.status, providerStatus: created.providerStatus, final: done.status };
}

runAsScript(import.meta.url, withdrawal);
