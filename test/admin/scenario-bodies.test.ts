// PUT /_sandbox/scenario and PUT /_sandbox/scenarios/{name} take JSON or a YAML document: a body of
// another type, and an empty YAML body, are refused saying what to send.
import { describe, expect, it } from 'vitest';
import { createTestApp } from '../support/app.js';

const ROUTES = [
  ['/_sandbox/scenario', '{"name"} or {"scenario"}'],
  ['/_sandbox/scenarios/mine', '{"scenario": {...}}'],
] as const;

describe('scenario bodies', () => {
  it('refuses another content type with 415 naming JSON and application/yaml', async () => {
    const t = await createTestApp();
    for (const [path, wrapper] of ROUTES) {
      const plain = await t.call('PUT', path, { raw: 'name: mine\n', headers: { 'content-type': 'text/plain' } });
      expect([plain.status, plain.body.error.code], path).toEqual([415, 'UNSUPPORTED_MEDIA_TYPE']);
      expect(plain.body.message).toBe(
        `Content-Type text/plain is not taken here. Send ${wrapper} with Content-Type: application/json, or a scenario document with Content-Type: application/yaml.`,
      );
      expect(plain.body.error.details).toEqual([{ field: 'Content-Type', issue: 'must be application/json or application/yaml' }]);
      const alias = await t.call('PUT', path, { raw: 'name: mine\n', headers: { 'content-type': 'text/yaml' } });
      expect(alias.status).toBe(415);
      expect(alias.body.message).toMatch(/^Content-Type text\/yaml is not taken here: YAML goes as application\/yaml, its registered media type\. /);
    }
    // The document says so too.
    const doc = await (await t.app.request('/openapi.json')).json();
    for (const path of ['/_sandbox/scenario', '/_sandbox/scenarios/{name}']) expect(doc.paths[path].put.responses['415'].description, path).toBe('Body is neither JSON nor application/yaml');
    // The key's scenario is still the start default.
    expect((await t.call('GET', '/_sandbox/scenario')).body).toMatchObject({ name: 'default', source: 'start' });
  });

  it('refuses an empty YAML body instead of binding or saving an empty document', async () => {
    const t = await createTestApp();
    for (const [path] of ROUTES) {
      for (const raw of ['', '  \n']) {
        const res = await t.call('PUT', path, { raw, headers: { 'content-type': 'application/yaml' } });
        expect([res.status, res.body.error.code], path).toEqual([400, 'INVALID_SCENARIO']);
        expect(res.body.error.details).toEqual([{ field: 'body', issue: 'is empty: send a scenario document' }]);
      }
    }
    expect((await t.call('GET', '/_sandbox/scenario')).body).toMatchObject({ name: 'default', source: 'start' });
    expect((await t.call('GET', '/_sandbox/scenarios')).body.data.map((s: { name: string }) => s.name)).not.toContain('mine');
    // An explicit empty document still binds every default.
    const empty = await t.call('PUT', '/_sandbox/scenario', { raw: '{}', headers: { 'content-type': 'application/yaml' } });
    expect([empty.status, empty.body.origin]).toEqual([200, 'inline']);
  });

  it("ends a did-you-mean with its question mark, not '?.'", async () => {
    const t = await createTestApp();
    const res = await t.call('PUT', '/_sandbox/scenario', { body: { scenario: { payuot: {} } } });
    expect(res.body.message).toBe("The scenario is not valid: scenario.payuot is not a field here: did you mean 'payout'? See /_sandbox/scenario.schema.json for the format.");
    const yaml = await t.call('PUT', '/_sandbox/scenario', { raw: 'payout:\n  timing:\n    PENDING: soon\n', headers: { 'content-type': 'application/yaml' } });
    expect(yaml.body.message).toBe('The scenario is not valid: scenario.payout.timing.PENDING expected number, received string. See /_sandbox/scenario.schema.json for the format.');
  });

  it('names the body when it is over the limit: 16 KiB for a scenario, 1 MiB for other control bodies', async () => {
    const t = await createTestApp();
    const scenario = await t.call('PUT', '/_sandbox/scenario', { raw: `description: ${'x'.repeat(17_000)}\n`, headers: { 'content-type': 'application/yaml' } });
    expect([scenario.status, scenario.body.error.details]).toEqual([413, [{ field: 'body', issue: 'is larger than 16 KiB' }]]);
    const raw = JSON.stringify({ url: 'https://example.com/hooks', pad: 'x'.repeat(1_100_000) });
    const webhook = await t.call('PUT', '/_sandbox/webhooks', { raw, headers: { 'content-type': 'application/json', 'content-length': String(raw.length) } });
    expect([webhook.status, webhook.body.error.details]).toEqual([413, [{ field: 'body', issue: 'is larger than 1 MiB' }]]);
  });
});
