// Scenarios a key saves by name: usable by X-Sandbox-Scenario and PUT /_sandbox/scenario {"name"}
// for that key only, listed with the server's, kept across a reset, bounded per key.
import { beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, KEY, KEY_B, type TestApp } from '../support/app.js';
import { payout, PAYOUTS } from './support.js';

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
});

const FAIL_ALL = { description: 'Every payout fails', payout: { outcomes: [{ status: 'FAILED', reason: 'Bank offline' }] } };

describe('PUT /_sandbox/scenarios/{name}', () => {
  it('saves a scenario that the key then uses by header and by name; another key does not see it', async () => {
    const saved = await t.call('PUT', '/_sandbox/scenarios/bank-offline', { body: { scenario: FAIL_ALL } });
    expect(saved.status).toBe(200);
    expect(saved.body).toEqual({ name: 'bank-offline', description: 'Every payout fails', origin: 'saved', startDefault: false, warnings: [] });

    const viaHeader = await t.call('POST', PAYOUTS, { body: payout('h-1'), headers: { 'x-sandbox-scenario': 'bank-offline' } });
    expect(viaHeader.status).toBe(201);
    expect((await t.call('POST', '/_sandbox/clock/advance', { body: { seconds: 600 } })).status).toBe(200);
    expect((await t.call('GET', `${PAYOUTS}/h-1`)).body.data).toMatchObject({ status: 'FAILED', failureReason: 'Bank offline' });

    const bound = await t.call('PUT', '/_sandbox/scenario', { body: { name: 'bank-offline' } });
    expect(bound.body).toMatchObject({ name: 'bank-offline', origin: 'saved', source: 'tenant' });

    const other = await t.call('POST', PAYOUTS, { key: KEY_B, body: payout('h-2'), headers: { 'x-sandbox-scenario': 'bank-offline' } });
    expect([other.status, other.body.error.code]).toEqual([400, 'INVALID_SCENARIO']);
    expect(other.body.error.details[0].issue).not.toContain('bank-offline');
    const list = async (key: string) => (await t.call('GET', '/_sandbox/scenarios', { key })).body.data.filter((s: { origin: string }) => s.origin === 'saved');
    expect(await list(KEY)).toEqual([{ name: 'bank-offline', description: 'Every payout fails', origin: 'saved', startDefault: false }]);
    expect(await list(KEY_B)).toEqual([]);
  });

  it('takes YAML, keeps saved scenarios across a reset, and forgets one on DELETE (its binding falls back to the start default)', async () => {
    const yaml = 'description: Slow bank\npayout:\n  timing: { PENDING: 600 }\n';
    const saved = await t.call('PUT', '/_sandbox/scenarios/slow-bank', { raw: yaml, headers: { 'content-type': 'application/yaml' } });
    expect(saved.body).toMatchObject({ name: 'slow-bank', description: 'Slow bank' });
    await t.call('PUT', '/_sandbox/scenario', { body: { name: 'slow-bank' } });
    expect((await t.call('POST', '/_sandbox/reset')).status).toBe(200);
    expect((await t.call('GET', '/_sandbox/scenario')).body).toMatchObject({ name: 'slow-bank', origin: 'saved' });
    const gone = await t.call('DELETE', '/_sandbox/scenarios/slow-bank');
    expect(gone.status).toBe(200);
    expect((await t.call('GET', '/_sandbox/scenario')).body).toMatchObject({ name: 'default', source: 'start' });
    const again = await t.call('DELETE', '/_sandbox/scenarios/slow-bank');
    expect([again.status, again.body.error.code]).toEqual([404, 'RESOURCE_NOT_FOUND']);
  });

  it('refuses a server scenario\'s name, a bad name, a bad document and a 21st scenario', async () => {
    const taken = await t.call('PUT', '/_sandbox/scenarios/failures', { body: { scenario: FAIL_ALL } });
    expect([taken.status, taken.body.error.details[0].field]).toEqual([400, 'name']);
    expect((await t.call('PUT', '/_sandbox/scenarios/Bad_Name', { body: { scenario: FAIL_ALL } })).status).toBe(400);
    const bad = await t.call('PUT', '/_sandbox/scenarios/bad-doc', { body: { scenario: { payout: { timing: { PENDING: 'soon' } } } } });
    expect(bad.body.error.details).toEqual([{ field: 'scenario.payout.timing.PENDING', issue: 'expected number, received string' }]);
    for (let i = 1; i <= 20; i++) expect((await t.call('PUT', `/_sandbox/scenarios/s-${i}`, { body: { scenario: FAIL_ALL } })).status).toBe(200);
    const full = await t.call('PUT', '/_sandbox/scenarios/s-21', { body: { scenario: FAIL_ALL } });
    expect([full.status, full.body.error.code]).toEqual([409, 'TENANT_FULL']);
    // Replacing one it has is always allowed.
    expect((await t.call('PUT', '/_sandbox/scenarios/s-20', { body: { scenario: { payout: { timing: { PENDING: 1 } } } } })).status).toBe(200);
    expect((await t.call('PUT', '/_sandbox/scenarios/s-21', { key: KEY_B, body: { scenario: FAIL_ALL } })).status).toBe(200);
    expect(KEY).not.toBe(KEY_B);
  });
});
