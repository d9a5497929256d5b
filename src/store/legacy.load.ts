// Reading a tenant folder written before the files were self-checking: a version 1 snapshot and logs
// of bare JSON writes. They carry nothing to check against, so they are trusted as they read, once:
// the tenant store rewrites them in the current format right after loading. What can be checked still
// is: every line but a torn last one is a write, and only the newest log may end torn.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { StoreLoadError, isCheckedLog, isOp, readLog, type Collections } from './file.format.js';
import type { StoreOp } from './store.js';
import type { LoadedTenant } from './file.format.js';

export async function readLegacy(
  dir: string,
  snap: { gen: number; data: Collections } | undefined,
  gens: number[],
): Promise<LoadedTenant> {
  const from = snap?.gen ?? 0;
  const ops: StoreOp[] = [];
  const replayed = gens.filter((g) => g >= from);
  let newest = from;
  for (const [i, gen] of replayed.entries()) {
    const file = path.join(dir, `wal-${gen}.jsonl`);
    const buf = await readFile(file);
    if (isCheckedLog(buf)) {
      // A current-format log with no record is what an interrupted rewrite of these files leaves.
      if ((await readLog(buf, file, gen)).ops.length === 0) continue;
      throw new StoreLoadError(file, 'it is in the current format, but snapshot.json is in the earlier one');
    }
    newest = gen;
    const lines = buf.toString('utf8').split('\n');
    const tail = lines.pop() ?? '';
    if (tail !== '' && i < replayed.length - 1) {
      throw new StoreLoadError(file, 'its last line is incomplete, yet a newer log follows it');
    }
    for (const [n, line] of lines.entries()) {
      if (line === '') continue;
      let op: unknown;
      try {
        op = JSON.parse(line);
      } catch {
        throw new StoreLoadError(file, `line ${n + 1} is not valid JSON`);
      }
      if (!isOp(op)) throw new StoreLoadError(file, `line ${n + 1} is not a sandbox write (${line.slice(0, 40)})`);
      ops.push(op);
    }
  }
  const empty = !snap && ops.length === 0;
  return { data: snap?.data ?? new Map(), ops, snapshotBytes: 0, ...(empty ? {} : { legacy: { gen: Math.max(newest, ...gens) } }) };
}
