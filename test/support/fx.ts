// Calls to the FX interface: every XML answer is checked against the XSD of its root before the
// test sees it, and handed back parsed (values as text) as `xml`.
import { expect } from 'vitest';
import { acceptBankExample, acceptChainExample, instructionExample } from '../../src/domains/fx/fx.examples.js';
import { LISTINGS_ARRAYS } from '../../src/iso20022/listings-message.js';
import { parseXml, type XmlElement } from '../../src/iso20022/xml.js';
import { isXsdName } from '../../src/iso20022/xsd-names.js';
import { validateAgainstXsd } from '../../src/iso20022/xsd.test-helper.js';
import { KEY, type CallResult, type TestApp } from './app.js';

export const FX = '/api/v1/partners/fx';

export interface FxOptions {
  xml?: string;
  key?: string | null;
  headers?: Record<string, string>;
}

export type FxResult = CallResult<string> & { root: string; xml: XmlElement };

export async function fx(t: TestApp, method: string, path: string, o: FxOptions = {}): Promise<FxResult> {
  const headers: Record<string, string> = { ...o.headers };
  if (o.xml !== undefined) headers['content-type'] ??= 'application/xml';
  const res = await t.call<string>(method, path.startsWith('/') && !path.startsWith(FX) ? FX + path : path, {
    raw: o.xml,
    key: o.key === undefined ? KEY : o.key,
    headers,
  });
  expect(res.headers.get('content-type'), res.text).toMatch(/^application\/xml/);
  const root = /^(?:<\?xml[^>]*\?>\s*)?<([A-Za-z]+)/.exec(res.text)?.[1] ?? '';
  expect(isXsdName(root), `unknown root in ${res.text}`).toBe(true);
  expect(validateAgainstXsd(res.text, root as never), res.text).toEqual([]);
  // A reject's AddtlData may run to 20000 characters (Max20000Text), past what a request may send.
  const { body } = parseXml(res.text, { roots: [root], isArray: LISTINGS_ARRAYS, maxText: 20_000 });
  return { ...res, root, xml: body };
}

/** The reject's code, location and status in one object, for compact assertions. */
export function rejection(res: FxResult) {
  expect(res.root).toBe('MsgRjct');
  const rsn = res.xml.Rsn as XmlElement;
  return { status: res.status, code: rsn.RjctgPtyRsn, location: rsn.ErrLctn, text: rsn.RsnDesc as string };
}

export const instruction = instructionExample;
export const acceptBank = acceptBankExample;
export const acceptAccount = '<FXTradAccptReq><AcctId>73fa4f38-0f4d-443c-acf8-4003ed7e9ee9</AcctId></FXTradAccptReq>';
export const acceptChain = acceptChainExample;

/** Create a trade; returns its TxId. */
export async function newTrade(t: TestApp, o: Parameters<typeof instruction>[0] = {}, key?: string): Promise<string> {
  const res = await fx(t, 'POST', '/trades', { xml: instruction(o), key });
  expect(res.status, res.text).toBe(201);
  return ((res.xml.UnqTxIdr as XmlElement).TxId as string);
}
