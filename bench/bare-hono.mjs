// The ceiling of our stack: bare Hono on @hono/node-server (the versions the sandbox uses), answering
// POST payout with a hand-written minimal handler: parse, check the key and a few fields, echo.
import { randomUUID } from 'node:crypto';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';

const store = new Map();
const app = new Hono();
app.get('/_sandbox/health', (c) => c.json({ status: 'ok' }));
app.post('/api/v1/partners/payouts', async (c) => {
  if (!(c.req.header('authorization') ?? '').startsWith('Bearer sk_test_')) return c.json({ status: 'error' }, 401);
  const body = await c.req.json();
  if (typeof body.reference !== 'string' || typeof body.amount !== 'number') return c.json({ status: 'error' }, 400);
  const data = { ...body, status: 'PENDING', fee: 10, id: randomUUID(), createdAt: new Date().toISOString() };
  store.set(body.reference, data);
  return c.json({ status: 'success', message: 'Payout initiated successfully', data }, 201);
});

serve({ fetch: app.fetch, port: Number(process.env.PORT ?? 0), hostname: '127.0.0.1' }, (info) => {
  console.log(`listening on http://127.0.0.1:${info.port}`);
});
