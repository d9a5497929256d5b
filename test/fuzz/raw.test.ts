// Bodies no JSON serialiser would write: NaN and Infinity, numbers past a double, duplicate keys,
// nesting thousands of levels deep, broken UTF-8, other content types. Same invariants as the
// generated bodies, and the journal that keeps them must still read back.
import { describe, expect, it } from 'vitest';
import { createTestApp } from '../support/app.js';
import { checkOne } from './check.js';
import { documentedRoutes, exampleHeaders, fillPath, isErrorEnvelope, sample, warmUp } from './routes.js';

const probe = await createTestApp();
const { doc, routes } = await documentedRoutes(probe);
const withBody = routes.filter((r) => r.body);

const deepArray = (n: number) => '['.repeat(n) + ']'.repeat(n);
const deepObject = (n: number) => '{"a":'.repeat(n) + '1' + '}'.repeat(n);

/** Raw texts built around a valid body, so each reaches the field checks of its route. */
function rawBodies(valid: unknown): [string, string][] {
  const text = JSON.stringify(valid);
  const obj = valid && typeof valid === 'object' && !Array.isArray(valid) ? (valid as Record<string, unknown>) : {};
  const numKey = Object.keys(obj).find((k) => typeof obj[k] === 'number') ?? 'amount';
  const strKey = Object.keys(obj).find((k) => typeof obj[k] === 'string') ?? 'reference';
  const withValue = (k: string, raw: string) => text.replace(new RegExp(`"${k}":(("[^"]*")|[^,}]*)`), `"${k}":${raw}`);
  const out: [string, string][] = [];
  for (const n of ['NaN', 'Infinity', '-Infinity', '1e309', '-1e309', '-0', '1e-400', '0.30000000000000004', '123456789012345678901234567890', '0x10', '01', '.5', '1.', '+1']) {
    out.push([`${numKey}: ${n}`, withValue(numKey, n)]);
  }
  out.push(['duplicate keys, last wins', text.replace(/^\{/, `{"${strKey}":"first",`)]);
  out.push(['duplicate keys with a different type', text.replace(/^\{/, `{"${numKey}":"text",`)]);
  out.push(['10,000 nested arrays', deepArray(10_000)]);
  out.push(['200,000 nested arrays', deepArray(200_000)]);
  out.push(['100,000 nested objects', deepObject(100_000)]);
  out.push(['deep nesting in an unknown field', text.replace(/^\{/, `{"extra":${deepArray(100_000)},`)]);
  out.push(['deep nesting in a known field', withValue(strKey, deepArray(50_000))]);
  out.push(['control characters in a string', withValue(strKey, '"a\\u0000b\\u001fc\\u007f\\u202e"')]);
  out.push(['a lone surrogate', withValue(strKey, '"\\ud800"')]);
  out.push(['a 900 KB string', withValue(strKey, `"${'x'.repeat(900_000)}"`)]);
  out.push(['a byte-order mark', `\ufeff${text}`]);
  out.push(['trailing garbage', `${text} x`]);
  out.push(['two documents', `${text}${text}`]);
  out.push(['truncated', text.slice(0, -1)]);
  out.push(['empty', '']);
  out.push(['null', 'null']);
  out.push(['a string', '"payout"']);
  out.push(['__proto__ key', text.replace(/^\{/, '{"__proto__":{"isAdmin":true},')]);
  return out;
}

describe('raw hostile bodies', () => {
  it.each(withBody.map((r) => [`${r.method} ${r.path}`, r] as const))('%s', async (_name, r) => {
    const t = await createTestApp();
    await warmUp(t);
    const path = fillPath(r);
    for (const [, raw] of rawBodies(sample(doc, r.body))) await checkOne(t, r, path, { raw });
    const journal = await t.call('GET', '/_sandbox/requests?limit=200');
    expect(journal.status).toBe(200);
    expect(Array.isArray(journal.body.data)).toBe(true);
  });

  it('refuses other content types and broken UTF-8 in the envelope', async () => {
    const t = await createTestApp();
    await warmUp(t);
    const r = withBody.find((x) => x.path === '/api/v1/partners/payouts')!;
    const valid = JSON.stringify(sample(doc, r.body));
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/json; charset=utf-16', 'application/xml', '']) {
      await checkOne(t, r, r.path, { raw: valid, headers: { 'content-type': type } });
    }
    const broken = new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0xc3, 0x22, 0x7d]);
    const res = await t.app.request(r.path, {
      method: 'POST',
      headers: { authorization: 'Bearer sk_test_00000000000000000000000000000001', 'content-type': 'application/json', ...exampleHeaders(r) },
      body: broken,
    });
    expect(res.status).toBe(400);
    expect(isErrorEnvelope(await res.json())).toBe(true);
  });
});
