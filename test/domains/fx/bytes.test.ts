// The exact bytes of every FX message, over HTTP on a fixed seed and clock: one partner's session
// (trades created, read, accepted, confirmed, cancelled; listings; maker rates; rejects) compared
// byte for byte with the answers recorded in test/domains/fx/bytes/ (each also valid against its XSD). A
// change to how XML is written or parsed must leave every one of them as it was.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { validateAgainstXsd } from '../../../src/iso20022/xsd.test-helper.js';
import { isXsdName } from '../../../src/iso20022/xsd-names.js';
import { createTestApp, KEY_B, LIVE_KEY, type TestApp } from '../../support/app.js';
import { acceptAccount, acceptBank, acceptChain, FX, instruction } from '../../support/fx.js';

const expected = (name: string) => readFileSync(new URL(`./bytes/${name}.xml`, import.meta.url), 'utf8');

interface Step {
  name: string;
  method: string;
  path: string | ((ids: Record<string, string>) => string);
  xml?: string;
  key?: string | null;
  headers?: Record<string, string>;
  status: number;
  /** Keep the answer's TxId under this name for later steps. */
  keep?: string;
}

const wrapped = `<?xml version="1.0" encoding="UTF-8"?>
<fx:Document xmlns:fx="urn:iso:std:iso:20022:tech:xsd:fxtr.014.001.05">
  <fx:FXTradInstr>
    <fx:CcyPair><fx:BaseCcy>USDT</fx:BaseCcy><fx:QtdCcy>NGN</fx:QtdCcy></fx:CcyPair>
    <fx:TradAmts><fx:TradgCcyAmt>250.5</fx:TradgCcyAmt></fx:TradAmts>
    <fx:AgrdRate><fx:XchgRate>1570</fx:XchgRate></fx:AgrdRate>
    <fx:AmtDrctn>SELL</fx:AmtDrctn>
  </fx:FXTradInstr>
</fx:Document>`;

// Text a partner sent, echoed in a reject: markup characters, an astral character, quotes. (A
// character XML cannot carry is refused before any value is read.)
const echoed = instruction({ amount: `1&amp;0 &lt;&#x1F4B6;&gt; "'x'" a>b`, base: 'ngn' }).replace('<AmtDrctn>BUY', '<AmtDrctn>Buy');
const crlf = instruction({ amount: '10.5' }).replace(/\n/g, '\r\n');

const STEPS: Step[] = [
  { name: 'trade-new-buy', method: 'POST', path: '/trades', xml: instruction(), status: 201, keep: 'buy' },
  { name: 'trade-new-sell-wrapped', method: 'POST', path: '/trades', xml: wrapped, status: 201, keep: 'sell' },
  { name: 'trade-new-split', method: 'POST', path: '/trades', xml: instruction({ amount: '79038125', direction: 'SELL' }), status: 201, keep: 'split' },
  { name: 'trade-new-crlf', method: 'POST', path: '/trades', xml: crlf, status: 201 },
  { name: 'trade-new-live', method: 'POST', path: '/trades', xml: instruction({ base: 'GHS', quoted: 'USDC', amount: '12.34567' }), key: LIVE_KEY, status: 201 },
  { name: 'trade-status-newt', method: 'GET', path: (ids) => `/trades/${ids.buy}`, status: 200 },
  { name: 'trade-accept-chain', method: 'POST', path: (ids) => `/trades/${ids.buy}/accept`, xml: acceptChain, status: 200 },
  { name: 'trade-accept-bank', method: 'POST', path: (ids) => `/trades/${ids.sell}/accept`, xml: acceptBank, status: 200 },
  { name: 'trade-accept-account', method: 'POST', path: (ids) => `/trades/${ids.split}/accept`, xml: acceptAccount, status: 200 },
  { name: 'trade-status-sett', method: 'GET', path: (ids) => `/trades/${ids.buy}`, status: 200 },
  { name: 'trade-confirmation', method: 'POST', path: (ids) => `/trades/${ids.buy}/confirmation`, status: 200 },
  { name: 'trade-confirmation-remarks', method: 'POST', path: (ids) => `/trades/${ids.sell}/confirmation`, xml: '<FXTradConfReq><Rmrks>Paid &amp; done</Rmrks></FXTradConfReq>', status: 200 },
  { name: 'trade-status-comp', method: 'GET', path: (ids) => `/trades/${ids.buy}`, status: 200 },
  { name: 'trade-cancellation', method: 'PUT', path: (ids) => `/trades/${ids.split}/cancellation`, xml: '<FXTradCxlReq><Rsn>Rate moved</Rsn></FXTradCxlReq>', status: 200 },
  { name: 'trade-status-canc', method: 'GET', path: (ids) => `/trades/${ids.split}`, status: 200 },
  { name: 'listings-default', method: 'GET', path: '/listings', status: 200 },
  { name: 'listings-all', method: 'GET', path: '/listings?pageSize=40', status: 200 },
  { name: 'listings-filtered', method: 'GET', path: '/listings?source=ngn&destination=USDT', status: 200 },
  { name: 'listings-past-end', method: 'GET', path: '/listings?page=9', status: 200 },
  { name: 'rate-ngn-usdt', method: 'GET', path: '/rates/makers?from=NGN&to=USDT', status: 200 },
  { name: 'rate-usdc-ghs', method: 'GET', path: '/rates/makers?from=usdc&to=ghs', status: 200 },
  { name: 'reject-malformed', method: 'POST', path: '/trades', xml: '<FXTradInstr>\n  <CcyPair><BaseCcy>NGN</BaseCcy></FXTradInstr>', status: 400 },
  { name: 'reject-doctype', method: 'POST', path: '/trades', xml: '<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><FXTradInstr>&e;</FXTradInstr>', status: 400 },
  { name: 'reject-fields', method: 'POST', path: '/trades', xml: '<FXTradInstr><CcyPair><QtdCcy>ngn</QtdCcy></CcyPair><TradAmts><TradgCcyAmt>1e5</TradgCcyAmt></TradAmts><AmtDrctn/></FXTradInstr>', status: 400 },
  { name: 'reject-echoed-text', method: 'POST', path: '/trades', xml: echoed, status: 400 },
  { name: 'reject-wrong-root', method: 'POST', path: '/trades', xml: '<FXTradAccptReq/>', status: 400 },
  { name: 'reject-liquidity', method: 'POST', path: '/trades', xml: instruction({ amount: '50000', rate: '1500' }), status: 400 },
  { name: 'reject-state', method: 'POST', path: (ids) => `/trades/${ids.buy}/accept`, xml: acceptChain, status: 409 },
  { name: 'reject-unknown-trade', method: 'GET', path: '/trades/3f1c2a9e-8b7d-4c6e-9f10-2a3b4c5d6e7f', status: 404 },
  { name: 'reject-media-type', method: 'POST', path: '/trades', xml: '{}', headers: { 'content-type': 'application/json' }, status: 415 },
  { name: 'reject-no-key', method: 'GET', path: '/listings', key: null, status: 401 },
  { name: 'reject-query', method: 'GET', path: '/listings?pageSize=0', key: KEY_B, status: 400 },
];

let t: TestApp;
const answers = new Map<string, { status: number; text: string }>();

beforeAll(async () => {
  // A reject written before the key is known carries the server's time.
  vi.useFakeTimers({ toFake: ['Date'], now: Date.parse('2026-02-01T10:00:00.000Z') });
  t = await createTestApp();
  const ids: Record<string, string> = {};
  for (const s of STEPS) {
    const path = FX + (typeof s.path === 'function' ? s.path(ids) : s.path);
    const headers: Record<string, string> = { ...(s.xml === undefined ? {} : { 'content-type': 'application/xml' }), ...s.headers };
    const res = await t.call<string>(s.method, path, { raw: s.xml, key: s.key, headers, unchecked: true });
    answers.set(s.name, { status: res.status, text: res.text });
    if (s.keep) ids[s.keep] = /<TxId>([^<]+)<\/TxId>/.exec(res.text)![1];
  }
});

afterAll(() => {
  vi.useRealTimers();
});

describe('FX messages keep their exact bytes', () => {
  it.each(STEPS.map((s) => [s.name, s] as const))('%s', (name, step) => {
    const got = answers.get(name)!;
    expect(got.status, got.text).toBe(step.status);
    expect(got.text).toBe(expected(name));
    const root = /^<\?xml[^>]*\?>\n<([A-Za-z]+)/.exec(got.text)?.[1] ?? '';
    expect(isXsdName(root) && validateAgainstXsd(got.text, root), got.text).toEqual([]);
  });
});
