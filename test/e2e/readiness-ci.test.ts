// docs/readiness.md: the CI steps run as written, against a real sandbox: the report command writes
// the JUnit file and fails the step (exit 1) while the key is not ready; the CLI's other formats.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { startServer, type RunningServer } from '../support/server.js';

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '../..');
const doc = readFileSync(path.join(ROOT, 'docs/readiness.md'), 'utf8');
const KEY = 'sk_test_readiness_ci';

/** The YAML block marked `# readiness: <name>`. */
function recipe(name: string): unknown {
  const m = new RegExp('```yaml\\n# readiness: ' + name + '\\n([\\s\\S]*?)```').exec(doc);
  expect(m, `docs/readiness.md has the ${name} recipe`).not.toBeNull();
  return parse(m![1]);
}

/** A project folder where `npx payments-sandbox` is this checkout's built CLI, as after `npm install --save-dev payments-sandbox`. */
function project(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'readiness-ci-'));
  mkdirSync(path.join(dir, 'node_modules/.bin'), { recursive: true });
  symlinkSync(ROOT, path.join(dir, 'node_modules/payments-sandbox'));
  // npm links the package's bin executable; the built file has its #! line, and is run through it.
  writeFileSync(path.join(dir, 'node_modules/.bin/payments-sandbox'), `#!/bin/sh\nexec "${process.execPath}" "${path.join(ROOT, 'dist/main.js')}" "$@"\n`, { mode: 0o755 });
  return dir;
}

/** Run one shell line of a recipe as the CI runner would (bash -e), with the sandbox's URL and key. */
async function step(line: string, cwd: string, url: string): Promise<{ code: number; stderr: string }> {
  try {
    const r = await run('bash', ['-ec', line], { cwd, env: { ...process.env, SANDBOX_URL: url, SANDBOX_KEY: KEY, npm_config_yes: 'true', npm_config_offline: 'true' } });
    return { code: 0, stderr: r.stderr };
  } catch (err) {
    return { code: (err as { code: number }).code, stderr: (err as { stderr: string }).stderr };
  }
}

describe('docs/readiness.md in CI', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer();
    // A key that met one failure: not ready, since its other required checks never ran.
    await fetch(`${server.url}/api/v1/partners/payouts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ reference: 'ci-1', amount: 100, currency: 'NGN', destination: { accountNumber: '0123456789', accountName: 'John Doe', bankCode: '058' } }),
    });
  });
  afterAll(() => server?.stop());

  it('GitHub Actions: the step writes readiness.xml and fails, and the artifact step keeps it always', async () => {
    const steps = recipe('github-actions') as { name: string; run?: string; if?: string; uses?: string; with?: { path: string } }[];
    const [report, keep] = steps;
    expect(keep).toMatchObject({ if: 'always()', uses: 'actions/upload-artifact@v4', with: { name: 'readiness', path: 'readiness.xml' } });
    const cwd = project();
    const r = await step(report.run!, cwd, server.url);
    expect(r.code, r.stderr).toBe(1);
    const xml = readFileSync(path.join(cwd, keep.with!.path), 'utf8');
    expect(xml).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<testsuite name="payments-sandbox readiness" tests="20" failures="0" errors="0" skipped="\d+"/);
    expect(xml).toContain('<testcase classname="readiness" name="retry-reuses-reference" time="0">');
  });

  it('GitLab CI: the script writes the JUnit report the artifacts keep', async () => {
    const job = (recipe('gitlab-ci') as { readiness: { script: string[]; artifacts: { when: string; reports: { junit: string } } } }).readiness;
    expect(job.artifacts).toEqual({ when: 'always', reports: { junit: 'readiness.xml' } });
    const cwd = project();
    const r = await step(job.script.join('\n'), cwd, server.url);
    expect(r.code, r.stderr).toBe(1);
    expect(readFileSync(path.join(cwd, job.artifacts.reports.junit), 'utf8')).toContain('name="webhook-signatures-verified"');
  });

  it('prints JSON by default and Markdown on request, from SANDBOX_URL and SANDBOX_KEY', async () => {
    const cwd = project();
    const env = { ...process.env, SANDBOX_URL: server.url, SANDBOX_KEY: KEY };
    const json = await run(process.execPath, [path.join(ROOT, 'dist/main.js'), 'report'], { cwd, env }).catch((e: { code: number; stdout: string }) => e);
    expect((json as { code?: number }).code).toBe(1);
    const body = JSON.parse((json as { stdout: string }).stdout) as { ready: boolean; checks: { id: string; status: string }[] };
    expect(body.ready).toBe(false);
    expect(body.checks.find((c) => c.id === 'handles-payout.failed')?.status).toBe('not_exercised');
    const md = await run(process.execPath, [path.join(ROOT, 'dist/main.js'), 'report', '--format', 'markdown'], { cwd, env }).catch((e: { stdout: string }) => e);
    expect((md as { stdout: string }).stdout).toMatch(/^# Readiness report: not ready for live\n/);
    // Written from the one JSON answer, the text is the sandbox's own Markdown and JUnit, but for the instant it was made.
    const at = (text: string) => text.trimEnd().replace(/\d{4}-\d\d-\d\dT[\d:.]+Z?/g, 'AT');
    const served = async (format: string) => at(await (await fetch(`${server.url}/_sandbox/report?format=${format}`, { headers: { authorization: `Bearer ${KEY}` } })).text());
    expect(at((md as { stdout: string }).stdout)).toBe(await served('markdown'));
    const junit = await run(process.execPath, [path.join(ROOT, 'dist/main.js'), 'report', '--format', 'junit'], { cwd, env }).catch((e: { stdout: string }) => e);
    expect(at((junit as { stdout: string }).stdout)).toBe(await served('junit'));
    const bad = await run(process.execPath, [path.join(ROOT, 'dist/main.js'), 'report', '--format', 'html'], { cwd, env }).catch((e: { code: number; stderr: string }) => e);
    expect((bad as { code: number }).code).toBe(1);
    expect((bad as { stderr: string }).stderr).toContain("--format is json, markdown or junit, not 'html'");
  });
});
