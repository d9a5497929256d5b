// Browser side of the console: HTML for each view, from what the control API returned; each view's
// parts are in a file of their own (resources-view, webhooks-view, market-view, settings-view, flow-steps).
// A module of the console's browser bundle (./index.ts).
import { exchange } from './flow-steps.js';
import { market } from './market-view.js';
import { amount, esc, pretty, prettyXml, rate, stateName, tone } from './markup.js';
import { journal, timelines } from './resources-view.js';
import { balances, clock, magic, scenario } from './settings-view.js';
import { deliveries, events } from './webhooks-view.js';

export type { Snapshot } from './types.js';

export type Views = ReturnType<typeof makeViews>;

export function makeViews() {
  return { esc, pretty, prettyXml, rate, amount, tone, stateName, timelines, journal, events, deliveries, clock, scenario, balances, magic, market, exchange };
}
