// The shape of a guided flow: real API calls, one step at a time, each shown as it completes.
import type { CallOptions, Exchange } from './api.js';

/** Runs one call, shows it, and throws when the status is not the expected one (any 2xx by default). */
export type Step = (label: string, method: string, path: string, opts?: CallOptions & { expect?: number }) => Promise<Exchange>;

export interface FlowTools {
  /** A fresh reference for this run: prefix plus time and randomness, so reruns never collide. */
  reference(prefix: string): string;
  /** The text of the first element of that name in an XML body. */
  xmlText(xml: unknown, element: string): string;
}

export interface Flow {
  id: string;
  title: string;
  /** The steps as the button's caption shows them. */
  outline: string;
  /** An API path this flow needs; without it in /openapi.json the button says the build lacks it. */
  requires?: string;
  /** Runs the steps; returns a one-line summary of the outcome. */
  run(step: Step, tools: FlowTools): Promise<string>;
}
