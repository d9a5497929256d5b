// Browser side of the console: the Settings view's clock, scenario, balances and test values.
// A module of the console's browser bundle (./index.ts).
import { esc, grouped, time } from './markup.js';
import type { Balance, ClockState, ScenarioState, ScenarioSummary, Snapshot } from './types.js';

export function clock(c: ClockState): string {
  // A frozen clock stands still until advanced: said, or a presenter waits for moves that never come.
  const runs = c.frozen ? '<strong data-field="frozen">Frozen</strong>: it moves only when advanced' : 'Runs with real time';
  return `<dl><dt>Now</dt><dd data-field="now">${time(c.now)}</dd><dt>Running</dt><dd>${runs}</dd><dt>Ahead of real time</dt><dd>${esc(c.offsetSeconds)} s</dd>
<dt>Timed moves waiting</dt><dd>${esc(c.pendingJobs)}</dd><dt>Next one due</dt><dd>${c.nextDueAt ? time(c.nextDueAt) : 'none'}</dd></dl>`;
}

export function scenario(current: ScenarioState, all: ScenarioSummary[]): string {
  // A scenario sent as a document is none of the bundled ones: the list shows it as in force rather than naming another.
  const own = all.some((s) => s.name === current.name) ? '' : `<option value="" selected disabled>${esc(current.name)} (this key's own document)</option>`;
  const options = own + all.map((s) => `<option value="${esc(s.name)}"${s.name === current.name ? ' selected' : ''}>${esc(s.name)}</option>`).join('');
  const described = all.map((s) => `<li><b>${esc(s.name)}</b>: ${esc(s.description ?? '')}</li>`).join('');
  return `<p>In force: <b data-field="scenario">${esc(current.name)}</b> <span class="muted">(${current.source === 'tenant' ? 'chosen for this key' : 'server default'})</span></p>
<p><label for="scenario-pick">Scenario for this key</label> <select id="scenario-pick">${options}</select> <button type="button" data-action="scenario">Use for this key</button>
<button type="button" data-action="scenario-default">Back to the default</button></p><details data-keep="scn"><summary>Bundled scenarios</summary><ul>${described}</ul></details>`;
}

export function balances(list: Balance[]): string {
  const rows = list.map((b) => `<tr><td>${esc(b.key)}</td><td class="num">${esc(grouped(b.available))}</td></tr>`).join('');
  return `<table tabindex="0"><thead><tr><th>balance</th><th>available</th></tr></thead><tbody>${rows}</tbody></table>`;
}

export function magic(m: Snapshot['magic']): string {
  const rows = m.data.map((r) => `<tr><td><code>${esc(r.value)}</code></td><td><code>${esc(r.field)}</code></td><td>${esc(r.applies)}</td><td>${esc(r.effect)}</td></tr>`).join('');
  const note = m.honoured ? '' : '<p data-field="magic-off"><strong>Not honoured for this key now</strong> (a live key, or a scenario with magicValues: false).</p>';
  return `${note}<table tabindex="0"><thead><tr><th>value</th><th>field</th><th>applies to</th><th>what happens</th></tr></thead><tbody>${rows}</tbody></table>`;
}
