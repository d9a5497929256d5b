// One tenant of the persistent store: its collections in memory, its writes appended to its log.
//
// A request's writes are appended in one batch before its response leaves (group commit: concurrent
// requests share one append), so a write acknowledged by a 2xx survives a crash of the process. The
// cost of a write is one appended record, whatever is already stored. When the log has grown past
// the snapshot's size, the snapshot is rewritten and a new log generation begun, which keeps the
// amortised cost per write constant. Nothing is written for a tenant before its first write.
import { mkdir, readdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { TextFile } from 'lowdb/node';
import { EMPTY_SNAPSHOT, LOAD_SLICE, StoreLoadError, encodeHeader, encodeRecord, encodeSnapshot, encodeSnapshotInTurns, headerBytes } from './file.format.js';
import { LogFile, type LogPool } from './log.file.js';
import { MemoryTenantStore } from './store.js';
import { WAL, loadTenant } from './tenant.load.js';

export class LowdbTenantStore extends MemoryTenantStore {
  /** Writes made since the last batch, as JSON. */
  private pending: string[] = [];
  private appended = 0;
  private durable = 0;
  private writing: Promise<void> | null = null;
  private wal: LogFile | null = null;
  /** Number of the last record in the log. */
  private seq = 0;
  private snapshotBytes = 0;
  private readonly snapshotFile: string;

  constructor(
    private readonly dir: string,
    /** The data directory: files are named relative to it in messages shown to API clients. */
    private readonly dataDir: string,
    private readonly logs: LogPool,
    private readonly compactBytes: number,
  ) {
    super((op) => {
      this.pending.push(JSON.stringify(op));
      this.appended++;
    });
    this.snapshotFile = path.join(dir, 'snapshot.json');
  }

  async load(): Promise<void> {
    const loaded = await loadTenant(this.dir).catch((err: unknown) => {
      throw err instanceof StoreLoadError ? new StoreLoadError(err.file, err.reason, this.dataDir, this.dir) : err;
    });
    for (const [name, map] of loaded.data) this.data.set(name, map);
    for (const [i, op] of loaded.ops.entries()) {
      if (i > 0 && i % LOAD_SLICE === 0) await new Promise((resolve) => setImmediate(resolve));
      this.apply(op);
    }
    this.snapshotBytes = loaded.snapshotBytes;
    if (loaded.log) {
      const { file, gen, snapshot, size, torn } = loaded.log;
      this.wal = new LogFile(file, gen, snapshot, size, torn, this.logs);
      this.seq = loaded.ops.length;
    }
    if (loaded.legacy) {
      await this.rewrite(loaded.legacy.gen + 1);
      console.warn(`[sandbox] ${this.dir}: rewrote files of an earlier version of the sandbox in the self-checking format`);
    }
  }

  override get flushed(): boolean {
    return this.durable >= this.appended;
  }

  override get pendingWrites(): number {
    return this.pending.length;
  }

  override async flush(): Promise<void> {
    const target = this.appended;
    while (this.durable < target) {
      if (!this.writing) this.writing = this.writeBatch();
      await this.writing;
    }
  }

  private async writeBatch(): Promise<void> {
    const upTo = this.appended;
    const batch = this.pending;
    this.pending = [];
    try {
      let wal: LogFile;
      let seq = this.seq;
      try {
        wal = this.wal ??= await this.create();
        let text = '';
        for (const json of batch) text += encodeRecord(wal.seed, ++seq, json);
        await wal.append(text);
      } catch (err) {
        // Nothing of this batch counts as written: it goes back first in line for the next flush.
        this.pending = batch.concat(this.pending);
        throw err;
      }
      this.seq = seq;
      this.durable = upTo;
      if (wal.size > Math.max(this.compactBytes, this.snapshotBytes)) {
        // The batch is durable either way; a failed compaction is tried again after the next batch.
        await this.rewrite(wal.gen + 1).catch((err: Error) => console.error(`[sandbox] could not compact ${this.dir}:`, err));
      }
    } finally {
      this.writing = null;
    }
  }

  /** The first write: the tenant's folder, its first log and the empty snapshot that log continues. */
  private async create(): Promise<LogFile> {
    await mkdir(this.dir, { recursive: true });
    await this.removeLogs(Infinity); // empty logs an earlier version left for a tenant only read from
    const file = path.join(this.dir, 'wal-0.jsonl');
    const size = headerBytes(0);
    await new TextFile(file).write(encodeHeader({ gen: 0, snapshot: EMPTY_SNAPSHOT, closed: 1, length: size }));
    await this.writeSnapshot([encodeSnapshot(0, new Map()).text]);
    return new LogFile(file, 0, EMPTY_SNAPSHOT, size, false, this.logs);
  }

  /** Write everything as the snapshot of generation `gen` and continue in a new log. Its log is in
   * place before the snapshot, and older logs go last, so a crash at any step leaves files that load.
   * Runs while holding the write turn; writes not yet appended are in the snapshot, so they count, and
   * writes made while it is encoded go to the new log. */
  private async rewrite(gen: number): Promise<void> {
    const upTo = this.appended;
    const carried = this.pending;
    this.pending = [];
    const file = path.join(this.dir, `wal-${gen}.jsonl`);
    const size = headerBytes(gen);
    let snap: Awaited<ReturnType<typeof encodeSnapshotInTurns>>;
    try {
      snap = await encodeSnapshotInTurns(gen, this.data);
      await new TextFile(file).write(encodeHeader({ gen, snapshot: snap.checksum, closed: 1, length: size }));
      await this.writeSnapshot(snap.pieces);
    } catch (err) {
      this.pending = carried.concat(this.pending);
      throw err;
    }
    const old = this.wal;
    this.wal = new LogFile(file, gen, snap.checksum, size, false, this.logs);
    this.seq = 0;
    this.snapshotBytes = snap.bytes;
    this.durable = Math.max(this.durable, upTo);
    await old?.discard();
    await this.removeLogs(gen);
  }

  /** Write the snapshot whole from its pieces: to a temp file renamed over the old one, as lowdb's
   * writer does (which takes one string: the pieces of a large tenant are not joined into one). */
  private async writeSnapshot(pieces: string[]): Promise<void> {
    const tmp = path.join(this.dir, '.snapshot.json.tmp');
    await writeFile(tmp, pieces);
    await rename(tmp, this.snapshotFile);
  }

  /** Delete the logs of generations below `gen`. */
  private async removeLogs(gen: number): Promise<void> {
    for (const name of await readdir(this.dir)) {
      const m = WAL.exec(name);
      if (m && Number(m[1]) < gen) await rm(path.join(this.dir, name), { force: true });
    }
  }

  async close(): Promise<void> {
    await this.flush();
    await this.wal?.close();
  }
}
