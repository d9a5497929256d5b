// "Exactly one of" control bodies state their rule in the document (oneOf), while the app keeps
// refusing with its own messages.
import { beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.js';

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
});

describe('oneOf in /openapi.json', () => {
  it('POST /_sandbox/clock/advance takes exactly one of seconds or to', async () => {
    const doc = (await t.call('GET', '/openapi.json', { unchecked: true })).body;
    const ref = doc.paths['/_sandbox/clock/advance'].post.requestBody.content['application/json'].schema.$ref;
    expect(ref).toBe('#/components/schemas/AdvanceClockRequest');
    const s = doc.components.schemas.AdvanceClockRequest;
    expect(s.oneOf).toEqual([{ required: ['seconds'] }, { required: ['to'] }]);
    expect(s.additionalProperties).toBe(false);
    expect(Object.keys(s.properties).sort()).toEqual(['seconds', 'to']);
  });

  it('PUT /_sandbox/scenario takes exactly one of name or scenario', async () => {
    const doc = (await t.call('GET', '/openapi.json', { unchecked: true })).body;
    const ref = doc.paths['/_sandbox/scenario'].put.requestBody.content['application/json'].schema.$ref;
    expect(ref).toBe('#/components/schemas/ChooseScenarioRequest');
    const s = doc.components.schemas.ChooseScenarioRequest;
    expect(s.oneOf).toEqual([{ required: ['name'] }, { required: ['scenario'] }]);
    expect(s.additionalProperties).toBe(false);
  });

  it('the app still answers both and neither with its own messages', async () => {
    const both = await t.call('POST', '/_sandbox/clock/advance', { body: { seconds: 60, to: '2030-01-01T00:00:00Z' } });
    expect(both.status).toBe(400);
    expect(both.body.message).toBe('Invalid request body: seconds cannot be sent with to: send one of them.');
    const neither = await t.call('POST', '/_sandbox/clock/advance', { body: {} });
    expect(neither.status).toBe(400);
    expect(neither.body.message).toBe(
      'Invalid request body: seconds is required: send seconds (how far to move the clock, e.g. 3600), or to (the instant to move it to, e.g. 2027-01-31T00:00:00Z).',
    );
    expect(neither.body.error.details).toHaveLength(1);
    const none = await t.call('PUT', '/_sandbox/scenario', { body: {} });
    expect(none.status).toBe(400);
    expect(none.body.message).toBe('Send exactly one of name (a bundled scenario) or scenario (an inline document).');
    const extra = await t.call('PUT', '/_sandbox/scenario', { body: { name: 'failures', nmae: 'x' } });
    expect(extra.status).toBe(400);
    expect(extra.headers.get('x-sandbox-warning')).toBeNull();
    expect((await t.call('PUT', '/_sandbox/scenario', { body: { name: 'failures' } })).status).toBe(200);
  });
});
