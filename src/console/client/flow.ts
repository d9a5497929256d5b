// The shape of a guided flow: real API calls, one step at a time, each shown as it completes.
import type { CallOptions, Exchange } from './api.js';

/** Runs one call, shows it, and throws when the status is not the expected one (any 2xx by default). */
export type Step = (label: string, method: string, path: string, opts?: CallOptions & { expect?: number }) => Promise<Exchange>;

export interface FlowTools {
  /** A fresh reference for this run: prefix plus time and randomness, so reruns never collide. */
  reference(prefix: string): string;
  /** The text of the first element of that name in an XML body. */
  xmlText(xml: unknown, element: string): string;
  /** A rate as a person reads it ("1 USDT = 1,585.14 NGN") from the API's multiplier: from × rate = to. */
  rate(from: string, to: string, multiplier: unknown): string;
  /** A state as a person reads it: "completed (COMP)" for the FX codes, the API's word otherwise. */
  state(code: string): string;
}

/** How a flow ended: a one-line summary, and the state it reached, which colours it by meaning. */
export interface FlowOutcome {
  text: string;
  state?: string;
}

export interface Flow {
  id: string;
  title: string;
  /** The steps as the button's caption shows them. */
  outline: string;
  /** Runs the steps; returns a one-line summary of the outcome and the state reached. */
  run(step: Step, tools: FlowTools): Promise<FlowOutcome>;
}
