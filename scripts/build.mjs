// Bundles the server into dist/main.js. Dependencies stay external (resolved from node_modules);
// fixtures imported as JSON are inlined, so the bundle needs no file reads to know them.
import { build } from 'esbuild';

await build({
  entryPoints: ['src/main.ts'],
  outfile: 'dist/main.js',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: true,
  // A larger young generation: the server allocates many short-lived objects per request.
  banner: { js: '#!/usr/bin/env -S node --max-semi-space-size=32' },
  logLevel: 'warning',
});
