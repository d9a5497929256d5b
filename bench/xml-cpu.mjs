// node bench/xml-cpu.mjs: CPU time of the FX interface's XML in process, without sockets or a load
// generator: each message built, each request body parsed, and the writer set against
// fast-xml-parser's XMLBuilder on the same content. Every figure is the median of several rounds of
// process.cpuUsage() (user plus system, garbage collection included) divided by the calls made:
// what other processes do to the machine weighs far less than on requests per second.
// BENCH_SRC=/path/to/src measures another checkout's sources (to compare commits; its packages are
// taken from its own node_modules when it has one); BENCH_ONLY=build,parse,writers runs only those.
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { XMLBuilder } from 'fast-xml-parser';

const root = fileURLToPath(new URL('..', import.meta.url));
const src = path.resolve(process.env.BENCH_SRC ?? path.join(root, 'src'));
const only = process.env.BENCH_ONLY?.split(',');
const ROUNDS = 7;

// The sources, bundled with their dependencies into one module.
// Under the checkout's dist/, where the bundle finds xsd/ as the built server does.
mkdirSync(path.join(src, '..', 'dist'), { recursive: true });
const out = mkdtempSync(path.join(src, '..', 'dist', '.xml-cpu-'));
await build({
  stdin: {
    // The listings message's file was listings.ts before it was named for its role.
    contents: ['trade-instruction', 'trade-accept', 'trade-status', 'trade-confirmation', 'trade-cancellation', ['listings-message', 'listings'], 'maker-rate', 'reject', 'xml']
      .map((f) => [f].flat().map((n) => path.join(src, 'iso20022', `${n}.ts`)).find((file) => existsSync(file)))
      .map((file) => `export * from ${JSON.stringify(file)};`)
      .concat(
        `export { SandboxError } from ${JSON.stringify(path.join(src, 'kernel/errors.ts'))};`,
        `export { POOLS } from ${JSON.stringify(path.join(src, ['domains/liquidity/pools.ts', 'domains/marketplace/pools.ts'].find((f) => existsSync(path.join(src, f)))))};`,
      )
      .join('\n'),
    resolveDir: root,
    loader: 'ts',
  },
  // Packages come from the sources' own checkout if it has them, else from this one.
  nodePaths: [path.join(src, '..', 'node_modules'), path.join(root, 'node_modules')],
  outfile: path.join(out, 'fx.mjs'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // CommonJS dependencies bundled into ESM call require() for Node's own modules.
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  logLevel: 'warning',
});
const m = await import(pathToFileURL(path.join(out, 'fx.mjs')).href);
rmSync(out, { recursive: true, force: true });

const cpu = () => {
  const u = process.cpuUsage();
  return u.user + u.system;
};

/** The median µs per call over ROUNDS rounds of at least 20 ms each, after 200 ms of warming up
 * (the compiler's optimising tier, and the collection of what the previous case left). */
function measure(fn) {
  const run = (n) => {
    for (let i = 0; i < n; i++) fn();
  };
  for (let t0 = cpu(); cpu() - t0 < 200_000; ) run(100);
  let n = 100;
  for (let t0 = cpu(); cpu() - t0 < 20_000; n *= 2) run(n);
  n = Math.max(100, Math.round(n / 2));
  const rounds = [];
  for (let r = 0; r < ROUNDS; r++) {
    const t0 = cpu();
    run(n);
    rounds.push((cpu() - t0) / n);
  }
  return rounds.sort((a, b) => a - b)[ROUNDS >> 1];
}

const TX = '3f1c2a9e-8b7d-4c6e-9f10-2a3b4c5d6e7f';
const pair = { baseCcy: 'NGN', quotedCcy: 'USDT' };
const amounts = { trading: '1000', settlement: '1000', counterValue: '1580500' };
const payIn = { accountName: 'Sandbox Settlement Ltd', accountNumber: '0690000031', bankName: 'Access Bank', reference: 'FX-28ADCBBE3D875B68' };
const listing = (p) => ({ id: p.id, name: p.name, pair: { baseCcy: p.source, quotedCcy: p.destination }, rate: p.rate, availableBalance: p.availableBalance, tradesCount: p.tradesCount, completionRate: p.completionRate });
const report = (n) => ({ pageNumber: 0, pageSize: n, totalElements: 40, listings: m.POOLS.slice(0, n).map(listing), mode: 'sandbox' });
const invalid = new m.SandboxError('VALIDATION_ERROR', 'Invalid request body: CcyPair/BaseCcy is required (and 1 more problem, listed in error.details).', [
  { field: 'CcyPair/BaseCcy', issue: 'is required: send a currency code of 3 to 5 capital letters, e.g. USD' },
  { field: 'AmtDrctn', issue: 'must be one of BUY, SELL' },
]);

const BUILD = {
  'trade created (FXTradInstrRspn)': () =>
    m.buildTradeInstructionResponse({ txId: TX, pair, amounts, totalSettlementAmount: '1580500', weightedAverageRate: '1580.5', ttlSeconds: 300, mode: 'sandbox' }),
  'trade accepted (FXTradInstrRspn)': () => m.buildTradeAcceptResponse({ txId: TX, pair, amounts, payIn, mode: 'sandbox' }),
  'trade status (FXTradStsAndDtlsNtfctn)': () =>
    m.buildTradeStatus({ txId: TX, status: 'NEWT', pair, tradingAmount: '1000', counterValueAmount: '1580500', ttlSeconds: 300, mode: 'sandbox' }),
  'confirmation (FXTradConfStsAdvc)': () => m.buildTradeConfirmationResponse({ txId: TX, payIn, mode: 'sandbox' }),
  'cancellation (FXTradCxlRspn)': () => m.buildTradeCancellationResponse({ txId: TX, mode: 'sandbox' }),
  'listings, 10 pools (FndPrcgPsptRpt)': () => m.buildListingsReport(report(10)),
  'listings, 40 pools (FndPrcgPsptRpt)': () => m.buildListingsReport(report(40)),
  'maker rate (FxTradStsAndDtls)': () =>
    m.buildMakerRate({ sourceCcy: 'NGN', targetCcy: 'USDT', rate: '1580.5', timestamp: Date.UTC(2026, 0, 15, 9), ageSeconds: 4, change24hPct: '-0.3631', mode: 'sandbox' }),
  'reject (MsgRjct)': () => m.buildReject(invalid, { ref: 'POST /api/v1/partners/fx/trades', at: Date.UTC(2026, 0, 15, 9), mode: 'sandbox' }),
};

const TRADE = '<?xml version="1.0" encoding="UTF-8"?><FXTradInstr><CcyPair><BaseCcy>NGN</BaseCcy><QtdCcy>USDT</QtdCcy></CcyPair><TradAmts><TradgCcyAmt>1000</TradgCcyAmt></TradAmts><AmtDrctn>BUY</AmtDrctn></FXTradInstr>';
// The same message as partners often send it: indented, in a Document wrapper, every name prefixed.
const WRAPPED = `<?xml version="1.0" encoding="UTF-8"?>\n<fx:Document xmlns:fx="urn:iso:std:iso:20022:tech:xsd:fxtr.014.001.05">\n${TRADE.slice(TRADE.indexOf('?>') + 2)
  .replace(/<(\/?)(\w+)>/g, '<$1fx:$2>')
  .replace(/></g, '>\n  <')}\n</fx:Document>`;
const ACCEPT = '<FXTradAccptReq><SttlmDstn><BkDstn><AcctNm>John Doe</AcctNm><AcctNb>0123456789</AcctNb><BkCd>058</BkCd></BkDstn></SttlmDstn></FXTradAccptReq>';
const refused = (fn) => () => {
  try {
    fn();
  } catch {
    return;
  }
  throw new Error('expected a refusal');
};

const PARSE = {
  'FXTradInstr': () => m.parseTradeInstruction(TRADE),
  'FXTradInstr in a prefixed Document, indented': () => m.parseTradeInstruction(WRAPPED),
  'FXTradAccptReq, bank form': () => m.parseTradeAccept(ACCEPT),
  'FXTradCxlReq with a character reference': () => m.parseTradeCancellation('<FXTradCxlReq><Rsn>Rate &amp; fee moved</Rsn></FXTradCxlReq>'),
  'malformed (refused, with line and column)': refused(() => m.parseTradeInstruction('<FXTradInstr>\n  <CcyPair><BaseCcy>NGN</BaseCcy></FXTradInstr>')),
};

// The same content through buildXml and through fast-xml-parser's XMLBuilder (text escaped
// beforehand, as XMLBuilder would also escape quotes), checked to give the same bytes.
const fxpBuilder = new XMLBuilder({ format: true, indentBy: '  ', suppressEmptyNode: true, processEntities: false });
const escaped = (v) =>
  typeof v === 'string'
    ? v.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
    : Array.isArray(v)
      ? v.map(escaped)
      : Object.fromEntries(Object.entries(v).filter(([, x]) => x !== undefined).map(([k, x]) => [k, escaped(x)]));
const viaXmlBuilder = (root, content) => `<?xml version="1.0" encoding="UTF-8"?>\n${fxpBuilder.build({ [root]: escaped(content) }).replace(/\n$/, '')}`;
const TRADE_CONTENT = {
  UnqTxIdr: { TxId: TX },
  TradSts: { Sts: 'NEWT' },
  CcyPair: { BaseCcy: 'NGN', QtdCcy: 'USDT' },
  TradAmts: { TradgCcyAmt: '1000', SttlmCcyAmt: '1000', CntrValCcyAmt: '1580500' },
  AllcnDtls: { TtlSttlmAmt: '1580500', WtdAvrgRate: '1580.5' },
  TTL: '300',
  OprgMd: 'sandbox',
};
const LISTINGS_CONTENT = {
  Pgntn: { PageNumber: '0', PageSize: '40', TotalElements: '40' },
  Listgs: m.POOLS.map((p) => ({ Id: p.id, Nm: p.name, CcyPair: `${p.source}/${p.destination}`, XchgRate: p.rate, AvlblBal: p.availableBalance, TradsCnt: String(p.tradesCount), CmpltnRate: p.completionRate })),
  OprgMd: 'sandbox',
};
const WRITERS = {};
for (const [what, root, content] of [['trade created', 'FXTradInstrRspn', TRADE_CONTENT], ['40 listings', 'FndPrcgPsptRpt', LISTINGS_CONTENT]]) {
  if (m.buildXml(root, content) !== viaXmlBuilder(root, content)) throw new Error(`the two writers differ on ${what}`);
  WRITERS[`${what}: buildXml`] = () => m.buildXml(root, content);
  WRITERS[`${what}: fast-xml-parser XMLBuilder`] = () => viaXmlBuilder(root, content);
}

const groups = [
  ['build', 'building a message', BUILD],
  ['parse', 'parsing a request body', PARSE],
  ['writers', 'writing prepared content', WRITERS],
];
console.log(`CPU µs per call, median of ${ROUNDS} rounds, node ${process.version}, sources ${path.relative(process.cwd(), src) || '.'}\n`);
for (const [key, title, cases] of groups) {
  if (only && !only.includes(key)) continue;
  console.log(`| ${title} | µs |\n|---|---:|`);
  for (const [name, fn] of Object.entries(cases)) console.log(`| ${name} | ${measure(fn).toFixed(1)} |`);
  console.log('');
}
