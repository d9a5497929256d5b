import { describe, expect, it } from 'vitest';
import { turnsDuring } from '../../test/support/turns.js';
import { SandboxError } from './errors.js';
import { checkJsonBudgetInSlices, NAME_BUDGET, overBudget, parseJsonBody, VALUE_BUDGET } from './json-budget.js';

const namesOverBudget = (text: string) => overBudget(text, Infinity) === 'names';

const object = (names: number, prefix = 'f') => `{${Array.from({ length: names }, (_, i) => `"${prefix}${i}":1`).join(',')}}`;

describe('a JSON body within its budget of distinct field names', () => {
  it('counts distinct names, not members: 1,000 pass, 1,001 do not, repeats count once', () => {
    expect(namesOverBudget(object(NAME_BUDGET))).toBe(false);
    expect(namesOverBudget(object(NAME_BUDGET + 1))).toBe(true);
    expect(namesOverBudget(`[${Array.from({ length: 5000 }, () => object(10)).join(',')}]`)).toBe(false);
  });

  it('counts names at any depth, each in an object of its own', () => {
    expect(namesOverBudget(`[${Array.from({ length: NAME_BUDGET + 1 }, (_, i) => `{"k${i}":{}}`).join(',')}]`)).toBe(true);
  });

  it('does not count string values, escaped quotes or colons inside strings', () => {
    const values = `[${Array.from({ length: 3000 }, (_, i) => `"v${i}"`).join(',')}]`;
    expect(namesOverBudget(values)).toBe(false);
    // Each value holds an escaped quote followed by a colon, as a name would be.
    const tricky = `{"a":[${Array.from({ length: 3000 }, (_, i) => `"x${i}\\":"`).join(',')}]}`;
    expect(JSON.parse(tricky).a[0]).toBe('x0":');
    expect(namesOverBudget(tricky)).toBe(false);
    // A value ending in an escaped backslash closes there: the next string is a name.
    const slashes = `{${Array.from({ length: NAME_BUDGET + 1 }, (_, i) => `"n${i}":"\\\\"`).join(',')}}`;
    expect(Object.keys(JSON.parse(slashes))).toHaveLength(NAME_BUDGET + 1);
    expect(namesOverBudget(slashes)).toBe(true);
  });

  it('counts values by the objects, arrays and commas outside strings', () => {
    expect(overBudget(`[${'0,'.repeat(VALUE_BUDGET - 1)}0]`)).toBeUndefined();
    expect(overBudget(`[${'0,'.repeat(VALUE_BUDGET)}0]`)).toBe('values');
    expect(overBudget('['.repeat(VALUE_BUDGET + 1) + ']'.repeat(VALUE_BUDGET + 1))).toBe('values');
    expect(overBudget(`[${'{},'.repeat(VALUE_BUDGET / 2)}{}]`)).toBe('values');
    // Commas and brackets inside strings are text, not values.
    expect(overBudget(`["${',[{'.repeat(VALUE_BUDGET)}"]`)).toBeUndefined();
    expect(overBudget(`[${'0,'.repeat(50)}0]`, 10)).toBe('values');
  });

  it('takes names followed by white space before the colon', () => {
    const spaced = `{${Array.from({ length: NAME_BUDGET + 1 }, (_, i) => `"s${i}" \n\t :1`).join(',')}}`;
    expect(namesOverBudget(spaced)).toBe(true);
  });

  it('parses within the budget, refuses past it naming the body, and leaves text that is not JSON to JSON.parse', () => {
    // Names long enough that the text is over the 16 KiB below which it is not scanned.
    const long = 'a_field_name_of_some_length_';
    expect(object(NAME_BUDGET, long).length).toBeGreaterThan(16 * 1024);
    expect(parseJsonBody(object(NAME_BUDGET, long))).toHaveProperty(`${long}999`, 1);
    const refused = (() => {
      try {
        parseJsonBody(object(NAME_BUDGET + 1, long));
      } catch (e) {
        return e;
      }
    })() as SandboxError;
    expect(refused).toBeInstanceOf(SandboxError);
    expect(refused.code).toBe('VALIDATION_ERROR');
    expect(refused.details).toEqual([{ field: 'body', issue: 'names more than 1000 distinct fields: send only the fields this request takes' }]);
    expect(() => parseJsonBody(`{"a":"${'x'.repeat(20_000)}`)).toThrow(SyntaxError);
    // A route that reads more (a bulk file) passes its own budget of values.
    const many = `[${'0,'.repeat(30_000)}0]`;
    expect(() => parseJsonBody(many)).toThrow(/holds more than 20,000 values/);
    expect(parseJsonBody(many, 40_000)).toHaveLength(30_001);
  });
});

describe('the budget counted in slices', () => {
  it('gives the same verdict as one pass, and stops at the first value past the budget in text without strings', async () => {
    const numbers = `{"items":[${'0,'.repeat(2_000_000)}0]}`;
    // 4 MB with one string at its start: counted 512 KiB a slice, refused once past 300,000 values.
    const { result: refused, turns } = await turnsDuring(() => checkJsonBudgetInSlices(numbers, 300_000).catch((e: unknown) => e));
    expect(String(refused)).toMatch(/holds more than 300,000 values/);
    // Past the budget after about 600 KB: a turn or two, not the eight the whole text would take.
    expect(turns).toBeGreaterThanOrEqual(1);
    expect(turns).toBeLessThanOrEqual(3);
    await expect(checkJsonBudgetInSlices(`{"items":[${'0,'.repeat(250_000)}0]}`, 300_000)).resolves.toBeUndefined();
    expect(overBudget(numbers, 300_000)).toBe('values');
    const named = `{${Array.from({ length: 1001 }, (_, i) => `"a_name_of_some_length_${i}":${'0,'.repeat(300)}0`).join(',')}}`;
    expect(overBudget(named, 10_000_000)).toBe('names');
    await expect(checkJsonBudgetInSlices(named, 10_000_000)).rejects.toThrow(/names more than 1000 distinct fields/);
  });
});
