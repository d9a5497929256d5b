// The console's stylesheet, served from the sandbox itself.
export const CONSOLE_CSS = `
:root { --fg: #1d2330; --muted: #687084; --line: #dde1e8; --bg: #f6f7f9; --ok: #17803d; --bad: #b42318; --wait: #a15c07; --accent: #2b59c3; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, sans-serif; color: var(--fg); background: var(--bg); }
header.top { display: flex; gap: 1rem; align-items: center; padding: .75rem 1.25rem; background: #fff; border-bottom: 1px solid var(--line); flex-wrap: wrap; }
header.top h1 { font-size: 1.1rem; margin: 0 1rem 0 0; }
nav a { margin-right: .75rem; color: var(--accent); text-decoration: none; }
main { display: grid; grid-template-columns: minmax(320px, 1fr) minmax(320px, 1fr); gap: 1rem; padding: 1rem 1.25rem; }
section { background: #fff; border: 1px solid var(--line); border-radius: 6px; padding: .75rem 1rem; min-width: 0; }
section.wide { grid-column: 1 / -1; }
h2 { font-size: 1rem; margin: 0 0 .5rem; }
h3 { font-size: .95rem; margin: .5rem 0; }
h4 { font-size: .8rem; margin: .5rem 0 .2rem; color: var(--muted); text-transform: uppercase; letter-spacing: .03em; }
pre { background: #f3f4f7; padding: .5rem; border-radius: 4px; overflow: auto; max-height: 24rem; font-size: 12px; margin: 0; }
code { font-size: 12px; }
button { font: inherit; padding: .3rem .7rem; border: 1px solid var(--accent); background: #fff; color: var(--accent); border-radius: 4px; cursor: pointer; }
button.primary { background: var(--accent); color: #fff; }
input, select { font: inherit; padding: .3rem .5rem; border: 1px solid var(--line); border-radius: 4px; }
table { border-collapse: collapse; width: 100%; }
td, th { text-align: left; padding: .2rem .4rem; border-bottom: 1px solid var(--line); }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
.muted, .empty { color: var(--muted); }
.status { display: inline-block; padding: 0 .4rem; border-radius: 3px; font-size: 12px; font-weight: 600; background: #eef0f4; }
.status-SUCCESSFUL, .status-COMPLETED, .status-COMP, .status-completed, .status-succeeded, .status-200, .status-201, .status-202 { background: #dcf3e4; color: var(--ok); }
.status-FAILED, .status-failed, .status-CANC, .status-cancelled, .status-expired, .status-CANCELLED { background: #fde4e1; color: var(--bad); }
.status-PENDING, .status-PROCESSING, .status-pending, .status-NEWT, .status-SETT, .status-awaiting_payment { background: #fdf0d9; color: var(--wait); }
.resource { border-top: 1px solid var(--line); padding: .5rem 0; }
.resource .kind { color: var(--muted); }
ol.timeline { list-style: none; display: flex; flex-wrap: wrap; gap: .25rem; padding: 0; margin: .35rem 0; }
ol.timeline li + li::before { content: '→ '; color: var(--muted); }
.reason { color: var(--bad); }
.flows button { margin: 0 .4rem .4rem 0; }
.flows button small { display: block; color: var(--muted); font-size: 11px; }
[data-outcome="ok"] { color: var(--ok); font-weight: 600; }
[data-outcome="failed"], [data-outcome="unavailable"] { color: var(--bad); font-weight: 600; }
.exchange { border-top: 1px solid var(--line); padding: .35rem 0; }
details { border-top: 1px solid var(--line); padding: .3rem 0; }
body[data-state="locked"] .needs-key { display: none; }
body[data-state="ready"] .gate { display: none; }
body:not([data-state="ready"]) .signed-in { display: none; }
`;
