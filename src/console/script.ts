// The console's browser script, made from the typed client modules: each factory's source (as the
// server's own build compiled it) is written out in one closure, so the browser gets plain
// JavaScript without a separate bundling step. The client modules therefore import nothing at
// runtime and reach each other only through the arguments startConsole receives.
import { makeApi } from './client/api.js';
import { startConsole } from './client/main.js';
import { makePayoutFlows } from './client/flows.payouts.js';
import { makeQuoteFxFlows } from './client/flows.quotes-fx.js';
import { makeViews } from './client/views.js';

/** Every guided flow factory, in the order the buttons appear. */
export const FLOW_FACTORIES = [makePayoutFlows, makeQuoteFxFlows];

export const flowCatalog = () => FLOW_FACTORIES.flatMap((make) => make());

export function consoleScript(pollMs = 1500): string {
  const parts = [makeApi, makeViews, ...FLOW_FACTORIES, startConsole].map(String).join('\n\n');
  const flows = FLOW_FACTORIES.map((f) => `${f.name}()`).join(', ');
  return [
    "'use strict';",
    // Builds that keep function names wrap nested functions in __name(); give it a harmless body.
    'var __name = function (fn) { return fn; };',
    '(function () {',
    parts,
    `${startConsole.name}(window, { makeApi: ${makeApi.name}, makeViews: ${makeViews.name}, flows: [].concat(${flows}), pollMs: ${Number(pollMs)} });`,
    '})();',
  ].join('\n');
}
