// Refusals of the XML interface: hostile or broken bodies, wrong media types, sizes, keys and
// routes. Each answers the XML reject with the JSON API's status, and nothing is stored.
import { beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, KEY, KEY_B, type TestApp } from './support/app.js';
import { acceptAccount, FX, fx, instruction, newTrade, rejection } from './support/fx.js';

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
});

async function nothingStored() {
  const tenant = await t.tenants.get(KEY, 'sandbox');
  expect(tenant.store.collection('fx_trades').size).toBe(0);
  expect((await t.call('GET', '/_sandbox/events')).body.data).toEqual([]);
}

const billionLaughs = `<?xml version="1.0"?>
<!DOCTYPE FXTradInstr [
  <!ENTITY lol "lol">
  <!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
  <!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">
  <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
]>
<FXTradInstr><CcyPair><BaseCcy>NGN</BaseCcy><QtdCcy>USDT</QtdCcy></CcyPair><TradAmts><TradgCcyAmt>1</TradgCcyAmt></TradAmts><AmtDrctn>&lol3;</AmtDrctn></FXTradInstr>`;

const externalEntity = `<?xml version="1.0"?>
<!DOCTYPE FXTradInstr [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
<FXTradInstr><CcyPair><BaseCcy>NGN</BaseCcy><QtdCcy>USDT</QtdCcy></CcyPair><TradAmts><TradgCcyAmt>1</TradgCcyAmt></TradAmts><AmtDrctn>&xxe;</AmtDrctn></FXTradInstr>`;

describe('hostile and broken bodies', () => {
  it.each([
    ['a DOCTYPE with nested entities (billion laughs)', billionLaughs, /DOCTYPE/],
    ['an external entity', externalEntity, /DOCTYPE/],
    ['an undeclared entity reference', instruction().replace('<AmtDrctn>BUY', '<AmtDrctn>&xxe;'), /&xxe;/],
    ['a missing end tag', '<FXTradInstr><AmtDrctn>BUY</AmtDrctn>', /not acceptable XML/],
    ['text that is not XML', 'BUY 100 USDT', /not acceptable XML/],
  ])('refuses %s with 400 MALFORMED_XML', async (_name, xml, text) => {
    const r = rejection(await fx(t, 'POST', '/trades', { xml }));
    expect(r).toMatchObject({ status: 400, code: 'MALFORMED_XML' });
    expect(r.text).toMatch(text);
    await nothingStored();
  });

  it('says where a truncated body ends, in XML terms', async () => {
    const r = rejection(await fx(t, 'POST', '/trades', { xml: '<FXTradInstr><CcyPair>' }));
    expect(r).toMatchObject({ status: 400, code: 'MALFORMED_XML' });
    expect(r.text).toBe('The request body is not acceptable XML: it ends before <CcyPair> inside <FXTradInstr> is closed. Send one well-formed UTF-8 XML message.');
    await nothingStored();
  });

  it('ignores elements named like JavaScript object internals, as any element the message does not name', async () => {
    const reported = '<FXTradInstr><constructor/><CcyPair><BaseCcy>NGN</BaseCcy><QtdCcy>USDT</QtdCcy></CcyPair><TradAmts><TradgCcyAmt>100</TradgCcyAmt></TradAmts><AmtDrctn>BUY</AmtDrctn></FXTradInstr>';
    const first = await fx(t, 'POST', '/trades', { xml: reported });
    expect(first.status, first.text).toBe(201);
    expect(first.xml.TradAmts).toMatchObject({ TradgCcyAmt: '100' });
    const extras = '<prototype>x</prototype><__proto__><TradAmts><TradgCcyAmt>1</TradgCcyAmt></TradAmts></__proto__>';
    const second = await fx(t, 'POST', '/trades', { xml: instruction().replace('<CcyPair>', `${extras}<CcyPair>`) });
    expect(second.status, second.text).toBe(201);
    expect(second.xml.TradAmts).toMatchObject({ TradgCcyAmt: '1000' });
    expect(({} as Record<string, unknown>).TradAmts).toBeUndefined();
  });

  it('echoes a partner value that looks like an entity as well-formed text', async () => {
    const res = await fx(t, 'POST', '/trades', { xml: instruction({ direction: '&amp;lol;' }) });
    expect(rejection(res)).toMatchObject({ status: 400, code: 'VALIDATION_ERROR', location: 'AmtDrctn' });
    expect((res.xml.Rsn as Record<string, string>).AddtlData).toBe("AmtDrctn: must be one of BUY, SELL, not '&lol;'");
  });

  it('refuses a 2 MiB body with 413', async () => {
    const xml = instruction().replace('<AmtDrctn>', `<Pad>${'x'.repeat(2 * 1024 * 1024)}</Pad><AmtDrctn>`);
    const r = rejection(await fx(t, 'POST', '/trades', { xml }));
    expect(r).toMatchObject({ status: 413, code: 'PAYLOAD_TOO_LARGE' });
    await nothingStored();
  });

  it('refuses a JSON body with 415, and XML sent without a content type', async () => {
    const json = await fx(t, 'POST', '/trades', { xml: JSON.stringify({ CcyPair: { BaseCcy: 'NGN' } }), headers: { 'content-type': 'application/json' } });
    expect(rejection(json)).toMatchObject({ status: 415, code: 'UNSUPPORTED_MEDIA_TYPE', location: 'Content-Type' });
    const res = await t.app.request(`${FX}/trades`, { method: 'POST', headers: { authorization: `Bearer ${KEY}` }, body: new Blob([instruction()]) });
    expect(res.status).toBe(415);
    expect(res.headers.get('content-type')).toMatch(/^application\/xml/);
    await nothingStored();
  });

  it('refuses another message root with 400 naming it', async () => {
    const r = rejection(await fx(t, 'POST', '/trades', { xml: '<FXTradAccptReq><AcctId>x</AcctId></FXTradAccptReq>' }));
    expect(r).toMatchObject({ status: 400, code: 'VALIDATION_ERROR', location: 'FXTradAccptReq' });
    await nothingStored();
  });
});

describe('keys and routes', () => {
  it('answers a missing or invalid key with the XML reject (401), without OprgMd', async () => {
    const none = await fx(t, 'POST', '/trades', { xml: instruction(), key: null });
    expect(rejection(none)).toMatchObject({ status: 401, code: 'AUTHENTICATION_REQUIRED', location: 'Authorization' });
    expect(none.xml.OprgMd).toBeUndefined();
    const bad = await fx(t, 'GET', '/listings', { key: 'pk_test_123' });
    expect(rejection(bad)).toMatchObject({ status: 401, code: 'INVALID_API_KEY' });
    await nothingStored();
  });

  it('guards every FX route, and another key cannot move a trade', async () => {
    const id = await newTrade(t);
    const routes: [string, string, string?][] = [
      ['POST', '/trades', instruction()],
      ['GET', `/trades/${id}`],
      ['POST', `/trades/${id}/accept`, acceptAccount],
      ['POST', `/trades/${id}/confirmation`],
      ['PUT', `/trades/${id}/cancellation`],
      ['GET', '/listings'],
      ['GET', '/rates/makers?from=NGN&to=USDT'],
    ];
    for (const [method, path, xml] of routes) {
      expect(rejection(await fx(t, method, path, { xml, key: null })).status, `${method} ${path}`).toBe(401);
    }
    for (const [method, path, xml] of routes.slice(1, 5)) {
      expect(rejection(await fx(t, method, path, { xml, key: KEY_B })).status, `${method} ${path}`).toBe(404);
    }
    const tenant = await t.tenants.get(KEY, 'sandbox');
    expect(tenant.store.collection('fx_trades').size).toBe(1);
    expect((await fx(t, 'GET', `/trades/${id}`)).xml.Sts).toBe('NEWT');
  });

  it('answers an unknown route under the FX base with a 404 reject', async () => {
    for (const path of [`${FX}/nowhere`, FX, `${FX}/trades`]) {
      const method = path.endsWith('/trades') ? 'GET' : 'POST';
      const r = rejection(await fx(t, method, path));
      expect(r).toMatchObject({ status: 404, code: 'ROUTE_NOT_FOUND' });
    }
  });

  it('keeps the XML answers in the request journal', async () => {
    await fx(t, 'POST', '/trades', { xml: '<FXTradInstr>' });
    await fx(t, 'GET', '/listings?pageSize=1');
    const journal = (await t.call('GET', '/_sandbox/requests?limit=2')).body.data;
    expect(journal[0]).toMatchObject({ path: `${FX}/listings`, status: 200, responseBody: expect.stringContaining('<FndPrcgPsptRpt>') });
    expect(journal[1]).toMatchObject({ path: `${FX}/trades`, status: 400, requestBody: '<FXTradInstr>', responseBody: expect.stringContaining('<RjctgPtyRsn>MALFORMED_XML</RjctgPtyRsn>') });
  });
});
