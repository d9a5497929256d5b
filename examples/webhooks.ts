// Webhooks: a receiver on this machine, the sandbox told where it is, a payout followed to the end,
// and every delivery's signature checked with the standardwebhooks package.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { runAsScript, secondsBetween, type SandboxClient } from './client.js';

export async function webhooks(client: SandboxClient) {
  const received: { headers: Record<string, string>; body: string }[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      received.push({ headers: req.headers as Record<string, string>, body });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
    const { secret } = await client.expect(200, 'PUT', '/_sandbox/webhooks', { body: { url, events: ['payout.*'] } });
    const reference = `order-${crypto.randomUUID().slice(0, 8)}`;
    const created = await client.expect(201, 'POST', '/api/v1/partners/payouts', {
      body: { reference, amount: 5000, currency: 'NGN', destination: { accountNumber: '0123456789', accountName: 'John Doe', bankCode: '058' } },
    });
    await client.advance(secondsBetween(created.data.createdAt, created.data.estimatedCompletionAt));
    for (let i = 0; i < 100 && received.length < 3; i++) await new Promise((r) => setTimeout(r, 50));
    const verifier = new Webhook(secret);
    const events = received.map((r) => (verifier.verify(r.body, r.headers) as { event: string }).event);
    const log = await client.expect(200, 'GET', '/_sandbox/webhooks/deliveries');
    return { events, deliveries: log.counts };
  } finally {
    await client.request('DELETE', '/_sandbox/webhooks');
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  }
}

runAsScript(import.meta.url, webhooks);
