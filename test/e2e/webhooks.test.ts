// Webhooks from the real server process (dist/main.js on port 0) to a real receiver: the process
// delivers on its own, and a retry falls due when its tenant clock is advanced.
import { describe, expect, it } from 'vitest';
import { KEY } from '../support/app.js';
import { startServer } from '../support/server.js';
import { payout, receiver, verifyAll } from '../support/webhooks.js';

describe('the sandbox process', () => {
  it('delivers from the real server process, and retries once its clock is advanced', async () => {
    const r = await receiver();
    const s = await startServer();
    try {
      const headers = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };
      const put = await fetch(`${s.url}/_sandbox/webhooks`, { method: 'PUT', headers, body: JSON.stringify({ url: r.url, events: ['payout.pending'] }) });
      const { secret } = (await put.json()) as { secret: string };
      r.plan.push(500);
      const res = await fetch(`${s.url}/api/v1/partners/payouts`, { method: 'POST', headers, body: JSON.stringify(payout('proc-1')) });
      expect(res.status).toBe(201);
      await r.waitFor(1);
      // the retry falls due 5 s later on the tenant clock
      await fetch(`${s.url}/_sandbox/clock/advance`, { method: 'POST', headers, body: JSON.stringify({ seconds: 5 }) });
      await r.waitFor(2);
      expect(verifyAll(r, secret).map((m) => m.data.reference)).toEqual(['proc-1', 'proc-1']);
    } finally {
      await s.stop('SIGKILL');
    }
  });
});
