// The ceiling of our stack: bare Hono on @hono/node-server (the versions the sandbox uses), answering
// the benchmarked routes with hand-written minimal handlers: check the key, parse, check a few
// fields, keep the record in a Map, answer the same shape (the FX routes: the same bytes).
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';

const payouts = new Map();
const quotes = new Map();
const app = new Hono();
const authed = (c) => (c.req.header('authorization') ?? '').startsWith('Bearer sk_test_');
const now = () => new Date().toISOString();

app.get('/_sandbox/health', (c) => c.json({ status: 'ok' }));

app.post('/api/v1/partners/payouts', async (c) => {
  if (!authed(c)) return c.json({ status: 'error' }, 401);
  const body = await c.req.json();
  if (typeof body.reference !== 'string' || typeof body.amount !== 'number') return c.json({ status: 'error' }, 400);
  const data = { ...body, status: 'PENDING', fee: 10, createdAt: now() };
  payouts.set(body.reference, data);
  return c.json({ status: 'success', message: 'Payout initiated successfully', data }, 201);
});

app.get('/api/v1/partners/payouts/:reference', (c) => {
  if (!authed(c)) return c.json({ status: 'error' }, 401);
  const data = payouts.get(c.req.param('reference'));
  return data ? c.json({ status: 'success', message: 'Payout retrieved successfully', data }) : c.json({ status: 'error' }, 404);
});

app.post('/api/v1/partners/wallets/payouts', async (c) => {
  if (!authed(c)) return c.json({ status: 'error' }, 401);
  const b = await c.req.json();
  if (typeof b.reference !== 'string' || !(b.amount >= 10) || !/^0x[a-fA-F0-9]{40}$/.test(b.toAddress)) return c.json({ status: 'error' }, 400);
  const data = { reference: b.reference, withdrawalId: randomUUID(), walletId: randomUUID(), chain: b.chain, token: b.asset, amount: b.amount, estimatedFee: 2.5, toAddress: b.toAddress, status: 'PENDING', transactionHash: null, createdAt: now(), estimatedCompletionAt: now() };
  return c.json(data, 201);
});

// The FX routes answer the sandbox's bytes for the bench's requests, from templates: the same
// indented XML, the trade priced at the best fixture pool's rate, listings from the pool fixture.
const XML_TYPE = { 'content-type': 'application/xml; charset=utf-8' };
const POOLS = JSON.parse(readFileSync(new URL('../fixtures/pools.json', import.meta.url), 'utf8'));
const TOKENS = new Set(['USDT', 'USDC']);
const trades = new Map();
const tag = (xml, name) => new RegExp(`<${name}>([^<]*)</${name}>`).exec(xml)?.[1];
const decimal = (text) => String(Number(text));
const xmlDoc = (root, body) => `<?xml version="1.0" encoding="UTF-8"?>\n<${root}>\n${body}\n</${root}>`;
const pairXml = (t) => `  <CcyPair>\n    <BaseCcy>${t.base}</BaseCcy>\n    <QtdCcy>${t.quoted}</QtdCcy>\n  </CcyPair>`;

app.post('/api/v1/partners/fx/trades', async (c) => {
  if (!authed(c)) return c.body('<MsgRjct/>', 401, XML_TYPE);
  const xml = await c.req.text();
  const [base, quoted, amount] = [tag(xml, 'BaseCcy'), tag(xml, 'QtdCcy'), tag(xml, 'TradgCcyAmt')];
  const pools = POOLS.filter((p) => p.source === base && p.destination === quoted).map((p) => Number(p.rate));
  if (!amount || pools.length === 0) return c.body('<MsgRjct/>', 400, XML_TYPE);
  const rate = TOKENS.has(quoted) ? Math.min(...pools) : Math.max(...pools);
  const t = { id: randomUUID(), base, quoted, amount: decimal(amount), counter: String(Number(amount) * rate), rate: String(rate), expiresAt: Date.now() + 300_000 };
  trades.set(t.id, t);
  const body = `  <UnqTxIdr>\n    <TxId>${t.id}</TxId>\n  </UnqTxIdr>\n  <TradSts>\n    <Sts>NEWT</Sts>\n  </TradSts>\n${pairXml(t)}\n  <TradAmts>\n    <TradgCcyAmt>${t.amount}</TradgCcyAmt>\n    <SttlmCcyAmt>${t.amount}</SttlmCcyAmt>\n    <CntrValCcyAmt>${t.counter}</CntrValCcyAmt>\n  </TradAmts>\n  <AllcnDtls>\n    <TtlSttlmAmt>${t.counter}</TtlSttlmAmt>\n    <WtdAvrgRate>${t.rate}</WtdAvrgRate>\n  </AllcnDtls>\n  <TTL>300</TTL>\n  <OprgMd>sandbox</OprgMd>`;
  return c.body(xmlDoc('FXTradInstrRspn', body), 201, XML_TYPE);
});

app.get('/api/v1/partners/fx/trades/:id', (c) => {
  if (!authed(c)) return c.body('<MsgRjct/>', 401, XML_TYPE);
  const t = trades.get(c.req.param('id'));
  if (!t) return c.body('<MsgRjct/>', 404, XML_TYPE);
  const ttl = Math.max(0, Math.ceil((t.expiresAt - Date.now()) / 1000));
  const body = `  <TxId>${t.id}</TxId>\n  <Sts>NEWT</Sts>\n${pairXml(t)}\n  <TradAmts>\n    <TradgCcyAmt>${t.amount}</TradgCcyAmt>\n    <CntrValCcyAmt>${t.counter}</CntrValCcyAmt>\n  </TradAmts>\n  <TTL>${ttl}</TTL>\n  <OprgMd>sandbox</OprgMd>`;
  return c.body(xmlDoc('FXTradStsAndDtlsNtfctn', body), 200, XML_TYPE);
});

const LISTING = new Map(
  POOLS.map((p) => [p, `  <Listgs>\n    <Id>${p.id}</Id>\n    <Nm>${p.name}</Nm>\n    <CcyPair>${p.source}/${p.destination}</CcyPair>\n    <XchgRate>${decimal(p.rate)}</XchgRate>\n    <AvlblBal>${decimal(p.availableBalance)}</AvlblBal>\n    <TradsCnt>${p.tradesCount}</TradsCnt>\n    <CmpltnRate>${decimal(p.completionRate)}</CmpltnRate>\n  </Listgs>`]),
);
app.get('/api/v1/partners/fx/listings', (c) => {
  if (!authed(c)) return c.body('<MsgRjct/>', 401, XML_TYPE);
  const source = c.req.query('source')?.toUpperCase();
  const destination = c.req.query('destination')?.toUpperCase();
  const matching = POOLS.filter((p) => (!source || p.source === source) && (!destination || p.destination === destination));
  const page = `  <Pgntn>\n    <PageNumber>0</PageNumber>\n    <PageSize>10</PageSize>\n    <TotalElements>${matching.length}</TotalElements>\n  </Pgntn>`;
  const body = [page, ...matching.slice(0, 10).map((p) => LISTING.get(p)), '  <OprgMd>sandbox</OprgMd>'].join('\n');
  return c.body(xmlDoc('FndPrcgPsptRpt', body), 200, XML_TYPE);
});

// The sandbox's rate is a seeded walk; this answers a fixed rate of the same form.
app.get('/api/v1/partners/fx/rates/makers', (c) => {
  if (!authed(c)) return c.body('<MsgRjct/>', 401, XML_TYPE);
  const now = Date.now();
  const minute = Math.floor(now / 60_000) * 60_000;
  const body = `  <SrcCcy>${c.req.query('from')}</SrcCcy>\n  <TrgtCcy>${c.req.query('to')}</TrgtCcy>\n  <XchgRate>1574.398</XchgRate>\n  <RateSrc>market_maker</RateSrc>\n  <TmStmp>${new Date(minute).toISOString()}</TmStmp>\n  <AgeSecs>${Math.floor((now - minute) / 1000)}</AgeSecs>\n  <PctChg24H>-1.0437</PctChg24H>\n  <OprgMd>sandbox</OprgMd>`;
  return c.body(xmlDoc('FxTradStsAndDtls', body), 200, XML_TYPE);
});

app.post('/api/v1/partners/marketplace/intent', async (c) => {
  if (!authed(c)) return c.json({ status: 'error' }, 401);
  const b = await c.req.json();
  const quote = { quoteId: randomUUID(), status: 'pending', source: b.sourceCurrency, destination: b.destinationCurrency, amount: b.amount, ttl: 300 };
  quotes.set(quote.quoteId, quote);
  return c.json(quote, 201);
});
app.put('/api/v1/quotes/complete/:id', async (c) => {
  const q = quotes.get(c.req.param('id'));
  if (!q) return c.json({ status: 'error' }, 404);
  await c.req.json();
  q.status = 'awaiting_payment';
  return c.json({ quoteId: q.quoteId, status: 'PENDING', amount: q.amount });
});
app.post('/_sandbox/simulate/quotes/:id/pay-in', (c) => {
  const q = quotes.get(c.req.param('id'));
  if (!q) return c.json({ status: 'error' }, 404);
  q.status = 'completed';
  return c.json({ resource: 'quotes', id: q.quoteId, event: 'pay-in', state: q });
});

serve({ fetch: app.fetch, port: Number(process.env.PORT ?? 0), hostname: '127.0.0.1' }, (info) => {
  console.log(`listening on http://127.0.0.1:${info.port}`);
});
