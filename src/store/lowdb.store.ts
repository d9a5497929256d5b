// The persistent store (--data DIR): each tenant keeps a lowdb snapshot plus an append-only log.
//
//   DIR/tenants/<tenantId>/snapshot.json   lowdb JSONFile, written atomically (temp file + rename)
//   DIR/tenants/<tenantId>/wal-<gen>.jsonl one line per write since that snapshot
//
// A request's writes are appended to the log in one batch before its response leaves (group commit:
// concurrent requests share one append), so a write acknowledged by a 2xx survives a crash of the
// process. The cost of a write is one appended line, whatever is already stored. When the log has
// grown past the snapshot's size, the snapshot is rewritten and a new log generation begun, which
// keeps the amortised cost per write constant. Replaying a log over a snapshot that already holds
// some of its writes is harmless: every logged write sets a value, so replay converges.
import { mkdir, open, readdir, readFile, rm, stat, truncate, type FileHandle } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { Low } from 'lowdb';
import { JSONFile } from 'lowdb/node';
import { MemoryTenantStore, type Store, type StoreOp, type TenantStore } from './store.js';

interface Snapshot {
  version: 1;
  walGen: number;
  collections: Record<string, [string, unknown][]>;
}

const DEFAULT_COMPACT_BYTES = 4 * 1024 * 1024;

export class StoreLoadError extends Error {
  constructor(file: string, reason: string) {
    super(
      `Cannot load the sandbox data file ${file}: ${reason}. ` +
        `The sandbox will not start over damaged data. Restore the file from a backup, or move the ` +
        `tenant's folder (${path.dirname(file)}) aside to start that tenant empty.`,
    );
    this.name = 'StoreLoadError';
  }
}

class LowdbTenantStore extends MemoryTenantStore {
  private pending: string[] = [];
  private appended = 0;
  private durable = 0;
  private writing: Promise<void> | null = null;
  private walBytes = 0;
  private snapshotBytes = 0;
  private wal!: FileHandle;
  private walGen = 0;
  private readonly db: Low<Snapshot>;

  constructor(
    private readonly dir: string,
    private readonly compactBytes: number,
  ) {
    super((op) => this.log(op));
    this.db = new Low<Snapshot>(new JSONFile<Snapshot>(path.join(dir, 'snapshot.json')), {
      version: 1,
      walGen: 0,
      collections: {},
    });
  }

  async load(): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    const snapshotFile = path.join(this.dir, 'snapshot.json');
    try {
      await this.db.read();
    } catch (e) {
      throw new StoreLoadError(snapshotFile, `it is not valid JSON (${(e as Error).message})`);
    }
    const snap = this.db.data;
    if (!snap || snap.version !== 1 || typeof snap.collections !== 'object' || snap.collections === null) {
      throw new StoreLoadError(snapshotFile, 'it is not a sandbox snapshot (expected {"version":1,...})');
    }
    for (const [name, entries] of Object.entries(snap.collections)) {
      if (!Array.isArray(entries)) throw new StoreLoadError(snapshotFile, `collection '${name}' is not a list`);
      this.data.set(name, new Map(entries));
    }
    if (existsSync(snapshotFile)) this.snapshotBytes = (await stat(snapshotFile)).size;
    const gens = (await readdir(this.dir))
      .map((f) => /^wal-(\d+)\.jsonl$/.exec(f))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => Number(m[1]))
      .filter((g) => g >= snap.walGen)
      .sort((a, b) => a - b);
    let tornAt: number | undefined;
    for (const gen of gens) tornAt = await this.replay(path.join(this.dir, `wal-${gen}.jsonl`));
    this.walGen = Math.max(snap.walGen, ...gens);
    // Cut a torn tail off the log about to be appended to, or the next write would be glued to it.
    if (tornAt !== undefined) await truncate(this.walFile(this.walGen), tornAt);
    this.wal = await open(this.walFile(this.walGen), 'a');
    this.walBytes = (await this.wal.stat()).size;
  }

  /** Apply a log's writes; returns the byte length of its whole lines when its last line is torn. */
  private async replay(file: string): Promise<number | undefined> {
    const text = await readFile(file, 'utf8');
    const lines = text.split('\n');
    // Every logged write ends with a newline, so whatever follows the last one was never acknowledged.
    const tail = lines.pop() ?? '';
    let bytes = 0;
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i];
      bytes += Buffer.byteLength(line) + 1;
      if (line === '') continue;
      let op: StoreOp;
      try {
        op = JSON.parse(line) as StoreOp;
      } catch {
        throw new StoreLoadError(file, `line ${i + 1} is not valid JSON`);
      }
      this.apply(op);
    }
    return tail === '' ? undefined : bytes;
  }

  private walFile(gen: number) {
    return path.join(this.dir, `wal-${gen}.jsonl`);
  }

  private log(op: StoreOp): void {
    this.pending.push(JSON.stringify(op) + '\n');
    this.appended++;
  }

  override get flushed(): boolean {
    return this.durable >= this.appended;
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
    const text = this.pending.join('');
    this.pending = [];
    try {
      try {
        await this.wal.write(text);
      } catch (err) {
        // Nothing of this batch counts as written: it goes back first in line for the next flush.
        this.pending.unshift(text);
        throw err;
      }
      this.walBytes += Buffer.byteLength(text);
      this.durable = upTo;
      if (this.walBytes > Math.max(this.compactBytes, this.snapshotBytes)) await this.compact();
    } finally {
      this.writing = null;
    }
  }

  /** Rewrite the snapshot and begin a new log generation. Runs while holding the write turn. */
  private async compact(): Promise<void> {
    const oldGen = this.walGen;
    const oldWal = this.wal;
    this.walGen = oldGen + 1;
    this.wal = await open(this.walFile(this.walGen), 'a');
    this.walBytes = 0;
    const collections: Snapshot['collections'] = {};
    for (const [name, map] of this.data) collections[name] = [...map];
    this.db.data = { version: 1, walGen: this.walGen, collections };
    await this.db.write();
    this.db.data = { version: 1, walGen: this.walGen, collections: {} };
    this.snapshotBytes = (await stat(path.join(this.dir, 'snapshot.json'))).size;
    await oldWal.close();
    await rm(this.walFile(oldGen), { force: true });
  }

  async close(): Promise<void> {
    await this.flush();
    await this.wal.close();
  }
}

export class LowdbStore implements Store {
  readonly kind = 'lowdb' as const;
  private readonly tenants = new Map<string, LowdbTenantStore>();
  private readonly opening = new Map<string, Promise<LowdbTenantStore>>();
  private readonly closing = new Map<string, Promise<void>>();

  private constructor(
    readonly dir: string,
    private readonly compactBytes: number,
  ) {}

  /** Open the data directory and load every tenant in it, refusing damaged files. With `keep`, only
   * that many stay in memory after the check; the others reload on first use. */
  static async open(dir: string, opts: { compactBytes?: number; keep?: number } = {}): Promise<LowdbStore> {
    const store = new LowdbStore(path.resolve(dir), opts.compactBytes ?? DEFAULT_COMPACT_BYTES);
    const root = path.join(store.dir, 'tenants');
    await mkdir(root, { recursive: true });
    for (const id of await readdir(root)) {
      await store.tenant(id);
      if (opts.keep !== undefined && store.tenants.size > opts.keep) await store.evict(id);
    }
    return store;
  }

  async evict(tenantId: string): Promise<void> {
    const t = this.tenants.get(tenantId);
    if (!t) return;
    this.tenants.delete(tenantId);
    const done = t.close().finally(() => this.closing.delete(tenantId));
    this.closing.set(tenantId, done);
    await done;
  }

  tenant(tenantId: string): Promise<TenantStore> {
    const loaded = this.tenants.get(tenantId);
    if (loaded) return Promise.resolve(loaded);
    let p = this.opening.get(tenantId);
    if (!p) {
      const t = new LowdbTenantStore(path.join(this.dir, 'tenants', tenantId), this.compactBytes);
      // An evicted tenant is read again only once its files are closed.
      p = (this.closing.get(tenantId) ?? Promise.resolve()).then(() => t.load()).then(() => {
        this.tenants.set(tenantId, t);
        this.opening.delete(tenantId);
        return t;
      });
      this.opening.set(tenantId, p);
    }
    return p;
  }

  tenantIds(): string[] {
    return [...this.tenants.keys()];
  }

  async close(): Promise<void> {
    await Promise.all([...this.closing.values()]);
    await Promise.all([...this.tenants.values()].map((t) => t.close()));
  }

  /** Close the tenant's files and delete its directory; a `tenant()` meanwhile waits, then starts empty. */
  async drop(tenantId: string): Promise<void> {
    await this.opening.get(tenantId)?.catch(() => undefined);
    const t = this.tenants.get(tenantId);
    this.tenants.delete(tenantId);
    const before = this.closing.get(tenantId);
    const done = (async () => {
      await before;
      // Whatever the close could not write is about to be deleted anyway.
      await t?.close().catch(() => undefined);
      await rm(path.join(this.dir, 'tenants', tenantId), { recursive: true, force: true });
    })().finally(() => this.closing.get(tenantId) === done && this.closing.delete(tenantId));
    this.closing.set(tenantId, done);
    await done;
  }
}
