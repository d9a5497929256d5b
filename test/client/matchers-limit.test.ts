// The request matchers read every match of a key's journal: they ask for the journal's most entries,
// the server's JOURNAL_MAX, which the client may not import (it loads nothing of the server) and so
// holds as a constant of that type; here the two are compared, and the server's bound checked.
import { describe, expect, it } from 'vitest';
import { toHaveReceived } from '../../src/client/matchers.js';
import type { RequestsQuery } from '../../src/client/types.js';
import { ConfigSchema } from '../../src/config.js';
import { JOURNAL_MAX } from '../../src/engine/requests/journal.js';
import { createTestApp } from '../support/app.js';

describe('toHaveReceived and the journal\'s bound', () => {
  it('asks for the most entries a journal holds, which the server takes and no more', async () => {
    const asked: RequestsQuery[] = [];
    const tenant = { requests: async (q: RequestsQuery) => (asked.push(q), { data: [] }) };
    const result = await toHaveReceived.call({}, tenant, { method: 'POST', path: '/api/v1/partners/payouts' }, { times: 0 });
    expect(result.pass).toBe(true);
    expect(asked).toEqual([{ method: 'POST', path: '/api/v1/partners/payouts', limit: JOURNAL_MAX }]);
    expect(JOURNAL_MAX).toBe(10_000);

    const t = await createTestApp({ config: { journalSize: JOURNAL_MAX } });
    expect((await t.call('GET', `/_sandbox/requests?limit=${JOURNAL_MAX}`)).status).toBe(200);
    const over = await t.call('GET', `/_sandbox/requests?limit=${JOURNAL_MAX + 1}`);
    expect([over.status, over.body.error.details]).toEqual([400, [{ field: 'limit', issue: 'must be at most 10000' }]]);
    expect(ConfigSchema.safeParse({ journalSize: JOURNAL_MAX + 1 }).success).toBe(false);
  });
});
