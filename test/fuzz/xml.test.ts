// Hostile XML for the FX interface: random element trees under the real and wrong roots, DOCTYPEs,
// huge text nodes, broken markup. Never a 5xx; every answer is an XML message that validates
// against its XSD (checked by the fx() helper); a refusal leaves nothing stored.
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.js';
import { fx, FX } from '../support/fx.js';
import { changedCollections, storedState } from './routes.js';

const NAMES = ['FXTradInstr', 'FXTradAccptReq', 'FXTradCxlReq', 'FXTradConfReq', 'Document', 'CcyPair', 'BaseCcy', 'QtdCcy', 'TradAmts', 'TradgCcyAmt', 'AgrdRate', 'XchgRate', 'AmtDrctn', 'SttlmDstn', 'BkDstn', 'AcctNm', 'AcctNb', 'BkCd', 'BlkChnDstn', 'Adr', 'AcctId', 'Rsn', 'x', 'a-b', 'ns:Tag', 'constructor', '__proto__', 'prototype'];
const TEXTS = fc.oneof(
  fc.constantFrom('NGN', 'USDT', 'BUY', 'SELL', '100', '-1', '1e5', '0.000001', '12345678901234567890.12345', '', ' ', '&amp;', '&#x41;', '<![CDATA[x]]>'),
  fc.string({ maxLength: 40 }).map((s) => s.replace(/[<&]/g, '')),
  fc.integer({ min: 1, max: 200_000 }).map((n) => 'x'.repeat(n)),
);

interface Node {
  name: string;
  children: Node[];
  text: string;
}

const leaf: fc.Arbitrary<Node> = fc.record({ name: fc.constantFrom(...NAMES), children: fc.constant([]), text: TEXTS });
const tree: fc.Arbitrary<Node> = fc.letrec<{ node: Node }>((tie) => ({
  node: fc.oneof(
    { maxDepth: 5, depthIdentifier: 'xml' },
    leaf,
    fc.record({ name: fc.constantFrom(...NAMES), children: fc.array(tie('node'), { maxLength: 4 }), text: fc.constant('') }),
  ),
})).node;

const render = (n: Node): string =>
  n.children.length ? `<${n.name}>${n.children.map(render).join('')}</${n.name}>` : `<${n.name}>${n.text}</${n.name}>`;

const TRADE = '<FXTradInstr><CcyPair><BaseCcy>NGN</BaseCcy><QtdCcy>USDT</QtdCcy></CcyPair><TradAmts><TradgCcyAmt>100</TradgCcyAmt></TradAmts><AmtDrctn>BUY</AmtDrctn></FXTradInstr>';

const HOSTILE: [string, string][] = [
  ['billion laughs', '<?xml version="1.0"?><!DOCTYPE l [<!ENTITY a "aaaa"><!ENTITY b "&a;&a;&a;&a;">]><FXTradInstr>&b;</FXTradInstr>'],
  ['external entity', '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><FXTradInstr><AmtDrctn>&e;</AmtDrctn></FXTradInstr>'],
  ['undefined entity', '<FXTradInstr><AmtDrctn>&nope;</AmtDrctn></FXTradInstr>'],
  ['two roots', TRADE + TRADE],
  ['unclosed', TRADE.slice(0, -5)],
  ['wrong root', TRADE.replace(/FXTradInstr/g, 'FXTradAccptReq')],
  ['deep nesting', '<a>'.repeat(5000) + '</a>'.repeat(5000)],
  ['900 KB text node', TRADE.replace('100', 'x'.repeat(900_000))],
  ['latin-1 declaration', `<?xml version="1.0" encoding="ISO-8859-1"?>${TRADE}`],
  ['nul byte', TRADE.replace('NGN', 'N\u0000N')],
];

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});

/** Sends one body to a POST route of the interface and checks the invariants. */
async function check(path: string, xml: string) {
  const before = await storedState(t);
  const res = await fx(t, 'POST', path, { xml });
  expect(res.status, `${path} ${xml.slice(0, 200)}\n${res.text.slice(0, 400)}`).toBeLessThan(500);
  if (res.status >= 400) {
    expect(res.root).toBe('MsgRjct');
    expect(changedCollections(before, await storedState(t)), `${xml.slice(0, 200)} left writes behind in`).toEqual([]);
  }
  return res;
}

describe('hostile XML on the FX interface', () => {
  it('refuses each crafted body with a 4xx reject and stores nothing', async () => {
    for (const [name, xml] of HOSTILE) {
      const res = await check(`${FX}/trades`, xml);
      expect(res.status, name).toBeGreaterThanOrEqual(400);
    }
  });

  it('answers random trees under every request root without a 5xx or a stray write', async () => {
    const created = await fx(t, 'POST', `${FX}/trades`, { xml: TRADE });
    expect(created.status).toBe(201);
    const txId = (created.xml.UnqTxIdr as { TxId: string }).TxId;
    const paths = [`${FX}/trades`, `${FX}/trades/${txId}/accept`, `${FX}/trades/${txId}/confirmation`];
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...paths), tree, fc.boolean(), async (path, node, wrapped) => {
        const body = wrapped ? `<Document xmlns="urn:iso:std:iso:20022:tech:xsd:fxtr.014.001.05">${render(node)}</Document>` : render(node);
        await check(path, body);
      }),
      { numRuns: 150 },
    );
  });
});
