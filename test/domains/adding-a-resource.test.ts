// docs/adding-a-resource.md, followed to the letter. Its ```ts blocks are the files of a refund
// (REQUESTED → SENT → SETTLED | RETURNED) in src/domains/refunds/, each named on its first line, and
// the edit of the domain list (one import, one entry). This test writes them out in a copy of those
// paths that imports the real src/, type-checks them as if they stood in src/, and checks that
// scenarios, timed moves, the event log, webhook filters, simulate and /_sandbox/resources take the
// refund with no other edit; then it runs the OpenAPI checks, the scenario format checks and the
// layer rules over the app and the tree with the refund in them.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { domains } from '../../src/domains/index.js';
import type { DomainModule } from '../../src/domains/module.js';
import { advance, createTestApp } from '../support/app.js';
import { describeLayerRules, sourceFiles, type SourceFile } from '../support/layers.js';
import { describeOpenApiLint } from '../support/openapi-lint.js';
import { describeScenarioFormat } from '../support/scenarios.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const DOC = 'docs/adding-a-resource.md';
const LIST = 'src/domains/index.ts';
const FOLDER = 'src/domains/refunds/';

/** The doc's ts blocks, each with the file its first line names (a path from the repository's root). */
function blocksOf(markdown: string): { file: string; code: string }[] {
  return [...markdown.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map(([, code]) => {
    const named = /^\/\/ (src\/\S+)\n/.exec(code);
    if (!named) throw new Error(`${DOC}: a ts block does not name its file on its first line:\n${code}`);
    return { file: named[1], code };
  });
}

/** The domain list with the doc's edit made: its imports after the list's own, its entries last in `domains`. */
function editList(list: string, edit: string) {
  const lines = edit.split('\n');
  const opens = (l: string) => l.startsWith('export const domains = [');
  const [open, close] = [lines.findIndex(opens), lines.findIndex((l) => l.startsWith(']'))];
  const imports = lines.filter((l) => l.startsWith('import '));
  const entries = lines.slice(open + 1, close).filter((l) => l.trim() !== '' && !l.trim().startsWith('//'));
  const out = list.split('\n');
  const lastImport = out.length - 1 - [...out].reverse().findIndex((l) => l.startsWith('import '));
  out.splice(lastImport + 1, 0, ...imports);
  const start = out.findIndex(opens);
  const end = out.findIndex((l, i) => i > start && l.startsWith(']'));
  // The doc's lines around the entry are the list's own.
  const frame = [lines[open], lines[close], out[start], out[end]];
  out.splice(end, 0, ...entries);
  return { text: out.join('\n'), imports, entries, frame };
}

const blocks = blocksOf(readFileSync(path.join(ROOT, DOC), 'utf8'));
const listEdit = blocks.find((b) => b.file === LIST)!;
const edited = editList(readFileSync(path.join(ROOT, LIST), 'utf8'), listEdit.code);
/** What the doc writes: the refund's files, and the domain list with its entry. */
const written = new Map<string, string>([...blocks.filter((b) => b !== listEdit).map((b) => [b.file, b.code] as const), [LIST, edited.text]]);

/** A copy of the doc's files outside the tree: an import of a file it writes stays relative, any other points at the real src/. */
const copy = mkdtempSync(path.join(tmpdir(), 'adding-a-resource-'));
for (const [file, text] of written) {
  const at = path.join(copy, file);
  mkdirSync(path.dirname(at), { recursive: true });
  const real = text.replace(/(from\s+['"])(\.{1,2}\/[^'"]+)(['"])/g, (whole, before: string, spec: string, after: string) => {
    const target = path.resolve(path.dirname(path.join(ROOT, file)), spec);
    return written.has(path.relative(ROOT, target).replace(/\.js$/, '.ts')) ? whole : `${before}${target}${after}`;
  });
  writeFileSync(at, real);
}
afterAll(() => rmSync(copy, { recursive: true, force: true }));

const withRefunds: readonly DomainModule[] = (await import(path.join(copy, LIST))).domains;

const app = () => createTestApp({ domains: withRefunds });

/** Type errors of the doc's files as if they stood at their paths in src/, and of `probes` beside them. */
function typeErrors(probes: Record<string, string> = {}): string[] {
  const config = ts.getParsedCommandLineOfConfigFile(path.join(ROOT, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} })!;
  const files = new Map([...written, ...Object.entries(probes)].map(([file, text]) => [path.join(ROOT, file), text]));
  const host = ts.createCompilerHost(config.options);
  const dirs = new Set([...files.keys()].map((f) => path.dirname(f)));
  const { fileExists, readFile, directoryExists } = host;
  host.fileExists = (f) => files.has(f) || fileExists.call(host, f);
  host.readFile = (f) => files.get(f) ?? readFile.call(host, f);
  host.directoryExists = (d) => dirs.has(d) || (directoryExists?.call(host, d) ?? true);
  const program = ts.createProgram([...files.keys()], config.options, host);
  return [...files.keys()].flatMap((f) => {
    const source = program.getSourceFile(f)!;
    return [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)].map(
      (d) => `${path.relative(ROOT, f)}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`,
    );
  });
}

describe('the doc', () => {
  it('writes one folder and one entry in the domain list, nothing else', () => {
    expect(blocks.map((b) => b.file)).toEqual([
      `${FOLDER}refunds.machine.ts`,
      `${FOLDER}refunds.schema.ts`,
      `${FOLDER}refunds.service.ts`,
      `${FOLDER}refunds.routes.ts`,
      `${FOLDER}index.ts`,
      LIST,
    ]);
    expect(edited.imports).toEqual(["import { refundsDomain } from './refunds/index.js';"]);
    expect(edited.entries).toEqual(['  refundsDomain,']);
    expect(edited.frame.slice(0, 2)).toEqual(edited.frame.slice(2));
    // The domains before it are the real list's, the same modules.
    expect(withRefunds.slice(0, -1).every((d, i) => d === domains[i])).toBe(true);
    expect(withRefunds.length).toBe(domains.length + 1);
  });

  it('compiles where it says the files go, and refuses a state the lifecycle does not have', () => {
    const probe = `${FOLDER}probe.ts`;
    const errors = typeErrors({
      [probe]: "import { defaultBehaviour } from '../../engine/registry/behaviour.js';\nimport { refund } from './refunds.machine.js';\nrefund.duration(defaultBehaviour, 'SENDT');\n",
    });
    expect(errors.filter((e) => !e.startsWith(probe))).toEqual([]);
    expect(errors).toEqual([`${probe}: Argument of type '"SENDT"' is not assignable to parameter of type '"REQUESTED" | "SENT" | "SETTLED" | "RETURNED"'.`]);
  }, 60_000);
});

describe('the refund, added as the doc says', () => {
  it('has a scenario section of its own, checked and published', async () => {
    const t = await app();
    const schema = await t.call('GET', '/_sandbox/scenario.schema.json', { key: null });
    expect(Object.keys(schema.body.properties.refund.properties)).toEqual(['timing', 'outcomes']);
    expect(Object.keys(schema.body.properties.refund.properties.timing.properties)).toEqual(['REQUESTED', 'SENT', '*']);
    const wrong = await t.call('PUT', '/_sandbox/scenario', { body: { scenario: { refund: { outcomes: [{ status: 'LOST' }] } } } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.details[0]).toEqual({ field: 'scenario.refund.outcomes[0].status', issue: 'expected one of "SETTLED", "RETURNED"' });
    const ok = await t.call('PUT', '/_sandbox/scenario', {
      body: { scenario: { refund: { timing: { SENT: 5 }, outcomes: [{ when: { amount: { min: 100 } }, status: 'RETURNED' }] } } },
    });
    expect(ok.status).toBe(200);
  });

  it('moves on its timers when the clock advances, as its lifecycle and the scenario say', async () => {
    const t = await app();
    await t.call('PUT', '/_sandbox/scenario', { body: { scenario: { refund: { timing: { SENT: 5 }, outcomes: [{ when: { amount: { min: 100 } }, status: 'RETURNED' }] } } } });
    const small = await t.call('POST', '/api/v1/refunds', { body: { reference: 'rf-1', amount: 50 } });
    expect(small.status).toBe(201);
    expect(small.body).toMatchObject({ reference: 'rf-1', status: 'REQUESTED' });
    const replay = await t.call('POST', '/api/v1/refunds', { body: { reference: 'rf-1', amount: 50 } });
    expect([replay.status, replay.headers.get('idempotent-replayed')]).toEqual([201, 'true']);
    const read = await t.call('GET', '/api/v1/refunds/rf-1');
    expect([read.status, read.body.status]).toEqual([200, 'REQUESTED']);
    await t.call('POST', '/api/v1/refunds', { body: { reference: 'rf-2', amount: 500 } });
    await advance(t, 10);
    const sent = await t.call('GET', '/_sandbox/resources?kind=refunds');
    expect(sent.body.data.map((r: { status: string }) => r.status)).toEqual(['SENT', 'SENT']);
    await advance(t, 5);
    const done = await t.call('GET', '/_sandbox/resources?kind=refunds');
    expect(done.body.counts).toEqual({ refunds: 2 });
    expect(done.body.data.map((r: { id: string; status: string; eventPrefix: string }) => [r.id, r.status, r.eventPrefix])).toEqual([
      ['rf-2', 'RETURNED', 'refund'],
      ['rf-1', 'SETTLED', 'refund'],
    ]);
  });

  it('records its events in the event log, which filters by it', async () => {
    const t = await app();
    await t.call('POST', '/api/v1/refunds', { body: { reference: 'rf-1', amount: 50 } });
    await advance(t, 30);
    const log = await t.call('GET', '/_sandbox/events?type=refund');
    expect(log.body.data.map((e: { event: string }) => e.event)).toEqual(['refund.requested', 'refund.sent', 'refund.settled']);
    expect(log.body.data[2].data).toMatchObject({ reference: 'rf-1', status: 'SETTLED' });
    const unknown = await t.call('GET', '/_sandbox/events?type=refund.lost');
    expect(unknown.body.error.details[0].issue).toBe(
      'matches no refund event: send refund, refund.* or one of: refund.requested, refund.sent, refund.settled, refund.returned',
    );
  });

  it('takes its events in webhook filters', async () => {
    const t = await app();
    const ok = await t.call('PUT', '/_sandbox/webhooks', { body: { url: 'https://example.com/hooks', events: ['refund.settled', 'refund.*'] } });
    expect([ok.status, ok.body.events]).toEqual([200, ['refund.settled', 'refund.*']]);
    const wrong = await t.call('PUT', '/_sandbox/webhooks', { body: { url: 'https://example.com/hooks', events: ['refunds'] } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.details[0].issue).toContain('a resource (payout, wallet_payout, withdrawal, transfer, quote, order, fx_trade, refund)');
  });

  it('is pushed along its machine by simulate', async () => {
    const t = await app();
    await t.call('POST', '/api/v1/refunds', { body: { reference: 'rf-1', amount: 50 } });
    const sent = await t.call('POST', '/_sandbox/simulate/refunds/rf-1/send');
    expect(sent.body).toMatchObject({ resource: 'refunds', id: 'rf-1', event: 'send', state: { status: 'SENT' } });
    const back = await t.call('POST', '/_sandbox/simulate/refunds/rf-1/return');
    expect(back.body.state.status).toBe('RETURNED');
    const refused = await t.call('POST', '/_sandbox/simulate/refunds/rf-1/settle');
    expect([refused.status, refused.body.error.code]).toEqual([409, 'INVALID_STATE_TRANSITION']);
    const unknown = await t.call('POST', '/_sandbox/simulate/refunds/rf-1/lose');
    expect(unknown.body.error.details[0]).toEqual({ field: 'event', issue: 'must be one of: send, settle, return' });
  });

  it('leaves the app without it as it was', async () => {
    const t = await createTestApp();
    expect((await t.call('POST', '/_sandbox/simulate/refunds/rf-1/send')).status).toBe(404);
    expect((await t.call('GET', '/_sandbox/events?type=refund')).status).toBe(400);
  });
});

describeOpenApiLint('/openapi.json with the refund', withRefunds);

describeScenarioFormat('the scenario format with the refund', withRefunds);

describeLayerRules('the layer rules over src/ with the refund', () => {
  const doc: SourceFile[] = [...written].map(([file, text]) => ({ rel: path.relative('src', file), text }));
  return [...sourceFiles().filter((f) => !doc.some((d) => d.rel === f.rel)), ...doc];
});
