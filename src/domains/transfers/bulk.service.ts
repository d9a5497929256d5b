// Bulk disbursement files: each row becomes a transfer with its own lifecycle and category. All
// rows of a file start together, so one shared job per file moves them; a row moved through the
// control API leaves that schedule and keeps its own.
import demo from '../../../fixtures/bulk-demo-salaries.json' with { type: 'json' };
import { notFound, type ErrorDetail } from '../../kernel/errors.js';
import type { Job } from '../../engine/scheduler.js';
import type { Tenant } from '../../engine/tenant.js';
import { invalidFile, type ParsedFile } from './bulk.file.js';
import { applyMove, bumpVersion, checkLiveBank, newTransfer, present, transfers, type TransferRecord } from './transfers.service.js';
import type { BulkFile, BulkRow } from './transfers.schema.js';
import { bulkDisbursement, transfer } from './transfers.machine.js';

export const DEMO_BULK_ID = 'bulk_demo_salaries';
const BULK_ADVANCE = 'transfer.bulk-advance';

export interface BulkRecord extends BulkFile {
  /** References of the rows, in file order. */
  references: string[];
  scenario?: string;
}

export const bulks = (t: Tenant) => t.store.collection<BulkRecord>(bulkDisbursement.collection);

export const presentBulk = ({ references: _r, scenario: _s, ...view }: BulkRecord): BulkFile => view;

export function getBulk(t: Tenant, id: string): BulkRecord {
  ensureDemo(t);
  const b = bulks(t).get(id);
  if (!b) throw notFound('bulk disbursement file', id, 'id');
  return b;
}

/** Check rows against each other and the tenant's transfers; refuse the whole file on any problem. */
function checkFile(t: Tenant, file: ParsedFile): BulkRow[] {
  const errors: ErrorDetail[] = [];
  const seen = new Set<string>();
  const have = transfers(t);
  for (const r of file.rows) {
    errors.push(...r.errors);
    if (!r.row) continue;
    const ref = r.row.reference;
    if (seen.has(ref)) errors.push({ field: r.field('reference'), issue: 'appears on an earlier row of this file' });
    else if (have.has(ref)) errors.push({ field: r.field('reference'), issue: 'already used by another transfer' });
    seen.add(ref);
    try {
      checkLiveBank(t, r.row, r.field('destination.bankCode'));
    } catch (err) {
      errors.push(...(err as { details: ErrorDetail[] }).details);
    }
  }
  if (errors.length > 0) {
    const bad = new Set(errors.map((e) => e.field.replace(/(\]|:).*$/, ''))).size;
    throw invalidFile(
      `The bulk file was refused: ${bad} of ${file.rows.length} row(s) have problems, each listed in error.details. Nothing was created; fix them and upload the whole file again.`,
      errors,
    );
  }
  return file.rows.map((r) => r.row!);
}

export function createBulk(t: Tenant, file: ParsedFile, serviceSource: string, scenario?: string): BulkFile {
  ensureDemo(t);
  const rows = checkFile(t, file);
  // The file counts as a resource, as each of its rows does.
  t.checkRoom(rows.length + 1);
  const id = `bulk_${t.random.hex(24)}`;
  const store = transfers(t);
  const references: string[] = [];
  for (const row of rows) {
    const record = newTransfer(t, row, { serviceSource, bulkId: id, scenario });
    store.put(record.reference, record);
    references.push(record.reference);
    transfer.emit(t, 'PENDING', present(record));
  }
  const bulk: BulkRecord = { id, name: file.name ?? null, count: rows.length, serviceSource, createdAt: t.nowIso(), references, ...(scenario ? { scenario } : {}) };
  bulks(t).put(id, bulk);
  bumpVersion(t);
  t.scheduler.enqueue(BULK_ADVANCE, id, t.now() + transfer.duration(t.behaviour(scenario), 'PENDING') * 1000, { from: 'PENDING' });
  return presentBulk(bulk);
}

/** The file's timed move: every row still on the shared schedule and in `from` moves on. */
function advanceBulk(t: Tenant, job: Job): void {
  const bulk = bulks(t).get(job.ref);
  if (!bulk) return;
  const from = job.data?.from;
  const store = transfers(t);
  for (const ref of bulk.references) {
    const r = store.get(ref);
    if (!r || r.ownSchedule || r.status !== from) continue;
    applyMove(t, r, transfer.timedEvent(r.status, r.outcome)!);
  }
  if (from === 'PENDING') {
    t.scheduler.enqueue(BULK_ADVANCE, bulk.id, t.now() + transfer.duration(t.behaviour(bulk.scenario), 'PROCESSING') * 1000, { from: 'PROCESSING' });
  }
}

export const bulkJobs = { [BULK_ADVANCE]: advanceBulk };

type DemoRow = BulkRow & { status: 'SUCCESSFUL' | 'FAILED'; failureReason?: string };

/**
 * The demo file every tenant has: already settled (a mix of SUCCESSFUL and FAILED rows), so its
 * filters show something at once. Seeded on the tenant's first transfer request, and again after a
 * reset; seeding records no events.
 */
export function ensureDemo(t: Tenant): void {
  if (bulks(t).has(DEMO_BULK_ID)) return;
  const now = t.nowIso();
  const store = transfers(t);
  const rows = demo.items as DemoRow[];
  for (const [i, row] of rows.entries()) {
    const { status, failureReason, ...req } = row;
    const base = newTransfer(t, req, { serviceSource: demo.serviceSource, bulkId: DEMO_BULK_ID });
    const record: TransferRecord = { ...base, id: `trf_demo_${String(i + 1).padStart(4, '0')}`, status, failureReason: failureReason ?? null };
    store.put(record.reference, record);
  }
  bulks(t).put(DEMO_BULK_ID, {
    id: DEMO_BULK_ID,
    name: demo.name,
    count: rows.length,
    serviceSource: demo.serviceSource,
    createdAt: now,
    references: rows.map((r) => r.reference),
  });
  bumpVersion(t);
}
