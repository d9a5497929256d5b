// docs/quickstart.md replayed: each ```sh block's curl command is sent to a real sandbox started with
// the doc's seed, and the ```json (or ```xml, for the FX interface) block after it must be the
// response it gets (timestamps, which follow the wall clock, compared by form only). `UPDATE_QUICKSTART=1 npx vitest run
// test/examples.quickstart.test.ts` rewrites the response blocks from a fresh run.
import { readFileSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../support/server.js';

const FILE = 'docs/quickstart.md';
const BASE = 'http://127.0.0.1:4010';
const doc = readFileSync(FILE, 'utf8');
const seed = /--seed (\d+)/.exec(doc)![1];
const key = /export SANDBOX_KEY=(\S+)/.exec(doc)![1];

interface Example {
  command: string;
  /** The response's form: json (indented as JSON.stringify does) or xml (as the sandbox sends it). */
  kind: 'json' | 'xml';
  expected: string;
  /** Where the expected block's text sits in the doc. */
  at: number;
}

const BLOCK = /```sh\n(curl[\s\S]*?)```\n+```(json|xml)\n([\s\S]*?)```/g;
const examples: Example[] = [...doc.matchAll(BLOCK)].map((m) => ({
  command: m[1],
  kind: m[2] as Example['kind'],
  expected: m[3],
  at: m.index! + m[0].lastIndexOf(m[3]),
}));

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

describe('docs/quickstart.md', () => {
  it('has a response under every command', () => {
    expect(examples.length).toBeGreaterThanOrEqual(10);
    expect(doc.match(/```sh\ncurl/g)!.length).toBe(examples.length);
  });

  it('shows the responses the sandbox gives, in order', async () => {
    const actual: string[] = [];
    for (const ex of examples) {
      const req = parseCurl(ex.command);
      expect(req.url.startsWith(BASE), req.url).toBe(true);
      const res = await fetch(server.url + req.url.slice(BASE.length), { method: req.method, headers: req.headers, body: req.body });
      const text = await res.text();
      expect(res.headers.get('content-type'), ex.command).toContain(`application/${ex.kind}`);
      // Every documented step is a success; a 4xx here means an id in a command went stale.
      expect(res.status, `${ex.command}\n${text}`).toBeLessThan(300);
      actual.push(ex.kind === 'xml' ? `${text.trimEnd()}\n` : `${JSON.stringify(JSON.parse(text), null, 2)}\n`);
    }
    if (process.env.UPDATE_QUICKSTART) {
      let out = doc;
      for (let i = examples.length - 1; i >= 0; i--) out = out.slice(0, examples[i].at) + actual[i] + out.slice(examples[i].at + examples[i].expected.length);
      writeFileSync(FILE, out);
      return;
    }
    for (const [i, ex] of examples.entries()) expect(shape(actual[i]), ex.command).toBe(shape(ex.expected));
  });
});
