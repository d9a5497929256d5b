// Fault route patterns: what each wildcard matches, the limits a pattern is held to, and matching
// time that stays linear in the path on the patterns a backtracking regular expression chokes on.
import { describe, expect, it } from 'vitest';
import { compileGlob, globProblem } from '../../src/engine/scenario/scenario.glob.js';

const matches = (pattern: string, path: string) => compileGlob(pattern)(path);

/** Milliseconds one match takes, and its answer. */
function timed(pattern: string, path: string): { ms: number; result: boolean } {
  const test = compileGlob(pattern);
  const start = performance.now();
  const result = test(path);
  return { ms: performance.now() - start, result };
}

describe('route patterns', () => {
  it('* matches within one segment, any text including none', () => {
    expect(matches('/api/*/partners/payouts', '/api/v1/partners/payouts')).toBe(true);
    expect(matches('/api/*', '/api/v1/partners')).toBe(false);
    expect(matches('/api/v1/partners/pay*', '/api/v1/partners/pay')).toBe(true);
    expect(matches('/api/v1/partners/pay*', '/api/v1/partners/payouts')).toBe(true);
    expect(matches('/api/v1/partners/pay*', '/api/v1/partners/payouts/x')).toBe(false);
    expect(matches('/api/v1/*a*b*', '/api/v1/xaybz')).toBe(true);
    expect(matches('/api/v1/*a*b*', '/api/v1/xbyaz')).toBe(false);
    expect(matches('/api/v1/a*a', '/api/v1/a')).toBe(false);
    expect(matches('/api/v1/a*a', '/api/v1/aa')).toBe(true);
  });

  it('a ** segment matches any number of whole segments, none included', () => {
    expect(matches('/api/**', '/api/v1/partners/payouts/x')).toBe(true);
    expect(matches('/api/**', '/api')).toBe(true);
    expect(matches('/api/**/payouts', '/api/payouts')).toBe(true);
    expect(matches('/api/**/payouts', '/api/v1/partners/payouts')).toBe(true);
    expect(matches('/api/**/payouts', '/api/v1/partners/payouts/x')).toBe(false);
    expect(matches('/api/**/payouts/**/x', '/api/v1/payouts/a/payouts/b/x')).toBe(true);
    expect(matches('/api/**/v1/**', '/api/v2/partners')).toBe(false);
  });

  it('{name} matches one segment of at least one character, alone or beside other text', () => {
    expect(matches('/api/v1/partners/payouts/{reference}', '/api/v1/partners/payouts/abc')).toBe(true);
    expect(matches('/api/v1/partners/payouts/{reference}', '/api/v1/partners/payouts')).toBe(false);
    expect(matches('/api/v1/partners/payouts/{reference}', '/api/v1/partners/payouts/a/b')).toBe(false);
    expect(matches('/api/v1/files/{id}.xsd', '/api/v1/files/FX.xsd')).toBe(true);
    expect(matches('/api/v1/files/{id}.xsd', '/api/v1/files/.xsd')).toBe(false);
    expect(matches('/api/v1/{a}{b}', '/api/v1/x')).toBe(false);
    expect(matches('/api/v1/{a}{b}', '/api/v1/xy')).toBe(true);
  });

  it('everything else is literal text, regular expression characters included', () => {
    expect(matches('/api/v1.x', '/api/v1-x')).toBe(false);
    expect(matches('/api/v1.x', '/api/v1.x')).toBe(true);
    expect(matches('/api/(a)+', '/api/aa')).toBe(false);
    expect(matches('/api/(a)+', '/api/(a)+')).toBe(true);
    expect(matches('/api/{open', '/api/{open')).toBe(true);
    expect(matches('/api/{open', '/api/x')).toBe(false);
  });

  it('a trailing / is optional in the pattern and in the request', () => {
    expect(matches('/api/v1/partners/banks/', '/api/v1/partners/banks')).toBe(true);
    expect(matches('/api/v1/partners/banks/', '/api/v1/partners/banks/')).toBe(true);
    expect(matches('/api/v1/partners/banks', '/api/v1/partners/banks/')).toBe(true);
    expect(matches('/api/v1/partners/banks/', '/api/v1/partners/banks/resolve')).toBe(false);
  });
});

describe('route pattern limits', () => {
  it('refuses ** inside a segment, saying how to write it', () => {
    const problem = '** stands for whole segments and must be a segment of its own (as in /api/**/payouts); use * within a segment';
    expect(globProblem('/api/************************zz')).toBe(problem);
    expect(globProblem('/api/v1/partners/payouts**')).toBe(problem);
    expect(globProblem('/api/**')).toBeUndefined();
    expect(globProblem('/api/**/payouts/')).toBeUndefined();
  });

  it('refuses more than 16 segments and more than 8 wildcards', () => {
    expect(globProblem(`/api${'/a'.repeat(15)}`)).toBeUndefined();
    expect(globProblem(`/api${'/a'.repeat(16)}`)).toBe('has 17 segments, at most 16');
    expect(globProblem('/api/*a*b*c*d/{x}{y}/**/*')).toBeUndefined();
    expect(globProblem('/api/*a*b*c*d*/{x}{y}/**/*')).toBe('has 9 wildcards (*, ** and {name}), at most 8');
  });
});

describe('matching time is linear in the path', () => {
  const segment = 'a'.repeat(20);

  it('the pattern that took 96 s as a regular expression answers at once, even on far longer paths', () => {
    for (const path of [`/api/v1/partners/payouts/${segment}`, `/api/v1/partners/payouts/${'a'.repeat(100_000)}`]) {
      const { ms, result } = timed('/api/************************zz', path);
      expect(result).toBe(false);
      expect(ms).toBeLessThan(100);
    }
    expect(matches('/api/************************zz', '/api/aazz')).toBe(true);
  });

  it('many wildcards in one segment against a long segment that almost matches', () => {
    const { ms, result } = timed('/api/*a*a*a*a*a*a*a*b', `/api/${'a'.repeat(100_000)}`);
    expect(result).toBe(false);
    expect(ms).toBeLessThan(100);
    expect(matches('/api/*a*a*a*a*a*a*a*b', `/api/${'a'.repeat(1000)}b`)).toBe(true);
  });

  it('several ** segments against thousands of segments that almost match', () => {
    const path = `/api${'/a'.repeat(20_000)}`;
    const { ms, result } = timed('/api/**/a/**/a/**/a/**/a/b', path);
    expect(result).toBe(false);
    expect(ms).toBeLessThan(200);
    expect(matches('/api/**/a/**/a/**/a/**/a/b', `${path}/b`)).toBe(true);
  });
});
