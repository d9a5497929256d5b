// The ceiling of our stack: bare Hono on @hono/node-server (the versions the sandbox uses), answering
// the benchmarked routes with hand-written minimal handlers: check the key, parse, check a few
// fields, keep the record in a Map, answer the same shape (the FX routes: the same bytes).
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';

const payouts = new Map();
const quotes = new Map();
const walletPayouts = new Map();
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
  walletPayouts.set(b.reference, data);
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
  const number = Number(c.req.query('page') ?? 0);
  const size = Number(c.req.query('pageSize') ?? 10);
  const page = `  <Pgntn>\n    <PageNumber>${number}</PageNumber>\n    <PageSize>${size}</PageSize>\n    <TotalElements>${matching.length}</TotalElements>\n  </Pgntn>`;
  const body = [page, ...matching.slice(number * size, number * size + size).map((p) => LISTING.get(p)), '  <OprgMd>sandbox</OprgMd>'].join('\n');
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

app.get('/api/v1/partners/wallets/payouts/:reference', (c) => {
  if (!authed(c)) return c.json({ status: 'error' }, 401);
  const data = walletPayouts.get(c.req.param('reference'));
  return data ? c.json(data) : c.json({ status: 'error' }, 404);
});

const withdrawals = new Map();
const ACCOUNTS = { '73fa4f38-0f4d-443c-acf8-4003ed7e9ee9': 'NGN' };
app.post('/api/v1/partners/withdrawal', async (c) => {
  if (!authed(c)) return c.json({ status: 'error' }, 401);
  const b = await c.req.json();
  const currency = ACCOUNTS[b.accountId];
  if (!currency || typeof b.amount !== 'number' || typeof b.accountNumber !== 'string') return c.json({ status: 'error' }, 400);
  const at = now();
  const reference = `TRF-${randomUUID().replaceAll('-', '').toUpperCase()}`;
  const data = { amount: b.amount, currency, destination: { accountNumber: b.accountNumber, accountName: b.accountName, bankCode: b.bankCode }, providerStatus: 'PROCESSING', reference, status: 'PROCESSING', accountId: b.accountId, failureReason: null, createdAt: at, updatedAt: at, estimatedCompletionAt: at };
  withdrawals.set(reference, data);
  return c.json(data, 201);
});
app.get('/api/v1/partners/withdrawal/:reference', (c) => {
  if (!authed(c)) return c.json({ status: 'error' }, 401);
  const data = withdrawals.get(c.req.param('reference'));
  return data ? c.json(data) : c.json({ status: 'error' }, 404);
});

const transfers = new Map();
const transferRecord = (b, extra) => {
  const at = now();
  return { id: `trf_${randomUUID().replaceAll('-', '').slice(0, 24)}`, reference: b.reference, amount: b.amount, currency: b.currency, type: b.type, source: { accountNumber: b.source.accountNumber }, destination: { ...b.destination }, ...(b.narrations ? { narrations: b.narrations } : {}), status: 'PENDING', fee: 10, serviceSource: 'bench', category: null, bulkId: null, failureReason: null, createdAt: at, updatedAt: at, ...extra };
};
app.post('/api/v1/transfers', async (c) => {
  if (!authed(c) || !c.req.header('x-service-source')) return c.json({ status: 'error' }, 401);
  const b = await c.req.json();
  if (typeof b.reference !== 'string' || typeof b.amount !== 'number' || !b.destination?.accountNumber) return c.json({ status: 'error' }, 400);
  const data = transferRecord(b);
  transfers.set(b.reference, data);
  return c.json([data], 201);
});
app.get('/api/v1/transfers/:reference', (c) => {
  if (!authed(c) || !c.req.header('x-service-source')) return c.json({ status: 'error' }, 401);
  const data = transfers.get(c.req.param('reference'));
  return data ? c.json(data) : c.json({ status: 'error' }, 404);
});
// The demo bulk file every sandbox key holds: 24 settled rows, a page of 10 answered.
const DEMO = JSON.parse(readFileSync(new URL('../fixtures/bulk-demo-salaries.json', import.meta.url), 'utf8'));
const demoRows = DEMO.items.map((r, i) => transferRecord(r, { id: `trf_demo_${String(i + 1).padStart(4, '0')}`, failureReason: r.failureReason ?? null, status: r.status, fee: r.currency === 'NGN' ? 100 : 5, serviceSource: DEMO.serviceSource, category: r.category, bulkId: DEMO.id }));
app.get('/api/v1/transfers/bulk/:id/transfers', (c) => {
  if (!authed(c) || !c.req.header('x-service-source')) return c.json({ status: 'error' }, 401);
  if (c.req.param('id') !== DEMO.id) return c.json({ status: 'error' }, 404);
  const page = Number(c.req.query('page') ?? 0);
  const size = Number(c.req.query('size') ?? 10);
  return c.json({ content: demoRows.slice(page * size, page * size + size), pageNumber: page, pageSize: size, totalElements: demoRows.length, totalPages: Math.ceil(demoRows.length / size) });
});

// The quote flow answers the sandbox's shapes: the quote priced at the best fixture pool, with its
// pay-in instructions, the completed quote, and the simulated pay-in returning the quote's state.
const MERCHANT = randomUUID();
const quoteOf = (b) => {
  const pool = POOLS.filter((p) => p.source === b.sourceCurrency && p.destination === b.destinationCurrency).sort((x, y) => Number(x.rate) - Number(y.rate))[0];
  if (!pool) return undefined;
  const rate = Number(pool.rate);
  const received = Math.round((b.amount / rate) * 1e6) / 1e6;
  const quoteId = randomUUID();
  const reference = `HPR-${randomUUID().replaceAll('-', '')}`;
  const created = new Date();
  const expires = new Date(created.getTime() + 300_000).toISOString();
  return {
    quoteId, status: 'pending', source: b.sourceCurrency, destination: b.destinationCurrency, chain: 'BASE', amount: b.amount, totalSourceAmount: b.amount, totalDestinationAmount: received, clientId: MERCHANT, mode: 'sandbox', ttl: 300,
    allocationResult: { totalSourceAmount: b.amount, totalDestinationAmount: received, weightedAverageRate: rate, allocations: [{ id: randomUUID(), clientId: pool.clientId ?? randomUUID(), poolId: pool.id, poolAccountId: pool.accountId ?? randomUUID(), allocatedAmount: received, sourceAmount: b.amount, rate, reference: `${reference}-1`, metadata: { poolName: pool.name, chain: 'BASE' } }] },
    metadata: {
      bankPayIn: { accountName: 'Payments Sandbox Ltd', accountNumber: '5651803357', bankName: 'Access Bank', reference },
      cryptoPayIn: { addressId: randomUUID(), address: `0x${randomUUID().replaceAll('-', '')}${'0'.repeat(8)}`, chain: 'BASE', token: b.destinationCurrency, addressType: 'EVM', expectedAmount: 0, externalReference: quoteId, status: 'inactive', createdAt: created.toISOString(), expiresAt: expires, virtualAccountId: randomUUID(), derivationIndex: quotes.size, warningMessage: 'This quote is paid in by bank transfer to the bankPayIn account; do not send tokens to this address.' },
    },
    chatMetadata: { conversationId: null, chatQuoteId: null, listingId: null, initialListingRate: null, negotiationStartedAt: null, quoteSentAt: null, acceptedAt: null },
  };
};
app.post('/api/v1/partners/marketplace/intent', async (c) => {
  if (!authed(c)) return c.json({ status: 'error' }, 401);
  const quote = quoteOf(await c.req.json());
  if (!quote) return c.json({ status: 'error' }, 400);
  quotes.set(quote.quoteId, quote);
  return c.json(quote, 201);
});
app.get('/api/v1/partners/marketplace/quote/:id', (c) => {
  if (!authed(c)) return c.json({ status: 'error' }, 401);
  const q = quotes.get(c.req.param('id'));
  return q ? c.json(q) : c.json({ status: 'error' }, 404);
});
app.put('/api/v1/quotes/complete/:id', async (c) => {
  if (!authed(c)) return c.json({ status: 'error' }, 401);
  const q = quotes.get(c.req.param('id'));
  if (!q) return c.json({ status: 'error' }, 404);
  const b = await c.req.json();
  if (!b.destination?.blockChain?.address) return c.json({ status: 'error' }, 400);
  q.status = 'awaiting_payment';
  const a = q.allocationResult.allocations[0];
  const { cryptoPayIn } = q.metadata;
  return c.json({
    quoteId: q.quoteId, merchantId: q.clientId, sourceCurrency: q.source, destinationCurrency: q.destination, destinationNetwork: q.chain, rate: a.rate, providerId: a.clientId, providerBalanceId: a.poolAccountId, amount: q.amount, receiveAmount: q.totalDestinationAmount, totalAmount: q.amount + 0.5, expiresAt: cryptoPayIn.expiresAt, createdAt: now(), HyperRailReference: `HR-REF-${String(quotes.size).padStart(6, '0')}`, status: 'PENDING',
    metadata: { bankPayIn: q.metadata.bankPayIn, cryptoPayIn: { ...cryptoPayIn, status: 'INACTIVE' } },
    fees: [{ name: 'Processing Fee', amount: 0.5, feeType: 'FLAT' }],
  });
});
app.post('/_sandbox/simulate/quotes/:id/pay-in', (c) => {
  if (!authed(c)) return c.json({ status: 'error' }, 401);
  const q = quotes.get(c.req.param('id'));
  if (!q) return c.json({ status: 'error' }, 404);
  q.status = 'completed';
  return c.json({ resource: 'quotes', id: q.quoteId, event: 'pay-in', state: q });
});

serve({ fetch: app.fetch, port: Number(process.env.PORT ?? 0), hostname: '127.0.0.1' }, (info) => {
  console.log(`listening on http://127.0.0.1:${info.port}`);
});
