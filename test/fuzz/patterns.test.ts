// Patterns a key supplies in its scenario: random fault routes and regular expressions against
// random paths and values agree with a plain reference where one exists, finish quickly however
// they are built, and PUT /_sandbox/scenario answers any of them with 200 or the error envelope.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileGlob, globProblem } from '../../src/engine/scenario/scenario.glob.js';
import { regexMatches, regexProblem } from '../../src/engine/scenario/scenario.regex.js';
import { createTestApp } from '../support/app.js';
import { isErrorEnvelope } from './routes.js';
import { collectGarbage } from '../support/gc.js';

const RUNS = Number(process.env.FUZZ_RUNS ?? 200);
/** Far below what a backtracking match of such shapes takes on these lengths (seconds to years of CPU). */
const QUICK_MS = 250;

/**
 * The CPU time a call takes (user and system, of this process), not the time on the clock: a loaded
 * machine that runs other processes in between stretches the clock, not the work. A backtracking
 * match is work, so it shows here as surely as on the clock.
 */
function timed<T>(run: () => T): { ms: number; result: T } {
  const once = () => {
    const start = process.cpuUsage();
    const result = run();
    const { user, system } = process.cpuUsage(start);
    return { ms: (user + system) / 1000, result };
  };
  // The process's CPU counts V8's collector threads too: a collection of what earlier test files
  // left in this worker can land on one call. A slow call is timed twice more and the least kept;
  // a backtracking match is slow every time.
  let least = once();
  for (let i = 0; i < 2 && least.ms >= QUICK_MS; i++) {
    collectGarbage();
    const again = once();
    if (again.ms < least.ms) least = again;
  }
  return least;
}

// Routes: /api and up to 5 segments of literals, *, {name} or a ** segment.
const segmentText = fc.array(fc.constantFrom('a', 'b', 'ab', '.', '-', '*', '{id}'), { minLength: 1, maxLength: 3 }).map((p) => p.join(''));
const route = fc
  .tuple(fc.array(fc.oneof(segmentText, fc.constant('**')), { maxLength: 5 }), fc.boolean())
  .map(([segs, slash]) => `/api/${segs.join('/')}${slash ? '/' : ''}`);
const requestPath = fc
  .tuple(fc.array(fc.constantFrom('', 'a', 'b', 'ab', 'ba', 'aab', '.', 'a.b', 'a-b', 'x'), { maxLength: 6 }), fc.boolean())
  .map(([segs, slash]) => `/api${segs.map((s) => `/${s}`).join('')}${slash ? '/' : ''}`);

const trimSlashes = (s: string) => (s.length > 1 ? s.replace(/\/+$/, '') || '/' : s);

/** The documented meaning as a regular expression, fine for the short paths it is used on. */
function reference(pattern: string): RegExp {
  const segment = (seg: string) =>
    seg.replace(/\{[^}]*\}|\*|[.+?^${}()|[\]\\]/g, (m) => (m === '*' ? '[^/]*' : m.startsWith('{') && m.length > 1 ? '[^/]+' : `\\${m}`));
  const [, ...segs] = trimSlashes(pattern).split('/');
  return new RegExp(`^${segs.map((s) => (s === '**' ? '(?:/[^/]*)*' : `/${segment(s)}`)).join('')}$`);
}

describe('fault route patterns', () => {
  it('agree with the regular expression of their documented meaning', () => {
    const seen = new Set<boolean>();
    fc.assert(
      fc.property(route, requestPath, (pattern, path) => {
        const result = compileGlob(pattern)(path);
        expect(result, `${pattern} on ${path}`).toBe(reference(pattern).test(trimSlashes(path)));
        seen.add(result);
      }),
      { numRuns: RUNS * 2 },
    );
    expect([...seen].sort()).toEqual([false, true]);
  });

  it('any route within the limits matches a long path quickly', () => {
    const wild = fc.array(fc.constantFrom('a', '*', '{x}', 'b'), { minLength: 1, maxLength: 6 }).map((p) => p.join(''));
    const longRoute = fc.array(fc.oneof(wild, fc.constant('**')), { minLength: 1, maxLength: 8 }).map((s) => `/api/${s.join('/')}`);
    const longPath = fc
      .tuple(fc.integer({ min: 1, max: 400 }), fc.integer({ min: 1, max: 40 }), fc.constantFrom('', 'b', 'z'))
      .map(([segments, length, end]) => `/api${`/${'a'.repeat(length)}`.repeat(segments)}${end}`);
    fc.assert(
      fc.property(longRoute.filter((p) => globProblem(p) === undefined), longPath, (pattern, path) => {
        const test = compileGlob(pattern);
        expect(timed(() => test(path)).ms, `${pattern} on ${path.length} characters`).toBeLessThan(QUICK_MS);
      }),
      { numRuns: RUNS },
    );
  });
});

// Regular expressions over a small alphabet, with nesting, alternation and every quantifier.
const regex: fc.Arbitrary<string> = fc.letrec<{ re: string; atom: string }>((tie) => ({
  atom: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom('a', 'b', '.', '[ab]', '[^a]', '\\d', 'x'),
    tie('re').map((r) => `(${r})`),
    tie('re').map((r) => `(?:${r})`),
  ),
  re: fc
    .array(
      fc.tuple(tie('atom'), fc.constantFrom('', '', '*', '+', '?', '{1,3}', '{2}')).map(([a, q]) => a + q),
      { minLength: 1, maxLength: 4 },
    )
    .chain((parts) => fc.constantFrom(parts.join(''), `${parts[0]}|${parts.slice(1).join('')}`)),
})).re.chain((r) => fc.constantFrom(r, `^${r}`, `${r}$`, `^${r}$`));
const value = fc.array(fc.constantFrom('a', 'b', '1', 'x', 'c'), { maxLength: 12 }).map((c) => c.join(''));

describe('regular expressions', () => {
  it('every pattern within the size limit matches as JavaScript does on short values', () => {
    const seen = new Set<boolean>();
    fc.assert(
      fc.property(regex, value, (pattern, text) => {
        // Only a pattern too large once compiled is refused: the syntax generated here is RE2's too.
        const problem = regexProblem(pattern);
        fc.pre(problem === undefined || !problem.startsWith('is too large'));
        expect(problem, pattern).toBeUndefined();
        const result = regexMatches(pattern, text);
        expect(result, `${pattern} on ${text}`).toBe(new RegExp(pattern).test(text));
        seen.add(result);
      }),
      { numRuns: RUNS * 2 },
    );
    expect([...seen].sort()).toEqual([false, true]);
  });

  it('any accepted pattern runs on a 1,000-character value quickly', () => {
    const long = fc
      .tuple(fc.constantFrom('a', 'ab', 'a1', 'x'), fc.constantFrom('', '!', 'b', '='))
      .map(([unit, end]) => unit.repeat(Math.ceil(999 / unit.length)).slice(0, 999) + end);
    fc.assert(
      fc.property(regex.map((r) => `(${r}){1,5}(${r})*$`), long, (pattern, text) => {
        fc.pre(regexProblem(pattern) === undefined);
        expect(timed(() => regexMatches(pattern, text)).ms, pattern).toBeLessThan(QUICK_MS);
      }),
      { numRuns: RUNS },
    );
  });
});

describe('PUT /_sandbox/scenario with random patterns', () => {
  it('answers 200 or a 400 naming the field, and a payout under what it accepted is never a 5xx', async () => {
    const t = await createTestApp();
    const statuses = new Set<number>();
    const anyText = fc.oneof(regex, fc.string({ maxLength: 40 }), fc.string({ unit: 'binary', maxLength: 20 }));
    await fc.assert(
      fc.asyncProperty(anyText, fc.oneof(route, fc.string({ maxLength: 30 }).map((s) => `/api/${s}`)), value, async (pattern, path, reference) => {
        const scenario = {
          payout: { outcomes: [{ when: { reference: pattern, fields: { narration: pattern } }, status: 'FAILED' }] },
          faults: [{ route: { method: 'GET', path }, fault: { kind: 'error', status: 503 } }],
        };
        const put = await t.call('PUT', '/_sandbox/scenario', { body: { scenario } });
        const label = `${JSON.stringify(scenario)}\n${put.status} ${put.text.slice(0, 300)}`;
        expect([200, 400], label).toContain(put.status);
        statuses.add(put.status);
        if (put.status === 400) {
          expect(isErrorEnvelope(put.body), label).toBe(true);
          expect(put.body.error.details[0].field, label).toMatch(/^scenario\.(payout\.outcomes\[0\]\.when\.(reference|fields\.narration)|faults\[0\]\.route\.(path|method))$/);
          return;
        }
        const body = { reference: `r-${reference}`, amount: 100, currency: 'NGN', narration: reference, destination: { accountNumber: '0123456789', accountName: 'A', bankCode: '058' } };
        const created = await t.call('POST', '/api/v1/partners/payouts', { body });
        expect([201, 409], `${label}\n${created.status} ${created.text.slice(0, 300)}`).toContain(created.status);
      }),
      { numRuns: Math.ceil(RUNS / 3) },
    );
    expect([...statuses].sort()).toEqual([200, 400]);
  });
});
