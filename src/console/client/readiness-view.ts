// The readiness view: GET /_sandbox/report as a person reads it, each check with its verdict.
// A module of the console's browser bundle.
import { esc, instant, status } from './markup.js';

export interface ReadinessCheck {
  id: string;
  title: string;
  status: 'passed' | 'failed' | 'not_exercised';
  required: boolean;
  detail?: string;
}

export interface ReadinessReport {
  ready: boolean;
  generatedAt: string;
  checks: ReadinessCheck[];
}

const VERDICT: Record<ReadinessCheck['status'], string> = { passed: 'succeeded', failed: 'failed', not_exercised: 'not exercised' };

export function readiness(report: ReadinessReport): string {
  const counts = { passed: 0, failed: 0, not_exercised: 0 };
  for (const c of report.checks) counts[c.status]++;
  const rows = report.checks
    .map(
      (c) =>
        `<tr data-check="${esc(c.id)}"><td>${esc(c.title)}${c.required ? '' : ' <span class="muted">(advised)</span>'}</td><td>${status(VERDICT[c.status])}</td><td>${esc(c.detail ?? '')}</td></tr>`,
    )
    .join('');
  return `<p data-field="ready" class="verdict" data-outcome="${report.ready ? 'ok' : 'failed'}">${report.ready ? 'Ready for live' : 'Not ready for live yet'}: ${counts.passed} passed, ${counts.failed} failed, ${counts.not_exercised} not exercised <span class="muted">(as of ${instant(report.generatedAt)})</span></p>
<table tabindex="0"><thead><tr><th>check</th><th>verdict</th><th>detail</th></tr></thead><tbody>${rows}</tbody></table>`;
}
