import { describe, expect, it } from 'vitest';
import { SandboxError } from '../kernel/errors.js';
import { parseTradeInstruction } from './trade-instruction.js';
import { MAX_XML_BYTES, MAX_XML_DEPTH, buildXml, parseXml } from './xml.js';

const INSTR = `<FXTradInstr>
  <CcyPair><BaseCcy>USDT</BaseCcy><QtdCcy>NGN</QtdCcy></CcyPair>
  <TradAmts><TradgCcyAmt>12345678901234567890.12345</TradgCcyAmt></TradAmts>
  <AgrdRate><XchgRate>1530.1234567891</XchgRate></AgrdRate>
  <AmtDrctn>BUY</AmtDrctn>
</FXTradInstr>`;

function failure(fn: () => unknown): SandboxError {
  try {
    fn();
  } catch (err) {
    if (err instanceof SandboxError) return err;
    throw err;
  }
  throw new Error('expected a SandboxError');
}

describe('parseXml', () => {
  it('reads a bare message root and keeps amounts and rates as their exact text', () => {
    expect(parseTradeInstruction(INSTR)).toEqual({
      baseCcy: 'USDT',
      quotedCcy: 'NGN',
      tradingAmount: '12345678901234567890.12345',
      agreedRate: '1530.1234567891',
      direction: 'BUY',
    });
  });

  it('reads the same message inside an ISO 20022 Document wrapper, with or without prefixes', () => {
    const wrapped = `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:fxtr.014.001.05">${INSTR}</Document>`;
    const prefixed = `<fx:Document xmlns:fx="urn:iso:std:iso:20022:tech:xsd:fxtr.014.001.05">${INSTR.replace(/<(\/?)(\w+)>/g, '<$1fx:$2>')}</fx:Document>`;
    const bare = parseTradeInstruction(INSTR);
    expect(parseTradeInstruction(wrapped)).toEqual(bare);
    expect(parseTradeInstruction(prefixed)).toEqual(bare);
    expect(parseXml(wrapped, { roots: ['FXTradInstr'] })).toMatchObject({ root: 'FXTradInstr', wrapped: true });
  });

  it('refuses a DOCTYPE before parsing, so entity bombs never expand', () => {
    const laughs = `<?xml version="1.0"?>
<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
<!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]>
<FXTradInstr><AmtDrctn>&lol3;</AmtDrctn></FXTradInstr>`;
    const err = failure(() => parseTradeInstruction(laughs));
    expect(err.code).toBe('MALFORMED_XML');
    expect(err.status).toBe(400);
    expect(err.message).toMatch(/DOCTYPE/);
  });

  it('refuses external entities (SYSTEM), in any letter case', () => {
    const xxe = `<!doctype FXTradInstr [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><FXTradInstr><AmtDrctn>&xxe;</AmtDrctn></FXTradInstr>`;
    expect(failure(() => parseTradeInstruction(xxe)).code).toBe('MALFORMED_XML');
  });

  it('refuses references to entities XML does not define, but decodes the predefined and numeric ones', () => {
    expect(failure(() => parseXml('<FXTradCxlReq><Rsn>&xxe;</Rsn></FXTradCxlReq>', { roots: ['FXTradCxlReq'] })).message).toMatch(
      /&xxe;/,
    );
    const ok = parseXml('<FXTradCxlReq><Rsn>A &amp; B &lt;&#65;&#x42;&gt;</Rsn></FXTradCxlReq>', { roots: ['FXTradCxlReq'] });
    expect(ok.body.Rsn).toBe('A & B <AB>');
  });

  it('reads a body without a declaration as XML 1.0, also after one that declared 1.1', () => {
    const rsn = (xml: string) => parseXml(xml, { roots: ['FXTradCxlReq'] }).body.Rsn;
    const v11 = '<?xml version="1.1"?><FXTradCxlReq><Rsn>a&#1;b</Rsn></FXTradCxlReq>';
    const v10 = '<FXTradCxlReq><Rsn>a&#1;b</Rsn></FXTradCxlReq>';
    // XML 1.1 allows the control character &#1; refers to; XML 1.0 does not, and refuses the body.
    expect(rsn(v11)).toBe('a\u0001b');
    expect(failure(() => rsn(v10)).message).toMatch(/'&#1;' stands for U\+0001, which XML does not allow/);
    expect(rsn(v11)).toBe('a\u0001b');
    expect(failure(() => rsn(v10.replace('<Rsn>', '<!-- c --><Rsn>'))).code).toBe('MALFORMED_XML');
  });

  it.each([
    ['an unclosed element', '<FXTradInstr><CcyPair></FXTradInstr>'],
    ['a missing end tag', '<FXTradInstr><AmtDrctn>BUY</AmtDrctn>'],
    ['text that is not XML', 'BUY 100 USDT'],
    ['two root elements', '<FXTradInstr/><FXTradInstr/>'],
    ['a bare ampersand', '<FXTradInstr><AmtDrctn>B&Y</AmtDrctn></FXTradInstr>'],
    ['a declared non-UTF-8 encoding', '<?xml version="1.0" encoding="ISO-8859-1"?><FXTradInstr/>'],
  ])('refuses %s as MALFORMED_XML', (_what, body) => {
    expect(failure(() => parseTradeInstruction(body)).code).toBe('MALFORMED_XML');
  });

  it.each([
    ['<FXTradInstr><CcyPair>', 'it ends before <CcyPair> inside <FXTradInstr> is closed'],
    ['<A><B><C><D><E>', 'it ends before <E> inside <D> inside <C> inside … inside <A> is closed'],
    ['<FXTradInstr>\n  <AmtDrctn>BUY</AmtDrctn>', 'it ends before <FXTradInstr> (opened at line 1, column 1) is closed'],
    ['<FXTradInstr><CcyPair></FXTradInstr>', '</FXTradInstr> at line 1, column 23 comes before <CcyPair> (opened at line 1, column 14) is closed'],
    ['</FXTradInstr>', '</FXTradInstr> at line 1, column 1 closes an element that is not open'],
    ['<FXTradInstr></FXTradInstr>\nBUY', 'there is text after the root element ends, at line 2, column 1'],
    ['BUY 100 USDT', 'there is text before the root element, at line 1, column 1'],
    ['<!-- nothing -->', 'it has no root element'],
    ['<FXTradInstr><1Ccy/></FXTradInstr>', "'1Ccy' at line 1, column 19 is not a valid element name"],
    ['<FXTradInstr xsi:a="1" xsi:a="2"/>', "the attribute 'xsi:a' at line 1, column 24 appears twice on one element"],
  ])('says what is wrong with %j in XML terms', (body, why) => {
    const err = failure(() => parseXml(body, { roots: ['FXTradInstr'] }));
    expect(err.code).toBe('MALFORMED_XML');
    expect(err.message).toBe(`The request body is not acceptable XML: ${why}. Send one well-formed UTF-8 XML message.`);
  });

  it('keeps elements named constructor, prototype, __proto__ or toString apart, and never touches a prototype', () => {
    const extras = '<constructor/><prototype><x>1</x></prototype><__proto__><polluted>yes</polluted></__proto__><fx:toString>t</fx:toString>';
    // A request refuses them as elements its XSD does not have (and fx: as a prefix no xmlns:fx declares).
    expect(failure(() => parseTradeInstruction(INSTR.replace('<CcyPair>', `${extras}<CcyPair>`))).details.map((d) => d.field)).toEqual(['constructor', 'toString']);
    const { body } = parseXml(`<R>${extras}</R>`, { roots: ['R'] });
    expect(Object.getPrototypeOf(body)).toBe(Object.prototype);
    expect(Object.keys(body)).toEqual(['#constructor', '#prototype', '#__proto__', '#toString']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('names a reserved root element as written', () => {
    const err = failure(() => parseTradeInstruction('<constructor><AmtDrctn>BUY</AmtDrctn></constructor>'));
    expect(err.code).toBe('VALIDATION_ERROR');
    expect(err.message).toBe('Invalid request body: the root element is constructor; this endpoint takes FXTradInstr.');
  });

  it('refuses invalid UTF-8 bytes', () => {
    const bytes = new Uint8Array([...Buffer.from('<FXTradCxlReq><Rsn>'), 0xff, 0xfe, ...Buffer.from('</Rsn></FXTradCxlReq>')]);
    expect(failure(() => parseXml(bytes, { roots: ['FXTradCxlReq'] })).code).toBe('MALFORMED_XML');
  });

  it('refuses a body over 1 MiB with PAYLOAD_TOO_LARGE (413), before parsing', () => {
    const big = `<FXTradCxlReq><Rsn>${'x'.repeat(MAX_XML_BYTES)}</Rsn></FXTradCxlReq>`;
    const err = failure(() => parseXml(big, { roots: ['FXTradCxlReq'] }));
    expect([err.code, err.status]).toEqual(['PAYLOAD_TOO_LARGE', 413]);
  });

  it(`refuses elements nested deeper than ${MAX_XML_DEPTH} levels`, () => {
    const deep = `${'<a>'.repeat(MAX_XML_DEPTH + 1)}x${'</a>'.repeat(MAX_XML_DEPTH + 1)}`;
    const err = failure(() => parseXml(`<FXTradCxlReq>${deep}</FXTradCxlReq>`, { roots: ['FXTradCxlReq'] }));
    expect(err.code).toBe('MALFORMED_XML');
    expect(err.message).toMatch(/nested deeper than 32/);
  });

  it('answers a root this endpoint does not take with VALIDATION_ERROR naming both', () => {
    const err = failure(() => parseTradeInstruction('<FXTradAccptReq><AcctId>x</AcctId></FXTradAccptReq>'));
    expect(err.code).toBe('VALIDATION_ERROR');
    expect(err.message).toBe('Invalid request body: the root element is FXTradAccptReq; this endpoint takes FXTradInstr.');
  });

  it('reads repeated elements as lists only where isArray names them', () => {
    const xml = '<R><L><Id>1</Id></L><One>x</One></R>';
    const parsed = parseXml(xml, { roots: ['R'], isArray: ['R/L'] });
    expect(parsed.body).toEqual({ L: [{ Id: '1' }], One: 'x' });
    const wrapped = parseXml(`<Document>${xml}</Document>`, { roots: ['R'], isArray: ['R/L'] });
    expect(wrapped.body).toEqual(parsed.body);
  });
});

describe('buildXml', () => {
  it('writes a UTF-8 declaration, children in the given order, lists as repeated elements, and skips undefined', () => {
    const xml = buildXml('R', { B: '2', A: { Z: '1', Y: undefined }, L: [{ Id: 'a' }, { Id: 'b' }] });
    expect(xml).toBe(
      '<?xml version="1.0" encoding="UTF-8"?>\n<R>\n  <B>2</B>\n  <A>\n    <Z>1</Z>\n  </A>\n  <L>\n    <Id>a</Id>\n  </L>\n  <L>\n    <Id>b</Id>\n  </L>\n</R>',
    );
  });

  it('escapes markup in text and drops characters XML cannot carry', () => {
    const xml = buildXml('R', { T: 'a<b>&"c"\u0001' });
    expect(xml).toContain('<T>a&lt;b&gt;&amp;"c"</T>');
    expect(parseXml(xml, { roots: ['R'] }).body.T).toBe('a<b>&"c"');
  });

  it.each([
    ['empty text', { A: '' }, '<R>\n  <A/>\n</R>'],
    ['text of characters XML cannot carry only', { A: '\u0001\uFFFF' }, '<R>\n  <A/>\n</R>'],
    ['an element with no children', { A: {} }, '<R>\n  <A/>\n</R>'],
    ['an element whose children are all omitted', { A: { B: undefined } }, '<R>\n  <A/>\n</R>'],
    ['an empty list', { A: [] }, '<R/>'],
    ['a list of texts', { A: ['x', 'y'] }, '<R>\n  <A>x</A>\n  <A>y</A>\n</R>'],
    ['line breaks, tabs and spaces, kept as they are', { A: 'a\rb\r\nc', B: '\t\n', C: '  ' }, '<R>\n  <A>a\rb\r\nc</A>\n  <B>\t\n</B>\n  <C>  </C>\n</R>'],
    ['quotes and a CDATA end, with only > escaped', { A: `"'` , B: ']]>' }, `<R>\n  <A>"'</A>\n  <B>]]&gt;</B>\n</R>`],
    ['an astral character kept and lone surrogates dropped', { A: '\u{1F4B6}\uD800x\uDC00' }, '<R>\n  <A>\u{1F4B6}x</A>\n</R>'],
    ['text that looks like references, escaped once', { A: '&amp;&#1;&' }, '<R>\n  <A>&amp;amp;&amp;#1;&amp;</A>\n</R>'],
    ['nesting three deep', { A: { B: { C: '' } } }, '<R>\n  <A>\n    <B>\n      <C/>\n    </B>\n  </A>\n</R>'],
  ])('writes %s exactly as before', (_what, content, body) => {
    expect(buildXml('R', content)).toBe(`<?xml version="1.0" encoding="UTF-8"?>\n${body}`);
  });
});
