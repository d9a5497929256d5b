// Every example in examples/ against a real sandbox process on port 0, so the examples (and the
// quickstart they mirror) fail CI when the API drifts from them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SandboxClient } from '../../examples/client.js';
import { fiatPayout } from '../../examples/fiat-payout.js';
import { expressQuote } from '../../examples/express-quote.js';
import { fxTrade } from '../../examples/fx-trade.js';
import { paymentQuote } from '../../examples/payment-quote.js';
import { rateStream } from '../../examples/rate-stream.js';
import { quote } from '../../examples/quote.js';
import { transfers } from '../../examples/transfers.js';
import { walletPayout } from '../../examples/wallet-payout.js';
import { webhooks } from '../../examples/webhooks.js';
import { withdrawal } from '../../examples/withdrawal.js';
import { startServer, type RunningServer } from '../support/server.js';

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

  it('quote: intent → complete → pay-in → completed', async () => {
    const { c, lines } = client();
    expect(await quote(c)).toEqual({
      created: 'pending',
      rate: 1580.5,
      receive: 31.635558,
      payIn: { amount: 50000.5, bank: 'Access Bank', reference: expect.stringMatching(/^HPR-[0-9a-f]{32}$/) },
      waiting: 'awaiting_payment',
      final: 'completed',
    });
    expect(lines.map((l) => l.replace(/[0-9a-f-]{36}/, '{id}'))).toEqual([
      'POST /api/v1/partners/marketplace/intent → 201',
      'PUT /api/v1/quotes/complete/{id} → 200',
      'GET /api/v1/partners/marketplace/quote/{id} → 200',
      'POST /_sandbox/simulate/quotes/{id}/pay-in → 200',
      'GET /api/v1/partners/marketplace/quote/{id} → 200',
    ]);
  });

  it('fx-trade: NEWT → SETT → COMP, in XML', async () => {
    const { c } = client();
    expect(await fxTrade(c)).toEqual({
      created: 'NEWT',
      ttl: 300,
      pay: '158050 NGN',
      accepted: 'SETT',
      payInReference: expect.stringMatching(/^FX-[0-9A-F]{16}$/),
      confirmed: 'COMP',
      final: 'COMP',
    });
  });

  it('express-quote: rate → express quote on the market it describes → complete → pay-in → completed', async () => {
    const { c, lines } = client();
    expect(await expressQuote(c)).toEqual({ created: 'pending', chain: 'BASE', nearTheRate: true, payment: 'PENDING', final: 'completed', paid: 'COMPLETED' });
    expect(lines[1]).toBe('POST /api/v1/partners/marketplace/express/quote → 201');
  });

  it('payment-quote: POST /api/v1/quotes → complete → PENDING → COMPLETED', async () => {
    const { c } = client();
    expect(await paymentQuote(c)).toEqual({
      created: 'PENDING',
      payIn: { token: 'USDT', amount: 100.5, status: 'AWAITING_PAYMENT' },
      waiting: 'PENDING',
      final: 'COMPLETED',
      sameQuote: true,
    });
  });

  it('rate-stream: a clock advance of ten minutes streams ten re-pricings, the last one the JSON rate', async () => {
    const { c } = client();
    expect(await rateStream(c)).toEqual({ opened: 'heartbeat', updates: 11, sameAsRate: true });
  });

  it('webhooks: every payout event arrives signed', async () => {
    const { c } = client();
    expect(await webhooks(c)).toEqual({
      events: ['payout.pending', 'payout.processing', 'payout.successful'],
      deliveries: { pending: 0, succeeded: 3, failed: 0 },
    });
  });
});
