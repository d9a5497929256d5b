// The layers of src/ (docs/architecture.md): which top-level folder may import which, and no cycle
// between folders. Files directly in src/ (app.ts, main.ts, cli.ts, config.ts) compose the rest and
// are one node, "root".
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import madge from 'madge';
import { describe, expect, it } from 'vitest';

const SRC = path.resolve(import.meta.dirname, '../src');

/** What each folder may import besides itself. */
const ALLOWED: Record<string, readonly string[]> = {
  kernel: [],
  store: ['kernel'],
  engine: ['kernel', 'store'],
  iso20022: ['kernel', 'engine'],
  http: ['kernel', 'engine', 'store'],
  admin: ['kernel', 'engine', 'http'],
  domains: ['kernel', 'engine', 'http', 'iso20022', 'store'],
  console: ['kernel', 'http'],
  // Types only (checked below): the client loads nothing of the server.
  client: ['admin', 'domains', 'readiness'],
  readiness: ['kernel', 'engine', 'http', 'domains'],
  root: ['kernel', 'store', 'engine', 'iso20022', 'http', 'admin', 'domains', 'console', 'client', 'readiness'],
};

const folderOf = (file: string) => {
  const [first, ...rest] = path.relative(SRC, file).split(path.sep);
  return rest.length === 0 ? 'root' : first;
};

/** Every import between two folders of src/, as [from, to, file]. */
function folderImports(): [string, string, string][] {
  const out: [string, string, string][] = [];
  for (const rel of readdirSync(SRC, { recursive: true, encoding: 'utf8' })) {
    if (!rel.endsWith('.ts')) continue;
    const file = path.join(SRC, rel);
    const text = readFileSync(file, 'utf8');
    for (const [, spec] of text.matchAll(/(?:import|export)\s[^'"]*?from\s+['"](\.{1,2}\/[^'"]+)['"]/g)) {
      const target = path.resolve(path.dirname(file), spec);
      if (!target.startsWith(SRC + path.sep)) continue;
      const [from, to] = [folderOf(file), folderOf(target)];
      if (from !== to) out.push([from, to, rel]);
    }
  }
  return out;
}

/** A cycle in a graph of folders, as the folders along it; undefined when there is none. */
function cycleIn(edges: Map<string, Set<string>>): string[] | undefined {
  const state = new Map<string, 'open' | 'done'>();
  const trail: string[] = [];
  const visit = (n: string): string[] | undefined => {
    if (state.get(n) === 'done') return undefined;
    if (state.get(n) === 'open') return [...trail.slice(trail.indexOf(n)), n];
    state.set(n, 'open');
    trail.push(n);
    for (const m of edges.get(n) ?? []) {
      const found = visit(m);
      if (found) return found;
    }
    trail.pop();
    state.set(n, 'done');
    return undefined;
  };
  for (const n of edges.keys()) {
    const found = visit(n);
    if (found) return found;
  }
  return undefined;
}

/** Folders of src/domains/ that hold what several domains share (principle 14): the only ones another domain imports. */
const SHARED_DOMAINS = ['liquidity', 'reference', 'settlement'];

/** Every import from one folder of src/domains/ into another, as [from, to, file]. */
function domainImports(): [string, string, string][] {
  const root = path.join(SRC, 'domains');
  const out: [string, string, string][] = [];
  for (const rel of readdirSync(root, { recursive: true, encoding: 'utf8' })) {
    const [from, ...rest] = rel.split(path.sep);
    if (!rel.endsWith('.ts') || rest.length === 0) continue;
    const file = path.join(root, rel);
    for (const [, spec] of readFileSync(file, 'utf8').matchAll(/(?:import|export)\s[^'"]*?from\s+['"](\.{1,2}\/[^'"]+)['"]/g)) {
      const [to, ...inner] = path.relative(root, path.resolve(path.dirname(file), spec)).split(path.sep);
      if (inner.length > 0 && to !== '..' && to !== from) out.push([from, to, rel]);
    }
  }
  return out;
}

describe('the layers of src/', () => {
  const imports = folderImports();

  it('finds the imports it checks', () => {
    expect(imports.some(([from, to]) => from === 'domains' && to === 'engine')).toBe(true);
    expect(imports.some(([from, to]) => from === 'root' && to === 'admin')).toBe(true);
  });

  it('has each folder import only the folders below it', () => {
    const wrong = imports.filter(([from, to]) => !(ALLOWED[from] ?? []).includes(to)).map(([from, to, file]) => `${file}: ${from} → ${to}`);
    expect(wrong).toEqual([]);
  });

  it('has no cycle between folders', () => {
    const edges = new Map<string, Set<string>>();
    for (const [from, to] of imports) edges.set(from, (edges.get(from) ?? new Set()).add(to));
    expect(cycleIn(edges)).toBeUndefined();
  });

  it('has a domain import another domain only when that one holds a shared concept', () => {
    const imports = domainImports();
    expect(imports.some(([from, to]) => from === 'quotes' && to === 'liquidity')).toBe(true);
    expect(imports.filter(([, to]) => !SHARED_DOMAINS.includes(to)).map(([from, to, file]) => `${file}: ${from} → ${to}`)).toEqual([]);
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

  it('has no circle of files in src/, type imports included (madge)', async () => {
    const graph = await madge(SRC, { fileExtensions: ['ts'], tsConfig: path.resolve(SRC, '../tsconfig.json'), detectiveOptions: { ts: { skipTypeImports: false } } });
    expect(Object.keys(graph.obj()).length).toBeGreaterThan(150);
    expect(graph.circular()).toEqual([]);
  });

  it('has no two source files of one name, so a name says its role wherever it stands', () => {
    const names = new Map<string, string[]>();
    const walk = (dir: string): void => {
      for (const e of readdirSync(dir, { withFileTypes: true })) {
        const full = path.join(dir, e.name);
        if (e.isDirectory()) walk(full);
        else if (e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') && !['index.ts', 'main.ts', 'types.ts'].includes(e.name)) {
          names.set(e.name, [...(names.get(e.name) ?? []), path.relative(SRC, full)]);
        }
      }
    };
    walk(SRC);
    expect(names.size).toBeGreaterThan(150);
    expect([...names.values()].filter((files) => files.length > 1)).toEqual([]);
  });
});
