// The console serves uPlot's stylesheet from its own copy (the server ships without devDependencies):
// the copy must be the stylesheet of the uPlot version the console's script is bundled with.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { UPLOT_CSS } from '../../src/console/uplot-css.js';

describe("the console's copy of uPlot's stylesheet", () => {
  it('is the installed uPlot version of it, byte for byte', () => {
    const file = createRequire(import.meta.url).resolve('uplot/dist/uPlot.min.css');
    expect(UPLOT_CSS).toBe(readFileSync(file, 'utf8'));
  });
});
