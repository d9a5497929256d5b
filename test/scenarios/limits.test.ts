// What PUT /_sandbox/scenario refuses in the patterns and lists a key sends, and what it now
// accepts: regular expressions in RE2 syntax, bounded in length, compiled size and number; fault
// routes bounded in length, segments and wildcards; rule lists and name lists bounded in length.
import { beforeEach, describe, expect, it } from 'vitest';
import { REGEX_LIMITS, regexMatches } from '../../src/engine/scenario/scenario.regex.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { payout, PAYOUTS, status, useScenario } from './support.js';

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
});

/** The details of a refused PUT, after checking it is a 400 INVALID_SCENARIO that kept the old scenario. */
async function refused(scenario: unknown): Promise<{ field: string; issue: string }[]> {
  await useScenario(t, { name: 'instant' });
  const res = await t.call('PUT', '/_sandbox/scenario', { body: { scenario } });
  expect(res.status, res.text).toBe(400);
  expect(res.body.error.code).toBe('INVALID_SCENARIO');
  expect((await t.call('GET', '/_sandbox/scenario')).body.name).toBe('instant');
  return res.body.error.details;
}

const onReference = (reference: string) => ({ payout: { outcomes: [{ when: { reference }, status: 'FAILED' }] } });
const drop = (path: string) => ({ faults: [{ route: { path }, fault: { kind: 'drop' } }] });

describe('regular expressions', () => {
  it('refuses lookaround and backreferences, saying what to write instead', async () => {
    expect(await refused(onReference('^(?!fail-)'))).toEqual([
      {
        field: 'scenario.payout.outcomes[0].when.reference',
        issue:
          'must be a regular expression in RE2 syntax (invalid or unsupported Perl syntax: (?!); lookahead and lookbehind ((?=…), (?!…), (?<=…), (?<!…)) are not supported: match the text itself (^fail- rather than ^(?=fail-)), or put a rule for the exception before this one',
      },
    ]);
    expect(await refused({ withdrawal: { authCode: { required: true, pattern: '^(\\d)\\1{5}$' } } })).toEqual([
      {
        field: 'scenario.withdrawal.authCode.pattern',
        issue: 'must be a regular expression in RE2 syntax (invalid escape sequence: \\1); backreferences (\\1, \\k<name>) are not supported: write the repeated text out',
      },
    ]);
    expect(await refused(onReference('\\u20AC'))).toEqual([
      { field: 'scenario.payout.outcomes[0].when.reference', issue: 'must be a regular expression in RE2 syntax (invalid escape sequence: \\u); write \\x{20AC} rather than \\u20AC' },
    ]);
  });

  it('accepts nested repetition, which RE2 runs in linear time, and applies it', async () => {
    await useScenario(t, { scenario: { payout: { timing: { '*': 0 }, outcomes: [{ when: { reference: '^(a+)+$' }, status: 'FAILED' }] } } });
    for (const reference of ['aaaa', `${'a'.repeat(40)}!`]) expect((await t.call('POST', PAYOUTS, { body: payout(reference) })).status).toBe(201);
    expect([await status(t, 'aaaa'), await status(t, `${'a'.repeat(40)}!`)]).toEqual(['FAILED', 'SUCCESSFUL']);
  });

  it('takes RE2 syntax such as (?i) and \\x{…}', async () => {
    await useScenario(t, { scenario: { payout: { timing: { '*': 0 }, outcomes: [{ when: { reference: '(?i)^fail\\x{2D}' }, status: 'FAILED' }] } } });
    await t.call('POST', PAYOUTS, { body: payout('FAIL-1') });
    await t.call('POST', PAYOUTS, { body: payout('failing') });
    expect([await status(t, 'FAIL-1'), await status(t, 'failing')]).toEqual(['FAILED', 'SUCCESSFUL']);
  });

  it('refuses a pattern longer than 200 characters or too large once compiled', async () => {
    expect(await refused(onReference('a'.repeat(201)))).toEqual([
      { field: 'scenario.payout.outcomes[0].when.reference', issue: 'must be at most 200 characters long' },
    ]);
    expect(await refused(onReference('(\\p{L}|x){300}'))).toEqual([
      {
        field: 'scenario.payout.outcomes[0].when.reference',
        issue: 'is too large once compiled (902 instructions, at most 500): use smaller repetition counts, such as \\d{1,20} rather than \\d{1,500}',
      },
    ]);
  });

  it('refuses more than 50 regular expressions in one scenario, naming the first one too many', async () => {
    const rules = (n: number) => Array.from({ length: n }, (_, i) => ({ when: { reference: `^r${i}`, accountNumber: `^${i}` }, status: 'FAILED' }));
    await useScenario(t, { scenario: { payout: { outcomes: rules(25) } } });
    expect(await refused({ payout: { outcomes: rules(25) }, transfer: { outcomes: [{ when: { fields: { narrations: 'x' } }, status: 'FAILED' }] } })).toEqual([
      { field: 'scenario.transfer.outcomes[0].when.fields.narrations', issue: 'is one regular expression too many: a scenario holds at most 50 (this one has 51)' },
    ]);
  });

  it('refuses more than 10 fields in one predicate', async () => {
    const fields = Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`f${i}`, 'x']));
    expect(await refused({ payout: { outcomes: [{ when: { fields }, status: 'FAILED' }] } })).toEqual([
      { field: 'scenario.payout.outcomes[0].when.fields', issue: 'must name at most 10 fields' },
    ]);
  });

  it('runs on values of up to 1,000 characters; a longer value matches nothing', () => {
    expect(REGEX_LIMITS.input).toBe(1000);
    expect(regexMatches('^a+$', 'a'.repeat(1000))).toBe(true);
    expect(regexMatches('^a', 'a'.repeat(1001))).toBe(false);
  });

  it('a pattern RE2 refuses, in a document stored before patterns were checked, matches nothing', () => {
    expect(regexMatches('(?=a)a', 'a')).toBe(false);
    expect(regexMatches('(a)\\1', 'aa')).toBe(false);
  });
});

describe('fault routes and rule lists', () => {
  it('refuses a route longer than 200 characters, with more than 16 segments or more than 8 wildcards', async () => {
    const field = 'scenario.faults[0].route.path';
    expect(await refused(drop(`/api/${'a'.repeat(196)}`))).toEqual([{ field, issue: 'must be at most 200 characters long' }]);
    expect(await refused(drop(`/api${'/a'.repeat(16)}`))).toEqual([{ field, issue: 'has 17 segments, at most 16' }]);
    expect(await refused(drop('/api/*/*/*/*/*/*/*/{x}/**'))).toEqual([{ field, issue: 'has 9 wildcards (*, ** and {name}), at most 8' }]);
  });

  it('refuses more than 50 fault or outcome rules, and nth lists longer than 100', async () => {
    const rule = { fault: { kind: 'drop' } };
    expect(await refused({ faults: Array(51).fill(rule) })).toEqual([{ field: 'scenario.faults', issue: 'must have at most 50 item(s)' }]);
    expect(await refused({ payout: { outcomes: Array(51).fill({ status: 'FAILED' }) } })).toEqual([
      { field: 'scenario.payout.outcomes', issue: 'must have at most 50 item(s)' },
    ]);
    const nth = Array.from({ length: 101 }, (_, i) => i + 1);
    expect(await refused({ payout: { outcomes: [{ nth, status: 'FAILED' }] } })).toEqual([
      { field: 'scenario.payout.outcomes[0].nth', issue: 'must have at most 100 item(s)' },
    ]);
  });

  it('refuses currency lists of more than 50 names and names longer than 50 characters', async () => {
    const currency = Array.from({ length: 51 }, (_, i) => `C${i}`);
    expect(await refused({ payout: { outcomes: [{ when: { currency }, status: 'FAILED' }] } })).toEqual([
      { field: 'scenario.payout.outcomes[0].when.currency', issue: 'must have at most 50 item(s)' },
    ]);
    expect(await refused({ payout: { outcomes: [{ when: { chain: 'x'.repeat(51) }, status: 'FAILED' }] } })).toEqual([
      { field: 'scenario.payout.outcomes[0].when.chain', issue: 'must be at most 50 characters long' },
    ]);
  });
});
