// Every example in examples/ against a real sandbox process on port 0, so the examples (and the
// quickstart they mirror) fail CI when the API drifts from them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SandboxClient } from '../examples/client.js';
import { fiatPayout } from '../examples/fiat-payout.js';
import { transfers } from '../examples/transfers.js';
import { walletPayout } from '../examples/wallet-payout.js';
import { webhooks } from '../examples/webhooks.js';
import { withdrawal } from '../examples/withdrawal.js';
import { startServer, type RunningServer } from './support/server.js';

let server: RunningServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.stop('SIGKILL');
});

let n = 0;
const client = () => {
  const lines: string[] = [];
  const key = `sk_test_example${String(++n).padStart(4, '0')}${'0'.repeat(13)}`;
  return { c: new SandboxClient(server.url, key, (l) => lines.push(l)), lines };
};

describe('examples/', () => {
  it('fiat-payout: banks → resolve → payout → SUCCESSFUL', async () => {
    const { c, lines } = client();
    expect(await fiatPayout(c)).toEqual({ bank: 'Guaranty Trust Bank', accountName: 'John Doe', created: 'PENDING', fee: 50, final: 'SUCCESSFUL' });
    expect(lines[0]).toBe('GET /api/v1/partners/banks?currency=NGN → 200');
  });

  it('wallet-payout: PENDING with no hash → COMPLETED with one', async () => {
    const { c } = client();
    expect(await walletPayout(c)).toEqual({ created: 'PENDING', hashAtCreation: null, final: 'COMPLETED', hashed: true });
  });

  it('withdrawal: PROCESSING → SUCCESSFUL', async () => {
    const { c } = client();
    expect(await withdrawal(c)).toEqual({ created: 'PROCESSING', providerStatus: 'PROCESSING', final: 'SUCCESSFUL' });
  });

  it('transfers: a single transfer and a bulk file paged through', async () => {
    const { c } = client();
    expect(await transfers(c)).toEqual({
      created: ['PENDING'],
      single: 'SUCCESSFUL',
      bulk: { count: 12, totalElements: 12, totalPages: 3, firstPage: 5, lastPage: 2 },
    });
  });

  it('webhooks: every payout event arrives signed', async () => {
    const { c } = client();
    expect(await webhooks(c)).toEqual({
      events: ['payout.pending', 'payout.processing', 'payout.successful'],
      deliveries: { pending: 0, succeeded: 3, failed: 0 },
    });
  });
});
