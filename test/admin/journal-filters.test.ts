// GET /_sandbox/requests filters on the server: method, path (a fault rule's pattern), status (a
// status or a class), since (an entry id or an instant of the key's clock), then limit.
import { describe, expect, it } from 'vitest';
import { MemoryStore } from '../../src/store/memory.store.js';
import { StoreUnavailableError, type JournalStore } from '../../src/store/store.js';
import { advance, createTestApp, payoutRequest, type TestApp } from '../support/app.js';

interface Entry {
  id: string;
  method: string;
  path: string;
  status: number | null;
  at: string;
}

async function journal(t: TestApp, query: string): Promise<Entry[]> {
  const res = await t.call('GET', `/_sandbox/requests${query}`);
  expect(res.status, res.text).toBe(200);
  return res.body.data;
}
const summary = (es: Entry[]) => es.map((e) => `${e.method} ${e.path} ${e.status}`);

async function traffic() {
  const t = await createTestApp();
  await t.call('POST', '/api/v1/partners/payouts', { body: payoutRequest('f-1') });
  await t.call('POST', '/api/v1/partners/payouts', { body: { reference: 'f-2' } });
  await t.call('GET', '/api/v1/partners/payouts/f-1');
  await t.call('GET', '/api/v1/partners/payouts/nope');
  await t.call('GET', '/api/v1/partners/banks?currency=NGN');
  return t;
}

describe('GET /_sandbox/requests filters', () => {
  it('by method (any case) and exact path', async () => {
    const t = await traffic();
    expect(summary(await journal(t, '?method=post&path=/api/v1/partners/payouts'))).toEqual([
      'POST /api/v1/partners/payouts 400',
      'POST /api/v1/partners/payouts 201',
    ]);
    expect(await journal(t, '?method=DELETE')).toEqual([]);
  });

  it('by a path pattern as fault rules take it', async () => {
    const t = await traffic();
    expect(summary(await journal(t, '?path=/api/v1/partners/payouts/{reference}'))).toEqual([
      'GET /api/v1/partners/payouts/nope 404',
      'GET /api/v1/partners/payouts/f-1 200',
    ]);
    expect((await journal(t, '?path=/api/**')).length).toBe(5);
    expect(summary(await journal(t, '?path=/api/v1/partners/b*'))).toEqual(['GET /api/v1/partners/banks 200']);
  });

  it('names in X-Sandbox-Warning a path no journal entry can have, the journal keeping /api requests only', async () => {
    const t = await traffic();
    const missingApi = await t.call('GET', '/_sandbox/requests?path=/v1/partners/payouts');
    expect(missingApi.status).toBe(200);
    expect(missingApi.body.data).toEqual([]);
    expect(missingApi.headers.get('x-sandbox-warning')).toBe(
      "path '/v1/partners/payouts' can match no entry: the journal keeps requests to /api routes only: did you mean '/api/v1/partners/payouts'?",
    );
    const control = await t.call('GET', '/_sandbox/requests?path=/_sandbox/clock');
    expect(control.body.data).toEqual([]);
    expect(control.headers.get('x-sandbox-warning')).toBe("path '/_sandbox/clock' can match no entry: the journal keeps requests to /api routes only");
    for (const path of ['/api/v1/partners/payouts', '/api/v1/nothing-yet', '/**', '/*/v1/**', '/{prefix}/v1/partners/banks']) {
      const res = await t.call('GET', `/_sandbox/requests?path=${path}`);
      expect(res.headers.get('x-sandbox-warning'), path).toBeNull();
    }
  });

  it('by status or class, and limit counts after the filters', async () => {
    const t = await traffic();
    expect(summary(await journal(t, '?status=404'))).toEqual(['GET /api/v1/partners/payouts/nope 404']);
    expect(summary(await journal(t, '?status=4xx'))).toEqual(['GET /api/v1/partners/payouts/nope 404', 'POST /api/v1/partners/payouts 400']);
    // The class in capitals, as logs and dashboards write it.
    expect(summary(await journal(t, '?status=4XX'))).toEqual(summary(await journal(t, '?status=4xx')));
    expect(summary(await journal(t, '?status=2xx&limit=1'))).toEqual(['GET /api/v1/partners/banks 200']);
  });

  it('since an entry id, or since an instant of the key’s clock', async () => {
    const t = await traffic();
    const [, , third] = (await journal(t, '')).reverse();
    expect(summary(await journal(t, `?since=${third.id}`))).toEqual(['GET /api/v1/partners/banks 200', 'GET /api/v1/partners/payouts/nope 404']);
    const moved = await advance(t, 3600);
    await t.call('GET', '/api/v1/partners/payouts/f-1');
    expect(summary(await journal(t, `?since=${encodeURIComponent(moved.now)}`))).toEqual(['GET /api/v1/partners/payouts/f-1 200']);
  });

  it('an empty filter is none', async () => {
    const t = await traffic();
    expect((await journal(t, '?method=&path=&status=&since=')).length).toBe(5);
  });

  it('refuses a filter it cannot apply, naming it', async () => {
    const t = await createTestApp();
    for (const [query, field, issue] of [
      ['method=FETCH', 'method', 'must be one of: GET, HEAD, POST'],
      ['path=api/v1', 'path', 'must begin with /'],
      ['path=/api/v1**', 'path', '** stands for whole segments'],
      ['status=40', 'status', 'a status (404) or a class of them (4xx)'],
      ['since=yesterday', 'since', "journal entry's id (req_12)"],
      ['since=2030-02-30T00:00:00Z', 'since', 'an instant on the key'],
    ]) {
      const res = await t.call('GET', `/_sandbox/requests?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.error.details).toEqual([{ field, issue: expect.stringContaining(issue) }]);
    }
  });
});

describe('a journal kept in a shared database that cannot be read', () => {
  it('answers 503 SERVICE_UNAVAILABLE with Retry-After, not 500', async () => {
    // A store whose journal lives in a database that fails when listed, as a replica's does when
    // its database goes away between the key's session and the listing.
    class FailingJournalStore extends MemoryStore {
      override async tenant(id: string) {
        const store = await super.tenant(id);
        const journal: JournalStore = { add: () => undefined, clear: () => undefined, list: async () => Promise.reject(new StoreUnavailableError(new Error('connection reset'))) };
        return Object.assign(store, { journal });
      }
    }
    const t = await createTestApp({ store: new FailingJournalStore() });
    const res = await t.call('GET', '/_sandbox/requests');
    expect([res.status, res.headers.get('retry-after'), res.body.error.code]).toEqual([503, '1', 'SERVICE_UNAVAILABLE']);
    expect(res.body.message).toBe("The sandbox's database cannot be reached at the moment, so nothing of this request was done. Retry it shortly.");
  });
});
