// The served /openapi.json under Redocly's recommended ruleset (the CLI, as a partner's pipeline runs
// it), and the properties of the document that generated clients and the docs page rely on, as
// checks over the app of any domain list.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tagsOf } from '../../src/app.js';
import type { DomainModule } from '../../src/domains/module.js';
import { createTestApp } from './app.js';

const run = promisify(execFile);
const CLI = join(createRequire(import.meta.url).resolve('@redocly/cli/package.json'), '..', 'bin', 'cli.js');

interface Problem {
  ruleId: string;
  severity: 'error' | 'warn';
  message: string;
  location: { pointer: string }[];
}

type Operation = { operationId?: string; tags?: string[]; security?: unknown[]; responses: Record<string, unknown> };
type Doc = { info: { license?: { name: string; identifier: string } }; tags: { name: string }[]; paths: Record<string, Record<string, Operation>> };

/**
 * The checks of /openapi.json, over the app of a domain list: test/openapi.lint.test.ts runs them on
 * the real list, test/adding-a-resource.test.ts on the list with the doc's refund added.
 */
export function describeOpenApiLint(title: string, list: readonly DomainModule[]): void {
  let dir: string;
  let doc: Doc;
  let text: string;
  const app = () => createTestApp({ domains: list });

  const operations = () =>
    Object.entries(doc.paths).flatMap(([path, item]) => Object.entries(item).map(([method, op]) => ({ path, method, op })));

  describe(title, () => {
    beforeAll(async () => {
      const t = await app();
      text = await (await t.app.request('/openapi.json')).text();
      doc = JSON.parse(text);
      dir = mkdtempSync(join(tmpdir(), 'openapi-lint-'));
      writeFileSync(join(dir, 'openapi.json'), text);
      // Only the recommended ruleset, whatever configuration lies around.
      writeFileSync(join(dir, 'redocly.yaml'), 'extends:\n  - recommended\n');
    });

    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it('has no error and no warning under Redocly recommended', async () => {
      const out = await run(
        process.execPath,
        [CLI, 'lint', 'openapi.json', '--config', 'redocly.yaml', '--format', 'json'],
        { cwd: dir, env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' }, maxBuffer: 16 * 1024 * 1024 },
      ).catch((err: { stdout: string; stderr: string }) => err);
      const report = JSON.parse(out.stdout.slice(out.stdout.indexOf('{'))) as { totals: { errors: number; warnings: number }; problems: Problem[] };
      const shown = report.problems.map((p) => `${p.severity} ${p.ruleId} at ${p.location[0]?.pointer}: ${p.message}`);
      expect(shown).toEqual([]);
      expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
    }, 60_000);

    it('gives every operation a unique, readable operationId', () => {
      const ids = operations().map(({ op }) => op.operationId);
      expect(ids.every((id) => typeof id === 'string' && /^[a-z][A-Za-z]+$/.test(id)), ids.join(', ')).toBe(true);
      expect(new Set(ids).size).toBe(ids.length);
      const byRoute = Object.fromEntries(operations().map(({ path, method, op }) => [`${method.toUpperCase()} ${path}`, op.operationId]));
      expect(byRoute).toMatchObject({
        'POST /api/v1/partners/payouts': 'createPayout',
        'GET /api/v1/partners/banks/resolve': 'resolveBankAccount',
        'POST /api/v1/partners/fx/trades/{transactionId}/accept': 'acceptFxTrade',
        'GET /api/v1/transfers/bulk/{id}/transfers': 'listBulkTransfers',
        'POST /_sandbox/clock/advance': 'advanceClock',
        'GET /_sandbox/health': 'getHealth',
      });
    });

    it('lists the partner API first and the /_sandbox control API last, in paths and in tags', () => {
      const paths = Object.keys(doc.paths);
      const firstControl = paths.findIndex((p) => p.startsWith('/_sandbox'));
      expect(firstControl).toBeGreaterThan(0);
      expect(paths.slice(firstControl).every((p) => p.startsWith('/_sandbox'))).toBe(true);
      const tags = doc.tags.map((t) => t.name);
      // The tags the domains declare, in the API document's order, then the control API's.
      expect(tags).toEqual(tagsOf(list).map((t) => t.name));
      const control = (tag: string) => operations().every(({ path, op }) => !op.tags?.includes(tag) || path.startsWith('/_sandbox'));
      const firstControlTag = tags.findIndex(control);
      expect(firstControlTag).toBeGreaterThan(0);
      expect(tags.slice(firstControlTag).every(control), tags.join(', ')).toBe(true);
      expect(doc.tags.every((t) => (t as { description?: string }).description)).toBe(true);
      const used = new Set(operations().flatMap(({ op }) => op.tags ?? []));
      expect([...used].sort()).toEqual([...tags].sort());
    });

    it('marks the operations that need no key with security: [], and only those', async () => {
      const open = operations().filter(({ op }) => Array.isArray(op.security) && op.security.length === 0).map(({ method, path }) => `${method.toUpperCase()} ${path}`);
      expect(open.sort()).toEqual(['GET /', 'GET /_sandbox/health', 'GET /_sandbox/scenario.schema.json', 'GET /xsd/{file}']);
      const t = await app();
      for (const path of ['/', '/_sandbox/health', '/_sandbox/scenario.schema.json', '/xsd/FXTradInstr.xsd']) {
        expect((await t.app.request(path)).status, path).toBe(200);
      }
      // Their one documented refusal: a body over the limit, which the control API measures on any method.
      for (const path of ['/_sandbox/health', '/_sandbox/scenario.schema.json']) {
        const res = await t.call('GET', path, { key: null, headers: { 'content-length': String(2 * 1024 * 1024) } });
        expect(res.status, path).toBe(413);
        expect(res.body.error.code).toBe('PAYLOAD_TOO_LARGE');
      }
      for (const { op } of operations().filter(({ op }) => !Array.isArray(op.security) || op.security.length > 0)) {
        expect(op.security).toEqual([{ bearerAuth: [] }]);
        expect(Object.keys(op.responses)).toContain('401');
      }
    });

    it('says under which licence the document is given', () => {
      expect(doc.info.license).toEqual({ name: 'Proprietary: all rights reserved', identifier: 'LicenseRef-Proprietary' });
    });
  });
}
