// The built server: `validate FILE`, an option it does not take, and a start refused on a bad --scenario file.
import { spawnSync } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../support/server.js';

const run = (...args: string[]) => spawnSync(process.execPath, ['dist/main.js', ...args], { encoding: 'utf8', timeout: 10_000 });

async function badFile(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'scenario-'));
  const file = path.join(dir, 'broken.yaml');
  await writeFile(file, 'quote:\n  ttl: 0\nfaults:\n  - fault: { kind: error, status: 418 }\n');
  return file;
}

let servers: RunningServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.stop('SIGKILL')));
  servers = [];
});

describe('payments-sandbox with an option it does not take', () => {
  it('names the option and prints the options it takes, exiting 1', () => {
    const res = run('--tick-ms', '50');
    expect(res.status).toBe(1);
    expect(res.stderr).toMatch(/^payments-sandbox: Unknown option '--tick-ms': see the options below\.\n\nUsage: payments-sandbox /);
    expect(res.stderr).toContain('SANDBOX_TICK_MS=N');
    expect(res.stderr).not.toContain('positional argument');
    const missing = run('--port');
    expect(missing.stderr).toMatch(/^payments-sandbox: Option '--port <value>' argument missing: see the options below\.\n\nUsage:/);
  });
});

describe('payments-sandbox validate', () => {
  it('prints one OK line and exits 0 for a bundled file', () => {
    const res = run('validate', 'scenarios/flaky-network.yaml');
    expect(res.status).toBe(0);
    expect(res.stdout).toBe("OK scenarios/flaky-network.yaml: scenario 'flaky-network'\n");
  });

  it('lists each problem with its path and exits 1', async () => {
    const file = await badFile();
    const res = run('validate', file);
    expect(res.status).toBe(1);
    expect(res.stderr).toBe(
      `${file} is not a valid scenario:\n  quote.ttl: must be at least 1\n  faults[0].fault.status: no error of the API is answered with 418: give a code (its status follows), or 429, 500, 502, 503 or 504\n`,
    );
  });

  it('names what is wrong inside an either/or field', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'scenario-'));
    const file = path.join(dir, 'unions.yaml');
    await writeFile(file, 'faults:\n  - sequence: [{ kind: error, status: 418 }]\n  - fault: { kind: latency, ms: { min: 1 } }\n');
    const res = run('validate', file);
    expect(res.status).toBe(1);
    expect(res.stderr).toBe(
      `${file} is not a valid scenario:\n  faults[0].sequence[0].status: no error of the API is answered with 418: give a code (its status follows), or 429, 500, 502, 503 or 504\n  faults[1].fault.ms.max: is required (expected number)\n`,
    );
  });
});

describe('--scenario at start', () => {
  it('refuses to start on a bad file, naming the file and the path', async () => {
    const file = await badFile();
    const res = run('--port', '0', '--scenario', file);
    expect(res.status).toBe(1);
    expect(res.stderr).toBe(
      `payments-sandbox: scenario ${file} refused: at quote.ttl: must be at least 1; at faults[0].fault.status: no error of the API is answered with 418: give a code (its status follows), or 429, 500, 502, 503 or 504\n`,
    );
  });

  it('serves the bundled scenarios from the built server and uses the chosen default', async () => {
    const s = await startServer(['--scenario', 'failures']);
    servers.push(s);
    expect(s.output()).toContain('scenario: failures');
    const headers = { authorization: 'Bearer sk_test_proc0000000000000000000000000001' };
    const list = await (await fetch(`${s.url}/_sandbox/scenarios`, { headers })).json();
    expect(list.data).toHaveLength(8);
    const current = await (await fetch(`${s.url}/_sandbox/scenario`, { headers })).json();
    expect(current).toMatchObject({ name: 'failures', source: 'start', origin: 'bundled' });
  });
});

describe('webhook targets at start', () => {
  const WARNING = 'not a loopback address, and sending webhooks to any address';
  const started = async (args: string[]) => {
    const s = await startServer(args);
    servers.push(s);
    // The warning follows the banner on stderr; health answers once both are out.
    expect((await fetch(`${s.url.replace('0.0.0.0', '127.0.0.1')}/_sandbox/health`)).status).toBe(200);
    await new Promise((r) => setTimeout(r, 100));
    return s.output();
  };

  it('warns on --host 0.0.0.0 without --webhook-targets, naming what public would refuse', async () => {
    const out = await started(['--host', '0.0.0.0']);
    expect(out).toContain(`warning: listening on 0.0.0.0, ${WARNING}`);
    expect(out).toContain('169.254.169.254');
  });

  it('keeps quiet with --webhook-targets any given, and on a loopback host', async () => {
    expect(await started(['--host', '0.0.0.0', '--webhook-targets', 'any'])).not.toContain(WARNING);
    expect(await started([])).not.toContain(WARNING);
  });
});

describe('DATABASE_URL in the environment', () => {
  it('is left to the application under test: the sandbox starts on its memory store and says how to choose PostgreSQL', async () => {
    // A MySQL URL, as a CI job may set for its own application: the sandbox neither refuses to start nor reads it.
    const s = await startServer([], { DATABASE_URL: 'mysql://app:secret@127.0.0.1:3306/app' });
    servers.push(s);
    const health = await (await fetch(`${s.url}/_sandbox/health`)).json();
    expect(health).toMatchObject({ status: 'ok', store: 'memory' });
    expect(s.output()).toContain('store:    memory (fresh at each start); DATABASE_URL is not read (give SANDBOX_STORE or --store to keep tenants in PostgreSQL)');
  });
});
