// A JSON body sent to the FX interface as XML (Content-Type application/xml) is told apart from broken
// XML: the reject says it is JSON and names the message the route takes, on every route with a body.
import { beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../support/app.js';
import { fx, newTrade, rejection } from '../../support/fx.js';

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
});

const said = (root: string) =>
  `The request body is JSON, but the FX interface takes XML. Send an XML message whose root element is ${root}, with Content-Type: application/xml.`;

describe('a JSON body sent as application/xml', () => {
  it.each([
    ['POST', '/trades', 'FXTradInstr', '{"sourceCurrency":"NGN","destinationCurrency":"USDT","amount":1000}'],
    ['POST', '/trades/{id}/accept', 'FXTradAccptReq', '\n  {"accountId":"73fa4f38-0f4d-443c-acf8-4003ed7e9ee9"}'],
    ['POST', '/trades/{id}/confirmation', 'FXTradConfReq', '{}'],
    ['PUT', '/trades/{id}/cancellation', 'FXTradCxlReq', '[{"reason":"rate moved"}]'],
  ])('%s %s is 400 MALFORMED_XML saying it is JSON and naming %s', async (method, path, root, json) => {
    const id = await newTrade(t);
    const res = await fx(t, method, path.replace('{id}', id), { xml: json });
    expect(rejection(res)).toEqual({ status: 400, code: 'MALFORMED_XML', location: undefined, text: said(root) });
    expect((await fx(t, 'GET', `/trades/${id}`)).xml.Sts).toBe('NEWT');
  });

  it('a UTF-8 BOM before the JSON is the same answer', async () => {
    const res = await fx(t, 'POST', '/trades', { xml: '\uFEFF{"amount":1}' });
    expect(rejection(res).text).toBe(said('FXTradInstr'));
  });
});
