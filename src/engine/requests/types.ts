// What the journal and the fault rules share, apart from both.

export const FAULT_KINDS = ['error', 'latency', 'timeout', 'drop', 'malformed', 'drift'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

/** How a drifted answer departs from its documented schema. */
export const DRIFT_FORMS = ['unknown-enum', 'extra-field', 'missing-field', 'null-field'] as const;
export type DriftForm = (typeof DRIFT_FORMS)[number];

/** A scenario fault as the journal records it. */
export interface JournalFault {
  kind: FaultKind;
  /** Index of the rule in the scenario's `faults`. */
  rule: number;
  scenario: string;
  /** A drift's or a malformed answer's form; null for the other kinds. */
  form: string | null;
  /** A drift's changed field (dotted JSON path, or slash-separated XML elements); null for the
   * other kinds, and for a drift whose answer had no field the form could change (sent as it was). */
  field: string | null;
}
