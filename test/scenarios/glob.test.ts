// Fault route patterns: what each wildcard matches, the limits a pattern is held to, and matching
// work that stays linear in the path on the patterns a backtracking regular expression chokes on.
import { describe, expect, it } from 'vitest';
import { compileGlob, globProblem } from '../../src/engine/scenario/scenario.glob.js';

const matches = (pattern: string, path: string) => compileGlob(pattern)(path);

/**
 * What one match does, counted instead of timed: how many path segments it reads, and how many
 * string searches it makes (indexOf, startsWith, endsWith, each one pass over at most a segment).
 * Work linear in the path means searches that do not grow with a segment's length, and segment
 * reads that grow at most in proportion to the number of segments.
 */
function work(pattern: string, path: string): { reads: number; searches: number; result: boolean } {
  const test = compileGlob(pattern);
  const counted = { reads: 0, searches: 0 };
  const proto = String.prototype as unknown as Record<string, (this: string, ...args: unknown[]) => unknown>;
  const saved = { split: proto.split, indexOf: proto.indexOf, startsWith: proto.startsWith, endsWith: proto.endsWith };
  proto.split = function (...args) {
    const segs = saved.split.apply(this, args) as string[];
    return new Proxy(segs, {
      get(target, key, receiver) {
        if (typeof key === 'string' && /^\d+$/.test(key)) counted.reads++;
        return Reflect.get(target, key, receiver);
      },
    });
  };
  for (const name of ['indexOf', 'startsWith', 'endsWith'] as const) {
    proto[name] = function (...args) {
      counted.searches++;
      return saved[name].apply(this, args);
    };
  }
  let result: boolean;
  try {
    result = test(path);
  } finally {
    Object.assign(proto, saved);
  }
  return { ...counted, result };
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

describe('matching work is linear in the path', () => {
  const segment = 'a'.repeat(20);
  const long = 'a'.repeat(100_000);

  it('the pattern that took 96 s as a regular expression answers at once, even on far longer paths', () => {
    const pattern = '/api/************************zz';
    for (const [short, longer] of [
      [`/api/v1/partners/payouts/${segment}`, `/api/v1/partners/payouts/${long}`],
      [`/api/${segment}`, `/api/${long}`],
    ]) {
      const few = work(pattern, short);
      expect(few.result).toBe(false);
      expect(few.searches).toBeLessThanOrEqual(2);
      expect(work(pattern, longer)).toEqual(few);
    }
    expect(matches(pattern, '/api/aazz')).toBe(true);
  });

  it('many wildcards in one segment against a long segment that almost matches', () => {
    const pattern = '/api/*a*a*a*a*a*a*a*b';
    const few = work(pattern, `/api/${segment}`);
    expect(few.result).toBe(false);
    // At most one search per literal part of the pattern, however long the segment.
    expect(few.searches).toBeLessThanOrEqual(9);
    expect(work(pattern, `/api/${long}`)).toEqual(few);
    expect(matches(pattern, `/api/${'a'.repeat(1000)}b`)).toBe(true);
  });

  it('several ** segments against thousands of segments that almost match', () => {
    const pattern = '/api/**/a/**/a/**/a/**/a/b';
    for (const n of [1000, 20_000]) {
      const path = `/api${'/a'.repeat(n)}`;
      const { reads, result } = work(pattern, path);
      expect(result).toBe(false);
      // At most two reads per segment, at every length (backtracking over the four ** would be about n⁴).
      expect(reads).toBeLessThanOrEqual(2 * (n + 2));
      expect(matches(pattern, `${path}/b`)).toBe(true);
    }
  });
});
