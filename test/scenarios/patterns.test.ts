// Patterns a key sends in its scenario (fault routes, outcome regular expressions), over HTTP:
// the ones that used to hold the event loop for seconds (a fault route for 96 s) now answer at once,
// and another key's request sent at the same moment is answered within milliseconds.
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, KEY, KEY_B, type TestApp } from '../support/app.js';
import { payout, PAYOUTS } from './support.js';

// One app for the file: the timings must not count loading code on a first request.
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await useScenario(KEY_B, { payout: { outcomes: [{ when: { reference: '^warm' }, status: 'FAILED' }] } });
  await t.call('POST', PAYOUTS, { key: KEY_B, body: payout('warm-up') });
});

/** Well under the seconds each of these requests took when patterns ran on a backtracking engine. */
const PROMPT_MS = 500;

/**
 * The key's request and another key's, sent together. Both times count from the moment both were
 * sent: a pattern holding the event loop at any point of the key's request delays one of them.
 */
async function together(method: string, path: string, body?: unknown) {
  const start = performance.now();
  const since = <T>(res: T) => ({ ...res, ms: performance.now() - start });
  const [own, other] = await Promise.all([
    t.call(method, path, { key: KEY, body }).then(since),
    t.call('GET', '/api/v1/partners/banks?currency=NGN', { key: KEY_B }).then(since),
  ]);
  expect(other.status).toBe(200);
  expect(own.ms, `${method} ${path.slice(0, 80)}`).toBeLessThan(PROMPT_MS);
  expect(other.ms, 'the other key').toBeLessThan(PROMPT_MS);
  return own;
}

async function useScenario(key: string, scenario: unknown) {
  const res = await t.call('PUT', '/_sandbox/scenario', { key, body: { scenario } });
  expect(res.status, res.text).toBe(200);
}

const bind = (scenario: unknown) => useScenario(KEY, scenario);

describe('fault route patterns', () => {
  it('refuses the route that held the server 96 s, naming the field, and the next request answers at once', async () => {
    const put = await t.call('PUT', '/_sandbox/scenario', {
      body: { scenario: { faults: [{ route: { path: '/api/************************zz' }, fault: { kind: 'error', status: 500 } }] } },
    });
    expect(put.status).toBe(400);
    expect(put.body.error).toEqual({
      type: 'invalid_request_error',
      code: 'INVALID_SCENARIO',
      details: [
        {
          field: 'scenario.faults[0].route.path',
          issue: '** stands for whole segments and must be a segment of its own (as in /api/**/payouts); use * within a segment',
        },
      ],
    });
    const res = await together('GET', `${PAYOUTS}/aaaaaaaaaaaaaaaaaaaa`);
    expect(res.status).toBe(404);
  });

  it('matches a route with as many wildcards as allowed against a long path at once, and still fires where it should', async () => {
    await bind({ faults: [{ route: { path: '/api/**/*a*a*a*a*a*a*zz' }, fault: { kind: 'error', status: 500 } }] });
    const long = `${PAYOUTS}/${'a'.repeat(4000)}`;
    const missed = await together('GET', long);
    expect(missed.headers.get('x-sandbox-fault')).toBeNull();
    expect(missed.status).toBe(400);
    const hit = await together('GET', `${long}zz`);
    expect(hit.status).toBe(500);
    expect(hit.headers.get('x-sandbox-fault')).toBe('error 500');
  });
});

describe('outcome regular expressions', () => {
  const failed = async (reference: string) => {
    const res = await t.call('GET', `${PAYOUTS}/${reference}`);
    return [res.body.data.status, res.body.data.failureReason];
  };

  it('^(a|a)*$ on the reference: a 30-character near miss answers at once, a match fails the payout', async () => {
    await bind({ payout: { timing: { '*': 0 }, outcomes: [{ when: { reference: '^(a|a)*$' }, status: 'FAILED', reason: 'only a' }] } });
    const near = `${'a'.repeat(29)}b`;
    expect((await together('POST', PAYOUTS, payout(near))).status).toBe(201);
    expect((await together('POST', PAYOUTS, payout('a'.repeat(30)))).status).toBe(201);
    expect(await failed(near)).toEqual(['SUCCESSFUL', null]);
    expect(await failed('a'.repeat(30))).toEqual(['FAILED', 'only a']);
  });

  it('.*.*.*.*.*.*.*.*.*.*= on fields.narration: a 30-character narration answers at once', async () => {
    await bind({ payout: { timing: { '*': 0 }, outcomes: [{ when: { fields: { narration: '.*.*.*.*.*.*.*.*.*.*=' } }, status: 'FAILED', reason: 'has =' }] } });
    const plain = await together('POST', PAYOUTS, payout('n-plain', { narration: 'x'.repeat(30) }));
    const equals = await together('POST', PAYOUTS, payout('n-equals', { narration: `${'x'.repeat(29)}=` }));
    expect([plain.status, equals.status]).toEqual([201, 201]);
    expect(await failed('n-plain')).toEqual(['SUCCESSFUL', null]);
    expect(await failed('n-equals')).toEqual(['FAILED', 'has =']);
  });
});
