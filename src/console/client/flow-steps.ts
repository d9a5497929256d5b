// Browser side of the console: a guided flow's steps, one collapsed line per call.
// A module of the console's browser bundle (./index.ts).
import type { Exchange } from './api.js';
import { block, esc, headers, keyField, pathCode, pretty, SANDBOX_ONLY, status } from './markup.js';

/**
 * One call and its answer, as one line (number and label, method, path, status, time, the answer's
 * key field) that opens on the headers and bodies. Under a live key a call of the control API
 * (/_sandbox) is marked as the sandbox's own.
 */
export function exchange(x: Exchange, n: number, live = false): string {
  const mark = live && x.path.startsWith('/_sandbox/') ? ` ${SANDBOX_ONLY}` : '';
  const key = keyField(x.responseBody);
  return `<details class="exchange" data-keep="x:${n}"><summary><h3>${n}. ${esc(x.label)}${mark}</h3> <span class="call"><span class="method">${esc(x.method)}</span> ${pathCode(x.path)} → ${status(String(x.status))} <span class="muted">${esc(x.ms)} ms</span></span>${key ? ` <span class="key-field">${esc(key)}</span>` : ''}${x.retryAfter ? ` <strong data-field="retry-after">Retry after ${esc(x.retryAfter)} s</strong>` : ''}</summary>
${block('Request headers', headers(x.requestHeaders))}${block('Request body', pretty(x.requestBody))}${block('Response body', pretty(x.responseBody))}</details>`;
}
