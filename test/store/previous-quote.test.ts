// A marketplace quote stored as the version before stored it (its whole view beside the lifecycle's
// fields, as --data files and database rows written by it hold it) is served as one stored in this
// version's compact form: reads, allocation removal, completion, pay-in, events and the resource list
// answer the same bytes.
//
// Twice: quotes rewritten here in the previous form, and a --data directory the previous version
// wrote itself (fixtures/previous-quotes, by fixtures/generate.mjs), moved by this version and by
// that one (answers.json): the same script (fixtures/quote-script.mjs), the same answers.
import { cp, mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tenantIdOf } from '../../src/engine/tenancy/tenants.js';
import { ManualClock } from '../../src/kernel/clock.js';
import { LowdbStore } from '../../src/store/lowdb.store.js';
import { createTestApp, KEY, type TestApp } from '../support/app.js';
import { intents, moves, QUOTE, type ScriptQuotes } from './fixtures/quote-script.mjs';

const FIXTURE = path.join(import.meta.dirname, 'fixtures', 'previous-quotes');

/** The fields the version before kept beside the view. */
const LIFECYCLE = ['amountDirection', 'createdAt', 'expiresAt', 'updatedAt', 'completedAt', 'orderReference', 'outcome', 'scenario', 'payment', 'payoutTo', 'completion', 'quoteType'];

/** Rewrite a stored quote in the previous version's form, as read back from JSON. */
async function asPrevious(t: TestApp, quoteId: string) {
  const quotes = (await t.store.tenant(tenantIdOf(KEY))).collection<Record<string, unknown>>('quotes');
  const record = quotes.get(quoteId)!;
  expect(record).not.toHaveProperty('view');
  const view = (await t.call('GET', `${QUOTE}/${quoteId}`)).body;
  const previous: Record<string, unknown> = { view };
  for (const f of LIFECYCLE) if (record[f] !== undefined) previous[f] = record[f];
  quotes.put(quoteId, JSON.parse(JSON.stringify(previous)));
}

/** A call of the script, kept as `<method> <path> <status> <text>`. */
function recorder(t: TestApp) {
  const texts: string[] = [];
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await t.call(method, path, { body });
    texts.push(`${method} ${path} ${res.status} ${res.text}`);
    return res.body;
  };
  return { texts, call };
}

async function script(previous: boolean): Promise<string[]> {
  const t = await createTestApp();
  const { texts, call } = recorder(t);
  const q = await intents(call);
  expect(q.allocations).toBeGreaterThan(1);
  if (previous) for (const id of [q.chat, q.two, q.token]) await asPrevious(t, id);
  await moves(call, q, (s) => t.clock.advance(s));
  return texts;
}

const stores: LowdbStore[] = [];
afterEach(async () => {
  await Promise.all(stores.splice(0).map((s) => s.close()));
});

describe('a quote stored by the previous version', () => {
  it('is read, moved and listed with the same bytes as one stored in this form', async () => {
    const now = await script(false);
    const before = await script(true);
    // Every step answered as it should: 201 for the intents, 200 for the rest.
    expect(now.map((l) => l.split(' ')[2])).toEqual(['201', '201', '201', ...Array(17).fill('200')]);
    expect(before).toEqual(now);
    // The completed quote's pay-in moved it to completed in both.
    expect(now.some((l) => l.includes('"status":"completed"'))).toBe(true);
  });

  it('is moved as the previous version moved it, from a --data directory that version wrote', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'sandbox-quotes-'));
    await cp(path.join(FIXTURE, 'tenants'), path.join(dir, 'tenants'), { recursive: true });
    const before = JSON.parse(await readFile(path.join(FIXTURE, 'answers.json'), 'utf8')) as { quotes: ScriptQuotes; lines: string[] };
    const store = await LowdbStore.open(dir);
    stores.push(store);
    const t = await createTestApp({ store, clock: new ManualClock() });
    const { texts, call } = recorder(t);
    await moves(call, before.quotes, (s) => t.clock.advance(s));
    expect(texts.map((l) => l.split(' ')[2])).toEqual(Array(17).fill('200'));
    // One change on purpose since that version: order.successful carries the order's status,
    // `successful`, where it carried the quote's, `completed`; everything else is the same bytes.
    const changed = (l: string) => l.replace(/("event":"order\.successful","createdAt":"[^"]*","data":\{[^}]*?"status":)"completed"/g, '$1"successful"');
    expect(before.lines.filter((l) => changed(l) !== l)).toHaveLength(1);
    expect(texts).toEqual(before.lines.map(changed));
  });
});
