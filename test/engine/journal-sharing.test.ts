// The journal keeps one copy of header sets and paths its entries have in common: each entry still
// lists exactly the headers and path its own request came with.
import { describe, expect, it } from 'vitest';
import { createTestApp, payoutRequest } from '../support/app.js';

describe('journal entries sharing headers and paths', () => {
  it('lists each request with its own headers and path', async () => {
    const t = await createTestApp();
    const sent = ['agent-a', 'agent-b', 'agent-a', 'agent-c', 'agent-d', 'agent-e', 'agent-a', 'agent-a'];
    for (const [i, agent] of sent.entries()) {
      const path = i % 3 === 2 ? '/api/v1/partners/payouts/none' : '/api/v1/partners/payouts';
      const res = i % 3 === 2
        ? await t.call('GET', path, { headers: { 'user-agent': agent } })
        : await t.call('POST', path, { body: payoutRequest(`share-${i}`), headers: { 'user-agent': agent, ...(i === 4 ? { 'x-sandbox-scenario': 'default' } : {}) } });
      expect(res.status).toBe(i % 3 === 2 ? 404 : 201);
    }
    const res = await t.call('GET', '/_sandbox/requests?limit=20');
    const listed = res.body.data.reverse().map((e: { method: string; path: string; requestHeaders: Record<string, string> }) => [
      e.method,
      e.path,
      e.requestHeaders['user-agent'],
      e.requestHeaders['x-sandbox-scenario'] ?? null,
      e.requestHeaders['content-type'] ?? null,
    ]);
    expect(listed).toEqual([
      ['POST', '/api/v1/partners/payouts', 'agent-a', null, 'application/json'],
      ['POST', '/api/v1/partners/payouts', 'agent-b', null, 'application/json'],
      ['GET', '/api/v1/partners/payouts/none', 'agent-a', null, null],
      ['POST', '/api/v1/partners/payouts', 'agent-c', null, 'application/json'],
      ['POST', '/api/v1/partners/payouts', 'agent-d', 'default', 'application/json'],
      ['GET', '/api/v1/partners/payouts/none', 'agent-e', null, null],
      ['POST', '/api/v1/partners/payouts', 'agent-a', null, 'application/json'],
      ['POST', '/api/v1/partners/payouts', 'agent-a', null, 'application/json'],
    ]);
  });
});
