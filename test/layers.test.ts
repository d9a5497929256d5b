// The layers of src/ (docs/architecture.md): which top-level folder may import which, no cycle
// between folders, and the other rules of test/support/layers.ts, over the tree as it is.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import madge from 'madge';
import { describe, expect, it } from 'vitest';
import { cycleIn, describeLayerRules, domainImports, fileCycle, folderImports, sharedNames, sourceFiles, SRC } from './support/layers.js';

describe('the layers of src/', () => {
  const files = sourceFiles();
  const imports = folderImports(files);

  it('finds the imports it checks', () => {
    expect(imports.some(([from, to]) => from === 'domains' && to === 'engine')).toBe(true);
    expect(imports.some(([from, to]) => from === 'root' && to === 'admin')).toBe(true);
    expect(domainImports(files).some(([from, to]) => from === 'quotes' && to === 'liquidity')).toBe(true);
    expect(files.length).toBeGreaterThan(150);
  });

  it('has the control client import only types from the server, so payments-sandbox/client loads none of it', () => {
    const dir = path.join(SRC, 'client');
    const valueImports = readdirSync(dir)
      .filter((f) => f.endsWith('.ts'))
      .flatMap((f) => [...readFileSync(path.join(dir, f), 'utf8').matchAll(/^(import|export)\s(?!type\b)[^'"]*?from\s+['"](\.\.\/[^'"]+)['"]/gm)].map((m) => `${f}: ${m[2]}`));
    expect(readdirSync(dir)).toContain('types.ts');
    expect(valueImports).toEqual([]);
  });

  it('finds a cycle when there is one', () => {
    const edges = new Map([
      ['admin', new Set(['domains'])],
      ['domains', new Set(['engine', 'admin'])],
    ]);
    expect(cycleIn(edges)).toEqual(['admin', 'domains', 'admin']);
  });

  it('finds a circle of files when there is one', () => {
    const a = { rel: path.join('kernel', 'a.ts'), text: "import type { B } from './b.js';" };
    const b = { rel: path.join('kernel', 'b.ts'), text: "export { a } from './a.js';" };
    expect(fileCycle([a, b])).toEqual([a.rel, b.rel, a.rel]);
  });

  it('finds two files of one name when there are', () => {
    expect(sharedNames([{ rel: 'a/x.ts', text: '' }, { rel: 'b/x.ts', text: '' }, { rel: 'a/index.ts', text: '' }, { rel: 'b/index.ts', text: '' }])).toEqual([['a/x.ts', 'b/x.ts']]);
  });

  it('has no circle of files in src/, type imports included (madge)', async () => {
    const graph = await madge(SRC, { fileExtensions: ['ts'], tsConfig: path.resolve(SRC, '../tsconfig.json'), detectiveOptions: { ts: { skipTypeImports: false } } });
    expect(Object.keys(graph.obj()).length).toBeGreaterThan(150);
    expect(graph.circular()).toEqual([]);
  });
});

describeLayerRules('the rules of every tree of src/', sourceFiles);
