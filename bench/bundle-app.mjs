// Bundles pieces of a checkout's sources (TypeScript, with their packages) into one ES module and
// imports it, so a script can run another checkout's app in process without building it.
// `names` maps each export to its file under src/, e.g. { createApp: 'app.ts' }.
import { mkdtempSync, rmSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';

export async function bundleApp(src, names, { root = path.join(src, '..'), prefix = '.bundle-' } = {}) {
  // Written into the checkout's dist/, where the server finds its bundled scenarios and fixtures.
  const out = mkdtempSync(path.join(src, '..', 'dist', prefix));
  await build({
    stdin: {
      contents: Object.entries(names)
        .map(([name, file]) => `export { ${name} } from ${JSON.stringify(path.join(src, file))};`)
        .join('\n'),
      resolveDir: root,
      loader: 'ts',
    },
    nodePaths: [path.join(src, '..', 'node_modules'), path.join(root, 'node_modules')],
    outfile: path.join(out, 'app.mjs'),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // CommonJS dependencies bundled into ESM call require() for Node's own modules.
    banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
    logLevel: 'error',
  });
  try {
    return await import(pathToFileURL(path.join(out, 'app.mjs')).href);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}
