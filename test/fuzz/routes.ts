// Routes and sample requests read from /openapi.json, so every hostile-input suite covers each
// route the sandbox documents, including routes added later, without a list kept by hand.
import fc from 'fast-check';
import { OBSERVATIONS_COLLECTION } from '../../src/engine/requests/observations.js';
import { tenantIdOf } from '../../src/engine/tenancy/tenants.js';
import type { MemoryTenantStore } from '../../src/store/store.js';
import { KEY, type TestApp } from '../support/app.js';

type Schema = Record<string, any>;
export interface Param {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  schema: Schema;
}
export interface Route {
  method: string;
  path: string;
  params: Param[];
  /** The JSON request body schema, when the route takes one. */
  body?: Schema;
  /** Other request content types (XML, CSV) the route takes. */
  otherTypes: string[];
}

export async function documentedRoutes(t: TestApp): Promise<{ doc: Schema; routes: Route[] }> {
  const doc = (await (await t.app.request('/openapi.json')).json()) as Schema;
  const routes: Route[] = [];
  for (const [path, ops] of Object.entries<Schema>(doc.paths)) {
    for (const [method, op] of Object.entries<Schema>(ops)) {
      const content = op.requestBody?.content ?? {};
      routes.push({
        method: method.toUpperCase(),
        path,
        params: (op.parameters ?? []) as Param[],
        body: content['application/json']?.schema,
        otherTypes: Object.keys(content).filter((c) => c !== 'application/json'),
      });
    }
  }
  return { doc, routes };
}

/** A plausible value for a schema: its example, else its first choice, else something of its type. */
export function sample(doc: Schema, schema: Schema | undefined, depth = 0): unknown {
  if (!schema || depth > 8) return undefined;
  if (schema.$ref) return sample(doc, resolve(doc, schema.$ref), depth + 1);
  if (schema.example !== undefined) return safe(schema.example);
  if (schema.default !== undefined) return schema.default;
  if (schema.enum) return schema.enum[0];
  if (schema.const !== undefined) return schema.const;
  const choice = schema.oneOf ?? schema.anyOf ?? schema.allOf;
  // An object with its properties and a oneOf of required sets ("exactly one of"): the first set's fields.
  if (choice && schema.properties) {
    const first = (choice[0]?.required ?? []) as string[];
    return sample(doc, { ...schema, oneOf: undefined, anyOf: undefined, allOf: undefined, properties: Object.fromEntries(Object.entries(schema.properties).filter(([k]) => first.length === 0 || first.includes(k))) }, depth + 1);
  }
  if (choice) return sample(doc, choice.find((s: Schema) => s.type !== 'null') ?? choice[0], depth + 1);
  const type = Array.isArray(schema.type) ? schema.type.find((x: string) => x !== 'null') : schema.type;
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [k, s] of Object.entries<Schema>(schema.properties ?? {})) {
        const v = sample(doc, s, depth + 1);
        if (v !== undefined) out[k] = v;
      }
      return out;
    }
    case 'array':
      return Array.from({ length: Math.max(1, schema.minItems ?? 1) }, () => sample(doc, schema.items, depth + 1));
    case 'integer':
    case 'number':
      return schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : 1);
    case 'boolean':
      return true;
    case 'string':
      return schema.format === 'uuid' ? '3f1c2a9e-8b7d-4c6e-9f10-2a3b4c5d6e7f' : 'sample';
    default:
      return undefined;
  }
}

/** Example URLs would send webhooks to the internet: point them at a closed local port instead
 * (port 2: nothing listens there, and unlike 9 it is not a port HTTP clients refuse). */
const safe = (v: unknown) => (typeof v === 'string' && /^https?:\/\//.test(v) ? 'http://127.0.0.1:2/hook' : v);

function resolve(doc: Schema, ref: string): Schema {
  return ref.replace(/^#\//, '').split('/').reduce((o: Schema, k) => o?.[k.replace(/~1/g, '/').replace(/~0/g, '~')], doc);
}

/** The path with its parameters filled from their examples (or the given values). */
export function fillPath(r: Route, values: Record<string, string> = {}): string {
  return r.path.replace(/\{([^}]+)\}/g, (_m, name: string) => {
    const p = r.params.find((x) => x.in === 'path' && x.name === name);
    return encodeURIComponent(values[name] ?? String(p?.schema.example ?? 'x'));
  });
}

/** Required headers with their example values (x-service-source and the like). */
export function exampleHeaders(r: Route): Record<string, string> {
  const out: Record<string, string> = {};
  for (const p of r.params) if (p.in === 'header' && p.required) out[p.name] = String(p.schema.example ?? 'sample');
  return out;
}

/** Values that break careless code: wrong types, edge numbers, odd strings, odd containers. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(
    null, true, false, 0, -1, 1e308, -1e308, 5e-324, 2 ** 53 + 2, 0.30000000000000004, 1e21, -0.0000001, 123.456789,
    '', ' ', '\u0000', '\u202e\u0007', '𝕏🙂'.repeat(500), 'a'.repeat(70_000), '0x10', '1e3', 'NaN', '-0',
    [], {}, [[[]]], { __proto__: { polluted: 1 } }, { constructor: { prototype: { polluted: 1 } } },
  ),
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc.double(),
  fc.integer({ min: -(2 ** 31), max: 2 ** 31 }),
  fc.jsonValue({ maxDepth: 3 }),
);

type Path = (string | number)[];

function paths(v: unknown, prefix: Path = []): Path[] {
  const out: Path[] = prefix.length ? [prefix] : [];
  if (Array.isArray(v)) v.forEach((x, i) => out.push(...paths(x, [...prefix, i])));
  else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) out.push(...paths(x, [...prefix, k]));
  return out;
}

function setAt(root: unknown, path: Path, value: unknown, remove: boolean): unknown {
  const copy = structuredClone(root) as Record<string | number, unknown>;
  let o = copy;
  for (const k of path.slice(0, -1)) o = o[k] as Record<string | number, unknown>;
  const last = path[path.length - 1];
  if (remove) delete o[last];
  else o[last] = value;
  return copy;
}

/** Bodies near a valid one (one field broken, removed or added) and bodies that are anything at all. */
export function hostileBody(valid: unknown): fc.Arbitrary<unknown> {
  const targets = paths(valid);
  const mutated = targets.length
    ? fc.tuple(fc.constantFrom(...targets), hostileValue, fc.boolean()).map(([p, v, rm]) => setAt(valid, p, v, rm))
    : hostileValue;
  const extra = fc.tuple(fc.string({ maxLength: 20 }), hostileValue).map(([k, v]) =>
    valid && typeof valid === 'object' && !Array.isArray(valid) ? { ...valid, [k]: v } : v,
  );
  return fc.oneof({ weight: 4, arbitrary: mutated }, { weight: 1, arbitrary: extra }, { weight: 1, arbitrary: fc.jsonValue() });
}

/** Touch the tenant so the data it makes on first use (balances) exists already. */
export async function warmUp(t: TestApp, key = KEY): Promise<void> {
  await t.call('GET', '/_sandbox/balances', { key });
  await t.call('GET', '/api/v1/transfers/bulk/none/transfers', { key, headers: { 'x-service-source': 'warm-up' } });
}

/** Everything the tenant has stored, collection by collection, as text. */
export async function storedState(t: TestApp, key = KEY): Promise<Map<string, string>> {
  const ts = (await t.store.tenant(tenantIdOf(key))) as MemoryTenantStore;
  const out = new Map<string, string>();
  // The readiness observations are what the key did, as the journal is, not state it wrote.
  for (const [name, map] of ts.data) if (map.size && name !== OBSERVATIONS_COLLECTION) out.set(name, JSON.stringify([...map]));
  return out;
}

/** The collections that differ between two stored states (empty when nothing changed). */
export function changedCollections(a: Map<string, string>, b: Map<string, string>): string[] {
  return [...new Set([...a.keys(), ...b.keys()])].filter((k) => a.get(k) !== b.get(k));
}

/** The partner-visible state: events and balances through the control API. */
export async function visibleState(t: TestApp, key = KEY): Promise<string> {
  const events = await t.call('GET', '/_sandbox/events?limit=1000', { key });
  const balances = await t.call('GET', '/_sandbox/balances', { key });
  return JSON.stringify([events.status, events.body, balances.status, balances.body]);
}

/** The error envelope, whatever the route. */
export function isErrorEnvelope(body: unknown): boolean {
  const b = body as { status?: unknown; message?: unknown; error?: { type?: unknown; code?: unknown; details?: unknown } };
  return b?.status === 'error' && typeof b.message === 'string' && b.message.length > 0 && typeof b.error?.code === 'string' && Array.isArray(b.error?.details);
}
