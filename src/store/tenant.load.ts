// Reading one tenant's folder: which files count, whether they chain, and what they hold.
//
// The snapshot of generation G is continued by wal-G, whose header names the snapshot's checksum.
// A folder that does not exist, or holds neither, is an empty tenant. Logs older than G are leftovers
// of a finished compaction; a wal-(G+1) with no record is the leftover of an interrupted one. Every
// other mismatch is refused, naming the file, so a tenant is never loaded with data missing.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { EMPTY_SNAPSHOT, StoreLoadError, isCheckedLog, readLog, readSnapshot, type Collections } from './file.format.js';
import { readLegacy } from './legacy.load.js';
import type { StoreOp } from './store.js';

export type { LoadedTenant } from './file.format.js';
import type { LoadedTenant } from './file.format.js';

export const WAL = /^wal-(\d{1,15})\.jsonl$/;
/** lowdb writes a file as `.<name>.tmp` and renames it: such a leftover is not data. */
const TEMP = /^\.(snapshot\.json|wal-\d{1,15}\.jsonl)\.tmp$/;

export async function loadTenant(dir: string): Promise<LoadedTenant> {
  const fail = (name: string, reason: string) => new StoreLoadError(path.join(dir, name), reason);
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { data: new Map(), ops: [], snapshotBytes: 0 };
    if (code === 'ENOTDIR') throw new StoreLoadError(dir, "it is a file where the tenant's folder belongs");
    throw err;
  }
  const gens: number[] = [];
  let hasSnapshot = false;
  for (const name of names) {
    const wal = WAL.exec(name);
    if (wal) gens.push(Number(wal[1]));
    else if (name === 'snapshot.json') hasSnapshot = true;
    else if (!TEMP.test(name)) console.warn(`[sandbox] ignoring ${path.join(dir, name)}: not a file the sandbox writes`);
  }
  gens.sort((a, b) => a - b);
  const walName = (g: number) => `wal-${g}.jsonl`;
  const read = (name: string) => readFile(path.join(dir, name));

  const snapBuf = hasSnapshot ? await read('snapshot.json') : undefined;
  const snap = snapBuf && (await readSnapshot(snapBuf, path.join(dir, 'snapshot.json')));
  if (!snap && !gens.length) return { data: new Map(), ops: [], snapshotBytes: 0 };
  const first = snap ? undefined : await read(walName(gens[0]));
  if (snap?.legacy || (first && !isCheckedLog(first))) {
    return readLegacy(dir, snap?.legacy ? snap : undefined, gens);
  }

  const gen = snap ? snap.gen : 0;
  const checksum = snap && !snap.legacy ? snap.checksum : EMPTY_SNAPSHOT;
  if (!snap && gens[0] > 0) {
    throw fail('snapshot.json', `it is missing, yet ${walName(gens[0])} continues generation ${gens[0]} of it`);
  }
  if (!gens.includes(gen)) throw fail(walName(gen), `it is missing: snapshot.json (generation ${gen}) continues in it`);
  const beyond = gens.find((g) => g > gen + 1);
  if (beyond !== undefined) {
    throw fail(walName(beyond), `generation ${beyond} does not follow snapshot.json (generation ${gen}): a generation between them is missing`);
  }
  if (gens.includes(gen + 1)) {
    const next = await readLog(await read(walName(gen + 1)), path.join(dir, walName(gen + 1)), gen + 1);
    if (next.ops.length || next.torn) {
      throw fail(walName(gen + 1), `it holds writes made after a snapshot newer than snapshot.json (generation ${gen}): snapshot.json was replaced by an older copy`);
    }
  }
  const file = path.join(dir, walName(gen));
  const log = await readLog(first ?? (await read(walName(gen))), file, gen);
  if (log.header.snapshot !== checksum) {
    throw snap
      ? fail(walName(gen), `it continues a snapshot with checksum ${log.header.snapshot}, but snapshot.json has ${checksum}`)
      : fail('snapshot.json', `it is missing, yet ${walName(gen)} continues it`);
  }
  if (log.torn) {
    console.warn(`[sandbox] ${file}: cutting ${log.torn} bytes of a last record an interrupted write left incomplete (that write was never acknowledged)`);
  }
  return {
    data: snap ? snap.data : new Map(),
    ops: log.ops,
    snapshotBytes: snapBuf?.length ?? 0,
    log: { file, gen, snapshot: checksum, size: log.end, torn: log.torn > 0 },
  };
}
