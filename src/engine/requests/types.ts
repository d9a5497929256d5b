// What the journal and the fault rules share, apart from both.

export const FAULT_KINDS = ['error', 'latency', 'timeout', 'drop', 'malformed'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];
