// The console's stylesheet, served from the sandbox itself.
import { UPLOT_CSS } from './uplot-css.js';

export const CONSOLE_CSS = `
:root { --fg: #1d2330; --muted: #586074; --line: #dde1e8; --bg: #f6f7f9; --ok: #0f5e2c; --bad: #9a1c12; --wait: #7a4200; --accent: #2450b0; }
* { box-sizing: border-box; }
/* A word breaks only when it cannot fit a line on its own (never a number that fits); ids and numbers are kept whole below. */
body { margin: 0; font: 15px/1.5 system-ui, sans-serif; overflow-wrap: break-word; color: var(--fg); background: var(--bg); }
header.top { display: flex; gap: .25rem 1rem; align-items: center; padding: .5rem 1.25rem; background: #fff; border-bottom: 1px solid var(--line); flex-wrap: wrap; z-index: 5; }
/* From a laptop up the header (key, mode, the last action's result) stays on screen, and the sidebar beside the view. */
@media (min-width: 760px) { header.top { position: sticky; top: 0; } }
/* The header's pieces (the key gate above all) may shrink to the screen; the key field with them. */
header.top > * { min-width: 0; max-width: 100%; }
header.top h1 { font-size: 1.1rem; margin: 0 1rem 0 0; }
/* One view at a time: tabs on a phone, a sidebar from a laptop up. */
.shell { display: block; }
nav.views { display: flex; flex-wrap: wrap; gap: .25rem; padding: .5rem .75rem 0; }
nav.views a { padding: .3rem .6rem; border-radius: 4px; color: var(--accent); text-decoration: none; font-weight: 600; }
nav.views a[aria-current="page"] { background: var(--accent); color: #fff; }
nav.views a.docs-link { font-weight: 400; }
@media (min-width: 760px) {
  .shell { display: grid; grid-template-columns: 10.5rem minmax(0, 1fr); align-items: start; }
  nav.views { flex-direction: column; position: sticky; top: 4.5rem; padding: 1rem 0 1rem 1rem; }
  nav.views a.docs-link { margin-top: .75rem; }
}
/* Before the key, main holds only the key screen, across the whole width (the sidebar is hidden). */
body[data-state="locked"] .shell { display: block; }
main > .gate { grid-column: 1 / -1; }
/* One column on a phone; two from a laptop up. */
main { display: grid; grid-template-columns: minmax(0, 1fr); gap: 1rem; padding: .75rem; align-content: start; }
@media (min-width: 760px) { main { grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); padding: 1rem 1.25rem 1rem 1rem; } }
main > section[hidden] { display: none; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
main:focus { outline: none; }
section { background: #fff; border: 1px solid var(--line); border-radius: 6px; padding: .75rem 1rem; min-width: 0; }
section.wide { grid-column: 1 / -1; }
h2 { font-size: 1rem; margin: 0 0 .5rem; }
h3 { font-size: .95rem; margin: .5rem 0; }
h4, h3.block-title { font-size: .8rem; margin: .5rem 0 .2rem; color: var(--muted); text-transform: uppercase; letter-spacing: .03em; }
/* Bodies keep their lines: a long one scrolls inside its block (which takes focus) rather than breaking a number. */
pre { background: #f3f4f7; padding: .5rem; border-radius: 4px; overflow: auto; max-height: 24rem; font-size: .875rem; margin: 0; white-space: pre; overflow-wrap: normal; }
code { font-size: .875rem; }
button { font: inherit; padding: .3rem .7rem; border: 1px solid var(--accent); background: #fff; color: var(--accent); border-radius: 4px; cursor: pointer; }
button.primary { background: var(--accent); color: #fff; }
input, select { font: inherit; padding: .3rem .5rem; border: 1px solid #8a91a0; border-radius: 4px; max-width: 100%; }
#key { width: 28rem; max-width: 100%; }
/* Identifiers, numbers, times and states stay whole: an id is cut with an ellipsis (its full value in the title), the rest never wraps. */
code.id { display: inline-block; max-width: 100%; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; vertical-align: bottom; }
code.path { overflow-wrap: normal; }
td.num, time, .status, .method { white-space: nowrap; }
table { display: block; overflow-x: auto; }
table { border-collapse: collapse; width: 100%; }
td, th { text-align: left; padding: .2rem .4rem; border-bottom: 1px solid var(--line); }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
.muted, .empty { color: var(--muted); }
.status { display: inline-block; padding: 0 .4rem; border-radius: 3px; font-size: .85rem; font-weight: 600; background: #eef0f4; }
/* Colour by meaning: green only for a final success, red for failed, cancelled or expired, neutral for the rest. */
.status.tone-success { background: #dcf3e4; color: var(--ok); }
.status.tone-failure { background: #fde4e1; color: var(--bad); }
.status.tone-neutral { background: #eef0f4; color: var(--fg); }
.resource { border-top: 1px solid var(--line); padding: .5rem 0; }
.resource .kind { color: var(--muted); }
ol.timeline { list-style: none; display: flex; flex-wrap: wrap; gap: .25rem; padding: 0; margin: .35rem 0; }
ol.timeline li + li::before { content: '→ '; color: var(--muted); }
.reason { color: var(--bad); }
/* A refusal's fields, one a line, above the exchange. */
.problems { border-left: 3px solid var(--bad); padding: 0 0 0 .75rem; margin: .5rem 0; }
.problems h3 { color: var(--bad); margin: 0; }
.problems ul { margin: .25rem 0; padding-left: 1.25rem; }
.flows button { margin: 0 .4rem .4rem 0; }
.flows button small { display: block; color: var(--muted); font-size: .8rem; }
button:disabled { opacity: .55; cursor: progress; }
[data-outcome="ok"] { color: var(--ok); font-weight: 600; }
[data-outcome="failed"] { color: var(--bad); font-weight: 600; }
[data-field="flow-outcome"][data-tone="neutral"] { color: var(--fg); }
[data-field="flow-outcome"][data-tone="success"] { color: var(--ok); }
[data-field="flow-outcome"][data-tone="failure"] { color: var(--bad); }
/* A flow's step is one line (number and label, method, path, status, time, key field) that opens on its bodies. */
details.exchange { padding: .2rem 0; }
details.exchange > summary { display: flex; flex-wrap: wrap; align-items: baseline; gap: 0 .6rem; cursor: pointer; }
/* The flow's title is a heading only once a flow has run (an empty heading says nothing). */
[data-field="flow-title"]:empty { display: none; }
details.exchange > summary h3 { display: inline; font-size: .9rem; margin: 0; font-weight: 600; }
details.exchange > summary .call { min-width: 0; }
.key-field { color: var(--muted); font-size: .85rem; }
.flow-buttons { display: flex; flex-wrap: wrap; gap: .4rem; margin-bottom: .5rem; }
.flows .flow-buttons button { margin: 0; text-align: left; }
.next-step:empty { display: none; }
.next-step { position: sticky; bottom: 0; background: #fff; padding: .4rem 0; margin: 0; }
[data-outcome="cancelled"] { color: var(--muted); font-weight: 600; }
/* The sequence diagram: three lanes, calls and answers between them, webhook events to the receiver. */
figure.sequence { margin: .75rem 0 0; }
figure.sequence figcaption, figure.chart figcaption { font-size: .85rem; color: var(--muted); }
figure.sequence svg { width: 100%; max-width: 56rem; height: auto; display: block; }
.sequence .lane rect { fill: #eef2fb; stroke: var(--accent); }
.sequence .lane text { font-size: 13px; font-weight: 600; fill: var(--fg); }
.sequence .lane line { stroke: #b8bfcc; stroke-dasharray: 4 4; }
.sequence g line { stroke: var(--fg); stroke-width: 1.5; }
.sequence g text { font-size: 12px; fill: var(--fg); }
.sequence marker path { fill: var(--fg); }
.sequence .call.control line { stroke: var(--wait); }
.sequence .answer line { stroke-dasharray: 5 3; }
.sequence .answer.tone-failure text { fill: var(--bad); }
.sequence .answer.tone-success text { fill: var(--ok); }
.sequence .event line { stroke: #6b3fa0; }
.sequence .event text { fill: #5a2f8a; }
figure.chart { margin: .5rem 0; max-width: 100%; overflow-x: auto; }
/* The resource view. */
.detail header { display: flex; flex-wrap: wrap; gap: .5rem; align-items: baseline; }
.detail-grid { display: grid; grid-template-columns: minmax(0, 1fr); gap: 1rem; }
@media (min-width: 980px) { .detail-grid { grid-template-columns: minmax(0, 3fr) minmax(0, 2fr); } }
dl.fields { display: grid; grid-template-columns: minmax(7rem, max-content) minmax(0, 1fr); gap: .15rem .75rem; margin: 0; }
dl.fields dt { color: var(--muted); overflow-wrap: anywhere; }
dl.fields dd { margin: 0; min-width: 0; }
/* On a phone a field's name goes above its value, so an instant keeps its whole line. */
@media (max-width: 600px) { dl.fields { grid-template-columns: minmax(0, 1fr); } dl.fields dd { margin-bottom: .35rem; } }
ol.states { padding-left: 1.25rem; margin: .25rem 0; }
.detail-link { font-size: .85rem; }
.verdict[data-outcome="ok"] { color: var(--ok); }
details { border-top: 1px solid var(--line); padding: .3rem 0; }
body[data-state="locked"] .needs-key { display: none; }
body[data-state="ready"] .gate { display: none; }
body:not([data-state="ready"]) .signed-in { display: none; }
.mode { margin: 0 0 .3rem; padding: .3rem .6rem; border-radius: 4px; font-weight: 600; }
.mode[data-outcome="test"] { background: #dcf3e4; color: var(--ok); }
.mode[data-outcome="live"] { background: #fdf0d9; color: var(--wait); }
.moves button { font-size: .9rem; }
code.target { font-weight: 600; }
.sandbox-only { display: inline-block; margin-left: .25rem; padding: 0 .35rem; border: 1px dashed var(--wait); border-radius: 3px; color: var(--wait); font-size: .75rem; font-weight: 600; letter-spacing: .03em; text-transform: uppercase; white-space: nowrap; vertical-align: middle; }
.danger-zone { border-top: 1px solid var(--line); padding-top: .5rem; }
button.danger { border-color: var(--bad); color: var(--bad); }
dialog button.danger { background: var(--bad); color: #fff; }
dialog { max-width: min(32rem, calc(100vw - 2rem)); border: 1px solid var(--line); border-radius: 6px; padding: 1rem 1.25rem; color: var(--fg); }
dialog::backdrop { background: rgb(29 35 48 / .45); }
.dialog-buttons { display: flex; gap: .5rem; justify-content: flex-end; flex-wrap: wrap; margin-bottom: 0; }
textarea { width: 100%; box-sizing: border-box; font: inherit; font-family: ui-monospace, monospace; }
input, select, textarea { max-width: 100%; }
/* The landing page at /: one readable column. */
body.landing main { display: block; max-width: 46rem; margin: 0 auto; padding: 2rem 1.25rem; }
body.landing h1 { font-size: 1.6rem; margin: 0 0 .25rem; }
body.landing .lead { font-size: 1.15rem; margin-top: 0; }
body.landing h2 { font-size: 1.1rem; margin-top: 1.5rem; }
body.landing ul.links { list-style: none; padding: 0; margin: 0; }
body.landing ul.links li { background: #fff; border: 1px solid var(--line); border-radius: 6px; padding: .75rem 1rem; margin: 0 0 .75rem; }
body.landing ul.links a { font-weight: 600; color: var(--accent); }
body.landing ul.links p { margin: .25rem 0 0; color: var(--muted); }
/* uPlot 1.6 (MIT), its stylesheet as published. */
${UPLOT_CSS}
`;
