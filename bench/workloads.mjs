// The bench's workloads: for each, the autocannon requests for one key, and an optional setup run
// first. Imported by bench/run.mjs (the setups, the list of workloads) and by bench/load.mjs, the
// load generator's thread, which builds the requests of a plan (`requestsOf`): functions cannot be
// sent to a thread, so a plan names what to load and the thread builds it.
export const json = (key) => ({ authorization: `Bearer ${key}`, 'content-type': 'application/json' });
export const xml = (key) => ({ authorization: `Bearer ${key}`, 'content-type': 'application/xml' });
const hex8 = () => Math.floor(Math.random() * 2 ** 32).toString(16).padStart(8, '0');
export const uniq = () => Math.random().toString(36).slice(2, 8);

export const payoutBody = (reference) =>
  JSON.stringify({ reference, amount: 1000, currency: 'NGN', destination: { accountNumber: '0123456789', accountName: 'John Doe', bankCode: '058' } });
const walletPayoutBody = (reference) => JSON.stringify({ reference, chain: 'base', asset: 'usdc', amount: 10, toAddress: '0x52908400098527886E0F7030069857D2E4169EE7' });
/** Every key's NGN balance account (a fixed id of the sandbox's accounts). */
const NGN_ACCOUNT = '73fa4f38-0f4d-443c-acf8-4003ed7e9ee9';
const WITHDRAWAL =
  JSON.stringify({ accountId: NGN_ACCOUNT, accountName: 'John Doe', accountNumber: '0123456789', amount: 1000, bankCode: '058', authCode: '123456' });
const transferHeaders = (key) => ({ ...json(key), 'x-service-source': 'bench' });
const transferBody = (reference) =>
  JSON.stringify({ reference, amount: 1000, currency: 'NGN', type: 'BANK', source: { accountNumber: '1000200030' }, destination: { accountNumber: '0123456789', accountName: 'John Doe', bankCode: '058' } });
/** A fresh UUID-shaped transfer reference from a run prefix and a counter. */
const transferRef = (p, n) => `${p}-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
const INTENT = JSON.stringify({ sourceCurrency: 'NGN', destinationCurrency: 'USDT', amount: 1000, amountDirection: 'source' });
const COMPLETE = JSON.stringify({ destination: { blockChain: { address: '0x52908400098527886E0F7030069857D2E4169EE7' } } });

const FX_TRADE =
  '<?xml version="1.0" encoding="UTF-8"?><FXTradInstr><CcyPair><BaseCcy>NGN</BaseCcy><QtdCcy>USDT</QtdCcy></CcyPair><TradAmts><TradgCcyAmt>1000</TradgCcyAmt></TradAmts><AmtDrctn>BUY</AmtDrctn></FXTradInstr>';
/** What each key reads back in the read-back workloads, by workload and key. */
export const created = new Map();
/** Create one resource for a key before a read-back workload and keep the id it is read by. */
const keep = (key, id) => created.set(key, id);
const topUp = (url, key) =>
  fetch(`${url}/_sandbox/balances/top-up`, { method: 'POST', headers: json(key), body: JSON.stringify({ key: 'usdc:base', amount: 1e12 }) });

/** A workload that creates a fresh resource per request: the request for one key, n the count so far. */
const creating = (method, path, headers, body, prefix = uniq) => (key) => {
  let n = 0;
  const p = prefix();
  return [{ method, path, headers: headers(key), setupRequest: (req) => ({ ...req, body: body(p, ++n) }) }];
};

/** Each workload: the autocannon requests for one key, an optional setup run first, and whether each
 * request creates a resource (the --data and memory measurements run those). */
export const WORKLOADS = {
  'POST payout': { creates: true, requests: creating('POST', '/api/v1/partners/payouts', json, (p, n) => payoutBody(`b-${p}-${n}`)) },
  'GET payout read-back': {
    setup: async (url, key) => fetch(`${url}/api/v1/partners/payouts`, { method: 'POST', headers: json(key), body: payoutBody('bench-read') }),
    requests: (key) => [{ method: 'GET', path: '/api/v1/partners/payouts/bench-read', headers: json(key) }],
  },
  // Enough usdc on base for every payout of the run.
  'POST wallet payout': { creates: true, setup: topUp, requests: creating('POST', '/api/v1/partners/wallets/payouts', json, (p, n) => walletPayoutBody(`w-${p}-${n}`)) },
  'GET wallet payout read-back': {
    setup: async (url, key) => {
      await topUp(url, key);
      await fetch(`${url}/api/v1/partners/wallets/payouts`, { method: 'POST', headers: json(key), body: walletPayoutBody('bench-read') });
    },
    requests: (key) => [{ method: 'GET', path: '/api/v1/partners/wallets/payouts/bench-read', headers: json(key) }],
  },
  'POST withdrawal': { creates: true, requests: creating('POST', '/api/v1/partners/withdrawal', json, () => WITHDRAWAL) },
  'GET withdrawal read-back': {
    setup: async (url, key) => {
      const res = await fetch(`${url}/api/v1/partners/withdrawal`, { method: 'POST', headers: json(key), body: WITHDRAWAL });
      keep(key, (await res.json()).reference);
    },
    requests: (key) => [{ method: 'GET', path: `/api/v1/partners/withdrawal/${created.get(key)}`, headers: json(key) }],
  },
  'POST transfer': {
    creates: true,
    requests: creating('POST', '/api/v1/transfers', transferHeaders, (p, n) => transferBody(transferRef(p, n)), hex8),
  },
  'GET transfer read-back': {
    setup: async (url, key) => fetch(`${url}/api/v1/transfers`, { method: 'POST', headers: transferHeaders(key), body: transferBody(transferRef('0000beef', 1)) }),
    requests: (key) => [{ method: 'GET', path: `/api/v1/transfers/${transferRef('0000beef', 1)}`, headers: transferHeaders(key) }],
  },
  // The demo file is made only on request (the bare Hono answers its page without one).
  'GET bulk page': {
    setup: async (url, key) => fetch(`${url}/_sandbox/bulk-disbursements/demo`, { method: 'POST', headers: { authorization: `Bearer ${key}` } }),
    requests: (key) => [{ method: 'GET', path: '/api/v1/transfers/bulk/bulk_demo_salaries/transfers', headers: transferHeaders(key) }],
  },
  'POST FX trade (XML)': { creates: true, requests: (key) => [{ method: 'POST', path: '/api/v1/partners/fx/trades', headers: xml(key), body: FX_TRADE }] },
  'GET FX trade (XML)': {
    setup: async (url, key) => {
      const res = await fetch(`${url}/api/v1/partners/fx/trades`, { method: 'POST', headers: xml(key), body: FX_TRADE });
      keep(key, /<TxId>([^<]+)<\/TxId>/.exec(await res.text())[1]);
    },
    requests: (key) => [{ method: 'GET', path: `/api/v1/partners/fx/trades/${created.get(key)}`, headers: xml(key) }],
  },
  'GET listings (XML)': (key) => [{ method: 'GET', path: '/api/v1/partners/fx/listings?source=NGN&destination=USDT', headers: xml(key) }],
  'GET listings of 40 pools (XML)': (key) => [{ method: 'GET', path: '/api/v1/partners/fx/listings?pageSize=40', headers: xml(key) }],
  'GET maker rate (XML)': (key) => [{ method: 'GET', path: '/api/v1/partners/fx/rates/makers?from=NGN&to=USDT', headers: xml(key) }],
  'POST quote intent': { creates: true, requests: (key) => [{ method: 'POST', path: '/api/v1/partners/marketplace/intent', headers: json(key), body: INTENT }] },
  'GET quote read-back': {
    setup: async (url, key) => {
      const res = await fetch(`${url}/api/v1/partners/marketplace/intent`, { method: 'POST', headers: json(key), body: INTENT });
      keep(key, (await res.json()).quoteId);
    },
    requests: (key) => [{ method: 'GET', path: `/api/v1/partners/marketplace/quote/${created.get(key)}`, headers: json(key) }],
  },
  // Intent then complete: with 'POST quote intent' this gives the complete step's cost.
  'quote flow: intent + complete': (key) => quoteFlow(key).slice(0, 2),
  'quote flow: intent + complete + pay-in': (key) => quoteFlow(key),
};

function quoteFlow(key) {
  return [
    {
      method: 'POST',
      path: '/api/v1/partners/marketplace/intent',
      headers: json(key),
      body: INTENT,
      onResponse: (status, body, context) => {
        if (status < 300) context.quoteId = JSON.parse(body).quoteId;
      },
    },
    { method: 'PUT', headers: json(key), setupRequest: (req, context) => ({ ...req, path: `/api/v1/quotes/complete/${context.quoteId}`, body: COMPLETE }) },
    { method: 'POST', headers: json(key), setupRequest: (req, context) => ({ ...req, path: `/_sandbox/simulate/quotes/${context.quoteId}/pay-in` }) },
  ];
}

/** A workload's autocannon requests for a key. */
const requestsFor = (name) => (typeof WORKLOADS[name] === 'function' ? WORKLOADS[name] : WORKLOADS[name].requests);
export const CREATING = Object.keys(WORKLOADS).filter((n) => WORKLOADS[n].creates);

/** What to load, as a plan a thread can be sent: a workload for one key (`id`, what a read-back
 * workload reads, from its setup); one request after another going round `kinds` for each of `keys`
 * (the RSS measurement); or POST payouts spread over `keys` (the PostgreSQL keys rows, `tag` keeping
 * each replica's references apart). */
export function requestsOf(plan) {
  if (plan.workload) {
    if (plan.id !== undefined) created.set(plan.key, plan.id);
    return requestsFor(plan.workload)(plan.key);
  }
  let n = 0;
  if (plan.kinds) {
    const perKey = plan.keys.map((key) => plan.kinds.map((k) => requestsFor(k)(key)[0]));
    return [{ setupRequest: (req) => {
      const i = n++;
      const t = perKey[i % perKey.length][Math.floor(i / perKey.length) % plan.kinds.length];
      // Each template's own setupRequest gives it a fresh body.
      return t.setupRequest ? t.setupRequest({ ...req, ...t }) : { ...req, ...t };
    } }];
  }
  const p = uniq();
  return [{ method: 'POST', path: '/api/v1/partners/payouts', setupRequest: (req) => {
    const i = n++;
    return { ...req, headers: json(plan.keys[i % plan.keys.length]), body: payoutBody(`k${plan.tag}-${p}-${i}`) };
  } }];
}
