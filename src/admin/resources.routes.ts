// GET /_sandbox/resources: every resource of the caller's tenant, of every kind, in one call, as the
// API shows it. The console draws its resource list from here and each resource's history from the
// event log. The kinds are the app's resources (engine/resource.ts): a new resource is listed here
// with no edit.
import { nextTurn } from '../kernel/turns.js';
import { createRoute, z } from '@hono/zod-openapi';
import type { Resource } from '../engine/registry/resource.js';
import { nearest } from '../engine/scenario/scenario.lint.js';
import { SandboxError } from '../kernel/errors.js';
import { CONTROL_TAG, errorResponses, jsonResponse, newRouter, security } from '../http/openapi.js';
import { wholeNumberParam } from '../http/fields.js';
import { streamedList } from '../http/json-list.js';

export const ResourcesQuery = z.object({
  kind: z.string().optional().openapi({ param: { name: 'kind', in: 'query' }, description: 'Only this kind (payouts, transfers, ...); another is 400' }),
  limit: wholeNumberParam(1, 1000, 100).openapi({ param: { name: 'limit', in: 'query' }, description: 'Newest resources kept per kind' }),
  id: z
    .string()
    .max(256)
    .optional()
    .openapi({ param: { name: 'id', in: 'query' }, description: 'Only the resource with this id (its reference, as in the API\'s paths), however old; `counts` still counts every resource' }),
});

export const ResourceItem = z
  .object({
    kind: z.string().openapi({ example: 'payouts' }),
    id: z.string().openapi({ example: 'order-10001' }),
    status: z.string().nullable().openapi({ example: 'PENDING', description: 'Current state; null for kinds without one (bulk files)' }),
    createdAt: z.string().openapi({ format: 'date-time' }),
    eventPrefix: z.string().openapi({ example: 'payout', description: 'Its state changes are the events named <eventPrefix>.<state>' }),
    resource: z.record(z.string(), z.unknown()).openapi({ description: 'The resource as the API shows it' }),
    moves: z
      .array(z.string())
      .openapi({ example: ['process'], description: 'The events POST /_sandbox/simulate/{kind}/{id}/{event} accepts from its current state' }),
  })
  .openapi('SandboxResource');

export const ResourceList = z
  .object({
    data: z.array(ResourceItem),
    counts: z.record(z.string(), z.number().int()).openapi({ description: 'How many of each kind the tenant holds', example: { payouts: 2, transfers: 0 } }),
  })
  .openapi('SandboxResourceList');

const list = (kinds: readonly string[]) =>
  createRoute({
    method: 'get',
    path: '/_sandbox/resources',
    operationId: 'listResources',
    tags: [CONTROL_TAG.name],
    security,
    summary: "Every resource of this key's tenant, of every kind, newest first",
    description: `Kinds: ${kinds.join(', ')}. Each resource's history is in GET /_sandbox/events (events named <eventPrefix>.<state>).`,
    // The kinds are the app's: the document lists them, while the check (with its "did you mean") is the handler's.
    request: { query: ResourcesQuery.extend({ kind: ResourcesQuery.shape.kind.openapi({ enum: [...kinds] }) }) },
    responses: { 200: jsonResponse(ResourceList, 'Resources and counts per kind'), ...errorResponses(400) },
  });

type Row = Record<string, unknown>;

/** The records of a collection whose id is `id`: the one kept under it, else the records (as taken,
 * references only) that read so, looked through a slice at a time (an id kept under no key, or none
 * at all, is looked for in every record). */
function withId(collection: { get(id: string): Row | undefined; values(): Iterable<Row> }, k: Resource, id: string): { kept: Row } | { all: Row[] } {
  const kept = collection.get(id);
  return kept !== undefined && k.id(kept) === id ? { kept } : { all: [...collection.values()] };
}

async function idIn(records: Row[], k: Resource, id: string): Promise<Row[]> {
  const out: Row[] = [];
  let seen = 0;
  for (const r of records) {
    if (++seen % SLICE === 0) await nextTurn();
    if (k.id(r) === id) out.push(r);
  }
  return out;
}

interface Listed {
  r: Row;
  createdAt: string;
  id: string;
}

/** Newest first; at one instant the greater id first (in the locale's order). Instants of one form
 * (the sandbox writes every one alike, of one length) order as their characters do, which is the
 * locale's order for them and far cheaper; others are compared in the locale's order. */
function newer(a: Listed, b: Listed): number {
  if (a.createdAt === b.createdAt) return b.id.localeCompare(a.id);
  if (a.createdAt.length === b.createdAt.length) return a.createdAt > b.createdAt ? -1 : 1;
  return b.createdAt.localeCompare(a.createdAt);
}

/**
 * The `limit` newest of `records`, newest first, in one pass from the last kept (records are kept
 * in the order they were made, so once `limit` are found most others cost one comparison): a key
 * holding a hundred thousand resources is listed without sorting them all.
 */
async function newestOf(records: readonly Row[], k: Resource, limit: number): Promise<Listed[]> {
  const top: Listed[] = [];
  for (let i = records.length - 1; i >= 0; i--) {
    if ((records.length - i) % SLICE === 0) await nextTurn();
    const r = records[i];
    const item = { r, createdAt: String(r.createdAt ?? ''), id: k.id(r) };
    if (top.length === limit && newer(item, top[limit - 1]) >= 0) continue;
    // Binary search for its place among those kept, then drop the oldest past the limit.
    let lo = 0;
    let hi = top.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (newer(top[mid], item) <= 0) lo = mid + 1;
      else hi = mid;
    }
    top.splice(lo, 0, item);
    if (top.length > limit) top.pop();
  }
  return top;
}

/** Records looked at between turns of the event loop: a key of 100,000 payouts was listed in one go,
 * 30 ms during which no other key was answered. */
const SLICE = 8192;

/** Resources shown between turns of the event loop: 1,000 of each of seven kinds, shown and
 * written in one go, held every key's requests 25 to 30 ms. */
const VIEWS = 500;
/** Time spent showing resources between turns of the event loop, whatever their number: a bulk
 * file's view counts its rows by state, so nine files of 10,000 rows were 90,000 reads in one go
 * (45 to 50 ms, every key waiting). */
const VIEWS_MS = 4;

/** A kind that is none of the app's: 400 naming the nearest, or all of them. */
function unknownKind(kind: string, kinds: readonly string[]): SandboxError {
  const near = nearest(kind, kinds);
  const issue = near ? `is not a kind: did you mean '${near}'? Kinds: ${kinds.join(', ')}` : `must be one of: ${kinds.join(', ')}`;
  return new SandboxError('VALIDATION_ERROR', `No resource kind '${kind}': ${near ? `did you mean '${near}'?` : `use one of: ${kinds.join(', ')}.`}`, [{ field: 'kind', issue }]);
}

export function resourceRoutes(kinds: readonly Resource[]) {
  const segments = kinds.map((k) => k.segment);
  return newRouter().openapi(list(segments), async (c) => {
    const t = c.get('tenant');
    const { limit } = c.req.valid('query');
    // Empty is no filter, as the event log's type.
    const kind = c.req.valid('query').kind || undefined;
    const only = c.req.valid('query').id || undefined;
    if (kind !== undefined && !segments.includes(kind)) throw unknownKind(kind, segments);
    const data: z.infer<typeof ResourceItem>[] = [];
    const counts: Record<string, number> = {};
    // Every kind's records as they stand now, taken in one go (references only: about a millisecond
    // for 100,000), then looked through in slices: the records listed are those of one instant even
    // though the key's other requests run between its slices (a bulk file and its rows appear
    // together or not at all). Each view is built as it is written, so a view reads the key's clock
    // of that moment (an FX trade's TTL, say).
    // In a turn of its own: listings sent at once each take their records in a pass of the loop of
    // their own (30 of them at once over 90,000 records held every key 150 ms).
    await nextTurn();
    const taken = kinds
      .filter((k) => kind === undefined || k.segment === kind)
      .map((k) => {
        const collection = t.store.collection<Record<string, unknown>>(k.collection);
        counts[k.segment] = collection.size;
        return { k, found: only === undefined ? { all: [...collection.values()] } : withId(collection, k, only) };
      });
    for (const { k, found } of taken) {
      // Each kind's slices start afresh: a turn between kinds keeps what runs between turns to one slice.
      if (counts[k.segment] > 0) await nextTurn();
      const records = 'kept' in found ? [found.kept] : only === undefined ? found.all : await idIn(found.all, k, only);
      let shownSince = performance.now();
      for (const { r, createdAt, id } of await newestOf(records, k, limit)) {
        if ((data.length + 1) % VIEWS === 0 || performance.now() - shownSince >= VIEWS_MS) {
          await nextTurn();
          shownSince = performance.now();
        }
        const status = k.status(r);
        data.push({ kind: k.segment, id, status, createdAt, eventPrefix: k.name, resource: k.view(t, r), moves: k.moves(status) });
      }
    }
    // Up to 1,000 of each of its kinds, several MB: written a slice at a time (http/json-list.ts).
    return streamedList(c, 'data', data, { counts }) as never;
  });
}
