// Every use of Hono's and @hono/node-server's internals, each with the assumption it makes. Both
// packages are pinned to exact versions (package.json); test/framework.test.ts has one named test per
// assumption, so an upgrade that breaks one says which.
import type { Context, MiddlewareHandler } from 'hono';
import { matchedRoutes } from 'hono/route';

const OWN_BODY_LIMIT = Symbol('own body limit');

/** Mark a route middleware as the route's own body limit (see routeHasOwnBodyLimit). */
export function asOwnBodyLimit<M extends MiddlewareHandler>(limit: M): M {
  return Object.assign(limit, { [OWN_BODY_LIMIT]: true });
}

/**
 * Whether the route this request matched declares its own body limit among its middleware.
 * Assumes (hono/route's matchedRoutes): before the handler runs, a middleware can see every handler
 * the router matched for this request, the route's own middleware included, each as the function
 * that was registered (a sub-app mounted with app.route and no error handler of its own keeps them).
 */
export function routeHasOwnBodyLimit(c: Context): boolean {
  for (const r of matchedRoutes(c)) if ((r.handler as { [OWN_BODY_LIMIT]?: true })[OWN_BODY_LIMIT]) return true;
  return false;
}
