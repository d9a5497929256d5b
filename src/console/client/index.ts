// The console's browser script: the entry scripts/build.mjs bundles, with everything it imports,
// into dist/console.js. The server puts the polling interval before it (../script.ts).
import { makeApi } from './api.js';
import { makePayoutFlows } from './flows.payouts.js';
import { makeQuoteFxFlows } from './flows.quotes-fx.js';
import { startConsole } from './main.js';
import { makeViews } from './views.js';

declare global {
  interface Window {
    /** Milliseconds between two reads of the key's state, set by the served script's first line. */
    sandboxConsolePollMs?: number;
  }
}

startConsole(window, { makeApi, makeViews, flows: [...makePayoutFlows(), ...makeQuoteFxFlows()], pollMs: window.sandboxConsolePollMs ?? 1500 });
