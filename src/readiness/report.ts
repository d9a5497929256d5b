// The readiness report of one key, in the three forms CI and people read: JSON, Markdown, and a
// JUnit file (one testsuite; a testcase per check, failed as <failure>, not exercised as <skipped/>)
// that CI keeps as an artifact and can fail a build on.
import type { Evidence } from '../engine/requests/observations.js';
import { isReady, type Check } from './checks.js';

export interface Report {
  ready: boolean;
  generatedAt: string;
  checks: Check[];
}

export const buildReport = (checks: Check[], generatedAt: string): Report => ({ ready: isReady(checks), generatedAt, checks });

const MARK = { passed: 'passed', failed: '**failed**', not_exercised: 'not exercised' } as const;
const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
const evidenceLine = (e: Evidence) =>
  `${e.id ? `${e.id} ` : ''}${e.at} ${e.method} ${e.path} → ${e.sent}${e.reference ? ` (reference ${e.reference})` : ''}${e.note ? `: ${e.note}` : ''}`;

export function toMarkdown(r: Report): string {
  const lines = [
    `# Readiness report: ${r.ready ? 'ready for live' : 'not ready for live'}`,
    '',
    `Generated at ${r.generatedAt}. Ready means no check failed and every required check passed.`,
    '',
    '| check | title | status | required | detail |',
    '| --- | --- | --- | --- | --- |',
    ...r.checks.map((c) => `| \`${c.id}\` | ${cell(c.title)} | ${MARK[c.status]} | ${c.required ? 'yes' : 'no'} | ${cell(c.detail)} |`),
  ];
  const withEvidence = r.checks.filter((c) => c.evidence.length > 0);
  if (withEvidence.length) {
    lines.push('', '## Evidence');
    for (const c of withEvidence) lines.push('', `### ${c.id}`, '', ...c.evidence.map((e) => `- ${cell(evidenceLine(e))}`));
  }
  return `${lines.join('\n')}\n`;
}

const xmlText = (s: string) =>
  // Characters XML 1.0 cannot carry are left out; markup is escaped.
  s.replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export function toJunit(r: Report): string {
  const failures = r.checks.filter((c) => c.status === 'failed').length;
  const skipped = r.checks.filter((c) => c.status === 'not_exercised').length;
  const cases = r.checks.map((c) => {
    const open = `  <testcase classname="readiness" name="${xmlText(c.id)}" time="0">`;
    const out = `    <system-out>${xmlText([c.title, c.detail, ...c.evidence.map(evidenceLine)].join('\n'))}</system-out>`;
    if (c.status === 'failed') return [open, `    <failure message="${xmlText(c.detail)}" type="${c.required ? 'required' : 'advisory'}">${xmlText(c.evidence.map(evidenceLine).join('\n'))}</failure>`, out, '  </testcase>'].join('\n');
    if (c.status === 'not_exercised') return [open, `    <skipped message="${xmlText(`not exercised${c.required ? ' (required)' : ''}: ${c.detail}`)}"/>`, out, '  </testcase>'].join('\n');
    return [open, out, '  </testcase>'].join('\n');
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuite name="payments-sandbox readiness" tests="${r.checks.length}" failures="${failures}" errors="0" skipped="${skipped}" timestamp="${xmlText(r.generatedAt.replace(/Z$/, ''))}">`,
    ...cases,
    '</testsuite>',
    '',
  ].join('\n');
}
