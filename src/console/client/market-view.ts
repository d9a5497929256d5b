// Browser side of the console: the Market view's rates and liquidity pools.
// A module of the console's browser bundle (./index.ts).
import { amount, esc, rate, time } from './markup.js';
import type { Rate } from './types.js';

/** A number cell: never broken inside, its exact value in a title when the text rounds it. */
const num = (text: string, exact?: string) => `<td class="num"${exact ? ` title="${esc(exact)}"` : ''}>${esc(text)}</td>`;

/** The rates of a few pairs, and the pools of the FX listings (its XML, read with the browser's parser). */
export function market(rates: Rate[], poolsXml: string): string {
  const rateRows = rates
    .map(
      (r) =>
        `<tr><td>${esc(String(r.from).toUpperCase())} → ${esc(String(r.to).toUpperCase())}</td>${num(rate(r.from, r.to, r.rate), `The API's rate: ${r.rate} (an amount in ${String(r.from).toUpperCase()} times it is the amount in ${String(r.to).toUpperCase()})`)}<td>${esc(r.source)}</td><td>${time(r.timestamp)}</td></tr>`,
    )
    .join('');
  const xml = new DOMParser().parseFromString(poolsXml, 'application/xml');
  const text = (node: Element, name: string) => node.getElementsByTagName(name)[0]?.textContent ?? '';
  const pools = [...xml.getElementsByTagName('Listgs')];
  // A pool's pair is source/destination; its rate is source units per destination unit, and what it
  // can still deliver is in destination units.
  const poolRows = pools
    .map((p) => {
      const [source, destination] = text(p, 'CcyPair').split('/');
      // XchgRate is the fiat price of one stablecoin whichever way the pool goes: read it as one unit of the stablecoin in the fiat.
      const stable = /^(USDT|USDC)$/i.test(source) ? source : destination;
      const fiat = stable === source ? destination : source;
      const x = Number(text(p, 'XchgRate'));
      return `<tr data-pool-direction="${esc(source)}-${esc(destination)}"><td>${esc(text(p, 'Nm'))}</td><td>${esc(source)} → ${esc(destination)}</td>${num(rate(stable, fiat, x >= 1 ? x : 1 / x), `XchgRate ${text(p, 'XchgRate')}`)}${num(amount(text(p, 'AvlblBal'), destination))}</tr>`;
    })
    .join('');
  return `<table tabindex="0"><thead><tr><th>pair</th><th>rate</th><th>source</th><th>as of</th></tr></thead><tbody>${rateRows}</tbody></table>
<h3>Liquidity pools (${pools.length})</h3><table tabindex="0" data-field="pools"><thead><tr><th>pool</th><th>pair</th><th>rate</th><th>can still deliver</th></tr></thead><tbody>${poolRows}</tbody></table>`;
}
