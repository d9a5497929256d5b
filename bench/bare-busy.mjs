// The ceiling of our stack: bare Hono on @hono/node-server (the versions the sandbox uses), answering
// the benchmarked routes with hand-written minimal handlers: check the key, parse, check a few
// fields, keep the record in a Map, answer the same shape.
import { randomUUID } from 'node:crypto';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';

const payouts = new Map();
const quotes = new Map();
const app = new Hono();
const authed = (c) => (c.req.header('authorization') ?? '').startsWith('Bearer sk_test_');
const now = () => new Date().toISOString();

app.get('/_sandbox/health', (c) => c.json({ status: 'ok' }));

app.post('/api/v1/partners/payouts', async (c) => {
  const until = performance.now() + Number(process.env.BUSY_US ?? 0) / 1000; while (performance.now() < until);
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

app.post('/api/v1/partners/fx/trades', async (c) => {
  if (!authed(c)) return c.text('<MsgRjct/>', 401);
  const xml = await c.req.text();
  const amount = /<TradgCcyAmt>([^<]+)<\/TradgCcyAmt>/.exec(xml)?.[1];
  if (!amount) return c.text('<MsgRjct/>', 400);
  const id = randomUUID();
  return c.body(`<?xml version="1.0" encoding="UTF-8"?><FXTradInstrRspn><UnqTxIdr><TxId>${id}</TxId></UnqTxIdr><TradSts><Sts>NEWT</Sts></TradSts><TradAmts><TradgCcyAmt>${amount}</TradgCcyAmt></TradAmts><TTL>300</TTL><OprgMd>sandbox</OprgMd></FXTradInstrRspn>`, 201, { 'content-type': 'application/xml' });
});

const LISTINGS = `<?xml version="1.0" encoding="UTF-8"?><FndPrcgPsptRpt><Pgntn><PageNumber>0</PageNumber><PageSize>10</PageSize><TotalElements>4</TotalElements></Pgntn>${'<Listgs><Id>x</Id><Nm>Pool</Nm><CcyPair>NGN/USDT</CcyPair><XchgRate>1580.5</XchgRate><AvlblBal>42500</AvlblBal><TradsCnt>1</TradsCnt><CmpltnRate>98.7</CmpltnRate></Listgs>'.repeat(4)}<OprgMd>sandbox</OprgMd></FndPrcgPsptRpt>`;
app.get('/api/v1/partners/fx/listings', (c) => (authed(c) ? c.body(LISTINGS, 200, { 'content-type': 'application/xml' }) : c.text('', 401)));

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
