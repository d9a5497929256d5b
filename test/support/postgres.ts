// A throwaway PostgreSQL server for tests (scripts/postgres-cluster.mjs, shared with the bench).
export { postgresBin, startPostgres, type TestPostgres } from '../../scripts/postgres-cluster.mjs';
