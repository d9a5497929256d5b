// The control client covers the control API: every operation /openapi.json lists under /_sandbox has
// a method (CONTROL_OPERATIONS), every method calls a documented operation, and every method has
// its own test against a real sandbox in test/e2e/client.test.ts.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CONTROL_OPERATIONS, SandboxClient, SandboxTenant } from '../../src/client/index.js';
import { createTestApp } from '../support/app.js';

async function documentedControlOperations(): Promise<string[]> {
  const { app } = await createTestApp();
  const doc = (await (await app.request('/openapi.json')).json()) as { paths: Record<string, Record<string, unknown>> };
  return Object.entries(doc.paths)
    .filter(([path]) => path.startsWith('/_sandbox'))
    .flatMap(([path, ops]) => Object.keys(ops).map((method) => `${method.toUpperCase()} ${path}`));
}

/** The function a method name stands for on the client: on the sandbox, on a tenant, or on tenant.webhooks. */
function methodOf(name: string): unknown {
  const tenant = new SandboxClient('http://127.0.0.1:1').tenant('sk_test_x') as unknown as Record<string, unknown>;
  const root = new SandboxClient('http://127.0.0.1:1') as unknown as Record<string, unknown>;
  const [head, tail] = name.split('.');
  if (tail) return (tenant[head] as Record<string, unknown> | undefined)?.[tail];
  return tenant[head] ?? root[head];
}

describe('the control client and /openapi.json', () => {
  it('has a method for every control operation', async () => {
    const documented = await documentedControlOperations();
    expect(documented).toContain('POST /_sandbox/clock/advance');
    const covered = new Set<string>(Object.values(CONTROL_OPERATIONS));
    const missing = documented.filter((op) => !covered.has(op));
    expect(
      missing.map((op) => `${op} is a control operation in /openapi.json with no method in the control client: add one to CONTROL_OPERATIONS in src/client/control.ts`),
    ).toEqual([]);
  });

  it('calls only documented operations', async () => {
    const documented = new Set(await documentedControlOperations());
    const stale = Object.entries(CONTROL_OPERATIONS).filter(([, op]) => !documented.has(op));
    expect(stale.map(([name, op]) => `${name} calls ${op}, which /openapi.json does not list`)).toEqual([]);
  });

  it('implements every method of its table', () => {
    const absent = Object.keys(CONTROL_OPERATIONS).filter((name) => typeof methodOf(name) !== 'function');
    expect(absent.map((name) => `${name} is in CONTROL_OPERATIONS but is not a method of the client`)).toEqual([]);
    expect(typeof SandboxTenant.prototype.waitForEvent).toBe('function');
  });

  it('lists every method in the README', () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const unlisted = Object.keys(CONTROL_OPERATIONS).filter((name) => !readme.includes(`\`t.${name}(`) && !readme.includes(`\`sb.${name}(`));
    expect(unlisted.map((name) => `${name} is a method of the control client that README.md's table of the client does not name`)).toEqual([]);
  });

  it('tests every method against a real sandbox', () => {
    const tests = readFileSync(new URL('../e2e/client.test.ts', import.meta.url), 'utf8');
    const untested = Object.keys(CONTROL_OPERATIONS).filter((name) => !tests.includes(`it('${name}: `));
    expect(untested.map((name) => `${name} has no test in test/e2e/client.test.ts (a test titled '${name}: ...')`)).toEqual([]);
  });
});
