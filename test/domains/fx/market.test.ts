import { readFileSync } from 'node:fs';
import { beforeEach, describe, expect, it } from 'vitest';
import { Decimal } from '../../../src/kernel/money.js';
import type { XmlElement } from '../../../src/iso20022/xml.js';
import { XSD_NAMES } from '../../../src/iso20022/xsd-names.js';
import { validateAgainstXsd } from '../../../src/iso20022/xsd.test-helper.js';
import { advance, createTestApp, LIVE_KEY, type TestApp } from '../../support/app.js';
import { FX, fx, instruction, rejection } from '../../support/fx.js';

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
});

const listings = (res: { xml: XmlElement }) => (res.xml.Listgs ?? []) as XmlElement[];

describe('GET /listings', () => {
  it('says which numbers a page and a page size take, and what a maker rate needs, when the query is wrong', async () => {
    expect(rejection(await fx(t, 'GET', '/listings?pageSize=abc'))).toEqual({
      status: 400,
      code: 'VALIDATION_ERROR',
      location: 'pageSize',
      text: 'Invalid request query: pageSize must be a whole number from 1 to 100.',
    });
    expect(rejection(await fx(t, 'GET', '/listings?page=1.5')).text).toBe('Invalid request query: page must be a whole number from 0 to 2147483647.');
    expect(rejection(await fx(t, 'GET', '/listings?pageSize=101')).text).toBe('Invalid request query: pageSize must be at most 100.');
    // Digits only: 0x10, 1e1 and ' 5' are not read as 16, 10 and 5.
    for (const q of ['page=0x10', 'page=1e1', 'pageSize=%205', 'pageSize=5.0']) expect(rejection(await fx(t, 'GET', `/listings?${q}`)).text, q).toMatch(/must be a whole number from/);
    // One reading of a whole number on every listing (the bulk page's too): an empty value is 0.
    expect(listings(await fx(t, 'GET', '/listings?page=&pageSize=2'))).toHaveLength(2);
    const none = rejection(await fx(t, 'GET', '/rates/makers?to=USDT'));
    expect(none).toMatchObject({ status: 400, location: 'from', text: 'Invalid request query: from is required: send a currency code, e.g. NGN.' });
    expect(rejection(await fx(t, 'GET', '/rates/makers?from=NGN&to=US-DT')).text).toBe(
      'Invalid request query: to must be a currency code of 3 to 5 letters, e.g. NGN or USDT.',
    );
    // A reject answers the request's warnings too: here a misspelt parameter beside a pair trades do not take.
    const both = await fx(t, 'GET', '/rates/makers?from=NGN&to=EUR&chian=BASE');
    expect(rejection(both)).toMatchObject({ status: 400, code: 'UNSUPPORTED_CURRENCY' });
    expect(both.headers.get('x-sandbox-warning')).toBe("unknown query parameter 'chian' was ignored");
    expect(rejection(await fx(t, 'GET', '/listings?source=N1')).text).toBe('Invalid request query: source must be a currency code of 3 to 5 letters, e.g. NGN or USDT.');
    const answered = await fx(t, 'GET', '/listings?source=NGN&pagesize=5');
    expect(answered.status).toBe(200);
    expect(answered.headers.get('x-sandbox-warning')).toBe("unknown query parameter 'pagesize' was ignored: did you mean 'pageSize'?");
    // The bulk page's name for it is suggested too.
    const size = await fx(t, 'GET', '/listings?size=5');
    expect([size.status, size.headers.get('x-sandbox-warning')]).toEqual([200, "unknown query parameter 'size' was ignored: did you mean 'pageSize'?"]);
    // A known name written with escapes, and separators without names, are no unknown parameter.
    const escaped = await fx(t, 'GET', `/listings?s%6Furce=NGN&&${'&'.repeat(5000)}page=0`);
    expect(escaped.status).toBe(200);
    expect(escaped.headers.get('x-sandbox-warning')).toBeNull();
  });

  it('takes the query as the API document writes it, every parameter empty (?source=&destination=&page=&pageSize=), as not sent', async () => {
    const res = await fx(t, 'GET', '/listings?source=&destination=&page=&pageSize=');
    expect(res.status).toBe(200);
    expect(res.headers.get('x-sandbox-warning')).toBeNull();
    expect(res.xml.Pgntn).toEqual({ PageNumber: '0', PageSize: '10', TotalElements: '40' });
    expect(listings(res)).toHaveLength(10);
    const ngn = await fx(t, 'GET', '/listings?source=NGN&destination=&pageSize=');
    expect(ngn.xml.Pgntn).toEqual({ PageNumber: '0', PageSize: '10', TotalElements: '8' });
  });

  it('names a currency no listing has in X-Sandbox-Warning, as the bulk page names a filter value', async () => {
    const eur = await fx(t, 'GET', '/listings?source=EUR');
    expect(eur.status).toBe(200);
    expect(eur.xml.Pgntn).toMatchObject({ TotalElements: '0' });
    expect(eur.headers.get('x-sandbox-warning')).toBe(
      "source 'EUR' is not a currency any listing has, so nothing matches: use one of NGN, GHS, USD, USDT, USDC",
    );
    const typo = await fx(t, 'GET', '/listings?source=ngn&destination=usdtt');
    expect(typo.headers.get('x-sandbox-warning')).toBe("destination 'usdtt' is not a currency any listing has, so nothing matches: did you mean 'USDT'?");
    // A known code in any case, and a pair of known codes that no pool trades, say nothing.
    expect((await fx(t, 'GET', '/listings?source=ngn&destination=usdt')).headers.get('x-sandbox-warning')).toBeNull();
    const noPair = await fx(t, 'GET', '/listings?source=USDT&destination=USDC');
    expect(noPair.xml.Pgntn).toMatchObject({ TotalElements: '0' });
    expect(noPair.headers.get('x-sandbox-warning')).toBeNull();
  });

  it('answers the same bytes to every key of a mode within a minute, and its own mode to each', async () => {
    const first = await fx(t, 'GET', '/listings?source=ngn&pageSize=5');
    const again = await fx(t, 'GET', '/listings?source=NGN&pageSize=5');
    const other = await fx(t, 'GET', '/listings?source=NGN&pageSize=5', { key: 'sk_test_another0000000000000000000000000' });
    expect(again.text).toBe(first.text);
    expect(other.text).toBe(first.text);
    const live = await fx(t, 'GET', '/listings?source=NGN&pageSize=5', { key: LIVE_KEY });
    expect(live.xml.OprgMd).toBe('live');
    expect(live.text).toBe(first.text.replace('<OprgMd>sandbox</OprgMd>', '<OprgMd>live</OprgMd>'));
    // A page of its own: the cache keys the page and the size too.
    const next = await fx(t, 'GET', '/listings?source=NGN&page=1&pageSize=5');
    expect(listings(next)[0].Id).not.toBe(listings(first)[0].Id);
  });

  it('answers every page right however many different pages keys ask for within a minute', async () => {
    const first = await fx(t, 'GET', '/listings?pageSize=3');
    // Another key walks through many page sizes and pages, and asks for currencies no pool has.
    const other = 'sk_test_another0000000000000000000000000';
    for (let size = 1; size <= 40; size++) {
      const res = await fx(t, 'GET', `/listings?pageSize=${size}&page=1`, { key: other });
      expect(res.xml.Pgntn).toEqual({ PageNumber: '1', PageSize: String(size), TotalElements: '40' });
      expect(listings(res)).toHaveLength(Math.max(0, Math.min(size, 40 - size)));
      expect(listings(await fx(t, 'GET', `/listings?source=Z${String.fromCharCode(65 + (size % 26))}Z`, { key: other }))).toEqual([]);
    }
    expect((await fx(t, 'GET', '/listings?pageSize=3')).text).toBe(first.text);
    expect(listings(await fx(t, 'GET', '/listings?pageSize=3&page=13'))).toHaveLength(1);
  });

  it('defaults to page 0 of 10 over every pool, each listing from the pool fixture', async () => {
    const res = await fx(t, 'GET', '/listings');
    expect(res.status).toBe(200);
    expect(res.root).toBe('FndPrcgPsptRpt');
    expect(res.xml.Pgntn).toEqual({ PageNumber: '0', PageSize: '10', TotalElements: '40' });
    expect(listings(res)).toHaveLength(10);
    expect(listings(res)[0]).toEqual({
      Id: '7e4ffa35-4c02-497f-b525-28a216edd814',
      Nm: 'Lagos Liquidity Partners',
      CcyPair: 'NGN/USDT',
      XchgRate: '1580.5',
      AvlblBal: '42500',
      TradsCnt: '1842',
      CmpltnRate: '98.7',
    });
    expect(res.xml.OprgMd).toBe('sandbox');
  });

  it('filters by source and destination, in any case', async () => {
    const res = await fx(t, 'GET', '/listings?source=usdt&destination=NGN');
    expect(res.xml.Pgntn).toMatchObject({ TotalElements: '4' });
    expect(listings(res).map((l) => [l.CcyPair, l.XchgRate])).toEqual([
      ['USDT/NGN', '1575'], ['USDT/NGN', '1571.4'], ['USDT/NGN', '1568.75'], ['USDT/NGN', '1562.3'],
    ]);
    const ghs = await fx(t, 'GET', '/listings?source=GHS', { key: LIVE_KEY });
    expect(ghs.xml.Pgntn).toMatchObject({ TotalElements: '6' });
    expect(ghs.xml.OprgMd).toBe('live');
    const none = await fx(t, 'GET', '/listings?source=EUR');
    expect(none.xml.Pgntn).toEqual({ PageNumber: '0', PageSize: '10', TotalElements: '0' });
    expect(none.xml.Listgs).toBeUndefined();
  });

  it('pages: a partial last page, a page past the end, the largest page size', async () => {
    const last = await fx(t, 'GET', '/listings?page=3&pageSize=12');
    expect(listings(last)).toHaveLength(4);
    expect(listings(last)[3].CcyPair).toBe('USDC/USD');
    const past = await fx(t, 'GET', '/listings?page=4&pageSize=10');
    expect(past.xml.Pgntn).toEqual({ PageNumber: '4', PageSize: '10', TotalElements: '40' });
    expect(listings(past)).toHaveLength(0);
    expect(listings(await fx(t, 'GET', '/listings?pageSize=100'))).toHaveLength(40);
    expect(listings(await fx(t, 'GET', '/listings?pageSize=1&page=39'))[0].CcyPair).toBe('USDC/USD');
    const far = await fx(t, 'GET', '/listings?page=2147483647&pageSize=100');
    expect(far.status).toBe(200);
    expect(far.xml.Pgntn).toEqual({ PageNumber: '2147483647', PageSize: '100', TotalElements: '40' });
    expect(listings(far)).toHaveLength(0);
  });

  it.each([
    ['pageSize=0', 'pageSize'],
    ['pageSize=101', 'pageSize'],
    ['page=-1', 'page'],
    ['page=1.5', 'page'],
    ['page=2147483648', 'page'],
    ['page=first', 'page'],
    ['source=N1', 'source'],
    ['destination=toolongcode', 'destination'],
  ])('refuses %s with 400 naming the parameter', async (query, field) => {
    expect(rejection(await fx(t, 'GET', `/listings?${query}`))).toMatchObject({ status: 400, code: 'VALIDATION_ERROR', location: field });
  });
});

describe('GET /rates/makers', () => {
  const rate = async (app: TestApp, from = 'NGN', to = 'USDT') => {
    const res = await fx(app, 'GET', `/rates/makers?from=${from}&to=${to}`);
    expect(res.status).toBe(200);
    return res.xml as Record<string, string>;
  };

  it('quotes a pair near its pools, re-quoted each minute; AgeSecs counts the seconds since', async () => {
    const r = await rate(t);
    expect(r).toMatchObject({ SrcCcy: 'NGN', TrgtCcy: 'USDT', RateSrc: 'market_maker', TmStmp: '2026-01-15T09:00:00.000Z', AgeSecs: '0', OprgMd: 'sandbox' });
    // The NGN/USDT pools average 1585.1375; the walk stays within 2.9 % of that.
    expect(new Decimal(r.XchgRate).div('1585.1375').minus(1).abs().lte('0.029')).toBe(true);
    await advance(t, 45);
    expect(await rate(t)).toMatchObject({ XchgRate: r.XchgRate, TmStmp: '2026-01-15T09:00:00.000Z', AgeSecs: '45' });
    await advance(t, 15);
    const next = await rate(t);
    expect(next).toMatchObject({ TmStmp: '2026-01-15T09:01:00.000Z', AgeSecs: '0' });
    const lower = await rate(t, 'ngn', 'usdt');
    expect(lower.SrcCcy).toBe('NGN');
  });

  it('PctChg24H is the change against the rate 24 hours earlier', async () => {
    const before = await rate(t);
    await advance(t, 86_400);
    const after = await rate(t);
    const expected = new Decimal(after.XchgRate).div(before.XchgRate).minus(1).mul(100).toDecimalPlaces(4, Decimal.ROUND_HALF_UP);
    expect(new Decimal(after.PctChg24H).eq(expected)).toBe(true);
    expect(after.XchgRate).not.toBe(before.XchgRate);
  });

  it('the same seed gives the same rates; another seed gives others once the market has moved', async () => {
    const again = await createTestApp();
    const other = await createTestApp({ config: { seed: 8 } });
    // Every key's market starts at its pools' rates, whatever the seed.
    expect((await rate(other)).XchgRate).toBe((await rate(t)).XchgRate);
    for (const app of [t, again, other]) await advance(app, 3 * 3600);
    for (const [from, to] of [['NGN', 'USDT'], ['USDC', 'GHS'], ['USD', 'USDT']]) {
      const a = await rate(t, from, to);
      expect(await rate(again, from, to)).toEqual(a);
      expect((await rate(other, from, to)).XchgRate).not.toBe(a.XchgRate);
    }
  });

  it('answers an unsupported currency or pair with the 400 UNSUPPORTED_CURRENCY reject a trade gets, and a missing parameter with 400', async () => {
    const eur = rejection(await fx(t, 'GET', '/rates/makers?from=EUR&to=USDT'));
    expect(eur).toEqual({ status: 400, code: 'UNSUPPORTED_CURRENCY', location: 'from', text: "Currency 'EUR' is not supported; use one of NGN, GHS, USD, USDT, USDC." });
    const trade = rejection(await fx(t, 'POST', '/trades', { xml: instruction({ base: 'EUR' }) }));
    expect(trade).toEqual({ ...eur, location: 'CcyPair/BaseCcy' });
    expect(rejection(await fx(t, 'GET', '/rates/makers?from=usdt&to=eur'))).toMatchObject({ status: 400, code: 'UNSUPPORTED_CURRENCY', location: 'to' });
    const tokenPair = rejection(await fx(t, 'GET', '/rates/makers?from=USDT&to=USDC'));
    expect(tokenPair).toEqual({
      status: 400,
      code: 'UNSUPPORTED_CURRENCY',
      location: 'to',
      text:
        'Converting USDT to USDC is not supported: pools convert between a fiat currency (NGN, GHS, USD) and a token (USDT, USDC), ' +
        'either way, and one fiat currency to another; never one token to another. Send a fiat currency as to.',
    });
    expect(rejection(await fx(t, 'POST', '/trades', { xml: instruction({ base: 'USDT', quoted: 'USDC' }) }))).toMatchObject({ status: 400, code: 'UNSUPPORTED_CURRENCY', location: 'CcyPair/QtdCcy' });
    expect(rejection(await fx(t, 'GET', '/rates/makers?from=NGN'))).toMatchObject({ status: 400, code: 'VALIDATION_ERROR', location: 'to' });
    const both = rejection(await fx(t, 'GET', '/rates/makers'));
    expect(both).toMatchObject({ status: 400, location: 'from, to' });
    // the rest of the list is in the reject's AddtlData, and the text says so
    expect(both.text).toContain('(and 1 more problem, listed in AddtlData)');
  });
});

describe('GET /xsd/{name}.xsd', () => {
  it('serves every XSD without a key, as application/xml', async () => {
    for (const [root, file] of Object.entries(XSD_NAMES)) {
      const res = await t.app.request(`/xsd/${root}.xsd`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/xml/);
      expect(await res.text()).toBe(readFileSync(new URL(`../../../xsd/${file}`, import.meta.url), 'utf8'));
    }
  });

  it('serves the XSD of a message under its ISO 20022 id when the id names one message', async () => {
    const cases: [string, string][] = [
      ['fxtr.017.001.05', 'FXTradStsAndDtlsNtfctn.xsd'],
      ['fxtr.016.001.05', 'FXTradCxlRspn.xsd'],
      ['fxtr.037.001.02', 'FXTradConfStsAdvc.xsd'],
      ['reda.041.001.01', 'FndPrcgPsptRpt.xsd'],
    ];
    for (const [id, file] of cases) {
      const res = await t.app.request(`/xsd/${id}.xsd`);
      expect(res.status, id).toBe(200);
      expect(await res.text()).toBe(readFileSync(new URL(`../../../xsd/${file}`, import.meta.url), 'utf8'));
    }
    expect((await t.app.request('/xsd/fxtr.014.001.05.xsd')).status).toBe(404);
  });

  it('is 404 for a name no message has, as the XML reject', async () => {
    for (const path of ['/xsd/Nothing.xsd', '/xsd/FXTradInstr', '/xsd/FXTradInstr.xsd/more']) {
      const res = await t.app.request(path);
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/^application\/xml/);
      const text = await res.text();
      expect(validateAgainstXsd(text, 'MsgRjct')).toEqual([]);
      expect(text).toMatch(/<RjctgPtyRsn>(RESOURCE|ROUTE)_NOT_FOUND<\/RjctgPtyRsn>/);
    }
  });

  it('names the XSDs there are when asked for one there is not, and the near one for a slip of case', async () => {
    const roots = 'FXTradInstr, FXTradInstrRspn, FXTradAccptReq, FXTradStsAndDtlsNtfctn, FXTradCxlReq, FXTradCxlRspn, FXTradConfReq, FXTradConfStsAdvc, FndPrcgPsptRpt, FxTradStsAndDtls, MsgRjct';
    const unknown = await (await t.app.request('/xsd/Nothing.xsd')).text();
    expect(unknown).toContain(`<RsnDesc>No XSD named 'Nothing.xsd'. Ask for a message root followed by .xsd: ${roots}.</RsnDesc>`);
    expect(unknown).toContain('<ErrLctn>file</ErrLctn>');
    expect(unknown).toContain('fxtr.016.001.05.xsd, fxtr.017.001.05.xsd, fxtr.037.001.02.xsd, reda.041.001.01.xsd</AddtlData>');
    expect(validateAgainstXsd(unknown, 'MsgRjct')).toEqual([]);
    const slip = await (await t.app.request('/xsd/fxtradinstr')).text();
    expect(slip).toContain("<RsnDesc>No XSD named 'fxtradinstr'. Did you mean FXTradInstr.xsd? Ask for a message root followed by .xsd: ");
    // A long name is shortened in the text, which stays within the 350 characters MsgRjct allows.
    const long = await (await t.app.request(`/xsd/${'x'.repeat(300)}.xsd`)).text();
    expect(long).toContain(`<RsnDesc>No XSD named '${'x'.repeat(40)}…'. Ask for`);
    expect(validateAgainstXsd(long, 'MsgRjct')).toEqual([]);
  });

  it('the schemas refuse a wrong shape', () => {
    const wrong = '<FXTradCxlRspn><TxId>x</TxId><Sts>DONE</Sts><TTL>0</TTL><OprgMd>sandbox</OprgMd></FXTradCxlRspn>';
    expect(validateAgainstXsd(wrong, 'FXTradCxlRspn')).not.toEqual([]);
  });
});

it('documents the FX routes in /openapi.json with XML bodies naming their root and XSD', async () => {
  const doc = await (await t.app.request('/openapi.json')).json();
  const create = doc.paths[`${FX}/trades`].post;
  expect(Object.keys(create.requestBody.content)).toEqual(['application/xml']);
  expect(create.requestBody.description).toMatch(/FXTradInstr.*\/xsd\/FXTradInstr\.xsd/);
  expect(create.responses['201'].content['application/xml'].schema.type).toBe('string');
  expect(create.responses['400'].description).toMatch(/MsgRjct/);
  for (const p of ['/trades/{transactionId}', '/trades/{transactionId}/accept', '/trades/{transactionId}/confirmation', '/trades/{transactionId}/cancellation', '/listings', '/rates/makers']) {
    expect(doc.paths[`${FX}${p}`], p).toBeDefined();
  }
  expect(doc.paths['/xsd/{file}'].get).toBeDefined();
});

it('names in /openapi.json the ISO 20022 message type of every FX operation, as the API document lists them', async () => {
  const doc = await (await t.app.request('/openapi.json')).json();
  const types: [string, string, string][] = [
    ['/trades', 'post', 'fxtr.014.001.05'],
    ['/trades/{transactionId}', 'get', 'fxtr.017.001.05'],
    ['/trades/{transactionId}/cancellation', 'put', 'fxtr.016.001.05'],
    ['/trades/{transactionId}/confirmation', 'post', 'fxtr.037.001.02'],
    ['/trades/{transactionId}/accept', 'post', 'fxtr.014.001.05'],
    ['/listings', 'get', 'reda.041.001.01'],
    ['/rates/makers', 'get', 'fxtr.014.001.05'],
  ];
  for (const [path, method, type] of types) expect(doc.paths[`${FX}${path}`][method].summary, `${method} ${path}`).toContain(`(${type})`);
});
