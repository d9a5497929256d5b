import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { advance, createTestApp, KEY, KEY_B } from '../support/app.js';

const payout = (reference: string) => ({
  reference,
  amount: 1000,
  currency: 'NGN',
  destination: { accountNumber: '0123456789', accountName: 'John Doe', bankCode: '058' },
});

describe('clock', () => {
  it('reads and advances one tenant clock, leaving others alone', async () => {
    const t = await createTestApp();
    const before = await t.call('GET', '/_sandbox/clock');
    expect(before.body).toEqual({ now: '2026-01-15T09:00:00.000Z', offsetSeconds: 0, frozen: false, pendingJobs: 0, nextDueAt: null });
    await t.call('POST', '/api/v1/partners/payouts', { body: payout('c-1') });
    const queued = await t.call('GET', '/_sandbox/clock');
    expect(queued.body).toMatchObject({ pendingJobs: 1, nextDueAt: '2026-01-15T09:00:30.000Z' });
    const adv = await advance(t, 3600);
    expect(adv).toEqual({ now: '2026-01-15T10:00:00.000Z', offsetSeconds: 3600, frozen: false, pendingJobs: 0, nextDueAt: null, applied: 2 });
    const other = await t.call('GET', '/_sandbox/clock', { key: KEY_B });
    expect(other.body.now).toBe('2026-01-15T09:00:00.000Z');
  });

  it('refuses a non-positive or missing advance', async () => {
    const t = await createTestApp();
    for (const body of [{ seconds: 0 }, { seconds: -1 }, {}, { seconds: '10' }]) {
      const res = await t.call('POST', '/_sandbox/clock/advance', { body });
      expect(res.status).toBe(400);
      expect(res.body.error.details[0].field).toBe('seconds');
    }
  });
});

describe('clock advance by a fraction of a second', () => {
  it('moves by whole milliseconds, and refuses less than one instead of answering 200 having moved nothing', async () => {
    const t = await createTestApp();
    const half = await t.call('POST', '/_sandbox/clock/advance', { body: { seconds: 1.5 } });
    expect(half.body).toMatchObject({ now: '2026-01-15T09:00:01.500Z', offsetSeconds: 1.5 });
    const milli = await t.call('POST', '/_sandbox/clock/advance', { body: { seconds: 0.001 } });
    expect(milli.body.now).toBe('2026-01-15T09:00:01.501Z');
    for (const seconds of [0.0004, 1e-9]) {
      const res = await t.call('POST', '/_sandbox/clock/advance', { body: { seconds } });
      expect(res.status).toBe(400);
      expect(res.body.error.details).toEqual([{ field: 'seconds', issue: 'must be at least 0.001: the clock counts whole milliseconds' }]);
    }
    const negative = await t.call('POST', '/_sandbox/clock/advance', { body: { seconds: -1 } });
    expect(negative.body.error.details).toEqual([{ field: 'seconds', issue: 'must be greater than 0' }]);
    expect((await t.call('GET', '/_sandbox/clock')).body.now).toBe('2026-01-15T09:00:01.501Z');
  });
});

describe('reset', () => {
  it("forgets only the caller's tenant", async () => {
    const t = await createTestApp();
    await t.call('POST', '/api/v1/partners/payouts', { body: payout('r-1') });
    await t.call('POST', '/api/v1/partners/payouts', { key: KEY_B, body: payout('r-1') });
    await advance(t, 60);
    const reset = await t.call('POST', '/_sandbox/reset');
    expect(reset.status).toBe(200);
    expect(reset.body.status).toBe('success');
    expect((await t.call('GET', '/api/v1/partners/payouts/r-1')).status).toBe(404);
    expect((await t.call('GET', '/_sandbox/events')).body.data).toEqual([]);
    expect((await t.call('GET', '/_sandbox/clock')).body.offsetSeconds).toBe(0);
    const balances = await t.call('GET', '/_sandbox/balances');
    expect(balances.body.data.find((b: { key: string }) => b.key === 'NGN').available).toBe('500000000.00');
    expect((await t.call('GET', '/_sandbox/requests')).body.data.map((e: { path: string }) => e.path)).toEqual([
      '/api/v1/partners/payouts/r-1',
    ]);
    expect((await t.call('GET', '/api/v1/partners/payouts/r-1', { key: KEY_B })).status).toBe(200);
    // the reference is free again after a reset
    expect((await t.call('POST', '/api/v1/partners/payouts', { body: { ...payout('r-1'), amount: 5 } })).status).toBe(201);
  });
});

describe('request journal', () => {
  it('lists requests newest first with secrets redacted', async () => {
    const t = await createTestApp();
    await t.call('POST', '/api/v1/partners/payouts', { body: payout('j-1') });
    await t.call('GET', '/api/v1/partners/payouts/j-1');
    await t.call('GET', '/api/v1/partners/payouts/j-2');
    const res = await t.call('GET', '/_sandbox/requests?limit=2');
    expect(res.status).toBe(200);
    const [last, previous] = res.body.data;
    expect(res.body.data).toHaveLength(2);
    expect(last).toMatchObject({ method: 'GET', path: '/api/v1/partners/payouts/j-2', status: 404 });
    expect(previous).toMatchObject({ method: 'GET', path: '/api/v1/partners/payouts/j-1', status: 200 });
    const all = await t.call('GET', '/_sandbox/requests');
    const post = all.body.data[2];
    expect(post.requestBody).toEqual(payout('j-1'));
    expect(post.responseBody.data.reference).toBe('j-1');
    // each way an /api route answers hands its body over: a read, an error, a replay
    expect(previous.responseBody).toMatchObject({ status: 'success', message: 'Payout retrieved successfully', data: { reference: 'j-1' } });
    expect(last.responseBody).toMatchObject({ status: 'error', error: { code: 'RESOURCE_NOT_FOUND' } });
    expect(post.requestHeaders.authorization).toBe('Bearer [redacted]…0001');
    expect(JSON.stringify(all.body)).not.toContain(KEY);
  });

  it('redacts by meaning: credentials go, an asset named token stays', async () => {
    const t = await createTestApp();
    await t.call('POST', '/api/v1/partners/payouts', { body: { ...payout('j-secret'), authCode: '123456', password: 'hunter2' }, unchecked: true });
    await t.call('POST', '/_sandbox/balances/top-up', { body: { key: 'usdc:base', amount: 1000 } });
    const wallet = await t.call('POST', '/api/v1/partners/wallets/payouts', {
      body: { reference: 'j-wallet', chain: 'base', asset: 'usdc', amount: 10, toAddress: '0x52908400098527886E0F7030069857D2E4169EE7' },
    });
    expect(wallet.status).toBe(201);
    // The top-up is a control call: the journal holds the API's requests only.
    const [walletEntry, secretEntry] = (await t.call('GET', '/_sandbox/requests?limit=2')).body.data;
    expect(walletEntry.path).toBe('/api/v1/partners/wallets/payouts');
    expect(JSON.stringify(walletEntry.responseBody)).toContain('"token":"usdc"');
    expect(secretEntry.requestBody).toMatchObject({ reference: 'j-secret', authCode: '[redacted]', password: '[redacted]' });
  });

  it('redacts secrets in the query string, in a body that is not JSON and under any name ending in secret', async () => {
    const t = await createTestApp();
    const q = 'currency=NGN&api_key=sk_test_deadbeefdeadbeef&authCode=424242&note=sk_live_feedfacefeedface';
    expect((await t.call('GET', `/api/v1/partners/banks?${q}`)).status).toBe(200);
    // Cut short: the body never parses, so it is kept as text.
    const raw = '{"amount":10,"authCode":"717171","webhook_secret":"plain-words","accountId":"x"';
    expect((await t.call('POST', '/api/v1/partners/withdrawal', { raw, headers: { 'content-type': 'application/json' } })).status).toBe(400);
    const nested = { ...payout('j-nested'), metadata: { webhookSecret: 'plain-words', signing: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' } };
    await t.call('POST', '/api/v1/partners/payouts', { body: nested });
    const [json, text, query] = (await t.call('GET', '/_sandbox/requests?limit=3')).body.data;
    expect(query.query).toBe('currency=NGN&api_key=[redacted]&authCode=[redacted]&note=sk_live_[redacted]');
    expect(text.requestBody).toBe('{"amount":10,"authCode":"[redacted]","webhook_secret":"[redacted]","accountId":"x"');
    expect(json.requestBody.metadata).toEqual({ webhookSecret: '[redacted]', signing: 'whsec_[redacted]' });
    const all = JSON.stringify((await t.call('GET', '/_sandbox/requests')).body);
    for (const secret of ['424242', '717171', 'plain-words', 'deadbeef', 'feedface', 'MfKQ9r8']) expect(all).not.toContain(secret);
  });

  it('is bounded per tenant and separate per key', async () => {
    const t = await createTestApp({ config: { journalSize: 5 } });
    for (let i = 0; i < 8; i++) await t.call('GET', `/api/v1/partners/payouts/x-${i}`);
    const res = await t.call('GET', '/_sandbox/requests?limit=100');
    expect(res.body.data.map((e: { path: string }) => e.path.split('/').pop())).toEqual(['x-7', 'x-6', 'x-5', 'x-4', 'x-3']);
    expect((await t.call('GET', '/_sandbox/requests', { key: KEY_B })).body.data).toEqual([]);
  });

  it("keeps a body's first 16 KiB: 200 bodies of 1 MB held 200 MB for each key that sent them", async () => {
    const t = await createTestApp();
    const raw = JSON.stringify({ ...payout('j-big'), narration: 'n'.repeat(1_000_000) });
    expect((await t.call('POST', '/api/v1/partners/payouts', { raw, headers: { 'content-type': 'application/json' } })).status).toBe(400);
    const [entry] = (await t.call('GET', '/_sandbox/requests?limit=1')).body.data;
    expect(entry.requestBody).toBe(`${raw.slice(0, 16_384)}… [${raw.length - 16_384} more characters not kept]`);
    expect(entry.responseBody.error.details).toEqual([{ field: 'narration', issue: 'must be at most 100 characters long' }]);
  });

  it('redacts the secret fields of a body it cuts, as of one it keeps whole', async () => {
    const t = await createTestApp();
    const raw = JSON.stringify({ secret: 'whsec_do-not-show', password: 'hunter2', pad: 'p'.repeat(20_000) });
    await t.call('POST', '/api/v1/partners/payouts', { raw, headers: { 'content-type': 'application/json' } });
    const [entry] = (await t.call('GET', '/_sandbox/requests?limit=1')).body.data;
    expect(entry.requestBody.startsWith('{"secret":"[redacted]","password":"[redacted]","pad":"ppp')).toBe(true);
    expect(entry.requestBody).not.toContain('hunter2');
    expect(entry.requestBody).not.toContain('whsec_do-not-show');
  });
});

describe('the limits of control listings', () => {
  it('are read as digits only, as the API pages are: 0x10, 1e1 and a spaced number are refused naming limit', async () => {
    const t = await createTestApp();
    for (const [path, max] of [
      ['/_sandbox/requests', 10_000],
      ['/_sandbox/events', 1000],
      ['/_sandbox/webhooks/deliveries', 500],
      ['/_sandbox/resources', 1000],
    ] as const) {
      for (const q of ['0x10', '1e1', '%205']) {
        const res = await t.call('GET', `${path}?limit=${q}`);
        expect([res.status, res.body.error?.details], `${path}?limit=${q}`).toEqual([400, [{ field: 'limit', issue: `must be a whole number from 1 to ${max}` }]]);
      }
      expect((await t.call('GET', `${path}?limit=16`)).status, path).toBe(200);
    }
  });
});

describe('event log', () => {
  it('pages with after and limit and filters by type', async () => {
    const t = await createTestApp();
    await t.call('POST', '/api/v1/partners/payouts', { body: payout('e-1') });
    await t.call('POST', '/api/v1/partners/payouts', { body: payout('e-2') });
    await advance(t, 30);
    const first = await t.call('GET', '/_sandbox/events?limit=3');
    expect(first.body.hasMore).toBe(true);
    expect(first.body.data.map((e: { event: string }) => e.event)).toEqual(['payout.pending', 'payout.pending', 'payout.processing']);
    const rest = await t.call('GET', `/_sandbox/events?after=${first.body.data[2].id}`);
    expect(rest.body).toMatchObject({ hasMore: false, data: [{ event: 'payout.processing', data: { reference: 'e-2' } }] });
    const processing = await t.call('GET', '/_sandbox/events?type=payout.processing');
    expect(processing.body.data).toHaveLength(2);
    expect((await t.call('GET', '/_sandbox/events', { key: KEY_B })).body.data).toEqual([]);
  });

  it('takes the types a webhook filter takes, and refuses one that can match no event', async () => {
    const t = await createTestApp();
    await t.call('POST', '/api/v1/partners/payouts', { body: payout('e-1') });
    for (const type of ['*', 'payout', 'payout.*', 'payout.pending']) {
      const res = await t.call('GET', `/_sandbox/events?type=${type}`);
      expect(res.body.data.map((e: { event: string }) => e.event)).toEqual(['payout.pending']);
    }
    expect((await t.call('GET', '/_sandbox/events?type=payout.failed')).body.data).toEqual([]);
    expect((await t.call('GET', '/_sandbox/events?after=&type=')).body.data).toHaveLength(1);
    for (const type of ['payouts', 'payout.completed']) {
      const res = await t.call('GET', `/_sandbox/events?type=${type}`);
      expect(res.status).toBe(400);
      expect(res.body.error.details[0].field).toBe('type');
    }
  });

  it('refuses an after that is not an event id, instead of answering the whole log', async () => {
    const t = await createTestApp();
    for (const after of ['abc', 'evt_1', 'evt_00000000001']) {
      const res = await t.call('GET', `/_sandbox/events?after=${after}`);
      expect(res.status).toBe(400);
      expect(res.body.error.details).toEqual([{ field: 'after', issue: 'must be the id of an event of this log, e.g. evt_0000000042' }]);
    }
  });
});

describe('balances', () => {
  it('tops up a balance', async () => {
    const t = await createTestApp();
    const res = await t.call('POST', '/_sandbox/balances/top-up', { body: { key: 'GHS', amount: 250.5 } });
    expect(res.body).toEqual({ key: 'GHS', available: '5000250.50' });
    expect((await t.call('GET', '/_sandbox/balances', { key: KEY })).body.data).toContainEqual({ key: 'GHS', available: '5000250.50' });
  });

  it('takes only balances that exist, to their currency\'s decimals, and never a 500', async () => {
    const t = await createTestApp();
    for (const key of ['EUR', 'ngn', '__proto__', 'constructor', 'usdc:solana']) {
      const res = await t.call('POST', '/_sandbox/balances/top-up', { body: { key, amount: 1 } });
      expect(res.status, key).toBe(400);
      expect(res.body.error.details[0]).toMatchObject({ field: 'key', issue: expect.stringContaining('must be one of: NGN, GHS, USD, usdc:ethereum') });
    }
    const tooFine = await t.call('POST', '/_sandbox/balances/top-up', { body: { key: 'NGN', amount: 0.001 } });
    expect(tooFine.body.error.details).toEqual([{ field: 'amount', issue: 'must have at most 2 decimal places for NGN' }]);
    const token = await t.call('POST', '/_sandbox/balances/top-up', { body: { key: 'usdt:base', amount: 0.000001 } });
    expect(token.body).toEqual({ key: 'usdt:base', available: '100000.000001' });
  });
});

describe('simulate', () => {
  it('takes the moves README.md lists for each resource, and no other', async () => {
    const t = await createTestApp();
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const row = /^\| `POST \/_sandbox\/simulate\/\{resource\}\/\{id\}\/\{event\}` \| .*\((.*)\); a forbidden move is 409 \|$/m.exec(readme)!;
    const documented = Object.fromEntries(row[1].split('; ').map((part) => {
      const [, resource, moves] = /^`([a-z-]+)`: (.*)$/.exec(part)!;
      return [resource, moves.split(', ')];
    }));
    const taken: Record<string, string[]> = {};
    for (const resource of Object.keys(documented)) {
      const res = await t.call('POST', `/_sandbox/simulate/${resource}/x/no-such-move`);
      taken[resource] = (/must be one of: (.*)$/.exec(res.body.error.details[0].issue)![1]).split(', ');
    }
    expect(documented).toEqual(taken);
    const all = (await t.call('POST', '/_sandbox/simulate/no-such/x/fail')).body.error.details[0].issue as string;
    expect(all.replace('must be one of: ', '').split(', ').sort()).toEqual(Object.keys(documented).sort());
  });

  it('answers 404 for resource names that are not simulated, built-in object names included', async () => {
    const t = await createTestApp();
    for (const resource of ['constructor', '__proto__', 'toString', 'widgets']) {
      const res = await t.call('POST', `/_sandbox/simulate/${resource}/x/fail`);
      expect(res.status, resource).toBe(404);
      expect(res.body.error.code).toBe('RESOURCE_NOT_FOUND');
    }
  });

  it('refuses a body sent as anything but JSON with 415', async () => {
    const t = await createTestApp();
    await t.call('POST', '/api/v1/partners/payouts', { body: payout('s-1') });
    const res = await t.call('POST', '/_sandbox/simulate/payouts/s-1/process', { raw: '{"reason":"x"}', headers: { 'content-type': 'application/xml' } });
    expect(res.status).toBe(415);
    expect(res.body.error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    expect(res.body.error.details).toEqual([{ field: 'Content-Type', issue: 'must be application/json, or send no body' }]);
    expect((await t.call('GET', '/api/v1/partners/payouts/s-1')).body.data.status).toBe('PENDING');
  });

  it('names the body when a JSON control body is empty or not JSON', async () => {
    const t = await createTestApp();
    const json = { 'content-type': 'application/json' };
    for (const [method, path] of [['POST', '/_sandbox/clock/advance'], ['PUT', '/_sandbox/scenario'], ['PUT', '/_sandbox/webhooks']]) {
      const bad = await t.call(method, path, { raw: '{"seconds":', headers: json });
      expect([bad.status, bad.body.error.code], path).toEqual([400, 'MALFORMED_JSON']);
      expect(bad.body.error.details, path).toEqual([{ field: 'body', issue: 'is not valid JSON: send a JSON object' }]);
      const empty = await t.call(method, path, { raw: '', headers: { ...json, 'content-length': '0' } });
      expect([empty.status, empty.body.message], path).toEqual([400, 'The request body is empty. Send a JSON object with Content-Type: application/json.']);
      expect(empty.body.error.details, path).toEqual([{ field: 'body', issue: 'is empty: send a JSON object' }]);
    }
    const simulate = await t.call('POST', '/_sandbox/simulate/payouts/s-1/fail', { raw: '{reason', headers: json });
    expect(simulate.body.error.details).toEqual([{ field: 'body', issue: 'is not valid JSON: send a JSON object, or no body' }]);
  });

  it('names Content-Type when a JSON control body comes as another type', async () => {
    const t = await createTestApp();
    const sent: [string, string, string][] = [
      ['POST', '/_sandbox/clock/advance', '{"seconds":60}'],
      ['PUT', '/_sandbox/clock', '{"frozen":true}'],
      ['PUT', '/_sandbox/webhooks', '{"url":"https://example.com/hook"}'],
      ['POST', '/_sandbox/balances/top-up', '{"key":"NGN","amount":10}'],
    ];
    for (const [method, path, raw] of sent) {
      const res = await t.call(method, path, { raw, headers: { 'content-type': 'text/plain' } });
      expect([res.status, res.body.error.code], path).toEqual([415, 'UNSUPPORTED_MEDIA_TYPE']);
      expect(res.body.message).toBe('This endpoint takes a JSON body. Send it with Content-Type: application/json.');
      expect(res.body.error.details, path).toEqual([{ field: 'Content-Type', issue: 'must be application/json' }]);
    }
  });
});

describe('published descriptions', () => {
  it('serves OpenAPI 3.1 covering the payout and control routes, and an offline docs page', async () => {
    const t = await createTestApp();
    const doc = await (await t.app.request('/openapi.json')).json();
    expect(doc.openapi).toBe('3.1.0');
    for (const p of ['/api/v1/partners/payouts', '/api/v1/partners/payouts/{reference}', '/api/v1/partners/banks', '/api/v1/partners/banks/resolve', '/_sandbox/clock/advance', '/_sandbox/reset']) {
      expect(doc.paths[p], p).toBeDefined();
    }
    const page = await t.app.request('/docs');
    const html = await page.text();
    expect(page.status).toBe(200);
    expect(html).toContain('/docs/assets/swagger-ui-bundle.js');
    expect(html).not.toMatch(/https?:\/\//);
    const js = await t.app.request('/docs/assets/swagger-ui-bundle.js');
    expect(js.status).toBe(200);
    expect((await js.text()).length).toBeGreaterThan(100_000);
  });

  it('documents the optional X-Sandbox-Scenario header on every operation that honours it', async () => {
    const t = await createTestApp();
    const doc = await (await t.app.request('/openapi.json')).json();
    expect(doc.components.parameters.ScenarioHeader).toMatchObject({ name: 'X-Sandbox-Scenario', in: 'header', required: false });
    const ref = { $ref: '#/components/parameters/ScenarioHeader' };
    for (const [path, item] of Object.entries<Record<string, { parameters?: unknown[] }>>(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        const honours = path.startsWith('/api/') || path === '/_sandbox/bulk-disbursements';
        expect((op.parameters ?? []).some((p) => JSON.stringify(p) === JSON.stringify(ref)), `${method} ${path}`).toBe(honours);
      }
    }
    // and the header does what the document says, on a documented operation
    const res = await t.call('GET', '/api/v1/partners/payouts/x', { headers: { 'x-sandbox-scenario': 'nope' } });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('INVALID_SCENARIO');
  });
});

describe('reset keeps settings', () => {
  it('keeps the webhook settings and the chosen scenario, forgets the data', async () => {
    const t = await createTestApp();
    expect((await t.call('PUT', '/_sandbox/webhooks', { body: { url: 'http://127.0.0.1:2/hooks' } })).status).toBe(200);
    expect((await t.call('PUT', '/_sandbox/scenario', { body: { name: 'failures' } })).status).toBe(200);
    await t.call('POST', '/api/v1/partners/payouts', { body: payout('k-1') });
    await t.call('POST', '/_sandbox/reset');
    expect((await t.call('GET', '/api/v1/partners/payouts/k-1')).status).toBe(404);
    expect((await t.call('GET', '/_sandbox/webhooks')).body.url).toBe('http://127.0.0.1:2/hooks');
    expect((await t.call('GET', '/_sandbox/scenario')).body.name).toBe('failures');
  });
});
