// /docs and /openapi.json go out compressed as the client accepts (brotli, else gzip), each form made
// once; a coding refused with q=0 is not used; without Accept-Encoding, the text itself. The page
// links the console and its version is the package's.
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import pkg from '../../package.json' with { type: 'json' };
import { createTestApp } from '../support/app.js';

const get = async (t: Awaited<ReturnType<typeof createTestApp>>, path: string, encoding?: string) => {
  const res = await t.app.request(path, { headers: encoding === undefined ? {} : { 'accept-encoding': encoding } });
  return { res, bytes: Buffer.from(await res.arrayBuffer()) };
};

describe('compressed docs', () => {
  it('sends the Swagger UI bundle as brotli or gzip, the same text either way', async () => {
    const t = await createTestApp();
    const plain = await get(t, '/docs/assets/swagger-ui-bundle.js');
    expect(plain.res.headers.get('content-encoding')).toBeNull();
    expect(plain.bytes.length).toBeGreaterThan(1_000_000);
    const br = await get(t, '/docs/assets/swagger-ui-bundle.js', 'gzip, deflate, br');
    expect(br.res.headers.get('content-encoding')).toBe('br');
    expect(br.res.headers.get('vary')).toBe('Accept-Encoding');
    expect(br.bytes.length).toBeLessThan(plain.bytes.length / 3);
    expect(brotliDecompressSync(br.bytes).equals(plain.bytes)).toBe(true);
    const gz = await get(t, '/docs/assets/swagger-ui-bundle.js', 'br;q=0, gzip');
    expect(gz.res.headers.get('content-encoding')).toBe('gzip');
    expect(gunzipSync(gz.bytes).equals(plain.bytes)).toBe(true);
  });

  it('sends /openapi.json compressed too, with the package version and a docs page that links the console', async () => {
    const t = await createTestApp();
    const gz = await get(t, '/openapi.json', 'gzip');
    expect(gz.res.headers.get('content-encoding')).toBe('gzip');
    const doc = JSON.parse(gunzipSync(gz.bytes).toString('utf8')) as { info: { version: string } };
    expect(doc.info.version).toBe(pkg.version);
    const page = await (await t.app.request('/docs')).text();
    expect(page).toContain('<a href="/console">Console</a>');
    expect(page).toContain('<link rel="icon" href="data:,">');
  });

  it("answers 404 for an asset it does not serve, Object's own names included", async () => {
    const t = await createTestApp();
    for (const file of ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'package.json']) {
      const { res, bytes } = await get(t, `/docs/assets/${file}`);
      expect(res.status, file).toBe(404);
      const body = JSON.parse(bytes.toString('utf8'));
      expect(body.error.code, file).toBe('ROUTE_NOT_FOUND');
      // The path is one GET takes: no advice to send it with GET.
      expect(body.message, file).toBe(`No route matches GET /docs/assets/${file}. Every API path begins with /api/v1; see /openapi.json for the list.`);
      expect(body.error.details, file).toEqual([]);
    }
  });
});
