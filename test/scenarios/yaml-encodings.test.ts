// A YAML scenario body in another encoding than UTF-8 (a UTF-16 or Latin-1 file) is refused as such
// on both control routes that take YAML, instead of being read with U+FFFD in place of its bytes.
import { describe, expect, it } from 'vitest';
import { createTestApp } from '../support/app.js';

const DOC = 'description: Café payouts fail\npayout:\n  outcomes:\n    - status: FAILED\n';

describe('YAML scenario bodies that are not UTF-8', () => {
  for (const [route, method] of [
    ['/_sandbox/scenario', 'PUT'],
    ['/_sandbox/scenarios/mine', 'PUT'],
  ] as const) {
    it(`${method} ${route}: UTF-16 and Latin-1 are 400 INVALID_SCENARIO saying to save it as UTF-8; UTF-8 is taken`, async () => {
      const t = await createTestApp();
      const send = async (bytes: Buffer) => {
        const res = await t.app.request(route, {
          method,
          headers: { authorization: 'Bearer sk_test_yaml_encodings', 'content-type': 'application/yaml', 'content-length': String(bytes.length) },
          body: new Uint8Array(bytes),
        });
        return { status: res.status, body: await res.json() };
      };
      for (const bytes of [Buffer.from(`\ufeff${DOC}`, 'utf16le'), Buffer.from(DOC, 'latin1')]) {
        expect(await send(bytes)).toEqual({
          status: 400,
          body: {
            status: 'error',
            message: 'The body is not UTF-8 text (a UTF-16 or Latin-1 file, say). Save the scenario as UTF-8 and send it again.',
            error: { type: 'invalid_request_error', code: 'INVALID_SCENARIO', details: [{ field: 'body', issue: 'is not valid UTF-8: save it as UTF-8' }] },
          },
        });
      }
      const ok = await send(Buffer.from(DOC, 'utf8'));
      expect([ok.status, ok.body.description]).toEqual([200, 'Café payouts fail']);
    });
  }
});
