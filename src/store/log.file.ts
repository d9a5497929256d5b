// A tenant's current log and the pool that bounds how many logs are open at once.
//
// A log is opened when a batch is appended and stays open while it is among the `cap` most recently
// written; past that, the least recently written idle log is closed first, so the process holds at
// most `cap` log handles whatever the number of keys. Opening a log marks its header open (with the
// length it has then); closing records its exact length, so a cut is seen at the next load.
import { open, type FileHandle } from 'node:fs/promises';
import { encodeHeader, seedOf } from './file.format.js';

export class LogPool {
  /** Logs holding (or about to hold) a handle, least recently written first. */
  private readonly open = new Set<LogFile>();
  private readonly waiting: (() => void)[] = [];

  constructor(readonly cap: number) {
    if (!(cap >= 1)) throw new Error(`the cap of open logs must be at least 1, got ${cap}`);
  }

  /** How many logs hold a handle or a reserved slot now; never more than the cap. */
  get size(): number {
    return this.open.size;
  }

  /** Mark `log` most recently used if it holds a slot; false when it must enter. */
  touch(log: LogFile): boolean {
    if (!this.open.delete(log)) return false;
    this.open.add(log);
    return true;
  }

  /** Make room for `log` and mark it most recently used; a full pool closes its oldest idle log. */
  async enter(log: LogFile): Promise<void> {
    if (this.touch(log)) return;
    while (this.open.size >= this.cap) {
      const idle = [...this.open].find((l) => l.idle);
      if (idle) {
        this.open.delete(idle);
        this.open.add(log);
        // The slot is free once the handle is closed, even if recording its length failed.
        await idle.close().catch((err: Error) => console.error(`[sandbox] could not record the length of ${idle.file}:`, err));
        return;
      }
      await new Promise<void>((wake) => this.waiting.push(wake));
    }
    this.open.add(log);
  }

  leave(log: LogFile): void {
    this.open.delete(log);
    this.wake();
  }

  wake(): void {
    this.waiting.shift()?.();
  }
}

export class LogFile {
  private fh: FileHandle | null = null;
  private closing: Promise<void> = Promise.resolve();
  private busy = 0;
  /** What the checksum of each of its records continues. */
  readonly seed: number;

  constructor(
    readonly file: string,
    readonly gen: number,
    /** Checksum of the snapshot this log continues. */
    readonly snapshot: string,
    /** Bytes of whole records: where the next append goes. */
    public size: number,
    /** Whether bytes past `size` are to be cut before the next append (a torn record, a failed write's part). */
    private torn: boolean,
    private readonly pool: LogPool,
  ) {
    this.seed = seedOf(gen);
  }

  get idle(): boolean {
    return this.busy === 0;
  }

  async append(text: string): Promise<void> {
    this.busy++;
    try {
      const fh = this.fh && this.pool.touch(this) ? this.fh : await this.reopen();
      if (this.torn) {
        await fh.truncate(this.size);
        this.torn = false;
      }
      const buf = Buffer.from(text);
      try {
        await writeAt(fh, buf, this.size);
      } catch (err) {
        // Nothing of this batch counts: what part of it reached the file is cut before the next append.
        this.torn = true;
        throw err;
      }
      this.size += buf.length;
    } finally {
      this.busy--;
      this.pool.wake();
    }
  }

  private async reopen(): Promise<FileHandle> {
    await this.pool.enter(this);
    await this.closing.catch(() => {});
    let fh: FileHandle | undefined;
    try {
      fh = await open(this.file, 'r+');
      await writeAt(fh, this.header(0), 0);
    } catch (err) {
      await fh?.close();
      this.pool.leave(this);
      throw err;
    }
    return (this.fh = fh);
  }

  /** Record the exact length in the header and release the handle. */
  close(): Promise<void> {
    const fh = this.fh;
    if (!fh) return this.closing;
    this.fh = null;
    this.pool.leave(this);
    // With bytes of a failed write past the end, the header stays open, so the next load cuts them.
    this.closing = writeAt(fh, this.header(this.torn ? 0 : 1), 0).finally(() => fh.close());
    return this.closing;
  }

  /** Release the handle of a log about to be deleted, without touching the file. */
  async discard(): Promise<void> {
    const fh = this.fh;
    this.fh = null;
    this.pool.leave(this);
    await fh?.close();
  }

  private header(closed: 0 | 1): Buffer {
    return Buffer.from(encodeHeader({ gen: this.gen, snapshot: this.snapshot, closed, length: this.size }));
  }
}

async function writeAt(fh: FileHandle, buf: Buffer, position: number): Promise<void> {
  for (let off = 0; off < buf.length; ) {
    const { bytesWritten } = await fh.write(buf, off, buf.length - off, position + off);
    off += bytesWritten;
  }
}
