// The persistent store (--data DIR): per tenant, a lowdb snapshot and an append-only log.
//
//   DIR/tenants/<tenantId>/snapshot.json   written whole with lowdb (temp file + rename)
//   DIR/tenants/<tenantId>/wal-<gen>.jsonl one checked record a line per write since that snapshot
//   DIR/sandbox.json                       what the whole sandbox keeps: when it began (its market's origin)
//
// Tenants load on first use, so opening the store reads no tenant. A tenant whose files are damaged
// is refused (StoreLoadError, naming the file) each time it is asked for, and loads as soon as its
// files are repaired; the other tenants are not affected. File formats: file.format.ts.
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { StoreLoadError } from './file.format.js';
import { LogPool } from './log.file.js';
import { LowdbTenantStore } from './lowdb.tenant.js';
import type { Store, TenantStore } from './store.js';

export { StoreLoadError } from './file.format.js';

// A small floor keeps many small tenants small on disk (and quick to load) once retention drops their
// old records; past it the log is compacted when it outgrows the snapshot, so a write stays O(1).
const DEFAULT_COMPACT_BYTES = 256 * 1024;
/** Logs held open at once; far below a usual limit of 1,024 open files, leaving room for sockets. */
export const DEFAULT_OPEN_LOGS = 128;

export interface LowdbOptions {
  compactBytes?: number;
  /** Most log files open at once, whatever the number of tenants. */
  maxOpenLogs?: number;
}

/** The file of what the whole sandbox keeps, beside the tenants' directory. */
const SANDBOX_FILE = 'sandbox.json';

export class LowdbStore implements Store {
  readonly kind = 'lowdb' as const;
  readonly logs: LogPool;
  private readonly root: string;
  private readonly tenants = new Map<string, LowdbTenantStore>();
  private readonly opening = new Map<string, Promise<LowdbTenantStore>>();
  private readonly closing = new Map<string, Promise<void>>();
  /** The last load failure logged per tenant, so a refused tenant's every request does not log it again. */
  private readonly refused = new Map<string, string>();

  private constructor(
    readonly dir: string,
    private readonly compactBytes: number,
    maxOpenLogs: number,
  ) {
    this.root = path.join(dir, 'tenants');
    this.logs = new LogPool(maxOpenLogs);
  }

  /** Open the data directory without reading any tenant; anything in it the sandbox did not write is
   * named in a warning and left alone. */
  static async open(dir: string, opts: LowdbOptions = {}): Promise<LowdbStore> {
    const store = new LowdbStore(path.resolve(dir), opts.compactBytes ?? DEFAULT_COMPACT_BYTES, opts.maxOpenLogs ?? DEFAULT_OPEN_LOGS);
    await mkdir(store.root, { recursive: true });
    const stray = [
      ...(await readdir(store.dir)).filter((name) => name !== 'tenants' && name !== SANDBOX_FILE).map((name) => path.join(store.dir, name)),
      ...(await readdir(store.root, { withFileTypes: true })).filter((e) => !e.isDirectory()).map((e) => path.join(store.root, e.name)),
    ];
    for (const file of stray) console.warn(`[sandbox] ignoring ${file}: not part of the sandbox's data`);
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
      const t = new LowdbTenantStore(path.join(this.root, tenantId), this.dir, this.logs, this.compactBytes);
      // An evicted tenant is read again only once its files are closed. A failed load is not kept:
      // the next request tries again.
      p = (this.closing.get(tenantId) ?? Promise.resolve())
        .then(() => t.load())
        .then(
          () => {
            this.tenants.set(tenantId, t);
            this.refused.delete(tenantId);
            return t;
          },
          (err: Error) => {
            if (this.refused.get(tenantId) !== err.message) {
              this.refused.set(tenantId, err.message);
              if (err instanceof StoreLoadError) console.error(`[sandbox] ${err.message}`);
              else console.error(`[sandbox] could not load tenant ${tenantId}:`, err);
            }
            throw err;
          },
        )
        .finally(() => this.opening.delete(tenantId));
      this.opening.set(tenantId, p);
    }
    return p;
  }

  tenantIds(): string[] {
    return [...this.tenants.keys()];
  }

  async origin(now: number): Promise<number> {
    const file = path.join(this.dir, SANDBOX_FILE);
    const read = async (): Promise<number | undefined> => {
      let text: string;
      try {
        text = await readFile(file, 'utf8');
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw err;
      }
      let origin: unknown;
      try {
        origin = (JSON.parse(text) as { origin?: unknown }).origin;
      } catch {
        // a damaged file is refused below, by name
      }
      if (typeof origin !== 'number') throw new Error(`Cannot read ${file}: it holds no {"origin": ms}. Delete it to start the market afresh.`);
      return origin;
    };
    const kept = await read();
    if (kept !== undefined) return kept;
    // Created once: a file that appeared meanwhile is read instead.
    await writeFile(file, `${JSON.stringify({ origin: now })}\n`, { flag: 'wx' }).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== 'EEXIST') throw err;
    });
    return (await read())!;
  }

  async storedTenantIds(): Promise<string[]> {
    const dirs = (await readdir(this.root, { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => e.name);
    return [...new Set([...dirs, ...this.tenants.keys()])];
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
