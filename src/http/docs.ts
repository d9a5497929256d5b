// GET /docs: an interactive page over /openapi.json, with Swagger UI served from node_modules so
// it works offline. Its assets (1.7 MB of script) and the OpenAPI document go out compressed, with
// brotli or gzip as the client accepts, each compressed once and kept.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip as gzipCallback } from 'node:zlib';
import { Hono, type Context } from 'hono';
import type { AppEnv } from './types.js';

/** A text in the forms it is sent in, each compressed on first use in zlib's thread pool (a 1.7 MB
 * script at brotli's quality 9 takes a second of CPU: never on the event loop) and kept. */
export class Compressed {
  private br: Promise<Buffer> | undefined;
  private gz: Promise<Buffer> | undefined;
  constructor(readonly text: string) {}

  /** The answer for a request: brotli or gzip when its Accept-Encoding takes it, the text otherwise. */
  async respond(c: Context, type: string, headers: Record<string, string> = {}): Promise<Response> {
    const accepts = c.req.header('accept-encoding') ?? '';
    const common = { 'content-type': type, vary: 'Accept-Encoding', ...headers };
    if (takes(accepts, 'br')) {
      this.br ??= forgetOnFailure(brotli(this.text, { params: { [constants.BROTLI_PARAM_QUALITY]: 9, [constants.BROTLI_PARAM_SIZE_HINT]: this.text.length } }), () => (this.br = undefined));
      return c.body(new Uint8Array(await this.br), 200, { ...common, 'content-encoding': 'br' });
    }
    if (takes(accepts, 'gzip')) {
      this.gz ??= forgetOnFailure(gzip(this.text, { level: 9 }), () => (this.gz = undefined));
      return c.body(new Uint8Array(await this.gz), 200, { ...common, 'content-encoding': 'gzip' });
    }
    return c.body(this.text, 200, common);
  }
}

/** A compression that failed is not kept: the next request tries again. */
function forgetOnFailure(p: Promise<Buffer>, forget: () => void): Promise<Buffer> {
  p.catch(forget);
  return p;
}

const brotli = promisify(brotliCompress);
const gzip = promisify(gzipCallback);

/** Whether an Accept-Encoding takes this coding: named, and not with q=0. */
function takes(accepts: string, coding: string): boolean {
  for (const part of accepts.split(',')) {
    const [name, ...params] = part.trim().split(';');
    if (name.trim().toLowerCase() !== coding) continue;
    return !params.some((p) => /^\s*q\s*=\s*0(\.0*)?\s*$/i.test(p));
  }
  return false;
}

const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
};

const PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>payments-sandbox API</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/docs/assets/swagger-ui.css">
<style>.sandbox-nav{font:14px/1.4 sans-serif;padding:8px 20px;background:#1b1b1b;color:#fff}.sandbox-nav a{color:#9cf;margin-right:16px}</style></head>
<body><nav class="sandbox-nav"><a href="/console">Console</a><a href="/openapi.json">OpenAPI document</a><a href="/_sandbox/health">Health</a></nav><div id="ui"></div><script src="/docs/assets/swagger-ui-bundle.js"></script>
<script>
// Swagger UI builds an XML example from the schema even when the operation gives one, and our XML
// bodies are schema'd as text: use the given example as it stands.
function givenXmlExamples() {
  return { afterLoad: function (system) {
    [system.fn, system.fn.jsonSchema202012].forEach(function (fns) {
      if (!fns || !fns.getXmlSampleSchema) return;
      var generate = fns.getXmlSampleSchema;
      fns.getXmlSampleSchema = function (schema, config, example) {
        return typeof example === 'string' && example.trim().charAt(0) === '<' ? example : generate(schema, config, example);
      };
    });
  } };
}
window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#ui', persistAuthorization: false, plugins: [givenXmlExamples] });
</script>
</body></html>`;

export function docsRoutes() {
  const cache = new Map<string, Compressed>();
  let dir: string | undefined;
  return new Hono<AppEnv>()
    .get('/docs', (c) => c.html(PAGE))
    .get('/docs/assets/:file', async (c) => {
      const file = c.req.param('file');
      // Own names only: `constructor` or `__proto__` would find Object's, and a file that is not there.
      const type = Object.hasOwn(ASSETS, file) ? ASSETS[file] : undefined;
      if (!type) return c.notFound();
      let body = cache.get(file);
      if (body === undefined) {
        dir ??= path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
        body = new Compressed(await readFile(path.join(dir, file), 'utf8'));
        cache.set(file, body);
      }
      return body.respond(c, type, { 'cache-control': 'public, max-age=3600' });
    });
}
