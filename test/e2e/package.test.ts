// The published package as a partner gets it: `npm pack`, installed from the tarball into an empty
// directory, where its command starts and answers health, and partner suites run against it:
// - package/payout-failed.suite.ts, package/kit.suite.ts and the README's test-suite example under
//   Vitest, type-checked (tsc --strict)
//   against the shipped declarations: the partner API typed by payments-sandbox/api through
//   openapi-fetch, startSandbox({ clock }), the webhook inbox and the request assertions;
// - package/payout-failed.jest.js under Jest's ES module support; and, in a CommonJS project set up
//   with docs/ci.md's Jest files as written (the command started with --clock by the global setup),
//   the doc's own test and package/kit.jest.cjs under Jest in its default mode, the latter
//   type-checked too (checkJs).
// Neither kit suite holds an `any`.
import { execFileSync, spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const require = createRequire(import.meta.url);
/** The versions this repository tests with, so the install can come from npm's cache. */
const version = (name: string) => (require(`${name}/package.json`) as { version: string }).version;
const DEV_DEPENDENCIES = ['vitest', 'typescript', '@types/node', 'standardwebhooks']
  .map((n) => `${n}@${version(n)}`)
  .concat('jest@30', '@types/jest@30', 'openapi-fetch@0.17');
/** The files of a section of docs/ci.md: each js block whose first line is `// <file name>`. */
function docFiles(heading: string): Record<string, string> {
  const doc = readFileSync(path.join(ROOT, 'docs/ci.md'), 'utf8');
  const start = doc.indexOf(`${heading}\n`);
  expect(start, heading).toBeGreaterThanOrEqual(0);
  const section = doc.slice(start, doc.indexOf('\n## ', start + 1));
  return Object.fromEntries([...section.matchAll(/```js\n\/\/ (\S+)\n([\s\S]*?)```/g)].map((m) => [m[1], m[2]]));
}
/** A type that is any, in TypeScript or in JSDoc: (x: any), <any>, as any, any[], {any}. */
const ANY = /(:\s*any\b|<any\b|\bas any\b|\bany\[\]|\{any\}|,\s*any\s*[>,)])/;

let dir: string;
let tarball: string;

function run(file: string, args: string[], cwd: string): string {
  try {
    return execFileSync(file, args, { cwd, encoding: 'utf8', stdio: 'pipe', env: { ...process.env, CI: 'true', npm_config_audit: 'false', npm_config_fund: 'false' } });
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string; message: string };
    throw new Error(`${file} ${args.join(' ')} failed in ${cwd}:\n${e.stdout ?? ''}\n${e.stderr ?? e.message}`);
  }
}

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'sandbox-package-'));
  // What prepack does, but dist/*.js as the global setup built it: rebuilding it here could change it
  // under the other end-to-end tests, which run it at the same time.
  run(process.execPath, ['scripts/build-types.mjs'], ROOT);
  const [packed] = JSON.parse(run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], ROOT)) as { filename: string; files: { path: string }[] }[];
  tarball = path.join(dir, packed.filename);
  const shipped = packed.files.map((f) => f.path);
  expect(shipped).toEqual(
    expect.arrayContaining([
      'dist/main.js',
      'dist/index.js',
      'dist/client.js',
      'dist/api.js',
      'dist/matchers.js',
      'dist/vitest.js',
      'dist/jest.js',
      'dist/cjs/client.cjs',
      'dist/cjs/matchers.cjs',
      'dist/cjs/jest.cjs',
      'dist/types/index.d.ts',
      'dist/types/client/partner-api.generated.d.ts',
      'scenarios/failures.yaml',
      'xsd/MsgRjct.xsd',
      'docs/ci.md',
    ]),
  );
  expect(shipped.filter((f) => /^(src|test|scripts|bench)\/|\.map$/.test(f))).toEqual([]);
  // The README's and the docs' relative links lead to shipped files, but the bench's and the console's
  // screenshots (docs/console/, for readers of the repository: 1.7 MB the package does without).
  expect(shipped.filter((f) => f.startsWith('docs/console/'))).toEqual([]);
  const dangling = ['README.md', ...shipped.filter((f) => /^docs\/.*\.md$/.test(f))].flatMap((doc) =>
    [...readFileSync(path.join(ROOT, doc), 'utf8').matchAll(/\]\(((?!https?:|#|mailto:)[^)#\s]+)(#[^)]*)?\)/g)]
      .map((m) => path.posix.normalize(path.posix.join(path.posix.dirname(doc), m[1])))
      .filter((target) => !target.startsWith('bench/') && !target.startsWith('docs/console/') && !shipped.some((f) => f === target || f.startsWith(`${target.replace(/\/$/, '')}/`)))
      .map((target) => `${doc} → ${target}`),
  );
  expect(dangling).toEqual([]);

  const app = path.join(dir, 'app');
  execFileSync('mkdir', [app]);
  writeFileSync(path.join(app, 'package.json'), JSON.stringify({ name: 'partner-tests', private: true, type: 'module' }));
  const compilerOptions = { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true, skipLibCheck: true };
  writeFileSync(path.join(app, 'tsconfig.json'), JSON.stringify({ compilerOptions: { ...compilerOptions, types: ['node'] }, include: ['*.test.ts'] }));
  copyFileSync(path.join(ROOT, 'test/e2e/package/payout-failed.suite.ts'), path.join(app, 'payout-failed.test.ts'));
  copyFileSync(path.join(ROOT, 'test/e2e/package/payout-failed.jest.js'), path.join(app, 'payout-failed.jest.js'));
  copyFileSync(path.join(ROOT, 'test/e2e/package/kit.suite.ts'), path.join(app, 'kit.test.ts'));
  // The README's test-suite example, as written.
  const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## From a test suite'));
  writeFileSync(path.join(app, 'readme.test.ts'), /```ts\n([\s\S]*?)```/.exec(section)![1]);
  // A CommonJS project beside it (no "type"), set up as docs/ci.md says, with the kit's Jest suite.
  const cjs = path.join(app, 'cjs');
  mkdirSync(cjs);
  writeFileSync(path.join(cjs, 'package.json'), JSON.stringify({ name: 'partner-tests-cjs', private: true }));
  const jestFiles = docFiles('## Jest in its default CommonJS mode');
  expect(Object.keys(jestFiles)).toEqual(['jest.config.cjs', 'sandbox.setup.cjs', 'sandbox.teardown.cjs', 'payouts.test.js']);
  for (const [name, text] of Object.entries(jestFiles)) writeFileSync(path.join(cjs, name), text);
  copyFileSync(path.join(ROOT, 'test/e2e/package/kit.jest.cjs'), path.join(cjs, 'kit.test.cjs'));
  writeFileSync(
    path.join(cjs, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { ...compilerOptions, allowJs: true, checkJs: true, types: ['node', 'jest'] }, include: ['kit.test.cjs'] }),
  );
  run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', tarball, ...DEV_DEPENDENCIES], app);
}, 600_000);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

it('installs from the tarball: the command answers health, and partner suites (vitest, type-checked; jest as ES modules and as CommonJS) pass', async () => {
  const app = path.join(dir, 'app');
  const manifest = JSON.parse(readFileSync(path.join(app, 'node_modules/payments-sandbox/package.json'), 'utf8'));
  expect(manifest.private).toBeUndefined();

  // In a group of its own, so that npx and the server it starts stop together.
  const proc = spawn('npx', ['payments-sandbox', '--port', '0'], { cwd: app, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  try {
    let out = '';
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`did not start:\n${out}`)), 30_000);
      proc.stdout.on('data', (d) => {
        out += d;
        const m = /listening on (http:\/\/\S+)/.exec(out);
        if (m) resolve(m[1]), clearTimeout(timer);
      });
      proc.stderr.on('data', (d) => (out += d));
      proc.on('exit', () => reject(new Error(`exited:\n${out}`)));
    });
    const health = await fetch(`${url}/_sandbox/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: 'ok', store: 'memory' });
  } finally {
    if (proc.exitCode === null && proc.signalCode === null) {
      const exited = new Promise((resolve) => proc.once('exit', resolve));
      process.kill(-proc.pid!, 'SIGTERM');
      await exited;
    }
  }

  run(path.join(app, 'node_modules/.bin/tsc'), ['-p', '.'], app);
  run(path.join(app, 'node_modules/.bin/tsc'), ['-p', '.'], path.join(app, 'cjs'));
  for (const f of ['kit.test.ts', 'readme.test.ts', 'cjs/kit.test.cjs']) expect(readFileSync(path.join(app, f), 'utf8'), f).not.toMatch(ANY);
  const counts = (report: string) => JSON.parse(report.slice(report.indexOf('{'))) as { numPassedTests: number; numFailedTests: number };
  const vitest = run(path.join(app, 'node_modules/.bin/vitest'), ['run', 'payout-failed.test.ts', 'kit.test.ts', 'readme.test.ts', '--reporter=json'], app);
  expect(counts(vitest)).toMatchObject({ numPassedTests: 6, numFailedTests: 0 });
  const jest = run(process.execPath, ['--experimental-vm-modules', 'node_modules/jest/bin/jest.js', '--testMatch', '**/*.jest.js', '--json'], app);
  expect(counts(jest)).toMatchObject({ numPassedTests: 1, numFailedTests: 0 });
  // Jest as it runs with no option, in the CommonJS project: its config, the doc's test and the kit's.
  const cjs = run(process.execPath, ['../node_modules/jest/bin/jest.js', '--json'], path.join(app, 'cjs'));
  expect(counts(cjs)).toMatchObject({ numPassedTests: 2, numFailedTests: 0 });
}, 300_000);
