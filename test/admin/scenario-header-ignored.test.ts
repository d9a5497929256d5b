// X-Sandbox-Scenario picks a scenario for one API request; a control route under /_sandbox does not
// read it, and says so in X-Sandbox-Warning rather than ignoring it without a word. The bulk upload,
// which honours it, and the API's routes get no such warning.
import { beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, payoutRequest, type TestApp } from '../support/app.js';
import { bulkRow } from '../support/bulk.js';

const IGNORED =
  "header 'X-Sandbox-Scenario' was ignored: it applies to API routes only (/api/v1/... and POST /_sandbox/bulk-disbursements); PUT /_sandbox/scenario sets this key's scenario";
const scenario = { 'X-Sandbox-Scenario': 'failures' };

describe('X-Sandbox-Scenario on a control route', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp();
  });

  it.each([
    ['GET', '/_sandbox/clock', undefined, 200],
    ['POST', '/_sandbox/reset', undefined, 200],
    ['GET', '/_sandbox/scenario', undefined, 200],
    ['PUT', '/_sandbox/scenario', { name: 'default' }, 200],
    ['GET', '/_sandbox/events', undefined, 200],
    ['GET', '/_sandbox/resources', undefined, 200],
    ['PUT', '/_sandbox/clock', { seconds: 'soon' }, 400],
    ['POST', '/_sandbox/simulate/payouts/no-such-ref/process', undefined, 404],
  ])('%s %s answers %i with X-Sandbox-Warning saying it was ignored', async (method, path, body, status) => {
    const res = await t.call(method, path, { body, headers: scenario });
    expect(res.status, res.text).toBe(status);
    expect(res.headers.get('x-sandbox-warning')).toBe(IGNORED);
  });

  it('warns on the open health check, sent without a key', async () => {
    const res = await t.call('GET', '/_sandbox/health', { key: null, headers: scenario });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-sandbox-warning')).toBe(IGNORED);
  });

  it('joins it with the route\'s own warnings', async () => {
    const res = await t.call('GET', '/_sandbox/events?typ=payout.PENDING', { headers: scenario });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-sandbox-warning')).toBe(`${IGNORED}; unknown query parameter 'typ' was ignored: did you mean 'type'?`);
  });

  it('leaves the scenario in force as it was', async () => {
    await t.call('POST', '/_sandbox/reset', { headers: scenario });
    const res = await t.call('GET', '/_sandbox/scenario', { headers: scenario });
    expect(res.body.name).toBe('default');
  });

  it('gives no warning without the header, or with it empty', async () => {
    expect((await t.call('GET', '/_sandbox/clock')).headers.get('x-sandbox-warning')).toBeNull();
    expect((await t.call('GET', '/_sandbox/clock', { headers: { 'X-Sandbox-Scenario': '' } })).headers.get('x-sandbox-warning')).toBeNull();
  });

  it('gives none where the header is read: the bulk upload and the API', async () => {
    const upload = await t.call('POST', '/_sandbox/bulk-disbursements', { body: { items: [bulkRow(1)] }, headers: scenario });
    expect(upload.status, upload.text).toBe(201);
    expect(upload.headers.get('x-sandbox-warning')).toBeNull();
    const payout = await t.call('POST', '/api/v1/partners/payouts', { body: payoutRequest('scn-1'), headers: scenario });
    expect(payout.status).toBe(201);
    expect(payout.headers.get('x-sandbox-warning')).toBeNull();
  });
});
