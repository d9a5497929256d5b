// Refusals of the XML interface: hostile or broken bodies, wrong media types, sizes, keys and
// routes. Each answers the XML reject with the JSON API's status, and nothing is stored.
import { beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, KEY, KEY_B, type TestApp } from '../../support/app.js';
import { acceptAccount, acceptBank, FX, fx, instruction, newTrade, rejection } from '../../support/fx.js';
import { collectGarbage } from '../../support/gc.js';

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

  it('says an empty body is empty and names the message the route takes', async () => {
    const create = rejection(await fx(t, 'POST', '/trades', { xml: '' }));
    expect(create).toMatchObject({ status: 400, code: 'MALFORMED_XML' });
    expect(create.text).toBe('The request body is empty. Send an XML message whose root element is FXTradInstr, with Content-Type: application/xml.');
    const id = await newTrade(t);
    const accept = rejection(await fx(t, 'POST', `/trades/${id}/accept`, { xml: ' \n' }));
    expect(accept.text).toBe('The request body is empty. Send an XML message whose root element is FXTradAccptReq, with Content-Type: application/xml.');
  });

  it('says where a truncated body ends, in XML terms', async () => {
    const r = rejection(await fx(t, 'POST', '/trades', { xml: '<FXTradInstr><CcyPair>' }));
    expect(r).toMatchObject({ status: 400, code: 'MALFORMED_XML' });
    expect(r.text).toBe('The request body is not acceptable XML: it ends before <CcyPair> inside <FXTradInstr> is closed. Send one well-formed UTF-8 XML message.');
    await nothingStored();
  });

  it('refuses elements named like JavaScript object internals, as any element the message does not name', async () => {
    const reported = '<FXTradInstr><constructor/><CcyPair><BaseCcy>NGN</BaseCcy><QtdCcy>USDT</QtdCcy></CcyPair><TradAmts><TradgCcyAmt>100</TradgCcyAmt></TradAmts><AmtDrctn>BUY</AmtDrctn></FXTradInstr>';
    expect(rejection(await fx(t, 'POST', '/trades', { xml: reported }))).toMatchObject({ status: 400, code: 'VALIDATION_ERROR', location: 'constructor' });
    const extras = '<prototype>x</prototype><__proto__><TradAmts><TradgCcyAmt>1</TradgCcyAmt></TradAmts></__proto__>';
    const second = rejection(await fx(t, 'POST', '/trades', { xml: instruction().replace('<CcyPair>', `${extras}<CcyPair>`) }));
    expect(second).toMatchObject({ status: 400, code: 'VALIDATION_ERROR', location: 'prototype' });
    expect(({} as Record<string, unknown>).TradAmts).toBeUndefined();
    await nothingStored();
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

describe('attributes and lengths refused before parsing', () => {
  const x = (n: number) => 'x'.repeat(n);
  /**
   * CPU time of a request in ms (user and system, so a busy machine does not count), the least of
   * three sends: the process's CPU also counts V8's collector threads, and a collection of what
   * earlier test files left in this worker can land on any one send.
   */
  async function cpuOf(method: string, path: string, xml: string) {
    const send = async () => {
      collectGarbage();
      const start = process.cpuUsage();
      const res = await t.call<string>(method, `${FX}${path}`, { raw: xml, headers: { 'content-type': 'application/xml' } });
      const used = process.cpuUsage(start);
      return { ms: (used.user + used.system) / 1000, res };
    };
    const runs = [await send(), await send(), await send()];
    return runs.reduce((least, run) => (run.ms < least.ms ? run : least));
  }

  it.each([
    ['100 KB on the root, double quotes', `<FXTradInstr attr="${x(100_000)}"/>`, 'FXTradInstr/@attr'],
    ['500 KB on the root, single quotes', `<FXTradInstr attr='${x(500_000)}'/>`, 'FXTradInstr/@attr'],
    ['500 KB on the root, double quotes', `<FXTradInstr attr="${x(500_000)}"/>`, 'FXTradInstr/@attr'],
    ['100 KB on a nested element, single quotes', instruction().replace('<CcyPair>', `<CcyPair note='${x(100_000)}'>`), 'FXTradInstr/CcyPair/@note'],
    ['500 KB on a nested element, double quotes', instruction().replace('<TradgCcyAmt>', `<TradgCcyAmt unit="${x(500_000)}">`), 'FXTradInstr/TradAmts/TradgCcyAmt/@unit'],
  ])('refuses an attribute of %s quickly with 400 MALFORMED_XML naming it', async (_name, xml, location) => {
    const { ms, res } = await cpuOf('POST', '/trades', xml);
    expect(ms, `${ms.toFixed(1)} ms of CPU`).toBeLessThan(250);
    const r = rejection(await fx(t, 'POST', '/trades', { xml }));
    expect(res.status).toBe(400);
    expect(r).toMatchObject({ status: 400, code: 'MALFORMED_XML', location });
    const attribute = location.split('@')[1];
    expect(r.text).toBe(
      `The request body is not acceptable XML: the attribute '${attribute}' on <${location.split('/').at(-2)}> is not one a message of this API has: only namespace declarations (xmlns, xmlns:*) and xsi:* attributes are taken. Send each value as the element the message defines, and remove the attribute.`,
    );
    await nothingStored();
  });

  it('refuses a tag of many attributes, and a body of many namespace declarations, before the structure check looks each up per tag', async () => {
    // 35,000 declarations on the root and 120,000 children held the event loop for 5 s.
    // Its 900 KB are read and refused in 100 to 300 ms of the process's CPU (V8's collector and
    // compiler threads counted, more on a cold Node); the per-tag lookup took 3.2 s.
    const flood = `<FXTradInstr${' xmlns:a="u"'.repeat(35_000)}>${'<b/>'.repeat(120_000)}</FXTradInstr>`;
    const { ms, res } = await cpuOf('POST', '/trades', flood);
    expect(ms, `${ms.toFixed(1)} ms of CPU`).toBeLessThan(1000);
    expect(res.status).toBe(400);
    const many = rejection(await fx(t, 'POST', '/trades', { xml: flood }));
    expect(many).toMatchObject({ status: 400, code: 'MALFORMED_XML', location: 'FXTradInstr' });
    expect(many.text).toContain('<FXTradInstr> carries more than 8 attributes, more than any message of this API has');
    // Declarations spread over nested elements are counted for the whole body.
    const spread = `<FXTradInstr>${'<CcyPair xmlns:a="u" xmlns:b="v">'.repeat(9)}${'</CcyPair>'.repeat(9)}</FXTradInstr>`;
    const nested = rejection(await fx(t, 'POST', '/trades', { xml: spread }));
    expect(nested).toMatchObject({ status: 400, code: 'MALFORMED_XML', location: 'FXTradInstr/CcyPair/CcyPair/CcyPair/CcyPair/CcyPair/CcyPair/CcyPair/CcyPair/CcyPair' });
    expect(nested.text).toContain('carries a namespace declaration past the 16 a body may make');
    // A message's own declarations pass.
    const wrapped = `<Document xmlns="urn:iso:std:iso:20022:tech:xsd:fxtr.014.001.05" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">${instruction().replace(/^<\?xml[^>]*>/, '')}</Document>`;
    expect((await fx(t, 'POST', '/trades', { xml: wrapped })).status).toBe(201);
  });

  it('refuses many processing instructions, or a long one, before the parser reads them one by one', async () => {
    // 208,000 instructions in 1 MB took the parser 150 to 200 ms of CPU, and a declaration of
    // 170,000 pseudo-attributes 240 ms; both were answered 201.
    const many = instruction().replace('<AmtDrctn>', `${'<?a?>'.repeat(200_000)}<AmtDrctn>`);
    const { ms, res } = await cpuOf('POST', '/trades', many);
    expect(ms, `${ms.toFixed(1)} ms of CPU`).toBeLessThan(100);
    expect(res.status).toBe(400);
    const r = rejection(await fx(t, 'POST', '/trades', { xml: many }));
    expect(r).toMatchObject({ status: 400, code: 'MALFORMED_XML', location: 'FXTradInstr/?a' });
    expect(r.text).toBe(
      'The request body is not acceptable XML: the body carries more than 8 processing instructions, the XML declaration included, more than any message of this API has. Send at most the XML declaration, <?xml version="1.0" encoding="UTF-8"?>, before the message, and no other processing instruction.',
    );
    const declaration = rejection(await fx(t, 'POST', '/trades', { xml: instruction().replace('encoding="UTF-8"', `encoding="UTF-8"${' a="b"'.repeat(170_000)}`) }));
    expect(declaration).toMatchObject({ status: 400, code: 'MALFORMED_XML', location: '?xml' });
    expect(declaration.text).toMatch(/^The request body is not acceptable XML: the processing instruction <\?xml …\?> is longer than 1024 characters/);
    // The declaration and a few instructions pass, as before.
    expect((await fx(t, 'POST', '/trades', { xml: instruction().replace('<AmtDrctn>', `${'<?a b?>'.repeat(7)}<AmtDrctn>`) })).status).toBe(201);
    await expect(t.tenants.get(KEY, 'sandbox').then((x) => x.store.collection('fx_trades').size)).resolves.toBe(1);
  });

  it('refuses a body that is not UTF-8 (UTF-16, Latin-1) instead of keeping U+FFFD in its values', async () => {
    const send = async (bytes: Buffer, path = '/trades') => {
      const res = await t.app.request(`${FX}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/xml', 'content-length': String(bytes.length) },
        body: new Uint8Array(bytes),
      });
      return { status: res.status, text: await res.text() };
    };
    const utf16 = await send(Buffer.from(`\ufeff${instruction()}`, 'utf16le'));
    // ASCII is the same bytes in Latin-1 and UTF-8: such a body passes.
    expect((await send(Buffer.from(instruction(), 'latin1'))).status).toBe(201);
    const id = await newTrade(t);
    const latin1 = await send(Buffer.from(acceptBank.replace('John Doe', 'Zoé Doe'), 'latin1'), `/trades/${id}/accept`);
    for (const res of [utf16, latin1]) {
      expect(res.status).toBe(400);
      expect(res.text).toContain('<RjctgPtyRsn>MALFORMED_XML</RjctgPtyRsn>');
      expect(res.text).toContain('<RsnDesc>The request body is not acceptable XML: it is not valid UTF-8 (a UTF-16 or Latin-1 file, say); save it as UTF-8. Send one well-formed UTF-8 XML message.</RsnDesc>');
    }
    expect((await fx(t, 'GET', `/trades/${id}`)).xml.Sts).toBe('NEWT');
  });

  it('refuses a namespace or xsi: value longer than any the API has, naming the attribute', async () => {
    const xml = `<FXTradInstr xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="${x(500_000)}"/>`;
    const r = rejection(await fx(t, 'POST', '/trades', { xml }));
    expect(r).toMatchObject({ status: 400, code: 'MALFORMED_XML', location: 'FXTradInstr/@xsi:schemaLocation' });
    expect(r.text).toMatch(/the value of the attribute 'xsi:schemaLocation' on <FXTradInstr> is longer than 1024 characters/);
    await nothingStored();
  });

  it('refuses a text node past 1024 characters on every route that reads a body, naming the element', async () => {
    const id = await newTrade(t);
    const long = x(1025);
    const cases: [string, string, string, string][] = [
      ['POST', '/trades', instruction({ amount: `1${'0'.repeat(1024)}` }), 'FXTradInstr/TradAmts/TradgCcyAmt'],
      ['POST', `/trades/${id}/accept`, `<FXTradAccptReq><SttlmDstn><BkDstn><AcctNm>${long}</AcctNm></BkDstn></SttlmDstn></FXTradAccptReq>`, 'FXTradAccptReq/SttlmDstn/BkDstn/AcctNm'],
      ['POST', `/trades/${id}/confirmation`, `<FXTradConfReq><Rmrks><![CDATA[${long}]]></Rmrks></FXTradConfReq>`, 'FXTradConfReq/Rmrks'],
      ['PUT', `/trades/${id}/cancellation`, `<fx:Document xmlns:fx="urn:x"><fx:FXTradCxlReq><fx:Rsn>${long}</fx:Rsn></fx:FXTradCxlReq></fx:Document>`, 'Document/FXTradCxlReq/Rsn'],
    ];
    for (const [method, path, xml, location] of cases) {
      const r = rejection(await fx(t, method, path, { xml }));
      expect(r, path).toMatchObject({ status: 400, code: 'MALFORMED_XML', location });
      expect(r.text).toMatch(/is longer than 1024 characters, more than any field of this API takes \(the longest take 350\)/);
    }
    expect((await fx(t, 'GET', `/trades/${id}`)).xml.Sts).toBe('NEWT');
  });

  it('counts a character reference as one character and leaves the shorter limits to the fields', async () => {
    // 350 characters, sent as 1750: within the field's length once read.
    const cancelled = await fx(t, 'PUT', `/trades/${await newTrade(t)}/cancellation`, { xml: `<FXTradCxlReq><Rsn>${'&amp;'.repeat(350)}</Rsn></FXTradCxlReq>` });
    expect(cancelled.status, cancelled.text).toBe(200);
    // 1024 characters pass the scan; the field says its own limit.
    const r = rejection(await fx(t, 'PUT', `/trades/${await newTrade(t)}/cancellation`, { xml: `<FXTradCxlReq><Rsn>  ${x(1024)}\n</Rsn></FXTradCxlReq>` }));
    expect(r).toMatchObject({ status: 400, code: 'VALIDATION_ERROR', location: 'Rsn' });
  });

  it('refuses an element or attribute name past 1024 characters', async () => {
    const name = `N${x(2000)}`;
    const element = rejection(await fx(t, 'POST', '/trades', { xml: instruction().replace('<AmtDrctn>', `<${name}>1</${name}><AmtDrctn>`) }));
    expect(element).toMatchObject({ status: 400, code: 'MALFORMED_XML', location: `FXTradInstr/N${x(39)}…` });
    expect(element.text).toMatch(/^The request body is not acceptable XML: an element name starting 'Nx+' is longer than 1024 characters/);
    const attribute = rejection(await fx(t, 'POST', '/trades', { xml: `<FXTradInstr xmlns:${name}="urn:x"/>` }));
    expect(attribute).toMatchObject({ status: 400, code: 'MALFORMED_XML', location: `FXTradInstr/@xmlns:N${x(33)}…` });
    await nothingStored();
  });

  it('takes a message with namespace declarations and xsi:schemaLocation', async () => {
    const ns = 'urn:iso:std:iso:20022:tech:xsd:fxtr.014.001.05';
    const xml = `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="${ns}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation='${ns} FXTradInstr.xsd'>
${instruction().replace(/^<\?xml[^>]*\?>\n/, '').replace('<FXTradInstr>', '<FXTradInstr xsi:type="FXTradInstr">')}
</Document>`;
    const res = await fx(t, 'POST', '/trades', { xml });
    expect(res.status, res.text).toBe(201);
    expect(res.xml.TradAmts).toMatchObject({ TradgCcyAmt: '1000' });
  });

  // That the refusal's cost is linear in the attribute's length (500 KB at most 20 times 50 KB) is
  // checked by the hostile-input harness (test/hostile/formats.test.ts, the XML "very long attribute"
  // forms), in a process of its own: here, in a worker shared with a hundred other files, a large
  // heap's garbage collection weighs on a 500 KB body more than the refusal itself does.
});
