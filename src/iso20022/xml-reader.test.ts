// The one-pass reader against fast-xml-parser as xml.ts used it before the reader existed (its
// validator, then the parser with per-message entity tables): on every body the reader reads, both
// give the same object; on every body the library refuses, the reader declines. Hand-picked bodies
// show the reader does read the usual messages; generated ones (trees, then mangled) look for a
// difference.
import { COMMON_HTML, CURRENCY, EntityDecoder } from '@nodable/entities';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LISTINGS_ARRAYS, buildListingsReport } from './listings-message.js';
import { buildReject } from './reject.js';
import { buildTradeAcceptResponse } from './trade-accept.js';
import { SandboxError } from '../kernel/errors.js';
import { readXml } from './xml-reader.js';
import { parserOptions } from './xml.js';

const LISTS = ['FXTradInstr/L', 'R/L', ...LISTINGS_ARRAYS];

/** The library as xml.ts calls it when the reader declines, but with the entity decoder it made per
 * message before the reader existed: the validator, then the parser. */
function library(text: string): unknown {
  if (XMLValidator.validate(text) !== true) return 'refused';
  const parser = new XMLParser({ ...parserOptions(new Set(LISTS)), htmlEntities: true });
  try {
    return parser.parse(text);
  } catch {
    return 'refused';
  }
}

function reader(text: string): unknown {
  const references = new EntityDecoder({
    namedEntities: { ...COMMON_HTML, ...CURRENCY },
    numericAllowed: true,
    limit: { maxTotalExpansions: Infinity, maxExpandedLength: 100_000, applyLimitsTo: 'all' },
  });
  return readXml(text, { lists: new Set(LISTS), decode: (t) => references.decode(t), maxDepth: 32 });
}

const payIn = { accountName: 'Sandbox Settlement Ltd', accountNumber: '0690000031', bankName: 'Access Bank', reference: 'FX-28ADCBBE3D875B68' };
const pool = { id: 'lst_1', name: 'Lagos & Co <OTC>', pair: { baseCcy: 'NGN', quotedCcy: 'USDT' }, rate: '1580.5', availableBalance: '42500', tradesCount: 3, completionRate: '98.7' };
const TRADE = '<FXTradInstr><CcyPair><BaseCcy>NGN</BaseCcy><QtdCcy>USDT</QtdCcy></CcyPair><TradAmts><TradgCcyAmt>1000</TradgCcyAmt></TradAmts><AmtDrctn>BUY</AmtDrctn></FXTradInstr>';
const INDENTED = `<?xml version="1.0" encoding="UTF-8"?>
<FXTradInstr>
  <CcyPair><BaseCcy>NGN</BaseCcy><QtdCcy>USDT</QtdCcy></CcyPair>
  <TradAmts><TradgCcyAmt> 1000 </TradgCcyAmt></TradAmts>
  <AgrdRate><XchgRate>1580.5</XchgRate></AgrdRate>
  <AmtDrctn>BUY</AmtDrctn>
</FXTradInstr>
`;

const READ: [string, string][] = [
  ['a trade instruction', TRADE],
  ['an indented one with a declaration', INDENTED],
  ['the same with CRLF line ends', INDENTED.replace(/\n/g, '\r\n')],
  ['in a Document wrapper', `<Document xmlns="urn:iso:std:iso:20022:tech:xsd:fxtr.014.001.05">${TRADE}</Document>`],
  ['with prefixes', `<fx:Document xmlns:fx="urn:x" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">${TRADE.replace(/<(\/?)(\w+)>/g, '<$1fx:$2>')}</fx:Document>`],
  ['declarations in other forms', `<?xml version='1.0' encoding='utf-8' standalone='yes' ?>\n${TRADE}`],
  ['attributes and spaces in tags', `<FXTradInstr a = "1" b='2'\n><AmtDrctn  >BUY</AmtDrctn\n></FXTradInstr >`],
  ['self-closing elements', '<FXTradCxlReq><Rsn/><X /><Y a="1"/></FXTradCxlReq>'],
  ['a self-closing root', '<FXTradConfReq/>'],
  ['character references', '<FXTradCxlReq><Rsn>A &amp; B &lt;&#65;&#x42;&gt; &quot;&apos; &#1; &#0; &#x1F4B6;</Rsn><T>&#32;x</T></FXTradCxlReq>'],
  ['markup characters text may hold', `<R><T>a > b ]]> "c" 'd'</T><U>\u00A0 padded \u00A0</U><V>\t\n </V></R>`],
  ['line breaks inside text', '<R><T>a\r\nb\rc\nd</T></R>'],
  ['repeated elements, and listed paths', '<R><A>1</A><A>2</A><B><C/></B><B>x</B><L>only</L></R>'],
  ['names every object has', '<R><constructor/><prototype><x>1</x></prototype><__proto__><p>yes</p></__proto__><fx:toString>t</fx:toString><hasOwnProperty>h</hasOwnProperty></R>'],
  ['names with dots, dashes and digits', '<R><a.b>1</a.b><a-b_2>2</a-b_2><_x>3</_x></R>'],
  ['a listing report', buildListingsReport({ pageNumber: 0, pageSize: 10, totalElements: 2, listings: [pool, { ...pool, id: 'lst_2' }], mode: 'sandbox' })],
  ['an accepted trade', buildTradeAcceptResponse({ txId: '3f1c2a9e-8b7d-4c6e-9f10-2a3b4c5d6e7f', pair: pool.pair, amounts: { trading: '1', settlement: '2', counterValue: '3' }, payIn, mode: 'live' })],
  ['a reject', buildReject(new SandboxError('VALIDATION_ERROR', 'x & <y>', [{ field: 'A', issue: 'b' }]), { ref: 'POST /x', at: 0 })],
  ['thirty levels', `${'<a>'.repeat(30)}x${'</a>'.repeat(30)}`],
];

const DECLINED: [string, string][] = [
  ['a comment', `<R><!-- c --><A>1</A></R>`],
  ['CDATA', '<R><A><![CDATA[x]]></A></R>'],
  ['a processing instruction', '<R><?pi x?><A>1</A></R>'],
  ['XML 1.1', `<?xml version="1.1"?><R/>`],
  ['a declaration after a space', ` <?xml version="1.0"?><R/>`],
  ['text beside elements', '<R>x<A>1</A></R>'],
  ['text after elements', '<R><A>1</A>x</R>'],
  ['a reference beside elements', '<R><A>1</A>&#32;</R>'],
  ['nesting past the limit', `${'<a>'.repeat(31)}x${'</a>'.repeat(31)}`],
  ['an xmlns-prefixed element', '<xmlns:a/>'],
  ['a repeated attribute', '<R a="1" a="2"/>'],
  ['an attribute holding & or <', '<R a="&amp;"/>'],
  ['an unclosed element', '<R><A>1</A>'],
  ['a wrong end tag', '<R><A>1</B></R>'],
  ['an end tag with another prefix', '<p:R></q:R>'],
  ['two roots', '<R/><R/>'],
  ['text after the root', '<R/>x'],
  ['text before the root', 'x<R/>'],
  ['no element', '  '],
  ['an unnamed tag', '<R>< A/></R>'],
];

describe('readXml', () => {
  it.each(READ)('reads %s as the library does', (_what, text) => {
    const got = reader(text);
    expect(got).not.toBeUndefined();
    expect(got).toStrictEqual(library(text));
  });

  it.each(DECLINED)('declines %s', (_what, text) => {
    expect(reader(text)).toBeUndefined();
  });

  it('reads exactly what the library reads, on generated and mangled bodies', () => {
    let read = 0;
    let runs = 0;
    fc.assert(
      fc.property(body, (text) => {
        runs++;
        const got = reader(text);
        if (got === undefined) return;
        read++;
        expect(got, text).toStrictEqual(library(text));
      }),
      { numRuns: 3000 },
    );
    // The property means little unless the reader takes a good share of the bodies.
    expect(read / runs).toBeGreaterThan(0.3);
  });
});

// ---- generated bodies ------------------------------------------------------------------------

// Mostly names and texts the reader takes, some it declines.
const NAMES = fc.oneof(
  { weight: 15, arbitrary: fc.constantFrom('R', 'A', 'B', 'L', 'FXTradInstr', 'Document', 'fx:A', 'p:L', 'a.b', 'x-1', '_y', 'constructor', 'toString', '__proto__', 'prototype') },
  { weight: 1, arbitrary: fc.constantFrom('xmlns:z', '1A', 'é', 'a:b:c', ':a') },
);
const TEXTS = fc.oneof(
  { weight: 10, arbitrary: fc.constantFrom('', ' ', '1000', ' NGN ', '\r\n x \r\n', 'a > b', ']]>', '"q"', "'s'", '\u00A0x\u00A0', '&amp;', '&lt;&gt;', '&#65;', '&#x42;', '&#1;', '&#0;', '&#32;', '&#xD800;', '&#x110000;', '&quot;&apos;', '💶') },
  { weight: 3, arbitrary: fc.string({ maxLength: 12 }).map((s) => s.replace(/[<&]/g, '')) },
  { weight: 1, arbitrary: fc.constantFrom('&nbsp;', '&#;', '&#x;', '& ', '&amp', '&#X41;') },
);
const SPACE = fc.constantFrom('', ' ', '\n', '\r\n', '\t', '  ');
const ATTRS = fc.array(fc.tuple(fc.constantFrom('a', 'b', 'xmlns', 'xmlns:fx', 'c:d'), fc.constantFrom('"1"', "'2'", '"a/b"', '"x>y"', '""')), { maxLength: 2 });

interface Node {
  name: string;
  attrs: [string, string][];
  children: Node[];
  text: string;
  selfClosing: boolean;
  pad: string;
}

const node: fc.Arbitrary<Node> = fc.letrec<{ node: Node }>((tie) => ({
  node: fc.record({
    name: NAMES,
    attrs: ATTRS,
    children: fc.oneof({ maxDepth: 4, depthIdentifier: 'tree' }, fc.constant<Node[]>([]), fc.array(tie('node'), { maxLength: 4 })),
    text: TEXTS,
    selfClosing: fc.boolean(),
    pad: SPACE,
  }),
})).node;

function render(n: Node): string {
  const attrs = n.attrs.map(([k, v]) => ` ${k}=${v}`).join('');
  if (n.selfClosing && n.children.length === 0) return `<${n.name}${attrs}${n.pad}/>`;
  const inner = n.children.length ? n.children.map((c) => `${n.pad}${render(c)}`).join('') + n.pad : n.text;
  return `<${n.name}${attrs}>${inner}</${n.name}${n.pad}>`;
}

const DECLARATIONS = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom('', '<?xml version="1.0"?>', '<?xml version="1.0" encoding="UTF-8"?>\n', "<?xml version='1.0' standalone='no'?>") },
  { weight: 1, arbitrary: fc.constant('<?xml version="1.1"?>') },
);
const wellFormed = fc.tuple(DECLARATIONS, node, SPACE).map(([decl, n, end]) => `${decl}${render(n)}${end}`);
const MANGLES = fc.constantFrom('<', '>', '/', '&', '"', ' ', '', '<!-- -->', 'x');
const body = fc.oneof(
  { weight: 3, arbitrary: wellFormed },
  // One spot changed: a character inserted, replaced or removed; or the body cut short.
  {
    weight: 2,
    arbitrary: fc.tuple(wellFormed, fc.nat(), MANGLES, fc.boolean()).map(([text, at, put, replace]) => {
      const i = at % (text.length + 1);
      return text.slice(0, i) + put + text.slice(replace ? i + 1 : i);
    }),
  },
  { weight: 1, arbitrary: fc.tuple(wellFormed, fc.nat()).map(([text, at]) => text.slice(0, at % (text.length + 1))) },
);
