// The invariants every hostile request is held to.
import { expect } from 'vitest';
import type { TestApp } from '../support/app.js';
import { changedCollections, exampleHeaders, isErrorEnvelope, storedState, type Route } from './routes.js';

/** Sends one body and checks the invariants; returns the status. */
export async function checkOne(t: TestApp, r: Route, path: string, init: { body?: unknown; raw?: string; headers?: Record<string, string> }) {
  const before = await storedState(t);
  const res = await t.call(r.method, path, {
    ...init,
    headers: { 'content-type': 'application/json', ...exampleHeaders(r), ...init.headers },
  });
  const label = `${r.method} ${path} ${String(init.raw ?? JSON.stringify(init.body)).slice(0, 300)}`;
  const answer = `${res.status} ${res.text.slice(0, 400)}`;
  const fault = res.headers.get('x-sandbox-fault');
  if (!fault) expect(res.status, `${label}\n${answer}`).toBeLessThan(500);
  if (res.status >= 400) {
    expect(isErrorEnvelope(res.body), `${label}\n${answer}`).toBe(true);
    if (!fault) expect(changedCollections(before, await storedState(t)), `${label}\n${answer}\nleft writes behind in`).toEqual([]);
  }
  return res.status;
}

