// Every FX request body is held to the structure of the XSD /xsd/ serves for its root, under test
// and live keys alike, before any rule reads a value: elements out of order, repeated, missing or
// unknown, text where elements go, and a namespace other than none or the message's own are 400
// VALIDATION_ERROR, with ErrLctn naming the element and RsnDesc saying what was expected there.
// The forms taken today (the Document wrapper in the message's namespace, prefixes, white space,
// the XML declaration, CRLF) are still taken. fx() checks each answer against its XSD (MsgRjct.xsd
// for a reject).
import { beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, KEY, LIVE_KEY, type TestApp } from '../../support/app.js';
import { acceptChain, fx, instruction, newTrade, rejection, type FxResult } from '../../support/fx.js';

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
});

const MODES = [
  ['a test key', KEY, 'sandbox'],
  ['a live key', LIVE_KEY, 'live'],
] as const;

const ISO = (id: string) => `urn:iso:std:iso:20022:tech:xsd:${id}`;
const PACS = ISO('pacs.008.001.08');
const wrapped = (xml: string, ns: string) => `<Document xmlns="${ns}">${xml}</Document>`;
/** Every element of the message under the prefix `fx`, in a Document declaring it. */
const prefixed = (xml: string, ns: string) => `<fx:Document xmlns:fx="${ns}">${xml.replace(/<(\/?)(\w+)(\/?)>/g, '<$1fx:$2$3>')}</fx:Document>`;

const CP = '<CcyPair><BaseCcy>NGN</BaseCcy><QtdCcy>USDT</QtdCcy></CcyPair>';
const TA = '<TradAmts><TradgCcyAmt>100</TradgCcyAmt></TradAmts>';
const AD = '<AmtDrctn>BUY</AmtDrctn>';
const instr = (inner: string) => `<FXTradInstr>${inner}</FXTradInstr>`;
const INSTR_HOLDS = 'FXTradInstr holds CcyPair, TradAmts, AgrdRate (optional) and AmtDrctn, in this order';

const ADR = '<Adr>0x52908400098527886E0F7030069857D2E4169EE7</Adr>';
const BANK = '<BkDstn><AcctNm>Ada Obi</AcctNm><AcctNb>0123456789</AcctNb><BkCd>044</BkCd></BkDstn>';
const ACCOUNT = '<AcctId>73fa4f38-0f4d-443c-acf8-4003ed7e9ee9</AcctId>';
const accept = (inner: string) => `<FXTradAccptReq>${inner}</FXTradAccptReq>`;
const ACCEPT_HOLDS = 'FXTradAccptReq holds one of SttlmDstn or AcctId';

/** A refusal by the structure check: 400 VALIDATION_ERROR, its location and its whole description. */
function refused(res: FxResult, location: string, text: string) {
  expect(rejection(res), res.text).toEqual({ status: 400, code: 'VALIDATION_ERROR', location, text });
}

async function events(key: string, type: string) {
  return (await t.call('GET', `/_sandbox/events?type=${type}`, { key })).body.data as unknown[];
}

async function status(id: string, key: string) {
  return (await fx(t, 'GET', `/trades/${id}`, { key })).xml.Sts;
}

// Each: what is wrong, the body, ErrLctn, RsnDesc.
type Case = [string, string, string, string];

describe.each(MODES)('FXTradInstr (POST /trades) under %s', (_mode, key, mode) => {
  const cases: Case[] = [
    ['elements out of order (TradAmts before CcyPair)', instr(TA + CP + AD), 'TradAmts', `Invalid request body: TradAmts is not expected here: expected CcyPair; ${INSTR_HOLDS}.`],
    ['an element twice', instr(CP + CP + TA + AD), 'CcyPair', `Invalid request body: CcyPair comes more often than FXTradInstr takes it: expected TradAmts; ${INSTR_HOLDS}.`],
    ['an optional element twice', instr(`${CP + TA}<AgrdRate><XchgRate>1600</XchgRate></AgrdRate><AgrdRate><XchgRate>1600</XchgRate></AgrdRate>${AD}`), 'AgrdRate', `Invalid request body: AgrdRate comes more often than FXTradInstr takes it: expected AmtDrctn; ${INSTR_HOLDS}.`],
    ['a required element missing', instr(CP + TA), 'AmtDrctn', `Invalid request body: AmtDrctn is required: FXTradInstr ends without it; ${INSTR_HOLDS}.`],
    ['a required element missing inside another', instr(`<CcyPair><BaseCcy>NGN</BaseCcy></CcyPair>${TA}${AD}`), 'CcyPair/QtdCcy', 'Invalid request body: CcyPair/QtdCcy is required: CcyPair ends without it; CcyPair holds BaseCcy and QtdCcy, in this order.'],
    ['the first element missing', instr(`<CcyPair><QtdCcy>USDT</QtdCcy></CcyPair>${TA}${AD}`), 'CcyPair/QtdCcy', 'Invalid request body: CcyPair/QtdCcy is not expected here: expected BaseCcy; CcyPair holds BaseCcy and QtdCcy, in this order.'],
    ['an unknown element', instr(`${CP + TA}<Memo>x</Memo>${AD}`), 'Memo', `Invalid request body: Memo is not an element of FXTradInstr: expected AgrdRate or AmtDrctn; ${INSTR_HOLDS}.`],
    ['an unknown element inside another', instr(`${CP}<TradAmts><TradgCcyAmt>100</TradgCcyAmt><Ccy>USDT</Ccy></TradAmts>${AD}`), 'TradAmts/Ccy', 'Invalid request body: TradAmts/Ccy is not an element of TradAmts: expected the end of TradAmts; TradAmts holds TradgCcyAmt.'],
    ['text where elements go', instr(`<CcyPair>NGN/USDT</CcyPair>${TA}${AD}`), 'CcyPair', 'Invalid request body: CcyPair must hold elements, not text: expected BaseCcy; CcyPair holds BaseCcy and QtdCcy, in this order.'],
    ['an element inside a value', instr(`${CP + TA}<AmtDrctn><Code>BUY</Code></AmtDrctn>`), 'AmtDrctn/Code', 'Invalid request body: AmtDrctn/Code is not expected here: AmtDrctn holds text, not elements.'],
    [
      "a Document in another message's namespace (pacs.008.001.08)",
      wrapped(instr(CP + TA + AD), PACS),
      'Document',
      `Invalid request body: Document is in the namespace ${PACS}: FXTradInstr comes in no namespace or in the namespace ${ISO('fxtr.014.001.05')}.`,
    ],
    [
      'another version of its own namespace',
      instr(CP + TA + AD).replace('<FXTradInstr>', `<FXTradInstr xmlns="${ISO('fxtr.014.001.03')}">`),
      'FXTradInstr',
      `Invalid request body: FXTradInstr is in the namespace ${ISO('fxtr.014.001.03')}: FXTradInstr comes in no namespace or in the namespace ${ISO('fxtr.014.001.05')}.`,
    ],
    [
      "the message outside its Document's namespace",
      `<fx:Document xmlns:fx="${ISO('fxtr.014.001.05')}">${instr(CP + TA + AD)}</fx:Document>`,
      'FXTradInstr',
      `Invalid request body: FXTradInstr is in no namespace, and Document in the namespace ${ISO('fxtr.014.001.05')}: the elements of a message are in one namespace.`,
    ],
    ['a prefix no xmlns declares', instr(CP + TA + AD).replace(/<(\/?)(\w+)>/g, '<$1fx:$2>'), 'FXTradInstr', 'Invalid request body: FXTradInstr has the prefix fx, which no xmlns:fx declares.'],
  ];

  it.each(cases)('refuses %s, naming the element, and stores nothing', async (_what, xml, location, text) => {
    refused(await fx(t, 'POST', '/trades', { xml, key }), location, text);
    expect(await events(key, 'fx_trade.newt')).toEqual([]);
  });

  it('names one problem in each element at fault, before any value is read', async () => {
    // The values at fault (ngn, 1e5, HOLD) are not read while the structure is wrong.
    const xml = instr(`<Memo/><CcyPair><BaseCcy>ngn</BaseCcy></CcyPair><TradAmts><TradgCcyAmt>1e5</TradgCcyAmt></TradAmts><AmtDrctn>HOLD</AmtDrctn>`);
    const r = rejection(await fx(t, 'POST', '/trades', { xml, key }));
    expect(r).toMatchObject({ status: 400, code: 'VALIDATION_ERROR', location: 'Memo, CcyPair/QtdCcy' });
    expect(r.text).toMatch(/^Invalid request body: Memo is not an element of FXTradInstr: expected CcyPair; .* \(and 1 more problem, listed in AddtlData\)\.$/);
  });

  it.each([
    ['bare', instr(CP + TA + AD)],
    ['with the XML declaration, indented, CRLF line ends', instruction({ amount: '100' }).replace(/\n/g, '\r\n')],
    ['with AgrdRate', instr(`${CP + TA}<AgrdRate><XchgRate>1600</XchgRate></AgrdRate>${AD}`)],
    ["in a Document in the message's namespace", wrapped(instr(CP + TA + AD), ISO('fxtr.014.001.05'))],
    ["prefixed, in a Document in the message's namespace", prefixed(instr(CP + TA + AD), ISO('fxtr.014.001.05'))],
    ['in a Document without a namespace', wrapped(instr(CP + TA + AD), '').replace(' xmlns=""', '')],
    ["in the message's namespace without a Document", instr(CP + TA + AD).replace('<FXTradInstr>', `<FXTradInstr xmlns="${ISO('fxtr.014.001.05')}">`)],
    ['with comments between elements', instr(`<!-- pair -->${CP}\n  ${TA}<!-- side -->${AD}`)],
  ])('takes a valid message %s', async (_what, xml) => {
    const res = await fx(t, 'POST', '/trades', { xml, key });
    expect(res.status, res.text).toBe(201);
    expect(res.xml).toMatchObject({ TradSts: { Sts: 'NEWT' }, CcyPair: { BaseCcy: 'NGN', QtdCcy: 'USDT' }, OprgMd: mode });
  });
});

describe.each(MODES)('FXTradAccptReq (POST /trades/{id}/accept) under %s', (_mode, key, mode) => {
  const cases: Case[] = [
    [
      'elements out of order (AcctNb before AcctNm)',
      accept(`<SttlmDstn><BkDstn><AcctNb>0123456789</AcctNb><AcctNm>Ada Obi</AcctNm><BkCd>044</BkCd></BkDstn></SttlmDstn>`),
      'SttlmDstn/BkDstn/AcctNb',
      'Invalid request body: SttlmDstn/BkDstn/AcctNb is not expected here: expected AcctNm; BkDstn holds AcctNm, AcctNb and BkCd, in this order.',
    ],
    ['two settlement forms', accept(ACCOUNT + `<SttlmDstn><BlkChnDstn>${ADR}</BlkChnDstn></SttlmDstn>`), 'SttlmDstn', `Invalid request body: SttlmDstn is not expected here: expected the end of FXTradAccptReq; ${ACCEPT_HOLDS}.`],
    ['an element twice', accept(ACCOUNT + ACCOUNT), 'AcctId', `Invalid request body: AcctId comes more often than FXTradAccptReq takes it: expected the end of FXTradAccptReq; ${ACCEPT_HOLDS}.`],
    ['no settlement form', accept(''), 'SttlmDstn | AcctId', `Invalid request body: SttlmDstn | AcctId is required: FXTradAccptReq ends without one of them; ${ACCEPT_HOLDS}.`],
    ['an empty SttlmDstn', accept('<SttlmDstn/>'), 'SttlmDstn/BkDstn | SttlmDstn/BlkChnDstn', 'Invalid request body: SttlmDstn/BkDstn | SttlmDstn/BlkChnDstn is required: SttlmDstn ends without one of them; SttlmDstn holds one of BkDstn or BlkChnDstn.'],
    [
      'a required element missing',
      accept('<SttlmDstn><BkDstn><AcctNm>Ada Obi</AcctNm><AcctNb>0123456789</AcctNb></BkDstn></SttlmDstn>'),
      'SttlmDstn/BkDstn/BkCd',
      'Invalid request body: SttlmDstn/BkDstn/BkCd is required: BkDstn ends without it; BkDstn holds AcctNm, AcctNb and BkCd, in this order.',
    ],
    ['an unknown element', accept(`<SttlmDstn><BlkChnDstn>${ADR}</BlkChnDstn></SttlmDstn><Memo>x</Memo>`), 'Memo', `Invalid request body: Memo is not an element of FXTradAccptReq: expected the end of FXTradAccptReq; ${ACCEPT_HOLDS}.`],
    ['an unknown element inside a form', accept(`<SttlmDstn><BlkChnDstn>${ADR}<Chain>BASE</Chain></BlkChnDstn></SttlmDstn>`), 'SttlmDstn/BlkChnDstn/Chain', 'Invalid request body: SttlmDstn/BlkChnDstn/Chain is not an element of BlkChnDstn: expected the end of BlkChnDstn; BlkChnDstn holds Adr.'],
    ['text where elements go', accept(`<SttlmDstn>wallet<BlkChnDstn>${ADR}</BlkChnDstn></SttlmDstn>`), 'SttlmDstn', 'Invalid request body: SttlmDstn must hold elements, not text: expected BkDstn or BlkChnDstn; SttlmDstn holds one of BkDstn or BlkChnDstn.'],
    [
      "a Document in another message's namespace (pacs.008.001.08)",
      wrapped(accept(ACCOUNT), PACS),
      'Document',
      `Invalid request body: Document is in the namespace ${PACS}: FXTradAccptReq comes in no namespace or in the namespace ${ISO('fxtr.014.001.05')}.`,
    ],
  ];

  it.each(cases)('refuses %s, naming the element, and leaves the trade NEWT', async (_what, xml, location, text) => {
    const id = await newTrade(t, {}, key);
    refused(await fx(t, 'POST', `/trades/${id}/accept`, { xml, key }), location, text);
    expect(await status(id, key)).toBe('NEWT');
    expect(await events(key, 'fx_trade.sett')).toEqual([]);
  });

  it('answers the structure before the settlement rules (a bank form for a token)', async () => {
    const id = await newTrade(t, {}, key);
    const xml = accept(`<SttlmDstn>${BANK}</SttlmDstn><Memo/>`);
    refused(await fx(t, 'POST', `/trades/${id}/accept`, { xml, key }), 'Memo', `Invalid request body: Memo is not an element of FXTradAccptReq: expected the end of FXTradAccptReq; ${ACCEPT_HOLDS}.`);
    expect(rejection(await fx(t, 'POST', `/trades/${id}/accept`, { xml: accept(`<SttlmDstn>${BANK}</SttlmDstn>`), key })).location).toBe('SttlmDstn/BkDstn');
  });

  it.each([
    ['bare', acceptChain],
    ["in a Document in the message's namespace", wrapped(acceptChain, ISO('fxtr.014.001.05'))],
    ["prefixed, in a Document in the message's namespace", prefixed(acceptChain, ISO('fxtr.014.001.05'))],
    ['with the XML declaration and CRLF line ends', `<?xml version="1.0" encoding="UTF-8"?>\r\n<FXTradAccptReq>\r\n  <SttlmDstn>\r\n    <BlkChnDstn>${ADR}</BlkChnDstn>\r\n  </SttlmDstn>\r\n</FXTradAccptReq>`],
  ])('takes a valid message %s', async (_what, xml) => {
    const id = await newTrade(t, {}, key);
    const res = await fx(t, 'POST', `/trades/${id}/accept`, { xml, key });
    expect(res.status, res.text).toBe(200);
    expect(res.xml).toMatchObject({ TradSts: { Sts: 'SETT' }, OprgMd: mode });
  });
});

// FXTradConfReq and FXTradCxlReq hold one optional element each (Rmrks, Rsn): nothing can come out
// of order and nothing is required, so an empty root and an empty body are both taken.
const OPTIONAL = [
  { root: 'FXTradConfReq', child: 'Rmrks', id: 'fxtr.037.001.02', method: 'POST', path: 'confirmation', done: 'COMP' },
  { root: 'FXTradCxlReq', child: 'Rsn', id: 'fxtr.016.001.05', method: 'PUT', path: 'cancellation', done: 'CANC' },
] as const;

describe.each(MODES)('FXTradConfReq and FXTradCxlReq under %s', (_mode, key, mode) => {
  /** A trade their move applies to: SETT for a confirmation, NEWT for a cancellation. */
  async function ready(path: string) {
    const id = await newTrade(t, {}, key);
    if (path === 'confirmation') expect((await fx(t, 'POST', `/trades/${id}/accept`, { xml: acceptChain, key })).status).toBe(200);
    return id;
  }

  describe.each(OPTIONAL)('$root', ({ root, child, id: message, method, path, done }) => {
    const body = (inner: string) => `<${root}>${inner}</${root}>`;
    const holds = `${root} holds ${child} (optional)`;
    const cases: Case[] = [
      [`${child} twice`, body(`<${child}>a</${child}><${child}>b</${child}>`), child, `Invalid request body: ${child} comes more often than ${root} takes it: expected the end of ${root}; ${holds}.`],
      ['an unknown element', body(`<${child}>a</${child}><Memo>x</Memo>`), 'Memo', `Invalid request body: Memo is not an element of ${root}: expected the end of ${root}; ${holds}.`],
      ['an unknown element first', body(`<Memo>x</Memo><${child}>a</${child}>`), 'Memo', `Invalid request body: Memo is not an element of ${root}: expected ${child} or the end of ${root}; ${holds}.`],
      ['text where elements go', body('paid'), root, `Invalid request body: ${root} must hold elements, not text: expected ${child} or the end of ${root}; ${holds}.`],
      [
        "a Document in another message's namespace (pacs.008.001.08)",
        wrapped(body(''), PACS),
        'Document',
        `Invalid request body: Document is in the namespace ${PACS}: ${root} comes in no namespace or in the namespace ${ISO(message)}.`,
      ],
    ];

    it.each(cases)('refuses %s, naming the element, and leaves the trade as it was', async (_what, xml, location, text) => {
      const id = await ready(path);
      const before = await status(id, key);
      refused(await fx(t, method, `/trades/${id}/${path}`, { xml, key }), location, text);
      expect(await status(id, key)).toBe(before);
    });

    it.each([
      ['with its element', body(`<${child}>Rate moved</${child}>`)],
      ['empty', `<${root}/>`],
      ['as an empty body', undefined],
      ["in a Document in the message's namespace", wrapped(body(`<${child}>Rate moved</${child}>`), ISO(message))],
      ["prefixed, in a Document in the message's namespace", prefixed(body(`<${child}>Rate moved</${child}>`), ISO(message))],
    ])('takes a valid message %s', async (_what, xml) => {
      const id = await ready(path);
      const res = await fx(t, method, `/trades/${id}/${path}`, { xml, key });
      expect(res.status, res.text).toBe(200);
      expect(res.xml).toMatchObject({ OprgMd: mode });
      expect(await status(id, key)).toBe(done);
    });
  });
});

describe('an FX body with many elements at fault', () => {
  it('is answered with the first 20 problems, not one per element', async () => {
    const t = await createTestApp();
    const many = instr(`${CP}${'<CcyPair><X/></CcyPair>'.repeat(500)}${TA}${AD}`);
    const res = await fx(t, 'POST', '/trades', { xml: many });
    const r = rejection(res);
    expect([r.status, r.code]).toEqual([400, 'VALIDATION_ERROR']);
    // 500 problems of some 150 characters each would make an answer of 75 KB.
    expect(res.text.length).toBeLessThan(8_000);
  });
});
