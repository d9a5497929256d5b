// Rate stream: keep the server-sent event stream of a pair open, move the key's clock ten minutes
// and receive the ten re-pricings it covers, then check the JSON rate says the same.
import { runAsScript, type SandboxClient } from './client.js';

export async function rateStream(client: SandboxClient) {
  const events: { event: string; data: any }[] = [];
  const updates = () => events.filter((e) => e.event === 'rate_update');
  for await (const e of client.events('/api/v1/partners/marketplace/rates/stream?from=NGN&to=USDT')) {
    events.push(e);
    // The stream opens with a heartbeat and the current rate; then the market moves once a minute.
    if (updates().length === 1 && e.event === 'rate_update') await client.advance(600);
    if (updates().length === 11) break;
  }
  const last = updates().at(-1)!.data;
  const rate = await client.expect(200, 'GET', '/api/v1/partners/rates?from=NGN&to=USDT');
  return {
    opened: events[0].event,
    updates: updates().length,
    sameAsRate: last.rate === rate.rate && last.timestamp === rate.timestamp,
  };
}

runAsScript(import.meta.url, rateStream);
