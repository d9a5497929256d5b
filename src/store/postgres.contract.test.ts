// The store contract on PostgreSQL: a throwaway cluster for the file, a database per test.
import { afterAll, afterEach, beforeAll } from 'vitest';
import { startPostgres, type TestPostgres } from '../../test/support/postgres.js';
import { storeContract } from '../../test/support/store-contract.js';
import { PostgresStore } from './postgres.store.js';
import type { Store } from './store.js';

const opened: Store[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});

// One PostgreSQL cluster for the file; each test gets a database of its own.
let pg: TestPostgres;
let databases = 0;
beforeAll(async () => {
  pg = await startPostgres();
});
afterAll(() => pg?.stop());
async function openPostgres(): Promise<PostgresStore> {
  const name = `contract_${++databases}`;
  const admin = await PostgresStore.open(pg.url);
  await admin.sql.unsafe(`CREATE DATABASE ${name}`);
  await admin.close();
  const store = await PostgresStore.open(pg.url.replace(/\/postgres$/, `/${name}`));
  opened.push(store);
  return store;
}

storeContract([['postgres', openPostgres]]);
