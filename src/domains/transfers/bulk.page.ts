// The bulk page: a file's transfers in file order, filtered and paged. Without filters a page is a
// slice of the file's references; with filters the matching references are computed once and
// kept until a transfer of the tenant changes, so paging through a large file stays linear.
import { SandboxError } from '../../kernel/errors.js';
import { nearest } from '../../engine/scenario/scenario.lint.js';
import type { Tenant } from '../../engine/tenancy/tenant.js';
import { getBulk, type BulkRecord } from './bulk.service.js';
import { present, transfers, versionOf, type TransferRecord } from './transfers.service.js';
import { BULK_FILTERS, type BulkPageQuery } from './transfers.schema.js';
import { headerSafe } from '../../http/warnings.js';

interface Cached {
  key: string;
  version: number;
  refs: string[];
}
const cache = new WeakMap<Tenant, Map<string, Cached>>();

const DATE = /^\d{4}-\d\d-\d\d$/;
const DAY_MS = 86_400_000;

/** Bounds over createdAt as ISO text (which orders as time): a date covers its whole UTC day. */
function bounds(q: BulkPageQuery): { from?: string; to?: string } {
  const from = q.from === undefined ? undefined : new Date(Date.parse(DATE.test(q.from) ? `${q.from}T00:00:00Z` : q.from)).toISOString();
  const toMs = q.to === undefined ? undefined : DATE.test(q.to) ? Date.parse(`${q.to}T00:00:00Z`) + DAY_MS - 1 : Date.parse(q.to);
  const to = toMs === undefined ? undefined : new Date(toMs).toISOString();
  if (from !== undefined && to !== undefined && from > to) {
    throw new SandboxError('VALIDATION_ERROR', `Invalid request query: from (${q.from}) is after to (${q.to}). Send a from that is not after to.`, [
      { field: 'from', issue: 'must not be after to' },
    ]);
  }
  return { from, to };
}

function matcher(q: BulkPageQuery): ((r: TransferRecord) => boolean) | undefined {
  const { from, to } = bounds(q);
  const text = q.query?.trim().toLowerCase() || undefined;
  if (!text && !q.status && !q.category && !q.currency && !from && !to) return undefined;
  return (r) =>
    (!q.status || r.status === q.status) &&
    (!q.category || r.category === q.category) &&
    (!q.currency || r.currency === q.currency) &&
    (!from || r.createdAt >= from) &&
    (!to || r.createdAt <= to) &&
    (!text ||
      r.reference.toLowerCase().includes(text) ||
      r.destination.accountNumber.toLowerCase().includes(text) ||
      r.destination.accountName.toLowerCase().includes(text));
}

function matching(t: Tenant, bulk: BulkRecord, q: BulkPageQuery): string[] {
  const test = matcher(q);
  if (!test) return bulk.references;
  const key = JSON.stringify([q.query?.trim().toLowerCase(), q.status, q.category, q.currency, q.from, q.to]);
  let perTenant = cache.get(t);
  if (!perTenant) cache.set(t, (perTenant = new Map()));
  const hit = perTenant.get(bulk.id);
  if (hit && hit.key === key && hit.version === versionOf(t)) return hit.refs;
  const store = transfers(t);
  const refs = bulk.references.filter((ref) => {
    const r = store.get(ref);
    return r !== undefined && test(r);
  });
  perTenant.set(bulk.id, { key, version: versionOf(t), refs });
  return refs;
}

/** A filter value the page knows no row can have: it matches nothing, and the answer says so. */
export function filterWarnings(q: BulkPageQuery): string[] {
  return (Object.keys(BULK_FILTERS) as (keyof typeof BULK_FILTERS)[]).flatMap((name) => {
    const value = q[name];
    const values: readonly string[] = BULK_FILTERS[name];
    if (!value || values.includes(value)) return [];
    const near = value.length <= 100 ? nearest(value, values) : undefined;
    const shown = headerSafe(JSON.stringify(value).slice(1, -1));
    return [`${name} '${shown}' is not a ${name} a transfer can have, so nothing matches: ${near ? `did you mean '${near}'?` : `use one of ${values.join(', ')}`}`];
  });
}

export function bulkPage(t: Tenant, id: string, q: BulkPageQuery) {
  const bulk = getBulk(t, id);
  const refs = matching(t, bulk, q);
  const store = transfers(t);
  const start = q.page * q.size;
  const content = refs.slice(start, start + q.size).map((ref) => present(store.get(ref)!));
  return {
    content,
    pageNumber: q.page,
    pageSize: q.size,
    totalElements: refs.length,
    totalPages: Math.ceil(refs.length / q.size),
  };
}
