// The quickstart replayed: docs/quickstart.md starts the sandbox and lists one page per flow
// (docs/quickstart/<flow>.md); every page it lists is replayed in that order on one sandbox started
// with the index's seed and one key, as a reader running the flows one after another would. Each
// ```sh block's curl command is sent, and the ```json (or ```xml, for the FX interface) block after
// it must be the response it gets (timestamps, which follow the wall clock, compared by form only).
// `UPDATE_QUICKSTART=1 npx vitest run test/e2e/examples.quickstart.test.ts` rewrites the response
// blocks from a fresh run.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../support/server.js';

const INDEX = 'docs/quickstart.md';
const BASE = 'http://127.0.0.1:4010';
const index = readFileSync(INDEX, 'utf8');
const seed = /--seed (\d+)/.exec(index)![1];
const key = /export SANDBOX_KEY=(\S+)/.exec(index)![1];
/** The flow pages, in the index's order. */
const PAGES = [...index.matchAll(/\]\((quickstart\/[a-z0-9-]+\.md)\)/g)].map((m) => `docs/${m[1]}`);

interface Example {
  command: string;
  /** The response's form: json (indented as JSON.stringify does) or xml (as the sandbox sends it). */
  kind: 'json' | 'xml';
  expected: string;
  /** Where the expected block's text sits in the doc. */
  at: number;
}

const BLOCK = /```sh\n(curl[\s\S]*?)```\n+```(json|xml)\n([\s\S]*?)```/g;
const examplesOf = (doc: string): Example[] =>
  [...doc.matchAll(BLOCK)].map((m) => ({
    command: m[1],
    kind: m[2] as Example['kind'],
    expected: m[3],
    at: m.index! + m[0].lastIndexOf(m[3]),
  }));
const pages = PAGES.map((file) => {
  const doc = readFileSync(file, 'utf8');
  return { file, doc, examples: examplesOf(doc) };
});

/** Splits a shell line into words: single quotes, double quotes and backslash line ends. */
function words(command: string): string[] {
  const out: string[] = [];
  const re = /'([^']*)'|"([^"]*)"|(\S+)/g;
  for (const m of command.replace(/\\\n/g, ' ').matchAll(re)) out.push(m[1] ?? m[2] ?? m[3]);
  return out;
}

function parseCurl(command: string) {
  const w = words(command.replaceAll('$SANDBOX_KEY', key));
  const req = { method: 'GET', url: '', headers: {} as Record<string, string>, body: undefined as string | undefined };
  for (let i = 1; i < w.length; i++) {
    if (w[i] === '-s') continue;
    if (w[i] === '-X') req.method = w[++i];
    else if (w[i] === '-H') {
      const [k, ...v] = w[++i].split(':');
      req.headers[k.trim().toLowerCase()] = v.join(':').trim();
    } else if (w[i] === '-d') {
      req.body = w[++i];
      if (req.method === 'GET') req.method = 'POST';
    } else req.url = w[i];
  }
  return req;
}

const TIME = /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:\d\d)?/g;
const shape = (text: string) => text.replace(TIME, '<time>');

let server: RunningServer;
beforeAll(async () => {
  server = await startServer(['--seed', seed]);
});
afterAll(async () => {
  await server?.stop('SIGKILL');
});

describe('the quickstart', () => {
  it('lists every page of docs/quickstart/, and has a response under every command of each', () => {
    expect(PAGES.map((p) => p.slice('docs/quickstart/'.length)).sort()).toEqual(readdirSync('docs/quickstart').sort());
    expect(index).not.toMatch(/```sh\ncurl/);
    for (const page of pages) {
      expect(page.examples.length, page.file).toBeGreaterThan(0);
      expect(page.doc.match(/```sh\ncurl/g)!.length, page.file).toBe(page.examples.length);
    }
    expect(pages.reduce((n, p) => n + p.examples.length, 0)).toBeGreaterThanOrEqual(10);
  });

  it('shows the responses the sandbox gives, page after page, in order', async () => {
    const actual = new Map<string, string[]>();
    for (const page of pages) {
      const got: string[] = [];
      actual.set(page.file, got);
      for (const ex of page.examples) {
        const req = parseCurl(ex.command);
        expect(req.url.startsWith(BASE), req.url).toBe(true);
        const res = await fetch(server.url + req.url.slice(BASE.length), { method: req.method, headers: req.headers, body: req.body });
        const text = await res.text();
        expect(res.headers.get('content-type'), ex.command).toContain(`application/${ex.kind}`);
        // Every documented step is a success; a 4xx here means an id in a command went stale.
        expect(res.status, `${page.file}: ${ex.command}\n${text}`).toBeLessThan(300);
        got.push(ex.kind === 'xml' ? `${text.trimEnd()}\n` : `${JSON.stringify(JSON.parse(text), null, 2)}\n`);
      }
    }
    if (process.env.UPDATE_QUICKSTART) {
      for (const page of pages) {
        const got = actual.get(page.file)!;
        let out = page.doc;
        for (let i = page.examples.length - 1; i >= 0; i--) {
          const ex = page.examples[i];
          out = out.slice(0, ex.at) + got[i] + out.slice(ex.at + ex.expected.length);
        }
        writeFileSync(page.file, out);
      }
      return;
    }
    for (const page of pages) {
      const got = actual.get(page.file)!;
      for (const [i, ex] of page.examples.entries()) expect(shape(got[i]), `${page.file}: ${ex.command}`).toBe(shape(ex.expected));
    }
  });
});
