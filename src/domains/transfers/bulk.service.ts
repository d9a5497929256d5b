// Bulk disbursement files: each row becomes a transfer with its own lifecycle and category. All
// rows of a file start together, so one shared job per file moves them; a row moved through the
// control API leaves that schedule and keeps its own.
import demo from '../../../fixtures/bulk-demo-salaries.json' with { type: 'json' };
import { iso } from '../../kernel/clock.js';
import { notFound, SandboxError, type ErrorDetail } from '../../kernel/errors.js';
import type { Job } from '../../engine/scheduler.js';
import { CATCH_UP_SLICE, type Tenant } from '../../engine/tenancy/tenant.js';
import { invalidFile, type ParsedFile } from './bulk.file.js';
import { eachInSlices, mapInSlices } from './bulk.slices.js';
import { applyMove, bumpVersion, checkLiveBank, getTransfer, moveTransfer, newTransfer, present, transfers, type TransferRecord } from './transfers.service.js';
import type { BulkFile, BulkRow } from './transfers.schema.js';
import { bulkDisbursement, transfer, type TransferEvent } from './transfers.machine.js';
import { throughProcessing } from '../reference/settlement.js';

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
  // The sandbox draws a file's id in lower case (bulk_ plus hex): one sent in upper case names the same file.
  const kept = bulks(t).has(id) ? id : id.toLowerCase();
  // Reading the demo file by its id asks for it, as the README and quickstart read it; a read is
  // answered even when the key is at its resource cap.
  if (kept === DEMO_BULK_ID) ensureDemo(t, 'read');
  const b = bulks(t).get(kept);
  if (!b) throw notFound('bulk disbursement file', id, 'id');
  return b;
}

const refused = (file: ParsedFile, errors: ErrorDetail[]) => {
  const bad = new Set(errors.map((e) => e.field.replace(/(\]|:).*$/, ''))).size;
  return invalidFile(
    `The bulk file was refused: ${bad} of ${file.rows.length} row(s) have problems, each listed in error.details. Nothing was created; fix them and upload the whole file again.`,
    errors,
  );
};
const TAKEN = 'already used by another transfer';

/** A file's rows as checked: each row, and why it cannot be paid when a live key names a bank
 * account that does not resolve (or not in that name). */
interface CheckedRow {
  row: BulkRow;
  unpayable?: string;
}

/** Check rows against each other and the tenant's transfers; refuse the whole file on any problem. A
 * row whose account the live rules cannot pay is not a problem of the file: the live service
 * accepts the file and fails that row later, so it is kept with the reason it will fail. */
async function checkFile(t: Tenant, file: ParsedFile): Promise<CheckedRow[]> {
  const errors: ErrorDetail[] = [];
  const unpayable = new Map<number, string>();
  const seen = new Set<string>();
  const have = transfers(t);
  await eachInSlices(file.rows, (r, i) => {
    errors.push(...r.errors);
    if (!r.row) return;
    if (r.row.createdAt !== undefined && Date.parse(r.row.createdAt) > t.now()) {
      errors.push({ field: r.field('createdAt'), issue: `must not be later than the tenant's clock (${t.nowIso()})` });
    }
    const ref = r.row.reference;
    if (seen.has(ref)) errors.push({ field: r.field('reference'), issue: 'appears on an earlier row of this file' });
    else if (have.has(ref)) errors.push({ field: r.field('reference'), issue: TAKEN });
    seen.add(ref);
    try {
      checkLiveBank(t, r.row, r.field);
    } catch (err) {
      if (err instanceof SandboxError && (err.code === 'ACCOUNT_NOT_FOUND' || err.code === 'ACCOUNT_NAME_MISMATCH')) unpayable.set(i, err.message);
      else errors.push(...(err as { details: ErrorDetail[] }).details);
    }
  });
  if (errors.length > 0) throw refused(file, errors);
  return file.rows.map((r, n) => (unpayable.has(n) ? { row: r.row!, unpayable: unpayable.get(n) } : { row: r.row! }));
}

/**
 * A bulk file: checked and built in slices (bulk.slices.ts), then written in one step, so the
 * tenant's other requests meanwhile see none of it or all of it, and a file is never half written.
 * Its rows' transfer.pending events follow in file order, then its timed moves are scheduled and
 * the file is answered.
 */
export async function createBulk(t: Tenant, file: ParsedFile, serviceSource: string, scenario?: string): Promise<BulkFile> {
  const rows = await checkFile(t, file);
  // The file counts as a resource, as each of its rows does.
  t.checkRoom(rows.length + 1);
  const id = `bulk_${t.random.hex(24)}`;
  const now = t.now();
  const createdAt = iso(now);
  const pendingFor = transfer.duration(t.behaviour(scenario), 'PENDING');
  const records = await mapInSlices(rows, ({ row, unpayable }) => {
    const record = newTransfer(t, row, { serviceSource, bulkId: id, scenario });
    record.createdAt = record.updatedAt = createdAt;
    if (row.status !== undefined) return settled(record, row);
    // Its lifecycle runs as the file's, and ends FAILED with the reason the live rules gave.
    if (unpayable !== undefined) record.outcome = { succeed: false, status: 'FAILED', reason: unpayable };
    // A row whose end comes at a time of its own (an outcome rule's after, a held test value) leaves
    // the file's schedule, which knows only the scenario's timing: at once when its PENDING time is
    // not the file's, else as it enters PROCESSING with the file's other rows (advanceBulk).
    else if (record.outcome.after !== undefined && transfer.duration(t.behaviour(scenario), 'PENDING', record.outcome) !== pendingFor) record.ownSchedule = true;
    return record;
  });

  // Another request of the tenant (another file) may have taken a reference, or the room, since
  // the check.
  const store = transfers(t);
  const taken = file.rows.filter((_r, i) => store.has(records[i].reference)).map((r) => ({ field: r.field('reference'), issue: TAKEN }));
  if (taken.length > 0) throw refused(file, taken);
  t.checkRoom(rows.length + 1);
  for (const record of records) store.put(record.reference, record);
  const bulk: BulkRecord = { id, name: file.name ?? null, count: rows.length, serviceSource, createdAt, references: records.map((r) => r.reference), ...(scenario ? { scenario } : {}) };
  bulks(t).put(id, bulk);
  bumpVersion(t);

  // A reset meanwhile forgets the file: its remaining events and its schedule go with it.
  const kept = () => bulks(t).get(id) === bulk;
  await eachInSlices(records, (record) => {
    if (!kept() || record.status !== 'PENDING') return;
    transfer.emit(t, 'PENDING', record, present);
    if (record.ownSchedule) transfer.retime(t, record.reference, 'PENDING', t.behaviour(scenario), now, record.outcome);
  });
  if (kept()) t.scheduler.enqueue(BULK_ADVANCE, id, now + transfer.duration(t.behaviour(scenario), 'PENDING') * 1000, { from: 'PENDING' });
  return presentBulk(bulk);
}

/** A row that says how it ended: recorded so, at its own creation time, with no lifecycle and no events. */
function settled(record: TransferRecord, row: BulkRow): TransferRecord {
  const status = row.status!;
  const at = row.createdAt === undefined ? record.createdAt : iso(Date.parse(row.createdAt));
  return {
    ...record,
    status,
    failureReason: status === 'FAILED' ? (row.failureReason ?? 'Failed as the bulk file said') : null,
    createdAt: at,
    updatedAt: at,
    outcome: { succeed: status === 'SUCCESSFUL', status },
  };
}

/** Rows one run of a file's timed move looks at: each move makes an event (and with a webhook set a
 * delivery), so a file of 10,000 rows moved in one go held every key's requests 100 ms or more. */
export const BULK_PIECE = CATCH_UP_SLICE;

/**
 * The file's timed move: every row still on the shared schedule and in `from` moves on, BULK_PIECE
 * rows a run. A file with rows left enqueues the rest at the same instant (`next`, the first row not
 * yet looked at), so the catch-up and the clock advance give the event loop its turn between pieces;
 * the last piece schedules the file's next move. Returns the rows looked at.
 */
function advanceBulk(t: Tenant, job: Job): number {
  const bulk = bulks(t).get(job.ref);
  if (!bulk) return 1;
  const from = job.data?.from;
  const start = typeof job.data?.next === 'number' ? job.data.next : 0;
  const end = Math.min(bulk.references.length, start + BULK_PIECE);
  const store = transfers(t);
  for (let i = start; i < end; i++) {
    const ref = bulk.references[i];
    const r = store.get(ref);
    if (!r || r.ownSchedule || r.status !== from) continue;
    const timed = r.outcome.after !== undefined;
    const moved = applyMove(t, r, transfer.timedEvent(r.status, r.outcome)!, undefined, timed || undefined);
    if (timed) transfer.retime(t, ref, moved.status, t.behaviour(bulk.scenario), undefined, r.outcome);
  }
  if (end < bulk.references.length) t.scheduler.enqueue(BULK_ADVANCE, bulk.id, job.dueAt, { from, next: end });
  else if (from === 'PENDING') {
    t.scheduler.enqueue(BULK_ADVANCE, bulk.id, t.now() + transfer.duration(t.behaviour(bulk.scenario), 'PROCESSING') * 1000, { from: 'PROCESSING' });
  }
  return Math.max(1, end - start);
}

export const bulkJobs = { [BULK_ADVANCE]: advanceBulk };

type DemoRow = BulkRow & { status: 'SUCCESSFUL' | 'FAILED'; failureReason?: string };

/**
 * The demo file, made only when asked for (POST /_sandbox/bulk-disbursements/demo, or a read of its
 * id): already settled
 * (a mix of SUCCESSFUL and FAILED rows), so its filters show something at once. Seeding records no
 * events; it counts against the key's resource cap like any file. Asked for by the control route it
 * is a create, refused when it does not fit; asked for by a read it is made whatever the cap (a read
 * does not fail for a full key: 25 resources past it, once). Answers whether it was made now (false
 * when the key holds it already).
 */
export function ensureDemo(t: Tenant, by: 'create' | 'read' = 'create'): boolean {
  if (bulks(t).has(DEMO_BULK_ID)) return false;
  const rows = demo.items as DemoRow[];
  if (by === 'create') t.checkRoom(rows.length + 1);
  const now = t.nowIso();
  const store = transfers(t);
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
  return true;
}

/**
 * A move /_sandbox/simulate pushes: `complete` or `fail` on a PENDING transfer runs `process` first, so the end is one call and the
 * events keep the lifecycle's order.
 */
export function simulateTransfer(t: Tenant, reference: string, event: TransferEvent, reason?: string): TransferRecord {
  return throughProcessing(getTransfer(t, reference).status, (e) => moveTransfer(t, reference, e, e === event ? reason : undefined), event);
}

/** A bulk file as uploaded, with how many of its rows are in each state. */
export function bulkView(t: Tenant, b: BulkRecord): Record<string, unknown> {
  const store = transfers(t);
  const statuses: Record<string, number> = {};
  for (const ref of b.references) {
    const s = store.get(ref)?.status;
    if (s) statuses[s] = (statuses[s] ?? 0) + 1;
  }
  return { ...presentBulk(b), statuses };
}
