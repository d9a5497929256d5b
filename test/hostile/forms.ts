// The hostile forms of each body format a route takes: what a careless or hostile client sends in
// JSON, XML, CSV and YAML. A form is a function of a size in bytes, so the same form is sent small
// and large and its cost compared; each starts from a valid body so it reaches the route's own
// reading, not only the first check of the body.

export type Format = 'application/json' | 'application/xml' | 'text/csv' | 'application/yaml';

export interface Form {
  name: string;
  /** A body of about `size` bytes. */
  body(size: number): string;
  /** The body is valid in its format (a BOM, mixed line endings): any answer but a 5xx will do, a 4xx not required. */
  lenient?: boolean;
}

const fill = (size: number, unit: string) => unit.repeat(Math.max(1, Math.floor(size / unit.length)));

/** About `size` bytes of items made by `item(i)` for i = 0, 1, 2…, joined by commas. */
function distinct(size: number, item: (i: number) => string): string {
  const items: string[] = [];
  for (let i = 0, length = 0; length < size; i++) length += items[items.push(item(i)) - 1].length + 1;
  return items.join(',');
}

const TRADE = (inner: string) =>
  `<?xml version="1.0" encoding="UTF-8"?><Document xmlns="urn:iso:std:iso:20022:tech:xsd:fxtr.014.001.03"><FXTradInstr><CcyPair><BaseCcy>NGN</BaseCcy><QtdCcy>USDT</QtdCcy></CcyPair>${inner}<TradAmts><TradgCcyAmt>100</TradgCcyAmt></TradAmts><AmtDrctn>BUY</AmtDrctn></FXTradInstr></Document>`;

const JSON_BODY = (extra: string) => `{"reference":"hostile-1","amount":1000,"currency":"NGN"${extra},"destination":{"accountNumber":"0123456789","accountName":"John Doe","bankCode":"058"}}`;

const CSV_HEADER = 'reference,amount,currency,type,source.accountNumber,destination.accountNumber,destination.accountName,destination.bankCode,category';
const CSV_ROW = (name: string) => `3f1c2a9e-8b7d-4c6e-9f10-2a3b4c5d6e7f,2500,NGN,BANK,1000200030,0123456789,${name},058,SALARY`;

export const FORMS: Record<Format, Form[]> = {
  'application/json': [
    { name: 'a stray quote', body: (n) => JSON_BODY(`,"narrations":"${fill(n, 'ab"c ')}"`) },
    { name: 'an unclosed quote', body: (n) => `{"reference":"${fill(n, 'x')}` },
    { name: 'a byte-order mark before a token too long', body: (n) => `\ufeff${JSON_BODY(`,"reference":"${fill(n, 'x')}"`)}` },
    { name: 'NULs', body: (n) => JSON_BODY(`,"narrations":"${fill(n, 'a\u0000')}"`) },
    { name: 'mixed line endings', body: (n) => JSON_BODY(fill(n, '\r\n \n \r')), lenient: true },
    { name: 'a very long token', body: (n) => JSON_BODY(`,"reference":"${fill(n, 'x')}"`) },
    { name: 'a very long number', body: (n) => `{"reference":"r","amount":${fill(n, '9')}}` },
    // An unknown field is ignored, as the live service ignores it: any answer but a 5xx.
    { name: 'a very long name', body: (n) => JSON_BODY(`,"${fill(n, 'k')}":1`), lenient: true },
    { name: 'deep nesting', body: (n) => `{"reference":${fill(n / 2, '[')}${fill(n / 2, ']')}}` },
    { name: 'duplicate keys', body: (n) => `{${fill(n, '"amount":1,')}"amount":"x"}` },
    // Past 1,000 distinct names or 20,000 values (300,000 in a bulk file) a body is refused before it is parsed.
    { name: 'many distinct names', body: (n) => JSON_BODY(`,${distinct(n, (i) => `"k${i}":1`)}`) },
    { name: 'many small values', body: (n) => JSON_BODY(`,"extra":[${fill(n, '0,')}0]`) },
    { name: 'many objects of one new name each', body: (n) => JSON_BODY(`,"extra":[${distinct(n, (i) => `{"k${i}":1}`)}]`) },
  ],
  'application/xml': [
    { name: 'a stray quote in an attribute', body: (n) => TRADE(`<Rmrks a="${fill(n, 'x"')}"/>`) },
    { name: 'an unclosed quote', body: (n) => `<FXTradInstr a="${fill(n, 'x')}` },
    { name: 'a byte-order mark before a long text', body: (n) => `\ufeff${TRADE(`<Rmrks>${fill(n, 'x')}</Rmrks>`)}` },
    { name: 'NULs', body: (n) => TRADE(`<Rmrks>${fill(n, 'a\u0000')}</Rmrks>`) },
    { name: 'mixed line endings', body: (n) => TRADE(fill(n, '\r\n \n \r')), lenient: true },
    { name: 'a very long attribute', body: (n) => `<FXTradInstr attr="${fill(n, 'x')}"/>` },
    { name: "a very long attribute in single quotes, nested", body: (n) => TRADE(`<CcyPair attr='${fill(n, 'x')}'/>`) },
    { name: 'a very long text', body: (n) => TRADE(`<Rmrks>${fill(n, 'x')}</Rmrks>`) },
    { name: 'a very long name', body: (n) => TRADE(`<${fill(n, 'N')}/>`) },
    { name: 'a very long number', body: (n) => TRADE('').replace('<TradgCcyAmt>100', `<TradgCcyAmt>${fill(n, '9')}`) },
    { name: 'deep nesting', body: (n) => TRADE(`${fill(n / 5, '<a>')}${fill(n / 5, '</a>')}`) },
    // Namespaces resolved per tag: depth is what would cost here, with a default namespace declared at the root.
    { name: 'deep nesting under a declared namespace', body: (n) => `<FXTradInstr xmlns="urn:iso:std:iso:20022:tech:xsd:fxtr.014.001.05">${fill(n / 3, '<a>')}` },
    // Each declaration in scope is looked up per tag: many of them times many tags.
    { name: 'many namespace declarations over many tags', body: (n) => `<FXTradInstr${fill(n / 2, ' xmlns:a="u"')}>${fill(n / 2, '<b/>')}</FXTradInstr>` },
    // The parser reads each instruction (and a declaration's pseudo-attributes) one by one.
    { name: 'many processing instructions', body: (n) => TRADE(fill(n, '<?a?>')) },
    { name: 'a declaration of many pseudo-attributes', body: (n) => `<?xml version="1.0"${fill(n, ' a="b"')}?>${TRADE('').replace(/^<\?xml[^>]*\?>/, '')}` },
    { name: 'entity expansion', body: (n) => `<?xml version="1.0"?><!DOCTYPE l [<!ENTITY a "${fill(n, 'a')}"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">]><FXTradInstr>&b;&b;&b;&b;</FXTradInstr>` },
    { name: 'many character references', body: (n) => TRADE(`<Rmrks>${fill(n, '&#x41;')}</Rmrks>`) },
    { name: 'duplicate elements', body: (n) => TRADE(fill(n, '<AmtDrctn>BUY</AmtDrctn>')) },
  ],
  'text/csv': [
    { name: 'a stray quote', body: (n) => `${CSV_HEADER}\n${CSV_ROW(`O"Brien${fill(n, 'x')}`)}\n` },
    { name: 'an unclosed quote', body: (n) => `${CSV_HEADER}\n${CSV_ROW(`"${fill(n, 'x')}`)}\n` },
    { name: 'a byte-order mark before a long cell', body: (n) => `\ufeff${CSV_HEADER}\n${CSV_ROW(fill(n, 'x'))}\n` },
    { name: 'NULs', body: (n) => `${CSV_HEADER}\n${CSV_ROW(fill(n, 'a\u0000'))}\n` },
    { name: 'mixed line endings', body: (n) => `${CSV_HEADER}\r\n${fill(n, `${CSV_ROW('Ada Obi')}\n${CSV_ROW('Ada Obi')}\r\n`)}` },
    { name: 'a very long cell', body: (n) => `${CSV_HEADER}\n${CSV_ROW(fill(n, 'x'))}\n` },
    { name: 'a very long header name', body: (n) => `${CSV_HEADER},${fill(n, 'h')}\n${CSV_ROW('Ada Obi')}\n` },
    { name: 'a very long number', body: (n) => `${CSV_HEADER}\n${CSV_ROW('Ada Obi').replace(',2500,', `,${fill(n, '9')},`)}\n` },
    { name: 'many columns', body: (n) => `${CSV_HEADER}\n${CSV_ROW('Ada Obi')}${fill(n, ',x')}\n` },
    { name: 'many quoted empty cells', body: (n) => `${CSV_HEADER}\n${fill(n, '"",')}\n` },
    { name: 'many header columns', body: (n) => `${CSV_HEADER}${fill(n, ',x')}\n${CSV_ROW('Ada Obi')}\n` },
    // The parser's work is per record too: a row of the wrong length costs it about 50 µs.
    { name: 'many one-character rows', body: (n) => `${CSV_HEADER}\n${fill(n, 'a\n')}` },
  ],
  'application/yaml': [
    { name: 'a stray quote', body: (n) => `name: "${fill(n, 'ab"c')}` },
    { name: 'an unclosed quote', body: (n) => `name: '${fill(n, 'x')}` },
    { name: 'a byte-order mark before a long scalar', body: (n) => `\ufeffname: ${fill(n, 'x')}\n` },
    { name: 'NULs', body: (n) => `name: "${fill(n, 'a\\0')}"\n` },
    { name: 'mixed line endings', body: (n) => `name: x\r\n${fill(n, '#c\n#d\r\n')}faults: 3\n` },
    { name: 'a very long scalar', body: (n) => `name: ${fill(n, 'x')}\n` },
    { name: 'a very long key', body: (n) => `${fill(n, 'k')}: 1\n` },
    { name: 'a very long number', body: (n) => `seed: ${fill(n, '9')}\n` },
    { name: 'deep flow nesting', body: (n) => `faults: ${fill(n / 2, '[')}${fill(n / 2, ']')}\n` },
    { name: 'deep block nesting', body: (n) => `faults:\n${Array.from({ length: Math.floor(Math.sqrt(n)) }, (_, i) => `${' '.repeat(i + 1)}- `).join('\n')}x\n` },
    { name: 'an alias to itself', body: (n) => `pad: ${fill(n, 'x')}\na: &a [*a]\n` },
    { name: 'an alias bomb', body: (n) => `a: &a [${fill(n, '"x",')}"x"]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: [*d,*d,*d,*d,*d,*d,*d,*d,*d]\n` },
    { name: 'many anchors', body: (n) => `faults: [${fill(n, '&a1 x, *a1, ')}x]\n` },
    { name: 'duplicate keys', body: (n) => `${fill(n, 'name: x\n')}` },
    { name: 'a language-specific tag', body: (n) => `name: !!js/function "function(){ ${fill(n, 'x')} }"\n` },
  ],
};
