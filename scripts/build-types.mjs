// Type declarations of the package's entries (src/index.ts, src/client/index.ts, src/client/partner-api.ts)
// into dist/types/, with the TypeScript compiler; the partner API's paths are generated afresh from the
// document the built command serves (api-types.mjs), so the package's types are the document's. Only the files those declarations reach are written: starting from each
// entry, a file's .d.ts is emitted and the relative imports in it are followed, so the server's
// internals that no public type names are not shipped (and need not be declarable).
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { apiTypes, servedDocument } from './api-types.mjs';

const ROOT = path.resolve(import.meta.dirname, '..');
const SRC = path.join(ROOT, 'src');
const OUT = path.join(ROOT, 'dist/types');
const ENTRIES = ['index.ts', 'client/index.ts', 'client/partner-api.ts', 'client/matchers.ts', 'client/vitest-setup.ts', 'client/jest-setup.ts'].map((f) =>
  path.join(SRC, f),
);

const { config, error } = ts.readConfigFile(path.join(ROOT, 'tsconfig.json'), ts.sys.readFile);
if (error) throw new Error(ts.flattenDiagnosticMessageText(error.messageText, '\n'));
const { options } = ts.parseJsonConfigFileContent(config, ts.sys, ROOT);
const program = ts.createProgram({
  rootNames: ENTRIES,
  options: { ...options, noEmit: false, declaration: true, emitDeclarationOnly: true, declarationMap: false, rootDir: SRC, outDir: OUT },
});

rmSync(OUT, { recursive: true, force: true });
const format = (diags) => ts.formatDiagnostics(diags, { getCanonicalFileName: (f) => f, getCurrentDirectory: () => ROOT, getNewLine: () => '\n' });
const problems = [];
const seen = new Set();
const pending = [...ENTRIES];
while (pending.length > 0) {
  const file = pending.pop();
  if (seen.has(file)) continue;
  seen.add(file);
  const source = program.getSourceFile(file);
  if (!source) throw new Error(`build-types: ${path.relative(ROOT, file)} is not part of the program`);
  problems.push(...program.getSemanticDiagnostics(source), ...program.getDeclarationDiagnostics(source));
  program.emit(source, (name, text) => {
    mkdirSync(path.dirname(name), { recursive: true });
    writeFileSync(name, text);
    for (const [, spec] of text.matchAll(/(?:from\s+|import\()['"](\.{1,2}\/[^'"]+)['"]/g)) {
      const target = path.resolve(path.dirname(file), spec.replace(/\.js$/, '.ts'));
      if (!target.startsWith(SRC + path.sep)) throw new Error(`build-types: ${path.relative(ROOT, file)} names ${spec}, outside src/, in its declarations`);
      pending.push(target);
    }
  });
}
if (problems.length > 0) {
  console.error(format(problems));
  process.exit(1);
}
// The generated paths, components and operations, from the served document (dist/main.js openapi).
writeFileSync(path.join(OUT, 'client/partner-api.generated.d.ts'), await apiTypes(servedDocument()));
