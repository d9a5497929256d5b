import { defineConfig } from 'vitest/config';

// Three projects, by what a test needs:
// - unit: pure code beside it in src/;
// - http: the app over app.request(), in one process (no server, no browser);
// - e2e: real sandbox processes on port 0, the CLI, Chromium, the soak, and PostgreSQL (a
//   throwaway cluster per file).
// unit and http share their modules across files in a worker (isolate: false): every test builds
// its own app, clock and store, so no state is shared, and modules load once per worker instead
// of once per file. `npm test` runs all three; `npm run test:fast` only unit and http.
const E2E = [
  'test/e2e/**/*.test.ts',
  'test/soak/soak.test.ts',
  'test/fuzz/headers.test.ts',
  'test/store/hosted.test.ts',
  'test/store/stalled-database.test.ts',
  'src/store/postgres.contract.test.ts',
  'src/store/postgres.store.test.ts',
];

// The hostile-input harness by content type: its own step (npm run test:hostile), on a fixed budget.
const HOSTILE = ['test/hostile/formats.test.ts'];

export default defineConfig({
  test: {
    testTimeout: 20_000,
    // Two workers on the 2-core machines CI and developers have (the default would be one): the
    // end-to-end files spend most of their time waiting on real processes, and take half as long.
    maxWorkers: 2,
    hookTimeout: 30_000,
    pool: 'forks',
    // gc() in the tests that time a request's CPU: a collection of what earlier files left in a
    // shared worker is made before the request, not counted in it.
    execArgv: ['--expose-gc'],
    setupFiles: ['test/support/setup.ts'],
    // dist/main.js, which the tests that start a real process run.
    globalSetup: ['test/support/build.ts'],
    projects: [
      { extends: true, test: { name: 'unit', include: ['src/**/*.test.ts'], exclude: E2E, isolate: false } },
      { extends: true, test: { name: 'http', include: ['test/**/*.test.ts'], exclude: [...E2E, ...HOSTILE], isolate: false } },
      { extends: true, test: { name: 'e2e', include: E2E } },
      { extends: true, test: { name: 'hostile', include: HOSTILE, testTimeout: 60_000 } },
    ],
  },
});
