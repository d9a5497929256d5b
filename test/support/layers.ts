// The layer rules of src/ (docs/architecture.md) as functions of a set of source files, so that
// test/layers.test.ts checks the tree as it is and test/adding-a-resource.test.ts the tree with the
// doc's refund folder and domain-list entry in it.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

export const SRC = path.resolve(import.meta.dirname, '../../src');

/** A source file of src/: its path from src/ and its text. */
export interface SourceFile {
  rel: string;
  text: string;
}

/** Every .ts file of src/ as it is on disk. */
export function sourceFiles(): SourceFile[] {
  return readdirSync(SRC, { recursive: true, encoding: 'utf8' })
    .filter((rel) => rel.endsWith('.ts'))
    .map((rel) => ({ rel, text: readFileSync(path.join(SRC, rel), 'utf8') }));
}

/** What each folder may import besides itself. Files directly in src/ (app.ts, main.ts, cli.ts,
 * config.ts) compose the rest and are one node, "root". */
export const ALLOWED: Record<string, readonly string[]> = {
  kernel: [],
  store: ['kernel'],
  engine: ['kernel', 'store'],
  iso20022: ['kernel', 'engine'],
  http: ['kernel', 'engine', 'store'],
  admin: ['kernel', 'engine', 'http'],
  domains: ['kernel', 'engine', 'http', 'iso20022', 'store'],
  console: ['kernel', 'http'],
  // Types only (checked by layers.test.ts): the client loads nothing of the server.
  client: ['admin', 'domains', 'readiness'],
  readiness: ['kernel', 'engine', 'http', 'domains'],
  root: ['kernel', 'store', 'engine', 'iso20022', 'http', 'admin', 'domains', 'console', 'client', 'readiness'],
};

/** Folders of src/domains/ that hold what several domains share (principle 14): the only ones another domain imports. */
export const SHARED_DOMAINS = ['liquidity', 'reference'];

const IMPORT = /(?:import|export)\s[^'"]*?from\s+['"](\.{1,2}\/[^'"]+)['"]/g;

/** The files of src/ a file imports (type imports included), as paths from src/. */
function importsOf(file: SourceFile): string[] {
  const out: string[] = [];
  for (const [, spec] of file.text.matchAll(IMPORT)) {
    const target = path.resolve(path.dirname(path.join(SRC, file.rel)), spec);
    if (target.startsWith(SRC + path.sep)) out.push(path.relative(SRC, target).replace(/\.js$/, '.ts'));
  }
  return out;
}

const folderOf = (rel: string) => {
  const [first, ...rest] = rel.split(path.sep);
  return rest.length === 0 ? 'root' : first;
};

/** Every import between two folders of src/, as [from, to, file]. */
export function folderImports(files: readonly SourceFile[]): [string, string, string][] {
  const out: [string, string, string][] = [];
  for (const file of files) {
    for (const target of importsOf(file)) {
      const [from, to] = [folderOf(file.rel), folderOf(target)];
      if (from !== to) out.push([from, to, file.rel]);
    }
  }
  return out;
}

/** Every import from one folder of src/domains/ into another, as [from, to, file]. */
export function domainImports(files: readonly SourceFile[]): [string, string, string][] {
  const out: [string, string, string][] = [];
  for (const file of files) {
    const [top, from, ...rest] = file.rel.split(path.sep);
    if (top !== 'domains' || rest.length === 0) continue;
    for (const target of importsOf(file)) {
      const [targetTop, to, ...inner] = target.split(path.sep);
      if (targetTop === 'domains' && inner.length > 0 && to !== from) out.push([from, to, file.rel]);
    }
  }
  return out;
}

/** A cycle in a graph, as the nodes along it; undefined when there is none. */
export function cycleIn(edges: Map<string, Set<string>>): string[] | undefined {
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

const graphOf = (pairs: Iterable<readonly [string, string, ...string[]]>) => {
  const edges = new Map<string, Set<string>>();
  for (const [from, to] of pairs) edges.set(from, (edges.get(from) ?? new Set()).add(to));
  return edges;
};

/** Source files that share a name other than index.ts, main.ts and types.ts, by name. */
export function sharedNames(files: readonly SourceFile[]): string[][] {
  const names = new Map<string, string[]>();
  for (const { rel } of files) {
    const name = path.basename(rel);
    if (name.endsWith('.test.ts') || ['index.ts', 'main.ts', 'types.ts'].includes(name)) continue;
    names.set(name, [...(names.get(name) ?? []), rel]);
  }
  return [...names.values()].filter((rels) => rels.length > 1);
}

/** A circle of files (type imports included), as the files along it; undefined when there is none. */
export function fileCycle(files: readonly SourceFile[]): string[] | undefined {
  return cycleIn(graphOf(files.flatMap((f) => importsOf(f).map((to) => [f.rel, to] as const))));
}

/**
 * The rules every tree of src/ keeps: each folder imports only the folders below it, no cycle
 * between folders, a domain imports another only when that one holds a shared concept, no two
 * files of one name, and no circle of files (type imports included).
 */
export function describeLayerRules(title: string, files: () => readonly SourceFile[]): void {
  describe(title, () => {
    it('has each folder import only the folders below it', () => {
      const wrong = folderImports(files())
        .filter(([from, to]) => !(ALLOWED[from] ?? []).includes(to))
        .map(([from, to, file]) => `${file}: ${from} → ${to}`);
      expect(wrong).toEqual([]);
    });

    it('has no cycle between folders', () => {
      expect(cycleIn(graphOf(folderImports(files())))).toBeUndefined();
    });

    it('has a domain import another domain only when that one holds a shared concept', () => {
      const wrong = domainImports(files()).filter(([, to]) => !SHARED_DOMAINS.includes(to));
      expect(wrong.map(([from, to, file]) => `${file}: ${from} → ${to}`)).toEqual([]);
    });

    it('has no two source files of one name, so a name says its role wherever it stands', () => {
      expect(sharedNames(files())).toEqual([]);
    });

    it('has no circle of files, type imports included', () => {
      expect(fileCycle(files())).toBeUndefined();
    });
  });
}
