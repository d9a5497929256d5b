// Bundles the server into dist/: main.js (the command), index.js (startSandbox and the control client),
// client.js (the control client alone), api.js (payments-sandbox/api, types only), matchers.js,
// vitest.js and jest.js (the request assertions), sharing chunks. CommonJS copies of the client,
// the matchers and the Jest setup go to dist/cjs/. Dependencies are bundled but those read at
// run time by path; fixtures imported as JSON are inlined, so the bundle needs no file reads to know them.
// The type declarations are built apart (build-types.mjs), when packing.
// The console's browser script (src/console/client/index.ts and what it imports, uPlot among them)
// is bundled apart, for browsers, into dist/console.js, which /console/console.js serves.
import { rmSync } from 'node:fs';
import { build } from 'esbuild';

// Start from an empty dist/: chunks of an earlier build would otherwise stay and be packed.
rmSync('dist', { recursive: true, force: true });

await build({
  entryPoints: ['src/console/client/index.ts'],
  outfile: 'dist/console.js',
  bundle: true,
  platform: 'browser',
  format: 'iife',
  target: ['chrome110', 'firefox115', 'safari16'],
  minify: true,
  legalComments: 'none',
  logLevel: 'warning',
});

await build({
  // api.js is empty: payments-sandbox/api is types (its declarations come from build-types.mjs).
  entryPoints: {
    main: 'src/main.ts',
    index: 'src/index.ts',
    client: 'src/client/index.ts',
    api: 'src/client/partner-api.ts',
    matchers: 'src/client/matchers.ts',
    vitest: 'src/client/vitest-setup.ts',
    jest: 'src/client/jest-setup.ts',
  },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // Dependencies are bundled too: resolving and reading hundreds of files from node_modules took
  // half of the start-up time. Those read at run time by path stay external.
  // vitest is the partner's own, which payments-sandbox/vitest registers the matchers with.
  external: ['swagger-ui-dist', 'undici', 'postgres', 'vitest'],
  sourcemap: true,
  // The command (`npx payments-sandbox`) runs with a plain `env node`: `env -S`, which could pass a
  // flag, is missing from BusyBox (Alpine images). `npm start`, the image and the bench add
  // --max-semi-space-size=16 (a young generation of a fixed size) and --no-allocation-site-pretenuring
  // (short-lived objects kept out of the old generation) themselves.
  // CommonJS dependencies inside the ESM bundle call require(): give them Node's.
  banner: { js: "#!/usr/bin/env node\nimport { createRequire as __sandboxRequire } from 'node:module';\nconst require = __sandboxRequire(import.meta.url);" },
  logLevel: 'warning',
});

// CommonJS copies of what a test suite loads without ES modules (Jest's default mode, require()): the
// control client, the matchers and the Jest setup, each bundled whole (CommonJS cannot share chunks).
await build({
  entryPoints: { client: 'src/client/index.ts', matchers: 'src/client/matchers.ts', jest: 'src/client/jest-setup.ts' },
  outdir: 'dist/cjs',
  outExtension: { '.js': '.cjs' },
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  sourcemap: true,
  logLevel: 'warning',
});
