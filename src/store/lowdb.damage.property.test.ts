// Property: whatever byte of a tenant's real files is flipped, cut or duplicated, or whichever file is
// deleted, loading the tenant gives exactly the acknowledged state, or refuses naming the damaged
// file; after a crash, the state may also lack its last write when a damage tore its record.
// Never a state with data silently missing. Runs from the fixed seed of test/support/fast-check.ts.
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeEach, afterEach, expect, it, vi } from 'vitest';
import { LowdbStore, StoreLoadError } from './lowdb.store.js';
import { MemoryTenantStore, type StoreOp } from './store.js';

type Op = { kind: 'put'; c: string; id: string; v: unknown } | { kind: 'del' | 'clear'; c: string; id: string } | { kind: 'clearAll'; keep: string[] };
const name = fc.constantFrom('payouts', 'events', 'meta');
const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 8, arbitrary: fc.record({ kind: fc.constant('put' as const), c: name, id: fc.constantFrom('a', 'b', 'c', 'd', '10'), v: fc.jsonValue({ maxDepth: 2 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constantFrom('del' as const, 'clear' as const), c: name, id: fc.constantFrom('a', 'b', 'c') }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('clearAll' as const), keep: fc.subarray(['meta']) }) },
);
const damage = fc.record({
  kind: fc.constantFrom('flip', 'cut', 'duplicate', 'delete'),
  file: fc.nat(),
  at: fc.nat(),
  len: fc.nat(),
  to: fc.nat(),
  xor: fc.integer({ min: 1, max: 255 }),
});

function run(t: MemoryTenantStore, o: Op) {
  if (o.kind === 'clearAll') t.clear(o.keep);
  else if (o.kind === 'put') t.collection(o.c).put(o.id, o.v);
  else if (o.kind === 'del') t.collection(o.c).remove(o.id);
  else t.collection(o.c).clear();
}

/** A tenant's collections as they would be listed: non-empty ones, records in order, as JSON. */
const stateOf = (t: MemoryTenantStore) =>
  JSON.stringify([...t.data].filter(([, m]) => m.size).sort(([a], [b]) => a.localeCompare(b)).map(([n, m]) => [n, [...m]]));

const base = await mkdtemp(path.join(tmpdir(), 'sandbox-fuzz-files-'));
afterAll(() => rm(base, { recursive: true, force: true }));
beforeEach(() => {
  vi.spyOn(console, 'warn').mockImplementation(() => {});
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => void vi.restoreAllMocks());

it('loads damaged tenant files exactly as acknowledged, or refuses them naming the file', async () => {
  const outcomes = new Map<string, number>();
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.array(op, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 12 }),
      fc.constantFrom(200, 700, 1 << 20),
      fc.boolean(),
      damage,
      async (batches, compactBytes, crash, d) => {
        const live = await mkdtemp(path.join(base, 'd-'));
        const store = await LowdbStore.open(live, { compactBytes });
        const t = (await store.tenant('t')) as MemoryTenantStore;
        const logged: StoreOp[] = [];
        const mirror = new MemoryTenantStore((o) => logged.push(o));
        for (const batch of batches) {
          for (const o of batch) (run(t, o), run(mirror, o));
          await t.flush();
        }
        // A crash leaves the files as they are now (copied before the store closes); a clean stop closes them.
        const dir = crash ? await mkdtemp(path.join(base, 'c-')) : live;
        if (crash) await cp(path.join(live, 'tenants'), path.join(dir, 'tenants'), { recursive: true });
        await store.close();
        const tdir = path.join(dir, 'tenants', 't');
        const files = (await readdir(tdir).catch((): string[] => [])).sort();
        if (!files.length) return;
        const file = path.join(tdir, files[d.file % files.length]);
        const buf = await readFile(file);
        const size = buf.length;
        if (d.kind === 'delete') await rm(file);
        else if (d.kind === 'flip') {
          buf[d.at % size] ^= d.xor;
          await writeFile(file, buf);
        } else if (d.kind === 'cut') {
          // After a crash, only the last line may be torn: a cut further back is not told from an end.
          const lastLine = size - 1 - buf.lastIndexOf(10, size - 2);
          await writeFile(file, buf.subarray(0, crash ? size - 1 - (d.at % lastLine) : d.at % size));
        } else {
          const start = d.at % size;
          const part = buf.subarray(start, start + 1 + (d.len % 64));
          const to = d.to % (size + 1);
          await writeFile(file, Buffer.concat([buf.subarray(0, to), part, buf.subarray(to)]));
        }

        const again = await LowdbStore.open(dir);
        try {
          const loaded = (await again.tenant('t')) as MemoryTenantStore;
          const state = stateOf(loaded);
          if (state === stateOf(t)) outcomes.set('exact', (outcomes.get('exact') ?? 0) + 1);
          else {
            const before = new MemoryTenantStore();
            for (const o of logged.slice(0, -1)) before.apply(o);
            expect(crash, `${d.kind} of ${file} loaded a state that is not the acknowledged one`).toBe(true);
            expect(state, `${d.kind} of ${file} loaded data missing`).toBe(stateOf(before));
            outcomes.set('torn', (outcomes.get('torn') ?? 0) + 1);
          }
        } catch (err) {
          if (!(err instanceof StoreLoadError)) throw err;
          expect(err.file, err.message).toBe(file);
          outcomes.set('refused', (outcomes.get('refused') ?? 0) + 1);
        } finally {
          await again.close();
        }
      },
    ),
    { numRuns: Number(process.env.FUZZ_RUNS ?? 300) },
  );
  // The damages reached every outcome: loaded exactly, refused, and a torn last record cut.
  expect(outcomes.get('refused')).toBeGreaterThan(100);
  expect(outcomes.get('exact')).toBeGreaterThan(5);
  expect(outcomes.get('torn')).toBeGreaterThan(0);
}, 120_000);
