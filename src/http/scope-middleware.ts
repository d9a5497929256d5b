// Each request's scope (kernel/request-scope.ts): callbacks a route registers outside its own await
// chain are guarded by it, so an exception escaping one is that request's 500 INTERNAL_ERROR (its
// connection cut, when the answer has begun), logged with the request's id, and never the end of the
// process. It runs last before the route, inside the journal, so the 500 is journaled as any answer.
import type { Context, MiddlewareHandler } from 'hono';
import { SandboxError } from '../kernel/errors.js';
import { RequestScope, type Guard } from '../kernel/request-scope.js';
import { nodeRequest } from './framework.js';
import type { AppEnv } from './types.js';

/** The request's scope, made on first use (a middleware before the route may guard a callback too). */
export function scopeOf(c: Context<AppEnv>): RequestScope {
  let scope = c.get('scope');
  if (!scope) c.set('scope', (scope = new RequestScope()));
  return scope;
}

/** The request's guard, for code that takes a Guard rather than the scope. */
export function guardOf(c: Context<AppEnv>): Guard {
  const scope = scopeOf(c);
  return (fn) => scope.guard(fn);
}

export const internalError = (id: string) =>
  new SandboxError('INTERNAL_ERROR', `The sandbox failed to handle this request (request id ${id}). Retry it; if it persists, report it with that id.`);

export function requestScope(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const scope = scopeOf(c);
    try {
      await scope.run(next());
    } catch (err) {
      if (scope.failed) throw internalError(scope.id);
      throw err;
    }
    // The answer is built: a failure from here on can only cut its connection (in process, where
    // there is none, the failure is logged).
    scope.answered(nodeRequest(c)?.socket);
  };
}
