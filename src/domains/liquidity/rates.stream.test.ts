import { describe, expect, it } from 'vitest';
import { catchUpSteps, MAX_CATCH_UP } from './rates.stream.js';

describe('catchUpSteps', () => {
  it('reports every skipped minute up to the bound, and past it the bound, evenly spread, ending now', () => {
    expect(catchUpSteps(5, 5)).toEqual([]);
    expect(catchUpSteps(5, 4)).toEqual([]);
    expect(catchUpSteps(0, 3)).toEqual([1, 2, 3]);
    expect(catchUpSteps(0, MAX_CATCH_UP)).toHaveLength(MAX_CATCH_UP);
    const day = catchUpSteps(60, 1500);
    expect(day).toHaveLength(MAX_CATCH_UP);
    expect(day[0]).toBe(84);
    expect(day.at(-1)).toBe(1500);
    expect(day.slice(1).map((s, i) => s - day[i])).toEqual(Array(MAX_CATCH_UP - 1).fill(24));
    expect(catchUpSteps(0, 61, 60).at(-1)).toBe(61);
  });
});
