// docs/ci.md's recipes, each run doing what it says (test/ci-recipes.test.ts checks their names).
// The command-in-the-job recipe runs as written, in a partner's project where the package is
// installed. The container recipes need a Docker engine, which this machine does not run: each is run
// with the image's own command in place of the container (support/ci-image.ts), on a free port of
// 127.0.0.1 standing for the mapped port and the service's name, awaited by the image's own health
// check with the recipe's interval and retries; the Testcontainers snippets run as written against
// stand-ins of the Testcontainers modules that start that command (support/standins/), the Node one
// loaded as a setup module of this file (its hooks are this file's).
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { awaitHealthy, freePort, IMAGE, imageCommand, runImage, type ImageRun } from '../support/ci-image.js';
import { started } from '../support/standins/testcontainers.js';


const ROOT = path.resolve(import.meta.dirname, '../..');
const doc = readFileSync(path.join(ROOT, 'docs/ci.md'), 'utf8');
const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { name: string; version: string };
const TAG = `${pkg.name}:${pkg.version}`;
const execAsync = promisify(execFile);

/** The fenced block of a language in the section under a heading. */
function block(heading: string, lang: string): string {
  const start = doc.indexOf(`${heading}\n`);
  expect(start, heading).toBeGreaterThanOrEqual(0);
  return new RegExp('```' + lang + '\\n([\\s\\S]*?)```').exec(doc.slice(start))![1];
}

/** A docker-style `--health-interval 2s --health-retries 15` as the wait awaitHealthy does. */
function healthOptions(options: string): { intervalMs: number; retries: number } {
  const interval = /--health-interval (\d+)s/.exec(options);
  const retries = /--health-retries (\d+)/.exec(options);
  return { intervalMs: Number(interval?.[1] ?? 30) * 1000, retries: Number(retries?.[1] ?? 3) };
}

const dirs: string[] = [];
const groups: number[] = [];
const images: ImageRun[] = [];
afterEach(async () => {
  for (const pgid of groups.splice(0)) {
    try {
      process.kill(-pgid, 'SIGTERM');
    } catch {
      // Gone already.
    }
  }
  await Promise.all(images.splice(0).map((i) => i.stop()));
});
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/**
 * A partner's project: payments-sandbox a devDependency (this checkout, linked), a lockfile, and
 * `npm test` running a node:test file that creates a payout on SANDBOX_URL (or PAYMENTS_API_URL) with
 * SANDBOX_KEY (or PAYMENTS_API_KEY) and checks it in the key's journal through the control client.
 */
async function project(): Promise<string> {
  const dir = mkdtempSync(path.join(tmpdir(), 'ci-recipe-'));
  dirs.push(dir);
  writeFileSync(
    path.join(dir, 'package.json'),
    JSON.stringify({ name: 'partner-app', private: true, type: 'module', scripts: { test: 'node --test' }, devDependencies: { [pkg.name]: `file:${ROOT}` } }),
  );
  writeFileSync(
    path.join(dir, 'payout.test.mjs'),
    `import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SandboxClient } from 'payments-sandbox/client';

test('a payout on the job key', async () => {
  const t = new SandboxClient(process.env.SANDBOX_URL ?? process.env.PAYMENTS_API_URL).tenant(process.env.SANDBOX_KEY ?? process.env.PAYMENTS_API_KEY);
  const body = JSON.stringify({ reference: 'ci-' + Date.now(), amount: 2500, currency: 'NGN', destination: { accountNumber: '0123456789', accountName: 'John Doe', bankCode: '058' } });
  const res = await t.fetch('/api/v1/partners/payouts', { method: 'POST', body });
  assert.equal(res.status, 201);
  assert.equal((await t.requests({ method: 'POST', status: 201 })).data.length >= 1, true);
});
`,
  );
  await execAsync('npm', ['install', '--package-lock-only', '--offline', '--ignore-scripts', '--no-audit', '--no-fund'], { cwd: dir });
  return dir;
}

/** One shell step as a CI runner runs it (bash -e), in a process group of its own, so a server it
 * leaves in the background is stopped after the test. */
function step(script: string, cwd: string, env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const proc = spawn('bash', ['-ec', script], {
      cwd,
      detached: true,
      env: { ...process.env, ...env, npm_config_offline: 'true', npm_config_audit: 'false', npm_config_fund: 'false', npm_config_yes: 'true' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    groups.push(proc.pid!);
    let output = '';
    proc.stdout.on('data', (d) => (output += d));
    proc.stderr.on('data', (d) => (output += d));
    // 'exit', not 'close': a server started with & keeps the pipes open.
    proc.on('exit', (code) => resolve({ code, output }));
  });
}

async function steps(scripts: string[], cwd: string, env: Record<string, string>): Promise<void> {
  for (const script of scripts) {
    const r = await step(script, cwd, env);
    expect(r.code, `${script}\n${r.output}`).toBe(0);
  }
}

/** The Node Testcontainers snippet, loaded as a setup module of this file, so its hooks are this file's. */
async function loadNodeSnippet(): Promise<{ use(): { sandbox: { health(): Promise<{ status: string }> } } }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'ci-recipe-tc-'));
  dirs.push(dir);
  const file = path.join(dir, 'sandbox.setup.ts');
  // Its hooks are vitest's (globals in the recipe); its two packages resolve to the stand-in and this
  // checkout's client, as an install would make them; the last line hands its client to the test.
  const code = block('### Node (testcontainers)', 'ts')
    .replace("from 'testcontainers'", `from '${path.join(ROOT, 'test/support/standins/testcontainers.ts')}'`)
    .replace(`from '${pkg.name}/client'`, `from '${path.join(ROOT, 'src/client/index.ts')}'`);
  writeFileSync(file, `import { afterAll, beforeAll } from 'vitest';\n${code}\nexport const use = () => ({ sandbox });\n`);
  return import(/* @vite-ignore */ file);
}
const nodeSnippet = await loadNodeSnippet();

const clockOf = async (url: string, key: string) =>
  ((await (await fetch(`${url}/_sandbox/clock`, { headers: { authorization: `Bearer ${key}` } })).json()) as { now: string }).now;

describe('docs/ci.md, each recipe run', () => {
  it('GitHub Actions, the command in the job: as written, the port apart', async () => {
    const port = await freePort();
    // The only change: a free port for 4010, which another sandbox on this machine may hold.
    const wf = parse(block('## GitHub Actions: the command in the job', 'yaml').replaceAll('4010', String(port)));
    const job = wf.jobs.integration as { env: Record<string, string>; steps: { run?: string; uses?: string }[] };
    const env = Object.fromEntries(Object.entries(job.env).map(([k, v]) => [k, v.replace(/\$\{\{ github\.run_(id|attempt) \}\}/g, '1')]));
    expect(job.steps.filter((s) => s.uses).map((s) => s.uses)).toEqual(['actions/checkout@v4', 'actions/setup-node@v4']);
    const cwd = await project();
    await steps(
      job.steps.flatMap((s) => (s.run ? [s.run] : [])),
      cwd,
      env,
    );
    expect(env.SANDBOX_KEY).toBe('sk_test_ci_1_1');
    expect((await clockOf(env.SANDBOX_URL, env.SANDBOX_KEY)).slice(0, 10)).toBe('2030-01-01');
  }, 120_000);

  it('GitHub Actions, a service container (needs Docker): the image’s command with the service’s environment, awaited healthy, then the steps', async () => {
    const wf = parse(block('## GitHub Actions: a service container', 'yaml'));
    const job = wf.jobs.integration as { services: { sandbox: { image: string; ports: string[]; env: Record<string, string>; options: string } }; env: Record<string, string>; steps: { run?: string }[] };
    const service = job.services.sandbox;
    expect(service.image.endsWith(`/${TAG}`)).toBe(true);
    const [hostPort, containerPort] = service.ports[0].split(':').map(Number);
    expect(containerPort).toBe(IMAGE.port);
    const port = await freePort();
    const image = runImage({ port, env: service.env });
    images.push(image);
    await awaitHealthy(image, healthOptions(service.options));
    const env = Object.fromEntries(
      Object.entries(job.env).map(([k, v]) => [k, v.replace(`localhost:${hostPort}`, `127.0.0.1:${port}`).replace(/\$\{\{ github\.run_(id|attempt) \}\}/g, '2')]),
    );
    await steps(
      job.steps.flatMap((s) => (s.run ? [s.run] : [])),
      await project(),
      env,
    );
    expect(((await (await fetch(`${env.SANDBOX_URL}/_sandbox/health`)).json()) as { seed: number }).seed).toBe(Number(service.env.SANDBOX_SEED));
  }, 120_000);

  it('GitLab CI, a service (needs Docker): the image’s command with the service’s variables, its alias standing for 127.0.0.1, then the script', async () => {
    const ci = parse(block('## GitLab CI: a service', 'yaml'));
    const job = ci.integration as { services: { name: string; alias: string; variables: Record<string, string> }[]; variables: Record<string, string>; script: string[] };
    const [service] = job.services;
    expect(service.name.endsWith(`/${TAG}`)).toBe(true);
    const port = await freePort();
    images.push(runImage({ port, env: service.variables }));
    const env = Object.fromEntries(
      Object.entries(job.variables).map(([k, v]) => [k, v.replace(`${service.alias}:${IMAGE.port}`, `127.0.0.1:${port}`).replace('${CI_JOB_ID}', '3')]),
    );
    // GitLab runs the script's lines in one shell, stopping at the first failure; the first waits for the service.
    await steps([job.script.join('\n')], await project(), env);
    expect(env.SANDBOX_KEY).toBe('sk_test_ci_3');
  }, 120_000);

  it('Docker Compose (needs Docker): the command on the volume, the app once healthy, and the tenant kept across a restart', async () => {
    const compose = parse(block('## Docker Compose, for local use', 'yaml'));
    const sandbox = compose.services.sandbox as { command: string[]; environment: Record<string, string>; volumes: string[] };
    const app = compose.services.app as { environment: Record<string, string> };
    expect(sandbox.command.slice(0, IMAGE.cmd.length)).toEqual(IMAGE.cmd);
    const volume = mkdtempSync(path.join(tmpdir(), 'ci-recipe-volume-'));
    dirs.push(volume);
    const [, mount] = sandbox.volumes[0].split(':');
    const args = sandbox.command.slice(IMAGE.cmd.length).map((a) => (a === mount ? volume : a));
    const port = await freePort();
    const up = () => {
      const run = runImage({ port, args, env: sandbox.environment });
      images.push(run);
      return run;
    };
    const first = up();
    // depends_on: condition: service_healthy, with the image's own check.
    await awaitHealthy(first, { intervalMs: 200, retries: 50 });
    const appEnv: Record<string, string> = { ...app.environment, PAYMENTS_API_URL: app.environment.PAYMENTS_API_URL.replace(`sandbox:${IMAGE.port}`, `127.0.0.1:${port}`) };
    const cwd = await project();
    await steps(['npm ci', 'npm test'], cwd, appEnv);
    // docker compose restart sandbox: the tenants are on the volume.
    await first.stop();
    await awaitHealthy(up(), { intervalMs: 200, retries: 50 });
    const journal = await fetch(`http://127.0.0.1:${port}/_sandbox/resources?kind=payouts`, { headers: { authorization: `Bearer ${appEnv.PAYMENTS_API_KEY}` } });
    expect(((await journal.json()) as { counts: { payouts: number } }).counts.payouts).toBe(1);
  }, 120_000);

  it('Testcontainers for Node (needs Docker): the snippet as written, against the stand-in: the image on a free port, awaited healthy, reached by the client', async () => {
    expect((await nodeSnippet.use().sandbox.health()).status).toBe('ok');
    expect(started.map(({ image, exposed, wait }) => ({ image, exposed, path: wait?.path, status: wait?.status }))).toEqual([
      { image: expect.stringMatching(new RegExp(`/${TAG.replaceAll('.', '\\.')}$`)), exposed: [IMAGE.port], path: '/_sandbox/health', status: 200 },
    ]);
  });

  it('Testcontainers for Python (needs Docker): the fixture as written, against stand-ins of testcontainers and pytest', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'ci-recipe-py-'));
    dirs.push(dir);
    const image = /DockerContainer\("([^"]+)"\)/.exec(block('### Python (testcontainers, pytest)', 'python'))![1];
    writeFileSync(path.join(dir, 'recipe.py'), block('### Python (testcontainers, pytest)', 'python'));
    writeFileSync(
      path.join(dir, 'driver.py'),
      `import json, urllib.request
from recipe import sandbox_url

fixture = sandbox_url()  # as pytest runs a session fixture: to its yield, then to its end
url = next(fixture)
with urllib.request.urlopen(url + "/_sandbox/health") as r:
    print(json.dumps({"url": url, "health": json.load(r)}))
next(fixture, None)
`,
    );
    const { stdout } = await execAsync('python3', ['driver.py'], {
      cwd: dir,
      env: {
        ...process.env,
        PYTHONPATH: path.join(ROOT, 'test/support/standins/python'),
        STANDIN_IMAGE: image,
        STANDIN_IMAGE_PORT: String(IMAGE.port),
        STANDIN_COMMAND: JSON.stringify(imageCommand()),
      },
      timeout: 60_000,
    });
    const out = JSON.parse(stdout) as { url: string; health: { status: string } };
    expect(out.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(out.health.status).toBe('ok');
    expect(image.endsWith(`/${TAG}`)).toBe(true);
  }, 60_000);

  it('Testcontainers for Java (needs Docker and a JDK): the class as written, compiled against stand-ins and run', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'ci-recipe-java-'));
    dirs.push(dir);
    const code = block('### Java (Testcontainers, JUnit 5)', 'java');
    const image = /DockerImageName\.parse\("([^"]+)"\)/.exec(code)![1];
    writeFileSync(path.join(dir, 'PayoutsIT.java'), code);
    // The JUnit extension's part: start the @Container field, run the @Test methods, stop it.
    writeFileSync(
      path.join(dir, 'Driver.java'),
      `public class Driver {
  public static void main(String[] args) throws Exception {
    PayoutsIT.SANDBOX.start();
    try {
      java.net.HttpURLConnection c = (java.net.HttpURLConnection) new java.net.URL(PayoutsIT.sandboxUrl() + "/_sandbox/health").openConnection();
      new PayoutsIT().createsAPayout();
      System.out.println(PayoutsIT.sandboxUrl() + " " + c.getResponseCode());
    } finally {
      PayoutsIT.SANDBOX.stop();
    }
  }
}
`,
    );
    const standins = path.join(ROOT, 'test/support/standins/java');
    const sources = (await execAsync('find', [standins, '-name', '*.java'])).stdout.trim().split('\n');
    await execAsync('javac', ['-d', path.join(dir, 'classes'), ...sources, path.join(dir, 'PayoutsIT.java'), path.join(dir, 'Driver.java')], { timeout: 120_000 });
    const { stdout } = await execAsync('java', ['-cp', path.join(dir, 'classes'), 'Driver'], {
      env: { ...process.env, STANDIN_IMAGE: image, STANDIN_IMAGE_PORT: String(IMAGE.port), STANDIN_COMMAND: imageCommand().join('\n') },
      timeout: 60_000,
    });
    expect(stdout.trim()).toMatch(/^http:\/\/127\.0\.0\.1:\d+ 200$/);
    expect(image.endsWith(`/${TAG}`)).toBe(true);
  }, 180_000);
});
