// GET /docs: an interactive page over /openapi.json, with Swagger UI served from node_modules so
// it works offline.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Hono } from 'hono';
import type { AppEnv } from './types.js';

const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
};

const PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>payments-sandbox API</title>
<link rel="stylesheet" href="/docs/assets/swagger-ui.css"></head>
<body><div id="ui"></div><script src="/docs/assets/swagger-ui-bundle.js"></script>
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
  const cache = new Map<string, string>();
  let dir: string | undefined;
  return new Hono<AppEnv>()
    .get('/docs', (c) => c.html(PAGE))
    .get('/docs/assets/:file', async (c) => {
      const file = c.req.param('file');
      const type = ASSETS[file];
      if (!type) return c.notFound();
      let body = cache.get(file);
      if (body === undefined) {
        dir ??= path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
        body = await readFile(path.join(dir, file), 'utf8');
        cache.set(file, body);
      }
      return c.body(body, 200, { 'content-type': type, 'cache-control': 'public, max-age=3600' });
    });
}
