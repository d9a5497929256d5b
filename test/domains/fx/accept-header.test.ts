// The FX interface answers in XML only (the API document: Accept application/xml): an Accept header
// that admits no XML type is refused with the reject naming it, on every FX route alike.
import { beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../support/app.js';
import { acceptAccount, fx, instruction, newTrade, rejection } from '../../support/fx.js';

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
});

const TEXT = "The FX interface answers in XML only, and the Accept header 'application/json' admits no XML type. Send Accept: application/xml (or leave the header out).";

describe('Accept on the FX interface', () => {
  it('a trade asked for as JSON is 400 naming Accept, and nothing is created', async () => {
    const res = await fx(t, 'POST', '/trades', { xml: instruction(), headers: { accept: 'application/json' } });
    expect(rejection(res)).toEqual({ status: 400, code: 'VALIDATION_ERROR', location: 'Accept', text: TEXT });
    const events = await t.call('GET', '/_sandbox/events?type=fx_trade.newt');
    expect(events.body.data).toEqual([]);
  });

  it.each([
    ['GET', '/listings', undefined],
    ['GET', '/rates/makers?from=NGN&to=USDT', undefined],
    ['GET', '/trades/{id}', undefined],
    ['POST', '/trades/{id}/accept', acceptAccount],
    ['POST', '/trades/{id}/confirmation', undefined],
    ['PUT', '/trades/{id}/cancellation', undefined],
  ])('%s %s refuses an Accept that admits no XML as the create does', async (method, path, xml) => {
    const id = await newTrade(t);
    const res = await fx(t, method, path.replace('{id}', id), { xml, headers: { accept: 'text/html' } });
    expect(rejection(res)).toMatchObject({ status: 400, code: 'VALIDATION_ERROR', location: 'Accept' });
    // The trade did not move.
    expect((await fx(t, 'GET', `/trades/${id}`)).xml.Sts).toBe('NEWT');
  });

  it('the XSDs are refused to a client that takes no XML, and served to one that does', async () => {
    const refused = await t.call('GET', '/xsd/FXTradInstr.xsd', { key: null, headers: { accept: 'application/json' } });
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('<ErrLctn>Accept</ErrLctn>');
    const served = await t.call('GET', '/xsd/FXTradInstr.xsd', { key: null, headers: { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' } });
    expect(served.status).toBe(200);
    expect(served.text).toContain('<xs:element name="FXTradInstr">');
    // A cache keeps the XSD for an hour: it must not hand it to a client that takes no XML.
    expect(served.headers.get('vary')).toBe('Accept');
  });

  it.each([
    'application/xml',
    'text/xml',
    '*/*',
    'application/*',
    'Application/XML; charset=utf-8',
    'application/json, */*;q=0.1',
    'application/xml;q=0, text/xml',
    'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
    '',
  ])('takes Accept: %s', async (accept) => {
    const res = await fx(t, 'POST', '/trades', { xml: instruction(), headers: { accept } });
    expect(res.status, res.text).toBe(201);
  });

  it.each(['application/json', 'text/html', '*/*;q=0', 'application/xml;q=0', 'json', 'application/*;q=0, text/plain'])(
    'refuses Accept: %s',
    async (accept) => {
      const res = await fx(t, 'POST', '/trades', { xml: instruction(), headers: { accept } });
      expect(rejection(res)).toMatchObject({ status: 400, location: 'Accept' });
    },
  );
});
