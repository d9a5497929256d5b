// The published package as a partner gets it: `npm pack`, installed from the tarball into an empty
// directory, where its command starts and answers health, a small vitest suite
// (package/payout-failed.suite.ts) type-checks against the shipped declarations and passes, and a
// jest suite (package/payout-failed.jest.js) passes too.
import { execFileSync, spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const require = createRequire(import.meta.url);
/** The versions this repository tests with, so the install can come from npm's cache. */
const version = (name: string) => (require(`${name}/package.json`) as { version: string }).version;
const DEV_DEPENDENCIES = ['vitest', 'typescript', '@types/node', 'standardwebhooks'].map((n) => `${n}@${version(n)}`).concat('jest@30');

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
  expect(shipped).toEqual(expect.arrayContaining(['dist/main.js', 'dist/index.js', 'dist/client.js', 'dist/types/index.d.ts', 'scenarios/failures.yaml', 'xsd/MsgRjct.xsd']));
  expect(shipped.filter((f) => /^(src|test|scripts|bench)\/|\.map$/.test(f))).toEqual([]);

  const app = path.join(dir, 'app');
  execFileSync('mkdir', [app]);
  writeFileSync(path.join(app, 'package.json'), JSON.stringify({ name: 'partner-tests', private: true, type: 'module' }));
  writeFileSync(
    path.join(app, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true, skipLibCheck: true, types: ['node'] } }),
  );
  copyFileSync(path.join(ROOT, 'test/e2e/package/payout-failed.suite.ts'), path.join(app, 'payout-failed.test.ts'));
  copyFileSync(path.join(ROOT, 'test/e2e/package/payout-failed.jest.js'), path.join(app, 'payout-failed.jest.js'));
  run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', tarball, ...DEV_DEPENDENCIES], app);
}, 600_000);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

it('installs from the tarball: the command answers health, and partner suites (vitest, type-checked; jest) pass', async () => {
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
  const counts = (report: string) => JSON.parse(report.slice(report.indexOf('{'))) as { numPassedTests: number; numFailedTests: number };
  const vitest = run(path.join(app, 'node_modules/.bin/vitest'), ['run', 'payout-failed.test.ts', '--reporter=json'], app);
  expect(counts(vitest)).toMatchObject({ numPassedTests: 2, numFailedTests: 0 });
  const jest = run(process.execPath, ['--experimental-vm-modules', 'node_modules/jest/bin/jest.js', '--testMatch', '**/*.jest.js', '--json'], app);
  expect(counts(jest)).toMatchObject({ numPassedTests: 1, numFailedTests: 0 });
}, 300_000);
