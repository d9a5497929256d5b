// The console's browser script: dist/console.js, bundled from ./client/index.ts by scripts/build.mjs
// (real modules, uPlot with them), preceded by one line that sets the polling interval. It is read
// once: beside the server's own bundle (dist/), or in dist/ from the sources (tests, which build it first).
import { readFileSync } from 'node:fs';
import { makePayoutFlows } from './client/flows.payouts.js';
import { makeQuoteFxFlows } from './client/flows.quotes-fx.js';

/** Every guided flow, in the order the buttons appear (the page lists them; the bundle runs them). */
export const flowCatalog = () => [...makePayoutFlows(), ...makeQuoteFxFlows()];

let bundle: string | undefined;

/** The bundled script as built; an error that says to build when it is missing. */
export function clientBundle(): string {
  if (bundle !== undefined) return bundle;
  for (const at of ['./console.js', '../../dist/console.js']) {
    try {
      bundle = readFileSync(new URL(at, import.meta.url), 'utf8');
      return bundle;
    } catch {
      // Not at this place: try the next.
    }
  }
  throw new Error('The console script dist/console.js is missing: run npm run build.');
}

export function consoleScript(pollMs = 1500): string {
  return `window.sandboxConsolePollMs = ${Number(pollMs)};\n${clientBundle()}`;
}
