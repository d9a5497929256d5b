// The app's router: Hono's trie router, with the answers for paths without parameters kept.
//
// Hono's faster regular-expression router cannot hold these routes (a transfer reference and the
// literal `bulk` share one segment), so the trie router is used; it walks the tree, collects every
// matching middleware and route and sorts them on each request. A path that binds no parameter
// (POST /api/v1/partners/payouts, GET /api/v1/partners/fx/listings, …) gets the same answer every
// time: that answer is kept and shared, as Hono's own regular-expression router shares its answers.
// Paths with parameters (a reference in the path) are matched afresh each time.
import type { Result, Router } from 'hono/router';
import { TrieRouter } from 'hono/router/trie-router';

/** How many parameterless paths are kept per method; a client inventing paths cannot grow it further. */
const KEPT_PER_METHOD = 512;

export class KeptStaticRouter<T> implements Router<T> {
  readonly name = 'KeptStaticRouter';
  private readonly trie = new TrieRouter<T>();
  private readonly kept = new Map<string, Map<string, Result<T>>>();

  add(method: string, path: string, handler: T): void {
    this.kept.clear();
    this.trie.add(method, path, handler);
  }

  match(method: string, path: string): Result<T> {
    let byPath = this.kept.get(method);
    const hit = byPath?.get(path);
    if (hit) return hit;
    const result = this.trie.match(method, path);
    if (bindsNoParameter(result)) {
      if (!byPath) this.kept.set(method, (byPath = new Map()));
      if (byPath.size < KEPT_PER_METHOD) byPath.set(path, result);
    }
    return result;
  }
}

function bindsNoParameter<T>(result: Result<T>): boolean {
  if (result.length !== 1) return false;
  for (const [, params] of result[0]) {
    for (const _ in params as Record<string, string>) return false;
  }
  return true;
}
