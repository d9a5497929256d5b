// The test-suite kit against a sandbox started with startSandbox(): the clock an instant begins at,
// the webhook inbox (verified deliveries only), the journal's filters and the resource kinds, through
// the control client as a partner's suite uses them.
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { SandboxRequestError, startSandbox, type Sandbox, type SandboxTenant } from '../../src/index.js';
import type { Payout } from '../../src/client/partner-api.js';
import { payout } from '../support/webhooks.js';

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ scenario: 'failures', seed: 3, clock: '2031-03-01T10:00:00Z' });
});
afterAll(() => sb?.close());

async function create(t: SandboxTenant, reference: string): Promise<void> {
  const res = await t.fetch('/api/v1/partners/payouts', { method: 'POST', body: JSON.stringify(payout(reference)) });
  expect(res.status, await res.clone().text()).toBe(201);
}

describe('startSandbox({ clock })', () => {
  it('begins every new key’s clock at the instant, and each key runs on from its own first request', async () => {
    const t = sb.tenant();
    const c = await t.clock();
    expect(Date.parse(c.now) - Date.parse('2031-03-01T10:00:00Z')).toBeGreaterThanOrEqual(0);
    expect(Date.parse(c.now) - Date.parse('2031-03-01T10:00:00Z')).toBeLessThan(5_000);
  });

  it('refuses what is not an instant', async () => {
    await expect(startSandbox({ clock: 'soon' })).rejects.toThrow(/^startSandbox: invalid options\. clock: expected an instant/);
    await expect(startSandbox({ clock: new Date(Number.NaN) })).rejects.toThrow(/clock: /);
  });
});

describe('tenant.webhookInbox()', () => {
  it('is set as the key’s webhook and hands out verified deliveries with type, data and headers', async () => {
    const t = sb.tenant();
    const inbox = await t.webhookInbox({ events: ['payout.*'] });
    try {
      expect(inbox.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/webhooks$/);
      expect((await t.webhooks.get()).url).toBe(inbox.url);
      await create(t, 'inbox-1');
      const pending = await inbox.next('payout.pending');
      expectTypeOf(pending.data.reference).toEqualTypeOf<Payout['reference']>();
      expectTypeOf(pending.data.failure_reason).toEqualTypeOf<string | null>();
      expect(pending).toMatchObject({ type: 'payout.pending', data: { reference: 'inbox-1', status: 'PENDING' } });
      expect(pending.headers['webhook-id']).toBe(pending.id);
      expect(new Webhook(inbox.secret).verify(pending.body, pending.headers)).toEqual({ event: 'payout.pending', data: pending.data });

      await t.advanceClock(300);
      const failed = await inbox.next('payout.failed', { timeoutMs: 5_000 });
      expect(failed.data).toMatchObject({ reference: 'inbox-1', status: 'FAILED', failure_reason: expect.any(String) });
      // next() hands each delivery out once; waitFor() and all() see every one.
      await expect(inbox.next('payout.pending', { timeoutMs: 100 })).rejects.toThrow(
        /^No 'payout\.pending' delivery within 100 ms at http:\/\/127\.0\.0\.1:\d+\/webhooks; received payout\.pending, payout\.processing, payout\.failed\.$/,
      );
      expect((await inbox.waitFor((d) => d.type === 'payout.pending')).id).toBe(pending.id);
      expect(inbox.all().map((d) => d.type)).toEqual(['payout.pending', 'payout.processing', 'payout.failed']);
      expect(inbox.rejected).toBe(0);
    } finally {
      await inbox.close();
    }
    // close() removed the webhook that pointed at it.
    await expect(t.webhooks.get()).rejects.toBeInstanceOf(SandboxRequestError);
  });

  it('hands one delivery to one of two waiting next() calls, and rejects a waitFor() whose predicate throws', async () => {
    const t = sb.tenant();
    const inbox = await t.webhookInbox({ events: ['payout.pending'] });
    try {
      const first = inbox.next('payout.pending', { timeoutMs: 3_000 });
      // The two that must fail are awaited as expectations from the start, so their rejections are handled.
      const second = expect(inbox.next('payout.pending', { timeoutMs: 1_000 })).rejects.toThrow(/^No 'payout\.pending' delivery within 1000 ms/);
      const throwing = expect(inbox.waitFor((d) => (d.data as unknown as { x: { y: number } }).x.y === 1, { timeoutMs: 3_000 })).rejects.toThrow(TypeError);
      await create(t, 'inbox-waiters');
      expect((await first).data).toMatchObject({ reference: 'inbox-waiters' });
      await second;
      await throwing;
    } finally {
      await inbox.close();
    }
  });

  it('counts deliveries that fail verification and never hands them out', async () => {
    const t = sb.tenant();
    const inbox = await t.webhookInbox();
    try {
      const body = JSON.stringify({ event: 'payout.failed', data: { reference: 'forged' } });
      const now = new Date();
      const forged = new Webhook('whsec_' + Buffer.alloc(32, 7).toString('base64')).sign('msg_forged', now, body);
      const headers = { 'content-type': 'application/json', 'webhook-id': 'msg_forged', 'webhook-timestamp': String(Math.floor(now.getTime() / 1000)) };
      expect((await fetch(inbox.url, { method: 'POST', headers: { ...headers, 'webhook-signature': forged }, body })).status).toBe(401);
      expect((await fetch(inbox.url, { method: 'POST', headers, body })).status).toBe(401);
      // Signed with the right secret but five minutes and more old: refused too.
      const old = new Date(Date.now() - 600_000);
      const stale = new Webhook(inbox.secret).sign('msg_old', old, body);
      const staleHeaders = { ...headers, 'webhook-id': 'msg_old', 'webhook-timestamp': String(Math.floor(old.getTime() / 1000)), 'webhook-signature': stale };
      expect((await fetch(inbox.url, { method: 'POST', headers: staleHeaders, body })).status).toBe(401);
      expect(inbox.rejected).toBe(3);
      await expect(inbox.next('payout.failed', { timeoutMs: 50 })).rejects.toThrow(/received nothing; 3 failed verification\.$/);

      // The sandbox's own test delivery is verified and handed out.
      await t.webhooks.test();
      expect((await inbox.next('webhook.test')).type).toBe('webhook.test');
      expect(inbox.all()).toHaveLength(1);
    } finally {
      await inbox.close();
    }
  });

  it('throws when the sandbox refuses its URL, and leaves nothing listening', async () => {
    const strict = await startSandbox({ webhookTargets: 'public' });
    try {
      const err = await strict
        .tenant()
        .webhookInbox()
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(SandboxRequestError);
      expect((err as SandboxRequestError).status).toBe(400);
    } finally {
      await strict.close();
    }
  });
});

describe('tenant.requests() and resources() as the client sends them', () => {
  it('filters on the server', async () => {
    const t = sb.tenant();
    await create(t, 'req-1');
    await t.fetch('/api/v1/partners/payouts/req-1');
    await t.fetch('/api/v1/partners/payouts/missing');
    const [first] = (await t.requests({ method: 'POST' })).data;
    expect((await t.requests({ path: '/api/v1/partners/payouts/{reference}', status: 404 })).data.map((e) => e.path)).toEqual(['/api/v1/partners/payouts/missing']);
    expect((await t.requests({ since: first.id, status: '2xx' })).data.map((e) => e.path)).toEqual(['/api/v1/partners/payouts/req-1']);
    expect((await t.requests({ since: new Date(Date.parse(first.at)), method: 'get', limit: 1 })).data).toHaveLength(1);
  });

  it('resources() throws on an unknown kind, saying which was meant', async () => {
    const t = sb.tenant();
    const err = await t
      // @ts-expect-error: not a kind
      .resources({ kind: 'payout' })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SandboxRequestError);
    expect((err as SandboxRequestError).message).toContain("did you mean 'payouts'?");
    expect((await t.resources({ kind: 'payouts' })).counts).toEqual({ payouts: 0 });
  });
});

describe('expect(tenant).toHaveReceived()', () => {
  it('passes on a match, at least once or exactly `times`, and .not passes on none', async () => {
    await import('../../src/client/vitest-setup.js');
    const t = sb.tenant();
    await create(t, 'match-1');
    await t.fetch('/api/v1/partners/payouts/match-1');
    await expect(t).toHaveReceived({ method: 'POST', path: '/api/v1/partners/payouts' });
    await expect(t).toHaveReceived({ method: 'POST', path: '/api/v1/partners/payouts' }, { times: 1 });
    await expect(t).toHaveReceived({ path: '/api/v1/partners/payouts/*', status: '2xx' }, { times: 1 });
    await expect(t).not.toHaveReceived({ method: 'DELETE' });
    await expect(t).toHaveReceived({ method: 'PUT' }, { times: 0 });
  });

  it('fails listing the entries that did match, or the latest requests when none did', async () => {
    await import('../../src/client/vitest-setup.js');
    const t = sb.tenant();
    await create(t, 'match-2');
    await create(t, 'match-3');
    const twice = await expect(t)
      .toHaveReceived({ method: 'POST', path: '/api/v1/partners/payouts' }, { times: 1 })
      .catch((e: Error) => e);
    expect((twice as Error).message).toMatch(
      /^expected the key's journal to hold 1 request matching \{ method: "POST", path: "\/api\/v1\/partners\/payouts" \}; 2 matched \(newest first\):\n  req_\d+ \S+ POST \/api\/v1\/partners\/payouts → 201\n  req_\d+ \S+ POST \/api\/v1\/partners\/payouts → 201$/,
    );
    const none = await expect(t)
      .toHaveReceived({ method: 'GET', path: '/api/v1/partners/payouts/{reference}' })
      .catch((e: Error) => e);
    expect((none as Error).message).toMatch(/; none matched\.\nThe latest requests:\n  req_\d+ \S+ POST \/api\/v1\/partners\/payouts → 201\n/);
    const not = await expect(t)
      .not.toHaveReceived({ status: 201 })
      .catch((e: Error) => e);
    expect((not as Error).message).toMatch(/^expected the key's journal not to hold at least one request matching \{ status: 201 \}; 2 matched/);
  });
});
